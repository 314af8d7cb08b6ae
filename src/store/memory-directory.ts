import { normalEmail, type ConversationId, type StaffAccount, type StaffId } from '../core/index.js';
import type { Directory, StaffSession } from './directory.js';

/** The reference Directory: maps in one process. */
export class MemoryDirectory implements Directory {
  readonly #staff = new Map<StaffId, StaffAccount>();
  readonly #sessions = new Map<string, StaffSession>();
  readonly #tokens = new Map<ConversationId, string>();

  async addStaff(account: StaffAccount): Promise<'added' | 'email_taken'> {
    if (await this.staffByEmail(account.email)) return 'email_taken';
    this.#staff.set(account.id, structuredClone(account));
    return 'added';
  }
  async staffByEmail(email: string): Promise<StaffAccount | null> {
    const wanted = normalEmail(email);
    for (const a of this.#staff.values()) if (normalEmail(a.email) === wanted) return structuredClone(a);
    return null;
  }
  async staffById(id: StaffId): Promise<StaffAccount | null> {
    const a = this.#staff.get(id);
    return a ? structuredClone(a) : null;
  }
  async listStaff(): Promise<StaffAccount[]> {
    return [...this.#staff.values()].map((a) => structuredClone(a));
  }
  async addSession(session: StaffSession): Promise<void> {
    this.#sessions.set(session.tokenHash, { ...session });
  }
  async session(tokenHash: string): Promise<StaffSession | null> {
    const s = this.#sessions.get(tokenHash);
    return s ? { ...s } : null;
  }
  async removeSession(tokenHash: string): Promise<void> {
    this.#sessions.delete(tokenHash);
  }
  async setCustomerToken(conversationId: ConversationId, tokenHash: string): Promise<void> {
    this.#tokens.set(conversationId, tokenHash);
  }
  async customerTokenHash(conversationId: ConversationId): Promise<string | null> {
    return this.#tokens.get(conversationId) ?? null;
  }
}
