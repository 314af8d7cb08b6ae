import Database from 'better-sqlite3';
import {
  hasOutboundSender,
  outboundEvent,
  type Conversation,
  type ConversationId,
  type EventId,
  type Message,
  type NewEvent,
  type Owner,
  type QueueId,
  type StoredEvent,
} from '../core/index.js';
import { MIGRATIONS, MIGRATIONS_TABLE } from './migrations.js';
import {
  conversationColumns,
  conversationFromDoc,
  eventColumns,
  eventFromRow,
  messageColumns,
  messageFromDoc,
  type EventRow,
} from './rows.js';
import type { ClaimPlanner, InboundResult, OutboundResult, Store, TransitionInput, TransitionResult } from './store.js';

/** Options of {@link SqliteStore}. */
export interface SqliteStoreOptions {
  /** File path, or `:memory:`. */
  path: string;
  /**
   * `full` (default) makes every acknowledged write survive a power cut, not only a crash of
   * the process; `normal` survives process crashes only, and is faster. See docs/decisions.
   */
  synchronous?: 'full' | 'normal';
  /** How long a writer waits for another process's lock before failing (ms). */
  busyTimeoutMs?: number;
}

/**
 * The embedded default Store: one SQLite file in WAL mode. Several processes may share the file;
 * every write is one `BEGIN IMMEDIATE` transaction, so writers serialise on SQLite's lock.
 */
export class SqliteStore implements Store {
  readonly kind = 'sqlite' as const;
  readonly db: Database.Database;
  readonly #stmt;

  constructor(options: SqliteStoreOptions) {
    this.db = new Database(options.path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma(`synchronous = ${options.synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
    this.db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 10_000}`);
    this.db.pragma('foreign_keys = ON');
    migrate(this.db);
    const db = this.db;
    this.#stmt = {
      insertConversation: db.prepare(
        `INSERT INTO conversations (id, state, owner_type, owner_id, speaker, version, event_seq, queued_at, created_at, schema_version, doc)
         VALUES (@id, @state, @owner_type, @owner_id, @speaker, @version, 0, @queued_at, @created_at, @schema_version, @doc)`,
      ),
      bumpSeq: db.prepare<[number, string], { event_seq: number }>(
        'UPDATE conversations SET event_seq = event_seq + ? WHERE id = ? RETURNING event_seq',
      ),
      cas: db.prepare(
        `UPDATE conversations SET state = @state, owner_type = @owner_type, owner_id = @owner_id, speaker = @speaker,
           version = @version, queued_at = @queued_at, doc = @doc, event_seq = event_seq + @n
         WHERE id = @id AND version = @expected RETURNING event_seq`,
      ),
      insertEvent: db.prepare(
        `INSERT INTO events (conversation_id, seq, id, type, schema_version, at, data)
         VALUES (@conversation_id, @seq, @id, @type, @schema_version, @at, @data)`,
      ),
      insertMessage: db.prepare(
        `INSERT INTO messages (id, conversation_id, direction, idempotency_key, schema_version, doc)
         VALUES (@id, @conversation_id, @direction, @idempotency_key, @schema_version, @doc)`,
      ),
      inboundByKey: db.prepare<[string, string], { doc: string }>(
        'SELECT doc FROM messages WHERE conversation_id = ? AND idempotency_key = ?',
      ),
      owner: db.prepare<[string], { state: Conversation['state']; owner_type: Owner['type']; owner_id: string | null }>(
        'SELECT state, owner_type, owner_id FROM conversations WHERE id = ?',
      ),
      conversation: db.prepare<[string], { doc: string }>('SELECT doc FROM conversations WHERE id = ?'),
      messages: db.prepare<[string], { doc: string }>('SELECT doc FROM messages WHERE conversation_id = ? ORDER BY n'),
      events: db.prepare<[string], EventRow>('SELECT * FROM events WHERE conversation_id = ? ORDER BY seq'),
      ids: db.prepare<[], { id: ConversationId }>('SELECT id FROM conversations ORDER BY created_at, id'),
      oldestQueued: db.prepare<[string], { doc: string }>(
        `SELECT doc FROM conversations WHERE state = 'QUEUED' AND owner_id = ? ORDER BY queued_at, id LIMIT 1`,
      ),
    };
  }

  #appendEvents(events: NewEvent[], lastSeq: number): StoredEvent[] {
    const first = lastSeq - events.length + 1;
    return events.map((event, i) => {
      const seq = first + i;
      this.#stmt.insertEvent.run({ ...eventColumns(event), seq });
      return { ...event, seq } as StoredEvent;
    });
  }

  async createConversation(conversation: Conversation, created: NewEvent): Promise<StoredEvent> {
    return this.db
      .transaction(() => {
        this.#stmt.insertConversation.run(conversationColumns(conversation));
        const { event_seq } = this.#stmt.bumpSeq.get(1, conversation.id)!;
        return this.#appendEvents([created], event_seq)[0]!;
      })
      .immediate();
  }

  async appendInbound(message: Message, received: NewEvent): Promise<InboundResult> {
    return this.db
      .transaction((): InboundResult => {
        if (!this.#stmt.owner.get(message.conversationId)) return { ok: false, reason: 'not_found' };
        if (message.idempotencyKey !== null) {
          const existing = this.#stmt.inboundByKey.get(message.conversationId, message.idempotencyKey);
          if (existing) return { ok: true, message: messageFromDoc(existing.doc), duplicate: true };
        }
        this.#stmt.insertMessage.run(messageColumns(message));
        const { event_seq } = this.#stmt.bumpSeq.get(1, message.conversationId)!;
        this.#appendEvents([received], event_seq);
        return { ok: true, message, duplicate: false };
      })
      .immediate();
  }

  #cas(conversationId: string, expectedVersion: number, next: Conversation, events: NewEvent[]): TransitionResult {
    const row = this.#stmt.cas.get({ ...conversationColumns(next), id: conversationId, expected: expectedVersion, n: events.length }) as
      | { event_seq: number }
      | undefined;
    if (!row) {
      const current = this.#stmt.conversation.get(conversationId);
      return current
        ? { ok: false, reason: 'version_conflict', current: conversationFromDoc(current.doc) }
        : { ok: false, reason: 'not_found', current: null };
    }
    return { ok: true, conversation: next, events: this.#appendEvents(events, row.event_seq) };
  }

  async transition(input: TransitionInput): Promise<TransitionResult> {
    return this.db.transaction(() => this.#cas(input.conversationId, input.expectedVersion, input.next, input.events)).immediate();
  }

  async appendOutbound(message: Message, eventId: EventId): Promise<OutboundResult> {
    if (!hasOutboundSender(message)) throw new Error('appendOutbound needs an agent, human or system sender');
    return this.db
      .transaction((): OutboundResult => {
        const row = this.#stmt.owner.get(message.conversationId);
        if (!row) return { ok: false, reason: 'not_found' };
        const owner = (row.owner_id === null ? { type: 'none' } : { type: row.owner_type, id: row.owner_id }) as Owner;
        const event = outboundEvent({ state: row.state, owner }, message, eventId);
        const { event_seq } = this.#stmt.bumpSeq.get(1, message.conversationId)!;
        const [stored] = this.#appendEvents([event], event_seq) as [StoredEvent];
        if (event.type !== 'message.sent') return { ok: true, delivered: false, event: stored };
        this.#stmt.insertMessage.run(messageColumns(message));
        return { ok: true, delivered: true, message, event: stored };
      })
      .immediate();
  }

  async getConversation(id: ConversationId): Promise<Conversation | null> {
    const row = this.#stmt.conversation.get(id);
    return row ? conversationFromDoc(row.doc) : null;
  }

  async listMessages(id: ConversationId): Promise<Message[]> {
    return this.#stmt.messages.all(id).map((r) => messageFromDoc(r.doc));
  }

  async listEvents(id: ConversationId): Promise<StoredEvent[]> {
    return this.#stmt.events.all(id).map(eventFromRow);
  }

  async listConversationIds(): Promise<ConversationId[]> {
    return this.#stmt.ids.all().map((r) => r.id);
  }

  async claimOldestQueued(queue: QueueId, planner: ClaimPlanner): Promise<TransitionResult | null> {
    return this.db
      .transaction((): TransitionResult | null => {
        const row = this.#stmt.oldestQueued.get(queue);
        if (!row) return null;
        const conversation = conversationFromDoc(row.doc);
        const planned = planner(conversation);
        return planned ? this.#cas(conversation.id, conversation.version, planned.next, planned.events) : null;
      })
      .immediate();
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}

function migrate(db: Database.Database): void {
  db.transaction(() => {
    db.exec(MIGRATIONS_TABLE);
    const applied = new Set(db.prepare<[], { version: number }>('SELECT version FROM schema_migrations').all().map((r) => r.version));
    for (const m of MIGRATIONS) {
      if (applied.has(m.version)) continue;
      db.exec(m.sqlite);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, m.name, new Date().toISOString());
    }
  }).immediate();
}
