import pg from 'pg';
import {
  hasOutboundSender,
  receivedEvent,
  senderKey,
  type Conversation,
  type ConversationId,
  type EventId,
  type Message,
  type NewEvent,
  type QueueId,
  type Sender,
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

/** Options of {@link PostgresStore.open}. */
export interface PostgresStoreOptions {
  /** A `postgres://` connection string. */
  url: string;
  /** Connections in this process's pool. */
  poolSize?: number;
  /** Longest a statement may run before PostgreSQL cancels it (ms; 0 = no limit). Default 30 s. */
  statementTimeoutMs?: number;
}

/** Arbitrary but fixed key of the advisory lock that serialises migrations across processes. */
const MIGRATION_LOCK = 7_310_221_405;

/**
 * PostgreSQL Store for several gateway processes sharing one database. The hot paths (send,
 * transition, inbound) are single statements: one round trip, one implicit transaction, with
 * the conversation row locked by its own UPDATE so that per-conversation writes serialise.
 */
export class PostgresStore implements Store {
  readonly kind = 'postgres' as const;

  private constructor(readonly pool: pg.Pool) {}

  /** Connects, runs pending migrations, and returns the store. */
  static async open(options: PostgresStoreOptions): Promise<PostgresStore> {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      // A stuck statement is cancelled rather than holding its connection and its locks for ever.
      statement_timeout: options.statementTimeoutMs ?? 30_000,
    });
    // An idle client that loses its connection emits 'error'; without a listener that would
    // crash the process. The pool drops the client and the next query gets a fresh one.
    pool.on('error', () => {});
    const store = new PostgresStore(pool);
    try {
      await store.#migrate();
    } catch (error) {
      await pool.end();
      throw error;
    }
    return store;
  }

  async #migrate(): Promise<void> {
    await this.#tx(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await client.query(MIGRATIONS_TABLE);
      const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
      const applied = new Set(rows.map((r) => r.version));
      for (const m of MIGRATIONS) {
        if (applied.has(m.version)) continue;
        await client.query(m.postgres);
        await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
          m.version,
          m.name,
          new Date().toISOString(),
        ]);
      }
    });
  }

  async #tx<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  async createConversation(conversation: Conversation, created: NewEvent): Promise<StoredEvent> {
    assertStorable({ conversation, created });
    const c = conversationColumns(conversation);
    const e = eventColumns(created);
    await this.pool.query(
      `WITH c AS (
         INSERT INTO conversations (id, state, owner_type, owner_id, speaker, version, event_seq, queued_at, created_at, schema_version, doc)
         VALUES ($1, $2, $3, $4, $5, $6, 1, $7, $8, $9, $10) RETURNING id)
       INSERT INTO events (conversation_id, seq, id, type, schema_version, at, data)
       SELECT c.id, 1, $11, $12, $13, $14, $15 FROM c`,
      [
        c.id,
        c.state,
        c.owner_type,
        c.owner_id,
        c.speaker,
        c.version,
        c.queued_at,
        c.created_at,
        c.schema_version,
        c.doc,
        e.id,
        e.type,
        e.schema_version,
        e.at,
        e.data,
      ],
    );
    return { ...created, seq: 1 } as StoredEvent;
  }

  async appendInbound(message: Message, eventId: EventId): Promise<InboundResult> {
    assertStorable({ message });
    // Not a hot path: an explicit transaction that locks the conversation row first, so that
    // deliveries of one key serialise and each later one sees the first one's entry.
    return this.#tx(async (client): Promise<InboundResult> => {
      const locked = await client.query('SELECT 1 FROM conversations WHERE id = $1 FOR UPDATE', [message.conversationId]);
      if (locked.rowCount === 0) return { ok: false, reason: 'not_found' };
      if (message.idempotencyKey !== null) {
        const { rows } = await client.query<{ data: string; seq: number | string }>(
          'SELECT data, seq FROM events WHERE conversation_id = $1 AND idempotency_key = $2',
          [message.conversationId, message.idempotencyKey],
        );
        if (rows[0]) return { ok: true, message: messageFromData(rows[0].data), duplicate: true, seq: Number(rows[0].seq) };
      }
      const e = eventColumns(receivedEvent(message, eventId));
      const inserted = await client.query<{ seq: number | string }>(
        `WITH c AS (UPDATE conversations SET event_seq = event_seq + 1 WHERE id = $1 RETURNING event_seq)
         INSERT INTO events (conversation_id, seq, id, type, schema_version, at, data, idempotency_key)
         SELECT $1, c.event_seq, $2, $3, $4, $5, $6, $7 FROM c RETURNING seq`,
        [e.conversation_id, e.id, e.type, e.schema_version, e.at, e.data, e.idempotency_key],
      );
      return { ok: true, message, duplicate: false, seq: Number(inserted.rows[0]!.seq) };
    });
  }

  async transition(input: TransitionInput): Promise<TransitionResult> {
    assertStorable({ next: input.next, events: input.events });
    return this.#cas(this.pool, input.conversationId, input.expectedVersion, input.next, input.events);
  }

  async #cas(
    db: pg.Pool | pg.PoolClient,
    conversationId: ConversationId,
    expectedVersion: number,
    next: Conversation,
    events: NewEvent[],
  ): Promise<TransitionResult> {
    if (events.length === 0) throw new Error('a transition needs at least one event');
    const c = conversationColumns(next);
    const cols = events.map(eventColumns);
    const { rows } = await db.query<{ seq: number }>({
      name: 'baton_transition',
      text: `WITH c AS (
         UPDATE conversations SET state = $3, owner_type = $4, owner_id = $5, speaker = $6, version = $7,
           queued_at = $8, doc = $9, event_seq = event_seq + $10
         WHERE id = $1 AND version = $2 RETURNING event_seq)
       INSERT INTO events (conversation_id, seq, id, type, schema_version, at, data)
       SELECT $1, c.event_seq - $10 + e.ord, e.id, e.type, 1, e.at, e.data
       FROM c, unnest($11::text[], $12::text[], $13::text[], $14::text[]) WITH ORDINALITY AS e(id, type, at, data, ord)
       RETURNING seq`,
      values: [
        conversationId,
        expectedVersion,
        c.state,
        c.owner_type,
        c.owner_id,
        c.speaker,
        c.version,
        c.queued_at,
        c.doc,
        events.length,
        cols.map((e) => e.id),
        cols.map((e) => e.type),
        cols.map((e) => e.at),
        cols.map((e) => e.data),
      ],
    });
    if (rows.length === 0) {
      const current = await this.#conversation(db, conversationId);
      return current ? { ok: false, reason: 'version_conflict', current } : { ok: false, reason: 'not_found', current: null };
    }
    const seqs = rows.map((r) => Number(r.seq)).sort((a, b) => a - b);
    return { ok: true, conversation: next, events: events.map((e, i) => ({ ...e, seq: seqs[i]! }) as StoredEvent) };
  }

  async appendOutbound(message: Message, eventId: EventId, records: NewEvent[] = []): Promise<OutboundResult> {
    if (!hasOutboundSender(message)) throw new Error('appendOutbound needs an agent, human or system sender');
    assertRecords(records);
    assertStorable({ message, records });
    if (records.length === 0) return this.#outbound(this.pool, message, eventId);
    // The turn's records and its reply: one transaction, records first.
    return this.#tx(async (client) => {
      const stored = await this.#records(client, message.conversationId, records);
      return stored === 'not_found' ? { ok: false, reason: 'not_found' } : this.#outbound(client, message, eventId);
    });
  }

  async #outbound(db: pg.Pool | pg.PoolClient, message: Message & { sender: Sender }, eventId: EventId): Promise<OutboundResult> {
    // One statement: lock the row, take the next log position, check the owner, log the entry.
    // The speaker column is `speakerOf(conversation)`, written with every transition, so the
    // owner check is the core's rule. The two entries mirror `outboundEvent`; the store
    // conformance suite holds both implementations to the same output.
    const { rows } = await db.query<EventRow>({
      name: 'baton_outbound',
      text: `WITH c AS (
         UPDATE conversations SET event_seq = event_seq + 1 WHERE id = $1
         RETURNING event_seq, state, speaker, coalesce(speaker = $2, false) AS allowed)
       INSERT INTO events (conversation_id, seq, id, type, schema_version, at, data)
       SELECT $1, c.event_seq, $3,
         CASE WHEN c.allowed THEN 'message.sent' ELSE 'message.suppressed' END, 1, $4,
         CASE WHEN c.allowed THEN $5
              ELSE jsonb_build_object('sender', $6::jsonb, 'text', $7::text, 'speaker', c.speaker, 'state', c.state)::text END
       FROM c
       RETURNING *`,
      values: [
        message.conversationId,
        senderKey(message.sender),
        eventId,
        message.at,
        JSON.stringify({ message }),
        JSON.stringify(message.sender),
        message.text,
      ],
    });
    const row = rows[0];
    if (!row) return { ok: false, reason: 'not_found' };
    const event = eventFromRow(row);
    return event.type === 'message.sent' ? { ok: true, delivered: true, message, event } : { ok: true, delivered: false, event };
  }

  async appendRecords(conversationId: ConversationId, entries: NewEvent[]): Promise<StoredEvent[] | 'not_found'> {
    assertRecords(entries);
    assertStorable({ entries });
    return this.#records(this.pool, conversationId, entries);
  }

  async #records(db: pg.Pool | pg.PoolClient, conversationId: ConversationId, entries: NewEvent[]): Promise<StoredEvent[] | 'not_found'> {
    if (entries.length === 0) return (await this.#conversation(db, conversationId)) ? [] : 'not_found';
    const cols = entries.map(eventColumns);
    const { rows } = await db.query<{ seq: number }>({
      name: 'baton_records',
      text: `WITH c AS (UPDATE conversations SET event_seq = event_seq + $2 WHERE id = $1 RETURNING event_seq)
       INSERT INTO events (conversation_id, seq, id, type, schema_version, at, data)
       SELECT $1, c.event_seq - $2 + e.ord, e.id, e.type, 1, e.at, e.data
       FROM c, unnest($3::text[], $4::text[], $5::text[], $6::text[]) WITH ORDINALITY AS e(id, type, at, data, ord)
       RETURNING seq`,
      values: [
        conversationId,
        entries.length,
        cols.map((e) => e.id),
        cols.map((e) => e.type),
        cols.map((e) => e.at),
        cols.map((e) => e.data),
      ],
    });
    if (rows.length === 0) return 'not_found';
    const seqs = rows.map((r) => Number(r.seq)).sort((a, b) => a - b);
    return entries.map((e, i) => ({ ...e, seq: seqs[i]! }) as StoredEvent);
  }

  async #conversation(db: pg.Pool | pg.PoolClient, id: string): Promise<Conversation | null> {
    const { rows } = await db.query<{ doc: string }>({
      name: 'baton_conversation',
      text: 'SELECT doc FROM conversations WHERE id = $1',
      values: [id],
    });
    return rows[0] ? conversationFromDoc(rows[0].doc) : null;
  }

  getConversation(id: ConversationId): Promise<Conversation | null> {
    return this.#conversation(this.pool, id);
  }

  async listMessages(id: ConversationId): Promise<Message[]> {
    const { rows } = await this.pool.query<{ data: string }>(
      `SELECT data FROM events WHERE conversation_id = $1 AND type IN ${MESSAGE_EVENT_TYPES} ORDER BY seq`,
      [id],
    );
    return rows.map((r) => messageFromData(r.data));
  }

  async listEvents(id: ConversationId, page?: EventPage): Promise<StoredEvent[]> {
    if (!page) {
      const { rows } = await this.pool.query<EventRow>('SELECT * FROM events WHERE conversation_id = $1 ORDER BY seq', [id]);
      return rows.map(eventFromRow);
    }
    const { rows } = await this.pool.query<EventRow>(
      `SELECT * FROM events WHERE conversation_id = $1 AND seq > $2 AND ($3::text[] IS NULL OR type = ANY($3))
       ORDER BY seq LIMIT $4`,
      [id, page.afterSeq ?? 0, page.types ? [...page.types] : null, page.limit ?? null],
    );
    return rows.map(eventFromRow);
  }

  async listConversations(query: ConversationQuery): Promise<Conversation[]> {
    const { rows } = await this.pool.query<{ doc: string }>(
      `SELECT doc FROM conversations WHERE state = ANY($1) ORDER BY coalesce(queued_at, ''), created_at, id LIMIT $2`,
      [[...query.states], query.limit],
    );
    return rows.map((r) => conversationFromDoc(r.doc));
  }

  async listConversationIds(): Promise<ConversationId[]> {
    const { rows } = await this.pool.query<{ id: ConversationId }>('SELECT id FROM conversations ORDER BY created_at, id');
    return rows.map((r) => r.id);
  }

  async claimOldestQueued(queue: QueueId, planner: ClaimPlanner): Promise<TransitionResult | null> {
    const oldest = (lock: string) =>
      `SELECT doc FROM conversations WHERE state = 'QUEUED' AND owner_id = $1 ORDER BY queued_at, id LIMIT 1 FOR UPDATE ${lock}`;
    return this.#tx(async (client) => {
      // SKIP LOCKED lets concurrent claimers take different conversations. It also skips a row
      // that an ordinary write (a holding message, a customer message) holds for a moment, so an
      // empty answer is checked once more by waiting for the oldest row; after the wait the row is
      // re-read and dropped if someone else claimed it meanwhile.
      let { rows } = await client.query<{ doc: string }>(oldest('SKIP LOCKED'), [queue]);
      if (!rows[0]) ({ rows } = await client.query<{ doc: string }>(oldest(''), [queue]));
      if (!rows[0]) return null;
      const conversation = conversationFromDoc(rows[0].doc);
      const planned = planner(conversation);
      if (planned) assertStorable({ next: planned.next, events: planned.events });
      return planned ? this.#cas(client, conversation.id, conversation.version, planned.next, planned.events) : null;
    });
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
