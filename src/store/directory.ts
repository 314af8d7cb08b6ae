import type { ConversationId, StaffAccount, StaffId } from '../core/index.js';

/** A staff session as stored: only the hash of its token, never the token. */
export interface StaffSession {
  tokenHash: string;
  staffId: StaffId;
  createdAt: string;
  expiresAt: string;
}

/**
 * Who may call: staff accounts, their sessions, and each conversation's customer token (as a
 * hash). Kept in the same database as the conversations, by one adapter per store kind.
 */
export interface Directory {
  /** Adds an account; `email_taken` when another account has the address. */
  addStaff(account: StaffAccount): Promise<'added' | 'email_taken'>;
  staffByEmail(email: string): Promise<StaffAccount | null>;
  staffById(id: StaffId): Promise<StaffAccount | null>;
  listStaff(): Promise<StaffAccount[]>;
  addSession(session: StaffSession): Promise<void>;
  /** The session with this token hash, if it exists (expired ones included: the caller checks). */
  session(tokenHash: string): Promise<StaffSession | null>;
  removeSession(tokenHash: string): Promise<void>;
  /** Sets the hash of the customer's token of a conversation (once, when it is opened). */
  setCustomerToken(conversationId: ConversationId, tokenHash: string): Promise<void>;
  customerTokenHash(conversationId: ConversationId): Promise<string | null>;
}
