import { z } from 'zod';
import { SCHEMA_VERSION } from './conversation.js';
import { StaffIdSchema } from './ids.js';

/** What a staff member may do: `agent` works conversations, `supervisor` also sees every queue and the metrics, `admin` also manages accounts. */
export const StaffRoleSchema = z.enum(['agent', 'supervisor', 'admin']);
export type StaffRole = z.infer<typeof StaffRoleSchema>;
export const STAFF_ROLES = StaffRoleSchema.options;

/** A skill is a plain word a queue can require: `billing`, `legal`, `tech`. */
export const SkillSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{0,39}$/, { message: 'a skill is a lower-case word of letters, digits, - or _ (at most 40)' });

/** A staff member's account as stored. The password is kept only as an Argon2id hash. */
export const StaffAccountSchema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  id: StaffIdSchema,
  email: z.string().min(3).max(320),
  name: z.string().max(200),
  role: StaffRoleSchema,
  skills: z.array(SkillSchema).max(50),
  passwordHash: z.string().min(1),
  createdAt: z.string(),
});
export type StaffAccount = z.infer<typeof StaffAccountSchema>;

/** A staff account as anyone but the store sees it: never the password hash. */
export type StaffProfile = Omit<StaffAccount, 'passwordHash'>;

/** The account without its secret. */
export function staffProfile(account: StaffAccount): StaffProfile {
  const { passwordHash: _hidden, ...profile } = account;
  return profile;
}

/** Whether a role may do what `least` may (`admin` ⊃ `supervisor` ⊃ `agent`). */
export function roleAtLeast(role: StaffRole, least: StaffRole): boolean {
  return STAFF_ROLES.indexOf(role) >= STAFF_ROLES.indexOf(least);
}

/** E-mail addresses compare case-insensitively and without surrounding space. */
export const normalEmail = (email: string): string => email.trim().toLowerCase();
