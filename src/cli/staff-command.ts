import { addStaff } from '../server/auth/staff-accounts.js';
import { directoryFor, openStore, type StoreConfig } from '../store/open-store.js';
import { ZodError, z } from 'zod';

/** Options of `baton staff add`. */
export interface StaffAddOptions {
  store: StoreConfig;
  email: string;
  role: 'agent' | 'supervisor' | 'admin';
  name: string;
  skills: string[];
  passwordStdin: boolean;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  // One trailing newline (from `echo` or a here-string) is not part of the password.
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** `baton staff add`: makes the account; prints a generated password once. Returns the exit code. */
export async function staffAdd(options: StaffAddOptions): Promise<number> {
  const password = options.passwordStdin ? await readStdin() : undefined;
  const store = await openStore(options.store);
  try {
    const added = await addStaff(
      directoryFor(store),
      {
        email: options.email,
        role: options.role,
        name: options.name,
        skills: options.skills,
        ...(password !== undefined ? { password } : {}),
      },
      { now: Date.now },
    );
    if (!added.ok) {
      process.stderr.write(`baton: ${added.message}\n`);
      return 1;
    }
    const { profile } = added;
    process.stdout.write(
      `${JSON.stringify({ id: profile.id, email: profile.email, role: profile.role, skills: profile.skills })}\n` +
        (added.generatedPassword ? `password (shown once, store it now): ${added.generatedPassword}\n` : ''),
    );
    return 0;
  } catch (error) {
    if (error instanceof ZodError) {
      process.stderr.write(`baton: ${z.prettifyError(error)}\n`);
      return 2;
    }
    throw error;
  } finally {
    await store.close();
  }
}
