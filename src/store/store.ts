import type {
  Conversation,
  ConversationId,
  ConversationState,
  EventId,
  EventType,
  Message,
  NewEvent,
  QueueId,
  StoredEvent,
} from '../core/index.js';

/** A page of one conversation's log: entries after `afterSeq` (0 from the start), of `types` if given, at most `limit`. */
export interface EventPage {
  afterSeq?: number;
  limit?: number;
  types?: readonly EventType[];
}

/** Conversations in some states, oldest first (by `queuedAt`, then creation), at most `limit`. */
export interface ConversationQuery {
  states: readonly ConversationState[];
  limit: number;
}

/** A compare-and-set transition: the new state of a conversation and the events that explain it. */
export interface TransitionInput {
  conversationId: ConversationId;
  /** The version the caller decided on; the write happens only if it is still current. */
  expectedVersion: number;
  next: Conversation;
  events: NewEvent[];
}

export type TransitionResult =
  | { ok: true; conversation: Conversation; events: StoredEvent[] }
  | { ok: false; reason: 'version_conflict' | 'not_found'; current: Conversation | null };

/** A customer message stored (or found stored): `seq` is its entry's position in the log, the cursor to read the answer after. */
export type InboundResult = { ok: true; message: Message; duplicate: boolean; seq: number } | { ok: false; reason: 'not_found' };

export type OutboundResult =
  | { ok: true; delivered: true; message: Message; event: StoredEvent }
  | { ok: true; delivered: false; event: StoredEvent }
  | { ok: false; reason: 'not_found' };

/** Builds the transition for a queued conversation that a claimer locked; null to leave it. */
export type ClaimPlanner = (conversation: Conversation) => { next: Conversation; events: NewEvent[] } | null;

/**
 * Storage of conversations and their append-only event logs. A conversation's messages are the
 * `message.received` and `message.sent` entries of its log, in log order. Every adapter
 * passes the same conformance suite (`store-conformance.ts`); the memory adapter is the reference.
 *
 * Each method is atomic: its writes and the events that record them commit together or not at all.
 */
export interface Store {
  readonly kind: 'memory' | 'sqlite' | 'postgres';
  /** Stores a new conversation with its `conversation.created` event. */
  createConversation(conversation: Conversation, created: NewEvent): Promise<StoredEvent>;
  /**
   * Appends a customer message to the log (`message.received` under `eventId`, see
   * `receivedEvent`), once per idempotency key: a redelivery returns the stored message with
   * `duplicate: true` and writes nothing. Inbound messages are stored whoever owns the conversation.
   */
  appendInbound(message: Message, eventId: EventId): Promise<InboundResult>;
  /** Writes `next` and `events` if the conversation is still at `expectedVersion`. */
  transition(input: TransitionInput): Promise<TransitionResult>;
  /**
   * Delivers an outbound message only if its sender may speak at this moment (`speakerOf` the
   * stored conversation), logging `message.sent`; otherwise logs `message.suppressed` (see
   * `outboundEvent`) under `eventId` and delivers nothing. The check and the write are one
   * atomic step, so a concurrent transition comes either before both or after both.
   *
   * `records` (the turn's tool calls and verdicts, see `appendRecords`) are written first, in the
   * same transaction: a turn's record and its reply are stored together or not at all.
   */
  appendOutbound(message: Message, eventId: EventId, records?: NewEvent[]): Promise<OutboundResult>;
  /**
   * Appends entries that record the agent's work (`tool.called`, `decider.evaluated`,
   * `packet.built`): no state change, so no compare-and-set; `not_found` for an unknown conversation.
   */
  appendRecords(conversationId: ConversationId, entries: NewEvent[]): Promise<StoredEvent[] | 'not_found'>;
  getConversation(id: ConversationId): Promise<Conversation | null>;
  /** The customer-visible messages (received and delivered), in log order. */
  listMessages(id: ConversationId): Promise<Message[]>;
  /** The log in order, or the page of it that `page` asks for. */
  listEvents(id: ConversationId, page?: EventPage): Promise<StoredEvent[]>;
  /** Conversations in the given states (the queue view, start-up recovery), oldest first. */
  listConversations(query: ConversationQuery): Promise<Conversation[]>;
  /** Ids of all conversations, oldest first (for audits and tests). */
  listConversationIds(): Promise<ConversationId[]>;
  /**
   * Locks the oldest conversation queued for `queue` that no concurrent claimer holds, applies
   * the planner's transition to it, and returns the result; null when the queue is empty.
   * Two concurrent claimers never both win the same conversation.
   */
  claimOldestQueued(queue: QueueId, planner: ClaimPlanner): Promise<TransitionResult | null>;
  close(): Promise<void>;
}
