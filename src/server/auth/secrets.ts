import { hash, verify } from '@node-rs/argon2';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new bearer token: a prefix that says what it is for, then 256 random bits (base64url). */
export const newToken = (prefix: 'st' | 'ct'): string => `${prefix}_${randomBytes(32).toString('base64url')}`;

/** What is stored of a token: its SHA-256, hex. A copy of the database lets nobody in. */
export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

/** Compares two hex hashes in constant time. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

// Random bytes drawn from the OS in blocks: an id takes 16 draws, and a system call per draw
// cost more than the rest of a customer message's handling.
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let offset = POOL_BYTES;

/** Uniform in [0, 1) from the operating system's cryptographic source, for ids. */
export function secureRandom(): number {
  if (offset + 4 > pool.length) {
    pool = randomBytes(POOL_BYTES);
    offset = 0;
  }
  const value = pool.readUInt32BE(offset);
  offset += 4;
  return value / 2 ** 32;
}

/** `Algorithm.Argon2id` of @node-rs/argon2 (a const enum, which isolated modules cannot read). */
const ARGON2ID = 2;

/** Argon2id with the library's defaults (OWASP's second recommended setting: 19 MiB, 2 passes). */
export const hashPassword = (password: string): Promise<string> => hash(password, { algorithm: ARGON2ID });

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A password to print once when an account is made without one: 120 random bits. */
export const generatedPassword = (): string => randomBytes(15).toString('base64url');

/** A staff id: `staff_` and 80 random bits in Crockford base 32. */
export function newStaffId(): string {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  const bytes = randomBytes(16);
  let out = '';
  for (let i = 0; i < 16; i += 1) out += alphabet[bytes[i]! & 31];
  return `staff_${out}`;
}
