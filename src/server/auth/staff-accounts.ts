import {
  normalEmail,
  SCHEMA_VERSION,
  SkillSchema,
  StaffRoleSchema,
  type Clock,
  type StaffAccount,
  type StaffId,
  type StaffProfile,
  type StaffRole,
  staffProfile,
  storableText,
} from '../../core/index.js';
import { z } from 'zod';
import type { Directory, StaffSession } from '../../store/directory.js';
import { generatedPassword, hashPassword, newStaffId, newToken, tokenHash, verifyPassword } from './secrets.js';

/** Shortest password Baton accepts for a staff account. */
export const MIN_PASSWORD_LENGTH = 12;

/** A new account as a caller describes it. */
export const NewStaffSchema = z.strictObject({
  email: storableText(z.string().max(320)).pipe(z.email({ message: 'expected an e-mail address' })),
  name: storableText(z.string().max(200)).default(''),
  role: StaffRoleSchema,
  skills: z.array(SkillSchema).max(50).default([]),
  password: z
    .string()
    .min(MIN_PASSWORD_LENGTH, { message: `a password needs at least ${MIN_PASSWORD_LENGTH} characters` })
    .max(1024)
    .optional(),
});
export type NewStaff = z.input<typeof NewStaffSchema>;

export type AddStaffResult =
  | { ok: true; profile: StaffProfile; /** Present when none was given: shown once, never stored. */ generatedPassword?: string }
  | { ok: false; code: 'email_taken'; message: string };

/** Makes an account: the password (given, or generated and returned once) is kept as an Argon2id hash only. */
export async function addStaff(directory: Directory, input: NewStaff, clock: Clock): Promise<AddStaffResult> {
  const parsed = NewStaffSchema.parse(input);
  const password = parsed.password ?? generatedPassword();
  const account: StaffAccount = {
    schemaVersion: SCHEMA_VERSION,
    id: newStaffId() as StaffId,
    email: normalEmail(parsed.email),
    name: parsed.name,
    role: parsed.role,
    skills: [...new Set(parsed.skills)],
    passwordHash: await hashPassword(password),
    createdAt: new Date(clock.now()).toISOString(),
  };
  if ((await directory.addStaff(account)) === 'email_taken') {
    return { ok: false, code: 'email_taken', message: `an account for ${account.email} already exists` };
  }
  return { ok: true, profile: staffProfile(account), ...(parsed.password ? {} : { generatedPassword: password }) };
}

/** How long a staff session lasts unless configured (ms): one working day. */
export const DEFAULT_SESSION_MS = 12 * 60 * 60 * 1000;

// Verifying against this when no account matches takes as long as a real check, so the answer's
// timing does not tell which e-mail addresses have accounts.
let decoy: Promise<string> | null = null;

/** Signs in: a new session token (returned once; only its hash is stored), or null. */
export async function signIn(
  directory: Directory,
  input: { email: string; password: string },
  options: { clock: Clock; sessionMs?: number },
): Promise<{ token: string; session: StaffSession; profile: StaffProfile } | null> {
  const account = await directory.staffByEmail(input.email);
  if (!account) {
    decoy ??= hashPassword(generatedPassword());
    await verifyPassword(await decoy, input.password);
    return null;
  }
  if (!(await verifyPassword(account.passwordHash, input.password))) return null;
  const token = newToken('st');
  const now = options.clock.now();
  const session: StaffSession = {
    tokenHash: tokenHash(token),
    staffId: account.id,
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + (options.sessionMs ?? DEFAULT_SESSION_MS)).toISOString(),
  };
  await directory.addSession(session);
  return { token, session, profile: staffProfile(account) };
}

/** The staff member a session token belongs to, while the session lasts. */
export async function staffForToken(directory: Directory, token: string, clock: Clock): Promise<StaffProfile | null> {
  const session = await directory.session(tokenHash(token));
  if (!session || Date.parse(session.expiresAt) <= clock.now()) return null;
  const account = await directory.staffById(session.staffId);
  return account ? staffProfile(account) : null;
}

export type { StaffRole };
