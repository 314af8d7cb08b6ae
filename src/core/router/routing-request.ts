import { z } from 'zod';
import { ChannelSchema, RouterSkillSchema } from './routing-config.js';

/** One step of a request's route: a queue tried for at most `timeoutSeconds`, or a callback. */
export const RoutingTargetSchema = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('queue'),
      queue: z.string().regex(/^queue_[A-Za-z0-9_-]{1,120}$/, { message: 'a queue id has the form queue_…' }),
      timeoutSeconds: z.number().positive(),
    })
    .strict(),
  z.object({ type: z.literal('callback') }).strict(),
]);
export type RoutingTarget = z.infer<typeof RoutingTargetSchema>;

/**
 * What the router is asked to place: the skills the conversation needs (from the decider's reason
 * and the intent), its channel, its priority (`routingPriority`), and the ordered targets.
 */
export const RouterRequestSchema = z
  .object({
    id: z.string().min(1),
    skills: z.array(RouterSkillSchema).max(20),
    channel: ChannelSchema,
    priority: z.number(),
    safety: z.boolean(),
    targets: z
      .array(RoutingTargetSchema)
      .min(1, { message: 'a request needs at least one target' })
      .refine((targets) => targets[0]?.type === 'queue', { message: 'the first target must be a queue' }),
  })
  .strict();
export type RouterRequest = z.infer<typeof RouterRequestSchema>;

/** Why a person declined an offer; recorded with the decline. */
export const DeclineReasonSchema = z.enum(['busy', 'wrong_skill', 'end_of_shift', 'other']);
export type DeclineReason = z.infer<typeof DeclineReasonSchema>;

/** The router's facts, past tense, in the order they happened. */
export type RoutingEvent =
  | { type: 'request.queued'; requestId: string; queue: string; at: number }
  | {
      type: 'reservation.created';
      reservationId: string;
      requestId: string;
      staffId: string;
      channel: RouterRequest['channel'];
      expiresAt: number;
      at: number;
    }
  | { type: 'reservation.accepted'; reservationId: string; requestId: string; staffId: string; at: number }
  | { type: 'reservation.declined'; reservationId: string; requestId: string; staffId: string; reason: DeclineReason; at: number }
  | { type: 'reservation.timed_out'; reservationId: string; requestId: string; staffId: string; at: number }
  | { type: 'request.target_moved'; requestId: string; to: RoutingTarget; at: number }
  | { type: 'request.left'; requestId: string; to: 'callback' | 'canceled'; at: number }
  | { type: 'assignment.completed'; requestId: string; staffId: string; at: number };
