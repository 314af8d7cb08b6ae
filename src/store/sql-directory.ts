import type Database from 'better-sqlite3';
import type pg from 'pg';
import { normalEmail, StaffAccountSchema, type ConversationId, type StaffAccount, type StaffId } from '../core/index.js';
import type { Directory, StaffSession } from './directory.js';

type SessionRow = { token_hash: string; staff_id: string; created_at: string; expires_at: string };
const sessionOf = (r: SessionRow): StaffSession => ({
  tokenHash: r.token_hash,
  staffId: r.staff_id as StaffId,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
});
const accountOf = (doc: string): StaffAccount => StaffAccountSchema.parse(JSON.parse(doc));

/**
 * Customer token hashes already read. A conversation's hash never changes once set (the table
 * takes one insert per conversation and nothing updates or deletes it), so a hash found once,
 * by any process, is the answer for good: every customer request after the first skips the
 * look-up. Only found hashes are remembered; bounded (past the cap it starts again, which costs
 * one look-up each).
 */
class KnownTokenHashes {
  static readonly MAX = 100_000;
  readonly #hashes = new Map<ConversationId, string>();
  get(conversationId: ConversationId): string | undefined {
    return this.#hashes.get(conversationId);
  }
  remember(conversationId: ConversationId, hash: string | null): string | null {
    if (hash === null) return null;
    if (this.#hashes.size >= KnownTokenHashes.MAX) this.#hashes.clear();
    this.#hashes.set(conversationId, hash);
    return hash;
  }
}

/** The Directory in the SQLite file of a `SqliteStore` (tables of migration 2). */
export class SqliteDirectory implements Directory {
  readonly #stmt;
  readonly #tokens = new KnownTokenHashes();
  constructor(db: Database.Database) {
    this.#stmt = {
      addStaff: db.prepare('INSERT INTO staff (id, email, doc) VALUES (?, ?, ?) ON CONFLICT (email) DO NOTHING'),
      byEmail: db.prepare<[string], { doc: string }>('SELECT doc FROM staff WHERE email = ?'),
      byId: db.prepare<[string], { doc: string }>('SELECT doc FROM staff WHERE id = ?'),
      all: db.prepare<[], { doc: string }>('SELECT doc FROM staff ORDER BY email'),
      addSession: db.prepare('INSERT INTO staff_sessions (token_hash, staff_id, created_at, expires_at) VALUES (?, ?, ?, ?)'),
      session: db.prepare<[string], SessionRow>('SELECT * FROM staff_sessions WHERE token_hash = ?'),
      removeSession: db.prepare('DELETE FROM staff_sessions WHERE token_hash = ?'),
      setToken: db.prepare('INSERT INTO customer_tokens (conversation_id, token_hash) VALUES (?, ?)'),
      token: db.prepare<[string], { token_hash: string }>('SELECT token_hash FROM customer_tokens WHERE conversation_id = ?'),
    };
  }
  async addStaff(account: StaffAccount): Promise<'added' | 'email_taken'> {
    const { changes } = this.#stmt.addStaff.run(account.id, normalEmail(account.email), JSON.stringify(account));
    return changes === 1 ? 'added' : 'email_taken';
  }
  async staffByEmail(email: string): Promise<StaffAccount | null> {
    const row = this.#stmt.byEmail.get(normalEmail(email));
    return row ? accountOf(row.doc) : null;
  }
  async staffById(id: StaffId): Promise<StaffAccount | null> {
    const row = this.#stmt.byId.get(id);
    return row ? accountOf(row.doc) : null;
  }
  async listStaff(): Promise<StaffAccount[]> {
    return this.#stmt.all.all().map((r) => accountOf(r.doc));
  }
  async addSession(s: StaffSession): Promise<void> {
    this.#stmt.addSession.run(s.tokenHash, s.staffId, s.createdAt, s.expiresAt);
  }
  async session(tokenHash: string): Promise<StaffSession | null> {
    const row = this.#stmt.session.get(tokenHash);
    return row ? sessionOf(row) : null;
  }
  async removeSession(tokenHash: string): Promise<void> {
    this.#stmt.removeSession.run(tokenHash);
  }
  async setCustomerToken(conversationId: ConversationId, tokenHash: string): Promise<void> {
    this.#stmt.setToken.run(conversationId, tokenHash);
  }
  async customerTokenHash(conversationId: ConversationId): Promise<string | null> {
    return (
      this.#tokens.get(conversationId) ?? this.#tokens.remember(conversationId, this.#stmt.token.get(conversationId)?.token_hash ?? null)
    );
  }
}

/** The Directory in the database of a `PostgresStore` (tables of migration 2). */
export class PostgresDirectory implements Directory {
  readonly #tokens = new KnownTokenHashes();
  constructor(readonly pool: pg.Pool) {}
  async addStaff(account: StaffAccount): Promise<'added' | 'email_taken'> {
    const { rowCount } = await this.pool.query('INSERT INTO staff (id, email, doc) VALUES ($1, $2, $3) ON CONFLICT (email) DO NOTHING', [
      account.id,
      normalEmail(account.email),
      JSON.stringify(account),
    ]);
    return rowCount === 1 ? 'added' : 'email_taken';
  }
  async #one(sql: string, value: string): Promise<StaffAccount | null> {
    const { rows } = await this.pool.query<{ doc: string }>(sql, [value]);
    return rows[0] ? accountOf(rows[0].doc) : null;
  }
  staffByEmail(email: string): Promise<StaffAccount | null> {
    return this.#one('SELECT doc FROM staff WHERE email = $1', normalEmail(email));
  }
  staffById(id: StaffId): Promise<StaffAccount | null> {
    return this.#one('SELECT doc FROM staff WHERE id = $1', id);
  }
  async listStaff(): Promise<StaffAccount[]> {
    const { rows } = await this.pool.query<{ doc: string }>('SELECT doc FROM staff ORDER BY email');
    return rows.map((r) => accountOf(r.doc));
  }
  async addSession(s: StaffSession): Promise<void> {
    await this.pool.query('INSERT INTO staff_sessions (token_hash, staff_id, created_at, expires_at) VALUES ($1, $2, $3, $4)', [
      s.tokenHash,
      s.staffId,
      s.createdAt,
      s.expiresAt,
    ]);
  }
  async session(tokenHash: string): Promise<StaffSession | null> {
    const { rows } = await this.pool.query<SessionRow>('SELECT * FROM staff_sessions WHERE token_hash = $1', [tokenHash]);
    return rows[0] ? sessionOf(rows[0]) : null;
  }
  async removeSession(tokenHash: string): Promise<void> {
    await this.pool.query('DELETE FROM staff_sessions WHERE token_hash = $1', [tokenHash]);
  }
  async setCustomerToken(conversationId: ConversationId, tokenHash: string): Promise<void> {
    await this.pool.query('INSERT INTO customer_tokens (conversation_id, token_hash) VALUES ($1, $2)', [conversationId, tokenHash]);
  }
  async customerTokenHash(conversationId: ConversationId): Promise<string | null> {
    const known = this.#tokens.get(conversationId);
    if (known !== undefined) return known;
    const { rows } = await this.pool.query<{ token_hash: string }>('SELECT token_hash FROM customer_tokens WHERE conversation_id = $1', [
      conversationId,
    ]);
    return this.#tokens.remember(conversationId, rows[0]?.token_hash ?? null);
  }
}
