import {
  hasOutboundSender,
  outboundEvent,
  receivedEvent,
  type Conversation,
  type ConversationId,
  type EventId,
  type Message,
  type NewEvent,
  type QueueId,
  type StoredEvent,
} from '../core/index.js';
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

interface Row {
  conversation: Conversation;
  events: StoredEvent[];
  inboundKeys: Map<string, { message: Message; seq: number }>;
}

/**
 * A deeply frozen copy. What the store keeps is copied once, when it is written, and frozen, so a
 * read can hand out the stored objects themselves: nobody can change the log through them, and a
 * read costs no copy (the lab reads a conversation's whole log several times per turn).
 */
function frozen<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return Object.freeze(value.map(frozen)) as T;
  if (Object.getPrototypeOf(value) !== Object.prototype) {
    // Not plain data (log entries never hold anything else, but a copy must not lose it).
    const cloned = structuredClone(value);
    return Object.isFrozen(cloned) ? cloned : deepFreeze(cloned);
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = frozen((value as Record<string, unknown>)[key]);
  return Object.freeze(out) as T;
}

function deepFreeze<T>(root: T): T {
  const stack: unknown[] = [root];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    if (next === null || typeof next !== 'object' || Object.isFrozen(next)) continue;
    Object.freeze(next);
    for (const child of Object.values(next)) stack.push(child);
  }
  return root;
}

/**
 * The reference Store: plain maps in one process. Each method runs to completion without
 * awaiting, so on one event loop every method is atomic. Everything it returns is frozen.
 */
export class MemoryStore implements Store {
  readonly kind = 'memory' as const;
  readonly #rows = new Map<ConversationId, Row>();

  async createConversation(conversation: Conversation, created: NewEvent): Promise<StoredEvent> {
    assertStorable({ conversation, created });
    if (this.#rows.has(conversation.id)) throw new Error(`conversation ${conversation.id} already exists`);
    const row: Row = { conversation: frozen(conversation), events: [], inboundKeys: new Map() };
    this.#rows.set(conversation.id, row);
    return this.#append(row, created);
  }

  #append(row: Row, event: NewEvent): StoredEvent {
    const stored = frozen({ ...event, seq: row.events.length + 1 } as StoredEvent);
    row.events.push(stored);
    return stored;
  }

  async appendInbound(message: Message, eventId: EventId): Promise<InboundResult> {
    assertStorable({ message });
    const row = this.#rows.get(message.conversationId);
    if (!row) return { ok: false, reason: 'not_found' };
    const key = message.idempotencyKey;
    const existing = key === null ? undefined : row.inboundKeys.get(key);
    if (existing) return { ok: true, message: existing.message, duplicate: true, seq: existing.seq };
    const stored = frozen(message);
    const { seq } = this.#append(row, receivedEvent(stored, eventId));
    if (key !== null) row.inboundKeys.set(key, { message: stored, seq });
    return { ok: true, message: stored, duplicate: false, seq };
  }

  async transition(input: TransitionInput): Promise<TransitionResult> {
    assertStorable({ next: input.next, events: input.events });
    const row = this.#rows.get(input.conversationId);
    if (!row) return { ok: false, reason: 'not_found', current: null };
    if (row.conversation.version !== input.expectedVersion) {
      return { ok: false, reason: 'version_conflict', current: row.conversation };
    }
    return this.#apply(row, input.next, input.events);
  }

  #apply(row: Row, next: Conversation, events: NewEvent[]): TransitionResult {
    row.conversation = frozen(next);
    const stored = events.map((e) => this.#append(row, e));
    return { ok: true, conversation: row.conversation, events: stored };
  }

  async appendOutbound(message: Message, eventId: EventId, records: NewEvent[] = []): Promise<OutboundResult> {
    if (!hasOutboundSender(message)) throw new Error('appendOutbound needs an agent, human or system sender');
    assertRecords(records);
    assertStorable({ message, records });
    const row = this.#rows.get(message.conversationId);
    if (!row) return { ok: false, reason: 'not_found' };
    for (const r of records) this.#append(row, r);
    const event = this.#append(row, outboundEvent(row.conversation, message, eventId));
    if (event.type !== 'message.sent') return { ok: true, delivered: false, event };
    return { ok: true, delivered: true, message: event.data.message, event };
  }

  async appendRecords(conversationId: ConversationId, entries: NewEvent[]): Promise<StoredEvent[] | 'not_found'> {
    assertRecords(entries);
    assertStorable({ entries });
    const row = this.#rows.get(conversationId);
    if (!row) return 'not_found';
    return entries.map((e) => this.#append(row, e));
  }

  async getConversation(id: ConversationId): Promise<Conversation | null> {
    const row = this.#rows.get(id);
    return row ? row.conversation : null;
  }

  async listMessages(id: ConversationId): Promise<Message[]> {
    const events = this.#rows.get(id)?.events ?? [];
    return events.flatMap((e) => (e.type === 'message.received' || e.type === 'message.sent' ? [e.data.message] : []));
  }

  async listEvents(id: ConversationId, page: EventPage = {}): Promise<StoredEvent[]> {
    const events = this.#rows.get(id)?.events ?? [];
    const after = page.afterSeq ?? 0;
    const types = page.types ? new Set<string>(page.types) : null;
    const limit = page.limit ?? Infinity;
    const out: StoredEvent[] = [];
    // seq is 1-based and dense: the entry after `after` is at index `after`.
    for (let i = Math.max(0, after); i < events.length && out.length < limit; i += 1) {
      const event = events[i]!;
      if (!types || types.has(event.type)) out.push(event);
    }
    return out;
  }

  async listConversations(query: ConversationQuery): Promise<Conversation[]> {
    const states = new Set<string>(query.states);
    return [...this.#rows.values()]
      .map((r) => r.conversation)
      .filter((c) => states.has(c.state))
      .sort((a, b) => (isOlder(a, b) ? -1 : isOlder(b, a) ? 1 : 0))
      .slice(0, query.limit);
  }

  async listConversationIds(): Promise<ConversationId[]> {
    return [...this.#rows.keys()];
  }

  async claimOldestQueued(queue: QueueId, planner: ClaimPlanner): Promise<TransitionResult | null> {
    let oldest: Row | undefined;
    for (const row of this.#rows.values()) {
      const c = row.conversation;
      if (c.state !== 'QUEUED' || c.owner.type !== 'queue' || c.owner.id !== queue || c.queuedAt === null) continue;
      if (!oldest || isOlder(c, oldest.conversation)) oldest = row;
    }
    if (!oldest) return null;
    const planned = planner(oldest.conversation);
    if (!planned) return null;
    assertStorable({ next: planned.next, events: planned.events });
    return this.#apply(oldest, planned.next, planned.events);
  }

  async close(): Promise<void> {}
}

function isOlder(a: Conversation, b: Conversation): boolean {
  const at = a.queuedAt ?? '';
  const bt = b.queuedAt ?? '';
  if (at !== bt) return at < bt;
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt;
  return a.id < b.id;
}
