import { z } from 'zod';
import { ConstraintSchema } from './conversation.js';
import { AgentIdSchema, QueueIdSchema, StaffIdSchema } from './ids.js';
import { ActorSchema } from './owner.js';

/** Where a hand-off may go: another agent or a human queue. */
export const HandoffTargetSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('agent'), id: AgentIdSchema }),
  z.object({ type: z.literal('queue'), id: QueueIdSchema }),
]);
export type HandoffTarget = z.infer<typeof HandoffTargetSchema>;

/** Commands to the ownership state machine, in the imperative. */
export const CommandSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('RequestHandoff'),
    agent: AgentIdSchema,
    target: HandoffTargetSchema,
    reason: z.string().min(1).max(200),
    summary: z.string().max(4000).nullable(),
    /**
     * Past the ping-pong cap the conversation goes back to the person who last had it — if they
     * are on shift (the router knows; unknown counts as on shift). Off shift, it goes to `target`.
     */
    previousHumanOnShift: z.boolean().optional(),
  }),
  /** The router placed a pending hand-off in a queue (possibly another than requested). */
  z.object({ type: z.literal('EnqueueConversation'), queue: QueueIdSchema }),
  /** A human takes the conversation: from its queue, or over from the agent. */
  z.object({ type: z.literal('ClaimConversation'), staff: StaffIdSchema }),
  z.object({
    type: z.literal('HandBack'),
    staff: StaffIdSchema,
    agent: AgentIdSchema.nullable(),
    notes: z.string().max(4000).nullable(),
    constraints: z.array(ConstraintSchema),
  }),
  /** The human who owns the conversation passes it on, cold: to a queue, or straight to another person. */
  z.object({
    type: z.literal('TransferConversation'),
    staff: StaffIdSchema,
    to: z.discriminatedUnion('type', [
      z.object({ type: z.literal('queue'), id: QueueIdSchema }),
      z.object({ type: z.literal('human'), id: StaffIdSchema }),
    ]),
  }),
  z.object({ type: z.literal('StartAssist'), staff: StaffIdSchema }),
  z.object({ type: z.literal('EndAssist'), staff: StaffIdSchema }),
  z.object({ type: z.literal('CloseConversation'), by: ActorSchema, reason: z.string().max(200) }),
]);
export type Command = z.infer<typeof CommandSchema>;
export type CommandType = Command['type'];
export const COMMAND_TYPES = CommandSchema.options.map((o) => o.shape.type.value);
