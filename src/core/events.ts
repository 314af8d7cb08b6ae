import { z } from 'zod';
import { ConstraintSchema, ConversationSchema, ConversationStateSchema, SCHEMA_VERSION } from './conversation.js';
import { AgentIdSchema, ConversationIdSchema, EventIdSchema, MessageIdSchema, QueueIdSchema, StaffIdSchema } from './ids.js';
import { MessageSchema } from './message.js';
import { ActorSchema, OwnerSchema, SenderSchema } from './owner.js';

/** Fields every ownership transition records: where the conversation ended up, at which version. */
const transition = {
  version: z.number().int().positive(),
  state: ConversationStateSchema,
  owner: OwnerSchema,
  from: z.object({ state: ConversationStateSchema, owner: OwnerSchema }),
};

const RoutingStaffRef = { staff: StaffIdSchema, request: z.string().min(1).max(100) };

/** One fact of the router about a conversation (see `routing.noted`). */
export const RoutingNoteSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('queued'), request: z.string().min(1).max(100), queue: QueueIdSchema, priority: z.number() }),
  z.object({ kind: z.literal('offered'), ...RoutingStaffRef, reservation: z.string().min(1).max(100), expiresAt: z.string() }),
  z.object({ kind: z.literal('accepted'), ...RoutingStaffRef, reservation: z.string().min(1).max(100) }),
  z.object({
    kind: z.literal('declined'),
    ...RoutingStaffRef,
    reservation: z.string().min(1).max(100),
    why: z.enum(['busy', 'wrong_skill', 'end_of_shift', 'other']),
  }),
  z.object({ kind: z.literal('timed_out'), ...RoutingStaffRef, reservation: z.string().min(1).max(100) }),
  z.object({
    kind: z.literal('moved'),
    request: z.string().min(1).max(100),
    to: z.union([QueueIdSchema, z.literal('callback')]),
  }),
  z.object({ kind: z.literal('left'), request: z.string().min(1).max(100), to: z.enum(['callback', 'canceled', 'done']) }),
  /** A conversation has waited in its queue longer than the queue-age threshold (raised once per wait). */
  z.object({ kind: z.literal('age_alert'), request: z.string().min(1).max(100), queue: QueueIdSchema, waitedMs: z.number().nonnegative() }),
  /** A warm transfer was declined or not answered in time; the person who asked passes the conversation on cold. */
  z.object({ kind: z.literal('warm_failed'), request: z.string().min(1).max(100), from: StaffIdSchema, queue: QueueIdSchema }),
  /** What the customer was told, and the estimate behind it (ms), if any. */
  z.object({
    kind: z.literal('promised'),
    request: z.string().min(1).max(100),
    promise: z.enum(['join_now', 'join_estimate', 'callback', 'ticket', 'limited_scope', 'safety_escalation']),
    estimate: z.object({ pointMs: z.number(), boundMs: z.number(), promiseMs: z.number() }).nullable(),
    /** A booked callback time or a ticket's response deadline (ISO), if the promise has one. */
    by: z.string().nullable(),
  }),
]);
export type RoutingNote = z.infer<typeof RoutingNoteSchema>;

/**
 * A person's verdict on how the agent handled hand-off in one conversation (issue 19): given by
 * the person who took the conversation (`as: 'owner'`) or by a supervisor reviewing a sample. A
 * hand-off is reviewed by the seq of its `handoff.requested` event; a conversation the agent kept
 * is reviewed as a whole ("should this have gone to a person?"). Message positions are seqs of
 * `message.received` events in the same log. Free text is redacted before it is stored.
 */
const reviewCommon = {
  by: StaffIdSchema,
  as: z.enum(['owner', 'supervisor']),
  /** Whether a person was needed: the hand-off was needed, or the kept conversation should have gone to one. */
  needed: z.boolean(),
  /** The customer message (its seq) by which a person was due, when the hand-off came late or never came. */
  dueAt: z.number().int().positive().nullable(),
  /** The reason the hand-off should have had, when it differs from the agent's or the agent kept it. */
  reason: z.string().min(1).max(200).nullable(),
  note: z.string().max(2000).nullable(),
};
export const ReviewSchema = z.discriminatedUnion('subject', [
  z.object({
    subject: z.literal('handoff'),
    ...reviewCommon,
    /** The seq of the `handoff.requested` event reviewed. */
    handoff: z.number().int().positive(),
    /** When a person was needed: on time, or late (then `dueAt` says when it was due). Null when not needed. */
    timing: z.enum(['on_time', 'late']).nullable(),
    /** Whether the context packet was enough to go on without asking the customer again. */
    packetEnough: z.boolean(),
    /** What had to be asked again, when it was not. */
    askedAgain: z.string().max(2000).nullable(),
  }),
  z.object({ subject: z.literal('kept'), ...reviewCommon }),
]);
export type Review = z.infer<typeof ReviewSchema>;

/** Why a hand-off went where it went. */
export const HandoffRouteSchema = z.enum(['queue', 'previous_human', 'agent']);
export type HandoffRoute = z.infer<typeof HandoffRouteSchema>;

/**
 * The event vocabulary: past-tense facts named `noun.verbed`. Each entry is the schema of the
 * event's `data`. Ownership transitions carry the resulting `{version, state, owner}` so that the
 * log alone replays to the conversation.
 */
export const EVENT_DATA = {
  'conversation.created': z.object({ conversation: ConversationSchema }),
  /** A customer message, stored: the log entry is the message (messages are a view of the log). */
  'message.received': z.object({ message: MessageSchema }),
  /** A message delivered to the customer by the party allowed to speak at that moment. */
  'message.sent': z.object({ message: MessageSchema }),
  'message.suppressed': z.object({
    sender: SenderSchema,
    text: z.string(),
    /** Who was allowed to speak when the message arrived (null: nobody). */
    speaker: z.string().nullable(),
    state: ConversationStateSchema,
  }),
  'handoff.requested': z.object({
    ...transition,
    route: HandoffRouteSchema,
    reason: z.string().min(1).max(200),
    summary: z.string().max(4000).nullable(),
  }),
  'conversation.queued': z.object({ ...transition, queue: QueueIdSchema }),
  'conversation.claimed': z.object({ ...transition, staff: StaffIdSchema }),
  'conversation.handed_back': z.object({
    ...transition,
    staff: StaffIdSchema,
    agent: AgentIdSchema,
    notes: z.string().max(4000).nullable(),
    constraints: z.array(ConstraintSchema),
  }),
  /** A human passed the conversation on, cold: to a queue (it waits again) or to another person. */
  'conversation.transferred': z.object({ ...transition, staff: StaffIdSchema }),
  'assist.started': z.object({ ...transition, staff: StaffIdSchema }),
  'assist.ended': z.object({ ...transition, staff: StaffIdSchema }),
  'conversation.closed': z.object({ ...transition, by: ActorSchema, reason: z.string().max(200) }),
  /** A tool call the harness ran (or refused), with its result as the model saw it, redacted. */
  'tool.called': z.object({
    agent: AgentIdSchema,
    name: z.string(),
    arguments: z.record(z.string(), z.unknown()),
    ok: z.boolean(),
    output: z.string(),
    /** Why the harness refused the call without running it, when it did. */
    refused: z.string().optional(),
  }),
  /** A verdict of the hand-off decider: which signal fired, on what text. */
  'decider.evaluated': z.object({
    phase: z.enum(['input', 'before_write', 'after_tool']),
    handoff: z.boolean(),
    reason: z.string().nullable(),
    target: z.string().nullable(),
    evidence: z.string().nullable(),
  }),
  /** One agent turn ended: how, and what it spent (the conversation's budget adds these up). */
  'turn.completed': z.object({
    agent: AgentIdSchema,
    outcome: z.enum(['reply', 'handoff', 'needs_approval']),
    modelCalls: z.number().int().nonnegative(),
    tokens: z.number().int().nonnegative(),
    wallMs: z.number().nonnegative().default(0),
    /** The last log position the turn had read: customer messages after it are still unanswered. */
    upTo: z.number().int().nonnegative().optional(),
  }),
  /** A tool call waits for a person's approval; only this call can be resumed. */
  'approval.requested': z.object({
    agent: AgentIdSchema,
    call: z.object({ id: z.string(), name: z.string(), arguments: z.string() }),
    why: z.string(),
    /**
     * Whether storing the call removed a secret from its arguments: then the call as it must run
     * lives only in the memory of the process that asked, and cannot be approved anywhere else.
     */
    redacted: z.boolean().optional(),
  }),
  /** A person decided on the waiting call. */
  'approval.decided': z.object({
    callId: z.string(),
    approved: z.boolean(),
    by: StaffIdSchema.nullable(),
    /** What the person told the agent with a rejection (redacted); the agent reads it as the call's result. */
    feedback: z.string().max(2000).optional(),
  }),
  /** The context packet for whoever takes over, built from the tool log and redacted. */
  'packet.built': z.object({ packet: z.record(z.string(), z.unknown()) }),
  /**
   * What the router did with the conversation's hand-off (offers, declines, timeouts, moves) and
   * what the customer was promised, with the estimate: the log that wait-estimate error and
   * promise-kept are measured from. The router's tables are the truth for routing; this is the record.
   */
  'routing.noted': RoutingNoteSchema,
  /**
   * In assisted mode (AGENT_ASSIST) the agent's reply is a draft for the person who owns the
   * conversation: shown in the console, never sent by itself; the person sends it (edited or not).
   */
  'draft.proposed': z.object({
    agent: AgentIdSchema,
    text: z.string().max(16_000),
    /** The last log position the draft answers. */
    upTo: z.number().int().nonnegative(),
    /** The guardrail that would have stopped this reply had the agent sent it, if one did. */
    flagged: z.string().max(100).optional(),
  }),
  // Channels (src/runtime/channels/, docs/channels.md): what happened to a message on its way to
  // or from the customer's channel. Each names the configured channel (`whatsapp`, `webhook:<id>`).
  /** A free-form message the channel may not carry now (WhatsApp's 24-hour window closed): refused before it left, never stored as sent. */
  'delivery.refused': z.object({
    channel: z.string().max(100),
    sender: SenderSchema,
    reason: z.literal('template_required'),
    /** When the window closed (ISO-8601), null when the customer never wrote. */
    deadline: z.string().nullable(),
  }),
  /** The provider accepted an outbound message (after `attempts` tries). */
  'delivery.succeeded': z.object({
    channel: z.string().max(100),
    messageId: MessageIdSchema,
    providerMessageId: z.string().max(200).nullable(),
    attempts: z.number().int().positive(),
  }),
  /** An outbound message that did not reach the provider: the retries ran out, or it was refused for good. */
  'delivery.failed': z.object({
    channel: z.string().max(100),
    messageId: MessageIdSchema,
    attempts: z.number().int().nonnegative(),
    reason: z.string().max(500),
  }),
  /** A status callback of the provider about a message it carried (sent, delivered, read, failed). */
  'delivery.status_reported': z.object({
    channel: z.string().max(100),
    messageId: MessageIdSchema.nullable(),
    providerMessageId: z.string().max(200),
    status: z.enum(['sent', 'delivered', 'read', 'failed']),
    /** The provider's error code of a failure, e.g. WhatsApp's 131047 (re-engagement needed). */
    errorCode: z.string().max(50).nullable(),
    /** When the provider says it happened (ISO-8601). */
    reportedAt: z.string(),
  }),
  /** The message stored with this entry (the next one in the log) goes out as an approved template. */
  'template.chosen': z.object({
    channel: z.string().max(100),
    name: z.string().max(512),
    language: z.string().max(20),
    parameters: z.array(z.string().max(1024)).max(20),
  }),
  /** A person's verdict on the conversation's hand-off, or on its being kept (see `ReviewSchema`). */
  'review.recorded': ReviewSchema,
} as const;

export type EventType = keyof typeof EVENT_DATA;
export const EVENT_TYPES = Object.keys(EVENT_DATA) as EventType[];

/** Event types that change ownership, state or version. */
export const TRANSITION_EVENT_TYPES = [
  'handoff.requested',
  'conversation.queued',
  'conversation.claimed',
  'conversation.handed_back',
  'conversation.transferred',
  'assist.started',
  'assist.ended',
  'conversation.closed',
] as const satisfies readonly EventType[];
export type TransitionEventType = (typeof TRANSITION_EVENT_TYPES)[number];

const envelope = {
  schemaVersion: z.literal(SCHEMA_VERSION),
  id: EventIdSchema,
  conversationId: ConversationIdSchema,
  at: z.string(),
};

const variant = <T extends EventType>(type: T) => z.object({ ...envelope, type: z.literal(type), data: EVENT_DATA[type] });

/** An event before the store has given it its place (`seq`) in the conversation's log. */
export const NewEventSchema = z.discriminatedUnion('type', [
  variant('conversation.created'),
  variant('message.received'),
  variant('message.sent'),
  variant('message.suppressed'),
  variant('handoff.requested'),
  variant('conversation.queued'),
  variant('conversation.claimed'),
  variant('conversation.handed_back'),
  variant('conversation.transferred'),
  variant('assist.started'),
  variant('assist.ended'),
  variant('conversation.closed'),
  variant('tool.called'),
  variant('decider.evaluated'),
  variant('turn.completed'),
  variant('approval.requested'),
  variant('approval.decided'),
  variant('packet.built'),
  variant('routing.noted'),
  variant('draft.proposed'),
  variant('delivery.refused'),
  variant('delivery.succeeded'),
  variant('delivery.failed'),
  variant('delivery.status_reported'),
  variant('template.chosen'),
  variant('review.recorded'),
]);
export type NewEvent = z.infer<typeof NewEventSchema>;

/** An event as stored: `seq` is its 1-based position in its conversation's append-only log. */
export const StoredEventSchema = NewEventSchema.and(z.object({ seq: z.number().int().positive() }));
export type StoredEvent = NewEvent & { seq: number };

/** What a pure decision produces: the type and data of an event, without id and time. */
export type EventDraft = { [T in EventType]: { type: T; data: z.infer<(typeof EVENT_DATA)[T]> } }[EventType];
export type TransitionEventDraft = Extract<EventDraft, { type: TransitionEventType }>;

/** Log entries that record the agent's work (tool calls, decider verdicts, packets): no state change, no message. */
export const RECORD_EVENT_TYPES = [
  'tool.called',
  'decider.evaluated',
  'turn.completed',
  'approval.requested',
  'approval.decided',
  'packet.built',
  'routing.noted',
  'draft.proposed',
  'delivery.refused',
  'delivery.succeeded',
  'delivery.failed',
  'delivery.status_reported',
  'template.chosen',
  'review.recorded',
] as const satisfies readonly EventType[];
export type RecordEventType = (typeof RECORD_EVENT_TYPES)[number];
export type RecordEventDraft = Extract<EventDraft, { type: RecordEventType }>;

/** Whether an event changes ownership, state or version. */
export function isTransitionEvent<E extends { type: EventType }>(event: E): event is E & { type: TransitionEventType } {
  return (TRANSITION_EVENT_TYPES as readonly string[]).includes(event.type);
}
