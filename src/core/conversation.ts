import { z } from 'zod';
import { AgentIdSchema, ConversationIdSchema, StaffIdSchema } from './ids.js';
import { OwnerSchema, type Owner } from './owner.js';

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

export const ConversationSchema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  id: ConversationIdSchema,
  state: ConversationStateSchema,
  owner: OwnerSchema,
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
export type Conversation = z.infer<typeof ConversationSchema>;

/**
 * The one party allowed to put a message in front of the customer right now, as a sender key
 * (see `senderKey`), or null when nobody may. This is the rule the gateway checks at the moment
 * of sending; stores persist it beside the state so that the check is one comparison.
 */
export function speakerOf(conversation: Pick<Conversation, 'state' | 'owner'>): string | null {
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
  const owner: Owner = { type: 'agent', id: input.agentId };
  return {
    schemaVersion: SCHEMA_VERSION,
    id: input.id,
    state: 'AGENT_ACTIVE',
    owner,
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
