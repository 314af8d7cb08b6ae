import { z } from 'zod';
import { AgentIdSchema, ConversationIdSchema, QueueIdSchema, StaffIdSchema } from './ids.js';
import type { Owner } from './owner.js';

/** Schema version of persisted conversations, messages and events. */
export const SCHEMA_VERSION = 1 as const;

/**
 * Ownership states. `AGENT_ASSIST`: a human owns the conversation and the agent only drafts
 * into the console; a draft never reaches the customer on its own.
 */
export const ConversationStateSchema = z.enum(['AGENT_ACTIVE', 'HANDOFF_PENDING', 'QUEUED', 'HUMAN_ACTIVE', 'AGENT_ASSIST', 'CLOSED']);
export type ConversationState = z.infer<typeof ConversationStateSchema>;
export const CONVERSATION_STATES = ConversationStateSchema.options;

/**
 * A constraint a human attached when handing a conversation back ("no refund for order 7731").
 * The tool layer refuses matching calls for the rest of the conversation.
 */
export const ConstraintSchema = z.object({
  /** Tool the constraint blocks, e.g. `refund_charge`. */
  tool: z.string().min(1).max(200),
  /** Arguments that must all match for the call to be blocked; empty blocks every call. */
  args: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
  /** Why, in the human's words; shown to the agent when a call is refused. */
  note: z.string().min(1).max(2000),
});
export type Constraint = z.infer<typeof ConstraintSchema>;

const agentOwner = z.object({ type: z.literal('agent'), id: AgentIdSchema });
const queueOwner = z.object({ type: z.literal('queue'), id: QueueIdSchema });
const humanOwner = z.object({ type: z.literal('human'), id: StaffIdSchema });
const noOwner = z.object({ type: z.literal('none') });

/**
 * Who owns a conversation in each state, as one union: an agent while `AGENT_ACTIVE`, a queue
 * while a hand-off waits (`HANDOFF_PENDING`, `QUEUED`), one human while `HUMAN_ACTIVE` or
 * `AGENT_ASSIST`, nobody once `CLOSED`. An agent-active conversation owned by a human cannot be
 * written down. Persisted as the two fields `state` and `owner`, as before.
 */
export const OwnershipSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('AGENT_ACTIVE'), owner: agentOwner }),
  z.object({ state: z.literal('HANDOFF_PENDING'), owner: queueOwner }),
  z.object({ state: z.literal('QUEUED'), owner: queueOwner }),
  z.object({ state: z.literal('HUMAN_ACTIVE'), owner: humanOwner }),
  z.object({ state: z.literal('AGENT_ASSIST'), owner: humanOwner }),
  z.object({ state: z.literal('CLOSED'), owner: noOwner }),
]);
export type Ownership = z.infer<typeof OwnershipSchema>;

/** The ownership of `state` with `owner`, or null when the pair is not a legal one. */
export function ownershipOf(state: ConversationState, owner: Owner): Ownership | null {
  const parsed = OwnershipSchema.safeParse({ state, owner });
  return parsed.success ? parsed.data : null;
}

/** The fields of a conversation beside its ownership. */
export const ConversationFieldsSchema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  id: ConversationIdSchema,
  /** Incremented by every ownership transition; transitions are compare-and-set on it. */
  version: z.number().int().nonnegative(),
  /** Hand-offs from an agent towards humans so far (the ping-pong cap counts these). */
  handoffCount: z.number().int().nonnegative(),
  /** Agent-to-agent transfers so far. */
  agentTransferCount: z.number().int().nonnegative(),
  /** The agent serving the conversation, or the one it goes back to on hand-back. */
  agentId: AgentIdSchema,
  /** The last human who owned the conversation, if any. */
  lastHumanId: StaffIdSchema.nullable(),
  constraints: z.array(ConstraintSchema),
  channel: z.string().min(1).max(100),
  customerId: z.string().max(200).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** When the conversation entered its current queue; claims take the oldest first. */
  queuedAt: z.string().nullable(),
});

/** A conversation: its fields and its ownership (state with the owner that state allows). */
export const ConversationSchema = ConversationFieldsSchema.and(OwnershipSchema);
export type Conversation = z.infer<typeof ConversationFieldsSchema> & Ownership;

/**
 * The one party allowed to put a message in front of the customer right now, as a sender key
 * (see `senderKey`), or null when nobody may. This is the rule the gateway checks at the moment
 * of sending; stores persist it beside the state so that the check is one comparison.
 */
export function speakerOf(conversation: { state: ConversationState; owner: Owner }): string | null {
  const { state, owner } = conversation;
  switch (state) {
    case 'AGENT_ACTIVE':
      return owner.type === 'agent' ? `agent:${owner.id}` : null;
    case 'HUMAN_ACTIVE':
    case 'AGENT_ASSIST':
      return owner.type === 'human' ? `human:${owner.id}` : null;
    case 'HANDOFF_PENDING':
    case 'QUEUED':
      // Holding messages ("a person will be with you shortly") while nobody owns the reply.
      return 'system';
    case 'CLOSED':
      return null;
  }
}

/** Options for a new conversation. */
export interface NewConversation {
  id: Conversation['id'];
  agentId: Conversation['agentId'];
  channel: string;
  customerId: string | null;
  at: string;
}

/** A fresh conversation, served by its first agent. */
export function newConversation(input: NewConversation): Conversation {
  return {
    schemaVersion: SCHEMA_VERSION,
    id: input.id,
    state: 'AGENT_ACTIVE',
    owner: { type: 'agent', id: input.agentId },
    version: 1,
    handoffCount: 0,
    agentTransferCount: 0,
    agentId: input.agentId,
    lastHumanId: null,
    constraints: [],
    channel: input.channel,
    customerId: input.customerId,
    createdAt: input.at,
    updatedAt: input.at,
    queuedAt: null,
  };
}
