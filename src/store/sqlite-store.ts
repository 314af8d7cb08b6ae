import Database from 'better-sqlite3';
import {
  hasOutboundSender,
  outboundEvent,
  receivedEvent,
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
  MESSAGE_EVENT_TYPES,
  messageFromData,
  type EventRow,
} from './rows.js';
import { assertRecords } from './records.js';
import { isSqliteBusy, retryWhileBusy } from './store-busy.js';
import { assertStorable } from './unstorable-text.js';
import type {
  ClaimPlanner,
  ConversationQuery,
  EventPage,
  InboundResult,
  OutboundResult,
  Store,
  TransitionInput,
  TransitionResult,
} from './store.js';

/** Options of {@link SqliteStore}. */
export interface SqliteStoreOptions {
  /** File path, or `:memory:`. */
  path: string;
  /**
   * `full` (default) makes every acknowledged write survive a power cut, not only a crash of
   * the process; `normal` survives process crashes only, and is faster. See docs/decisions.
   */
  synchronous?: 'full' | 'normal';
  /**
   * How long a write waits for another process's lock before failing with `StoreBusyError` (ms,
   * default 5000). It waits on timers, never inside SQLite, so the event loop keeps serving.
   */
  busyTimeoutMs?: number;
}

/** A write waiting for the next group commit, and how to tell its caller. */
interface QueuedWrite {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type WriteOutcome = { ok: true; value: unknown } | { ok: false; error: unknown };

type OwnerRow = { state: Conversation['state']; owner_type: Owner['type']; owner_id: string | null };

const ownerOf = (row: OwnerRow) => ({
  state: row.state,
  owner: (row.owner_id === null ? { type: 'none' } : { type: row.owner_type, id: row.owner_id }) as Owner,
});

/**
 * The embedded default Store: one SQLite file in WAL mode. Several processes may share the file;
 * every write is one `BEGIN IMMEDIATE` transaction, so writers serialise on SQLite's lock. A write
 * that finds the lock taken is tried again on a timer (`retryWhileBusy`) up to `busyTimeoutMs`:
 * SQLite's `busy_timeout` is 0 once the store is open, because better-sqlite3 is synchronous and
 * SQLite's own wait would block the whole process (docs/decisions/0011-sqlite-writers-wait-off-the-loop.md).
 *
 * Writes are committed in groups: the writes asked for in one turn of the event loop run, in the
 * order asked, each in a savepoint of one transaction, and one commit (one wait for the disk)
 * makes them all durable; each caller is answered after that commit, with its own result or its
 * own error (a failed write rolls back to its savepoint and leaves the others' alone).
 * docs/decisions/0035-sqlite-group-commit.md.
 */
export class SqliteStore implements Store {
  readonly kind = 'sqlite' as const;
  readonly db: Database.Database;
  readonly #stmt;
  readonly #tx;
  readonly #busyTimeoutMs: number;
  /** Runs a group of writes, each in its savepoint, in one `BEGIN IMMEDIATE` … `COMMIT`. */
  readonly #group: Database.Transaction<(writes: readonly QueuedWrite[]) => WriteOutcome[]>;
  /** Writes waiting for the next group commit. */
  #queue: QueuedWrite[] = [];
  /** The group commit under way or scheduled (null: none). */
  #committing: Promise<void> | null = null;
  /** How long a write waits for another process's lock (ms). */
  readonly busyTimeoutMs: number;

  constructor(options: SqliteStoreOptions) {
    this.#busyTimeoutMs = options.busyTimeoutMs ?? 5_000;
    this.busyTimeoutMs = this.#busyTimeoutMs;
    this.db = new Database(options.path);
    // Opening (WAL switch, migrations) may wait inside SQLite: it happens once, before serving.
    this.db.pragma(`busy_timeout = ${this.#busyTimeoutMs}`);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma(`synchronous = ${options.synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
    this.db.pragma('foreign_keys = ON');
    migrate(this.db);
    this.db.pragma('busy_timeout = 0');
    const db = this.db;
    const stmt = {
      insertConversation: db.prepare(
        `INSERT INTO conversations (id, state, owner_type, owner_id, speaker, version, queued_at, created_at, schema_version, doc)
         VALUES (@id, @state, @owner_type, @owner_id, @speaker, @version, @queued_at, @created_at, @schema_version, @doc)`,
      ),
      // Writers hold SQLite's one write lock (BEGIN IMMEDIATE), so the last position is stable
      // until commit: reading it costs one index probe and writes nothing.
      lastSeq: db.prepare<[string], { seq: number }>('SELECT coalesce(max(seq), 0) AS seq FROM events WHERE conversation_id = ?'),
      owner: db.prepare<[string], OwnerRow>('SELECT state, owner_type, owner_id FROM conversations WHERE id = ?'),
      cas: db.prepare(
        `UPDATE conversations SET state = @state, owner_type = @owner_type, owner_id = @owner_id, speaker = @speaker,
           version = @version, queued_at = @queued_at, doc = @doc
         WHERE id = @id AND version = @expected`,
      ),
      insertEvent: db.prepare(
        `INSERT INTO events (conversation_id, seq, id, type, schema_version, at, data, idempotency_key)
         VALUES (@conversation_id, @seq, @id, @type, @schema_version, @at, @data, @idempotency_key)`,
      ),
      inboundByKey: db.prepare<[string, string], { data: string; seq: number }>(
        'SELECT data, seq FROM events WHERE conversation_id = ? AND idempotency_key = ?',
      ),
      conversation: db.prepare<[string], { doc: string }>('SELECT doc FROM conversations WHERE id = ?'),
      messages: db.prepare<[string], { data: string }>(
        `SELECT data FROM events WHERE conversation_id = ? AND type IN ${MESSAGE_EVENT_TYPES} ORDER BY seq`,
      ),
      events: db.prepare<[string], EventRow>('SELECT * FROM events WHERE conversation_id = ? ORDER BY seq'),
      ids: db.prepare<[], { id: ConversationId }>('SELECT id FROM conversations ORDER BY created_at, id'),
      oldestQueued: db.prepare<[string], { doc: string }>(
        `SELECT doc FROM conversations WHERE state = 'QUEUED' AND owner_id = ? ORDER BY queued_at, id LIMIT 1`,
      ),
    };
    this.#stmt = stmt;

    const appendEvents = (conversationId: string, events: NewEvent[]): StoredEvent[] => {
      const first = stmt.lastSeq.get(conversationId)!.seq + 1;
      return events.map((event, i) => {
        const seq = first + i;
        stmt.insertEvent.run({ ...eventColumns(event), seq });
        return { ...event, seq } as StoredEvent;
      });
    };
    const cas = (conversationId: string, expectedVersion: number, next: Conversation, events: NewEvent[]): TransitionResult => {
      const { changes } = stmt.cas.run({ ...conversationColumns(next), id: conversationId, expected: expectedVersion });
      if (changes === 0) {
        const current = stmt.conversation.get(conversationId);
        return current
          ? { ok: false, reason: 'version_conflict', current: conversationFromDoc(current.doc) }
          : { ok: false, reason: 'not_found', current: null };
      }
      return { ok: true, conversation: next, events: appendEvents(conversationId, events) };
    };
    // Transaction functions are made once: better-sqlite3 wraps each in BEGIN IMMEDIATE … COMMIT.
    this.#tx = {
      create: db.transaction((conversation: Conversation, created: NewEvent): StoredEvent => {
        stmt.insertConversation.run(conversationColumns(conversation));
        return appendEvents(conversation.id, [created])[0]!;
      }),
      inbound: db.transaction((message: Message, eventId: EventId): InboundResult => {
        if (!stmt.owner.get(message.conversationId)) return { ok: false, reason: 'not_found' };
        if (message.idempotencyKey !== null) {
          const existing = stmt.inboundByKey.get(message.conversationId, message.idempotencyKey);
          if (existing) return { ok: true, message: messageFromData(existing.data), duplicate: true, seq: Number(existing.seq) };
        }
        const [stored] = appendEvents(message.conversationId, [receivedEvent(message, eventId)]) as [StoredEvent];
        return { ok: true, message, duplicate: false, seq: stored.seq };
      }),
      transition: db.transaction((input: TransitionInput) => cas(input.conversationId, input.expectedVersion, input.next, input.events)),
      outbound: db.transaction((message: Message, eventId: EventId, records: NewEvent[]): OutboundResult => {
        if (!hasOutboundSender(message)) throw new Error('appendOutbound needs an agent, human or system sender');
        const row = stmt.owner.get(message.conversationId);
        if (!row) return { ok: false, reason: 'not_found' };
        if (records.length > 0) appendEvents(message.conversationId, records);
        const [event] = appendEvents(message.conversationId, [outboundEvent(ownerOf(row), message, eventId)]) as [StoredEvent];
        return event.type === 'message.sent' ? { ok: true, delivered: true, message, event } : { ok: true, delivered: false, event };
      }),
      records: db.transaction((conversationId: string, entries: NewEvent[]): StoredEvent[] | 'not_found' =>
        stmt.owner.get(conversationId) ? appendEvents(conversationId, entries) : 'not_found',
      ),
      claim: db.transaction((queue: QueueId, planner: ClaimPlanner): TransitionResult | null => {
        const row = stmt.oldestQueued.get(queue);
        if (!row) return null;
        const conversation = conversationFromDoc(row.doc);
        const planned = planner(conversation);
        if (planned) assertStorable({ next: planned.next, events: planned.events });
        return planned ? cas(conversation.id, conversation.version, planned.next, planned.events) : null;
      }),
    };
    this.#group = db.transaction((writes: readonly QueuedWrite[]): WriteOutcome[] =>
      writes.map((write): WriteOutcome => {
        try {
          // Inside the group's transaction, each write's own transaction function is a savepoint.
          return { ok: true, value: write.work() };
        } catch (error) {
          // Another process's lock (the group is tried again as a whole), or an error after which
          // SQLite rolled the whole transaction back (every write of the group failed): rethrown.
          if (isSqliteBusy(error) || !db.inTransaction) throw error;
          return { ok: false, error };
        }
      }),
    );
  }

  /** Runs one read, trying again while another process holds the lock. */
  #run<T>(work: () => T): T | Promise<T> {
    return retryWhileBusy(work, { timeoutMs: this.#busyTimeoutMs });
  }

  /**
   * Queues one write (a transaction function) for the next group commit; resolves once it is
   * committed, with what it returned.
   */
  #write<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      this.#committing ??= new Promise<void>((done) => setImmediate(() => void this.#commitQueued().finally(done)));
    });
  }

  /** Commits every queued write in one transaction (and then the ones queued meanwhile, in order). */
  async #commitQueued(): Promise<void> {
    while (this.#queue.length > 0) {
      const writes = this.#queue;
      this.#queue = [];
      try {
        const outcomes = await retryWhileBusy(() => this.#group.immediate(writes), { timeoutMs: this.#busyTimeoutMs });
        outcomes.forEach((outcome, i) => (outcome.ok ? writes[i]!.resolve(outcome.value) : writes[i]!.reject(outcome.error)));
      } catch (error) {
        // Nothing of the group was written (busy past the bound, a failed commit, a rolled-back transaction).
        for (const write of writes) write.reject(error);
      }
    }
    this.#committing = null;
  }

  async createConversation(conversation: Conversation, created: NewEvent): Promise<StoredEvent> {
    assertStorable({ conversation, created });
    return this.#write(() => this.#tx.create(conversation, created));
  }

  async appendInbound(message: Message, eventId: EventId): Promise<InboundResult> {
    assertStorable({ message });
    return this.#write(() => this.#tx.inbound(message, eventId));
  }

  async transition(input: TransitionInput): Promise<TransitionResult> {
    assertStorable({ next: input.next, events: input.events });
    return this.#write(() => this.#tx.transition(input));
  }

  async appendOutbound(message: Message, eventId: EventId, records: NewEvent[] = []): Promise<OutboundResult> {
    assertRecords(records);
    assertStorable({ message, records });
    return this.#write(() => this.#tx.outbound(message, eventId, records));
  }

  async appendRecords(conversationId: ConversationId, entries: NewEvent[]): Promise<StoredEvent[] | 'not_found'> {
    assertRecords(entries);
    assertStorable({ entries });
    return this.#write(() => this.#tx.records(conversationId, entries));
  }

  async getConversation(id: ConversationId): Promise<Conversation | null> {
    const row = await this.#run(() => this.#stmt.conversation.get(id));
    return row ? conversationFromDoc(row.doc) : null;
  }

  async listMessages(id: ConversationId): Promise<Message[]> {
    return (await this.#run(() => this.#stmt.messages.all(id))).map((r) => messageFromData(r.data));
  }

  async listEvents(id: ConversationId, page?: EventPage): Promise<StoredEvent[]> {
    if (!page) return (await this.#run(() => this.#stmt.events.all(id))).map(eventFromRow);
    const types = page.types ?? [];
    const sql = `SELECT * FROM events WHERE conversation_id = ? AND seq > ?${types.length ? ` AND type IN (${types.map(() => '?').join(', ')})` : ''} ORDER BY seq LIMIT ?`;
    const rows = await this.#run(() => this.#prepared(sql).all(id, page.afterSeq ?? 0, ...types, page.limit ?? -1));
    return rows.map((row) => eventFromRow(row as EventRow));
  }

  async listConversations(query: ConversationQuery): Promise<Conversation[]> {
    const sql = `SELECT doc FROM conversations WHERE state IN (${query.states.map(() => '?').join(', ')})
      ORDER BY coalesce(queued_at, ''), created_at, id LIMIT ?`;
    if (query.states.length === 0) return [];
    const rows = await this.#run(() => this.#prepared(sql).all(...query.states, query.limit));
    return rows.map((row) => conversationFromDoc((row as { doc: string }).doc));
  }

  readonly #statements = new Map<string, Database.Statement>();
  /** Statements whose text depends on the query's shape, prepared once per shape. */
  #prepared(sql: string): Database.Statement {
    let stmt = this.#statements.get(sql);
    if (!stmt) this.#statements.set(sql, (stmt = this.db.prepare(sql)));
    return stmt;
  }

  async listConversationIds(): Promise<ConversationId[]> {
    return (await this.#run(() => this.#stmt.ids.all())).map((r) => r.id);
  }

  async claimOldestQueued(queue: QueueId, planner: ClaimPlanner): Promise<TransitionResult | null> {
    return this.#write(() => this.#tx.claim(queue, planner));
  }

  async close(): Promise<void> {
    // Writes already asked for are committed (or fail) before the file closes.
    while (this.#committing) await this.#committing;
    if (this.db.open) this.db.close();
  }
}

function migrate(db: Database.Database): void {
  db.transaction(() => {
    db.exec(MIGRATIONS_TABLE);
    const applied = new Set(
      db
        .prepare<[], { version: number }>('SELECT version FROM schema_migrations')
        .all()
        .map((r) => r.version),
    );
    for (const m of MIGRATIONS) {
      if (applied.has(m.version)) continue;
      db.exec(m.sqlite);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        m.version,
        m.name,
        new Date().toISOString(),
      );
    }
  }).immediate();
}
