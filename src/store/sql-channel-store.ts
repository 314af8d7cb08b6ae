import type Database from 'better-sqlite3';
import type pg from 'pg';
import type { ConversationId, MessageId } from '../core/index.js';
import { MemoryChannelStore, type ChannelBinding, type ChannelStore, type ProviderMessage } from './channel-store.js';
import { PostgresStore } from './postgres-store.js';
import { SqliteStore } from './sqlite-store.js';
import type { Store } from './store.js';

type BindingRow = {
  channel: string;
  address: string;
  conversation_id: string;
  last_customer_at: string | null;
  delivered_seq: number | string;
  bound_at: string;
};
type MessageRow = { channel: string; provider_message_id: string; conversation_id: string; message_id: string | null; direction: string };

const bindingOf = (r: BindingRow): ChannelBinding => ({
  channel: r.channel,
  address: r.address,
  conversationId: r.conversation_id as ConversationId,
  lastCustomerAt: r.last_customer_at,
  deliveredSeq: Number(r.delivered_seq),
  boundAt: r.bound_at,
});
const messageOf = (r: MessageRow): ProviderMessage => ({
  channel: r.channel,
  providerMessageId: r.provider_message_id,
  conversationId: r.conversation_id as ConversationId,
  messageId: r.message_id as MessageId | null,
  direction: r.direction === 'outbound' ? 'outbound' : 'inbound',
});

// One statement text for both databases: `?` placeholders, numbered for PostgreSQL by `numbered`.
const SQL = {
  bind: `INSERT INTO channel_addresses (channel, address, conversation_id, last_customer_at, delivered_seq, lease_owner, lease_until, bound_at)
    VALUES (?, ?, ?, NULL, 0, NULL, NULL, ?) ON CONFLICT (channel, address) DO NOTHING`,
  rebind: `UPDATE channel_addresses SET conversation_id = ?, last_customer_at = NULL, delivered_seq = 0, lease_owner = NULL,
    lease_until = NULL, bound_at = ?
    WHERE channel = ? AND address = ? AND conversation_id = ?`,
  byAddress: 'SELECT * FROM channel_addresses WHERE channel = ? AND address = ?',
  byConversation: 'SELECT * FROM channel_addresses WHERE conversation_id = ?',
  list: 'SELECT * FROM channel_addresses ORDER BY bound_at, channel, address LIMIT ?',
  // ISO-8601 texts of one format compare as times do.
  noteCustomer: `UPDATE channel_addresses SET last_customer_at = ?
    WHERE conversation_id = ? AND (last_customer_at IS NULL OR last_customer_at < ?)`,
  lease: `UPDATE channel_addresses SET lease_owner = ?, lease_until = ?
    WHERE conversation_id = ? AND (lease_owner IS NULL OR lease_owner = ? OR lease_until <= ?)`,
  release: 'UPDATE channel_addresses SET lease_owner = NULL, lease_until = NULL WHERE conversation_id = ? AND lease_owner = ?',
  advance: 'UPDATE channel_addresses SET delivered_seq = ? WHERE conversation_id = ? AND delivered_seq < ?',
  remember: `INSERT INTO channel_messages (channel, provider_message_id, conversation_id, message_id, direction)
    VALUES (?, ?, ?, ?, ?) ON CONFLICT (channel, provider_message_id) DO NOTHING`,
  message: 'SELECT * FROM channel_messages WHERE channel = ? AND provider_message_id = ?',
  status: `INSERT INTO channel_statuses (channel, provider_message_id, status) VALUES (?, ?, ?)
    ON CONFLICT (channel, provider_message_id, status) DO NOTHING`,
} as const;

const numbered = (sql: string): string => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${(n += 1)}`);
};

/** The ChannelStore in the SQLite file of a `SqliteStore`. */
export class SqliteChannelStore implements ChannelStore {
  readonly #db: Database.Database;
  readonly #prepared = new Map<string, Database.Statement>();
  constructor(db: Database.Database) {
    this.#db = db;
  }
  #stmt(sql: string): Database.Statement {
    let stmt = this.#prepared.get(sql);
    if (!stmt) this.#prepared.set(sql, (stmt = this.#db.prepare(sql)));
    return stmt;
  }
  #run(sql: string, ...args: unknown[]): number {
    return this.#stmt(sql).run(...args).changes;
  }
  #get<T>(sql: string, ...args: unknown[]): T | undefined {
    return this.#stmt(sql).get(...args) as T | undefined;
  }
  async bind(b: Omit<ChannelBinding, 'deliveredSeq' | 'lastCustomerAt'>): Promise<ChannelBinding> {
    this.#run(SQL.bind, b.channel, b.address, b.conversationId, b.boundAt);
    return bindingOf(this.#get<BindingRow>(SQL.byAddress, b.channel, b.address)!);
  }
  async rebind(channel: string, address: string, from: ConversationId, to: ConversationId, at: string): Promise<boolean> {
    return this.#run(SQL.rebind, to, at, channel, address, from) === 1;
  }
  async bindingOf(channel: string, address: string): Promise<ChannelBinding | null> {
    const row = this.#get<BindingRow>(SQL.byAddress, channel, address);
    return row ? bindingOf(row) : null;
  }
  async bindingFor(conversationId: ConversationId): Promise<ChannelBinding | null> {
    const row = this.#get<BindingRow>(SQL.byConversation, conversationId);
    return row ? bindingOf(row) : null;
  }
  async listBindings(limit: number): Promise<ChannelBinding[]> {
    return (this.#stmt(SQL.list).all(limit) as BindingRow[]).map(bindingOf);
  }
  async noteCustomerMessage(conversationId: ConversationId, at: string): Promise<void> {
    this.#run(SQL.noteCustomer, at, conversationId, at);
  }
  async lease(conversationId: ConversationId, owner: string, now: string, until: string): Promise<boolean> {
    return this.#run(SQL.lease, owner, until, conversationId, owner, now) === 1;
  }
  async release(conversationId: ConversationId, owner: string): Promise<void> {
    this.#run(SQL.release, conversationId, owner);
  }
  async advanceDelivered(conversationId: ConversationId, seq: number): Promise<void> {
    this.#run(SQL.advance, seq, conversationId, seq);
  }
  async rememberMessage(m: ProviderMessage): Promise<'added' | 'exists'> {
    return this.#run(SQL.remember, m.channel, m.providerMessageId, m.conversationId, m.messageId, m.direction) === 1 ? 'added' : 'exists';
  }
  async messageByProviderId(channel: string, providerMessageId: string): Promise<ProviderMessage | null> {
    const row = this.#get<MessageRow>(SQL.message, channel, providerMessageId);
    return row ? messageOf(row) : null;
  }
  async addStatus(channel: string, providerMessageId: string, status: string): Promise<'added' | 'exists'> {
    return this.#run(SQL.status, channel, providerMessageId, status) === 1 ? 'added' : 'exists';
  }
}

/** The ChannelStore in the database of a `PostgresStore`. */
export class PostgresChannelStore implements ChannelStore {
  readonly #pool: pg.Pool;
  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }
  async #query<T extends pg.QueryResultRow>(sql: string, ...args: unknown[]): Promise<pg.QueryResult<T>> {
    return this.#pool.query<T>(numbered(sql), args);
  }
  async bind(b: Omit<ChannelBinding, 'deliveredSeq' | 'lastCustomerAt'>): Promise<ChannelBinding> {
    await this.#query(SQL.bind, b.channel, b.address, b.conversationId, b.boundAt);
    return (await this.bindingOf(b.channel, b.address))!;
  }
  async rebind(channel: string, address: string, from: ConversationId, to: ConversationId, at: string): Promise<boolean> {
    return (await this.#query(SQL.rebind, to, at, channel, address, from)).rowCount === 1;
  }
  async bindingOf(channel: string, address: string): Promise<ChannelBinding | null> {
    const { rows } = await this.#query<BindingRow>(SQL.byAddress, channel, address);
    return rows[0] ? bindingOf(rows[0]) : null;
  }
  async bindingFor(conversationId: ConversationId): Promise<ChannelBinding | null> {
    const { rows } = await this.#query<BindingRow>(SQL.byConversation, conversationId);
    return rows[0] ? bindingOf(rows[0]) : null;
  }
  async listBindings(limit: number): Promise<ChannelBinding[]> {
    return (await this.#query<BindingRow>(SQL.list, limit)).rows.map(bindingOf);
  }
  async noteCustomerMessage(conversationId: ConversationId, at: string): Promise<void> {
    await this.#query(SQL.noteCustomer, at, conversationId, at);
  }
  async lease(conversationId: ConversationId, owner: string, now: string, until: string): Promise<boolean> {
    return (await this.#query(SQL.lease, owner, until, conversationId, owner, now)).rowCount === 1;
  }
  async release(conversationId: ConversationId, owner: string): Promise<void> {
    await this.#query(SQL.release, conversationId, owner);
  }
  async advanceDelivered(conversationId: ConversationId, seq: number): Promise<void> {
    await this.#query(SQL.advance, seq, conversationId, seq);
  }
  async rememberMessage(m: ProviderMessage): Promise<'added' | 'exists'> {
    const result = await this.#query(SQL.remember, m.channel, m.providerMessageId, m.conversationId, m.messageId, m.direction);
    return result.rowCount === 1 ? 'added' : 'exists';
  }
  async messageByProviderId(channel: string, providerMessageId: string): Promise<ProviderMessage | null> {
    const { rows } = await this.#query<MessageRow>(SQL.message, channel, providerMessageId);
    return rows[0] ? messageOf(rows[0]) : null;
  }
  async addStatus(channel: string, providerMessageId: string, status: string): Promise<'added' | 'exists'> {
    return (await this.#query(SQL.status, channel, providerMessageId, status)).rowCount === 1 ? 'added' : 'exists';
  }
}

/** The ChannelStore kept beside a store's conversations, in the same database. */
export function channelStoreFor(store: Store): ChannelStore {
  if (store instanceof SqliteStore) return new SqliteChannelStore(store.db);
  if (store instanceof PostgresStore) return new PostgresChannelStore(store.pool);
  return new MemoryChannelStore();
}
