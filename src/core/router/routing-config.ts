import { z } from 'zod';

/** A skill a queue can require and a person can have: a plain lower-case word (`billing`, `legal`). */
export const RouterSkillSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{0,39}$/, { message: 'a skill is a lower-case word of letters, digits, - or _ (at most 40)' });

/** The channels work arrives on; each takes a configured share of a person's capacity. */
export const ChannelSchema = z.enum(['chat', 'callback']);
export type Channel = z.infer<typeof ChannelSchema>;

/**
 * Capacity weight of one item per channel (Salesforce-style: capacity 6, weight 2 → 3 items).
 * Defaults: a chat weighs 1, a callback 2.
 */
export const ChannelWeightsSchema = z
  .object({
    chat: z.number().int({ message: 'a channel weight is a whole number' }).min(1).max(100).default(1),
    callback: z.number().int({ message: 'a channel weight is a whole number' }).min(1).max(100).default(2),
  })
  .strict();
export type ChannelWeights = z.infer<typeof ChannelWeightsSchema>;

/** The default weights: chat 1, callback 2. */
export const DEFAULT_CHANNEL_WEIGHTS: ChannelWeights = { chat: 1, callback: 2 };

/**
 * Where a person is: `available` takes new offers; `busy` is at work but takes no new offer (in a
 * call, wrapping up); `away` is on a break; `offline` is off shift. Only `available` is offered work;
 * items already held keep counting against capacity whatever the presence.
 */
export const PresenceSchema = z.enum(['available', 'busy', 'away', 'offline']);
export type Presence = z.infer<typeof PresenceSchema>;

/** A person as the router sees them: skills and total capacity in weight units. */
export const RoutingStaffSchema = z
  .object({
    id: z.string().min(1, { message: 'a staff member needs an id' }),
    skills: z.array(RouterSkillSchema).max(50),
    capacity: z.number().int({ message: 'capacity is a whole number of weight units' }).min(1).max(100),
  })
  .strict();
export type RoutingStaff = z.infer<typeof RoutingStaffSchema>;

/**
 * Which eligible person is offered the item first: the longest idle (Twilio's default, fair to
 * staff); the one with the most free units (spreads work); or the one with the fewest free units
 * that still fit (`best_fit`: packs small items so that whole people stay free for heavy ones,
 * such as a callback that needs two units on one person).
 */
export const AssignmentOrderSchema = z.enum(['longest_idle', 'most_free_capacity', 'best_fit']);
export type AssignmentOrder = z.infer<typeof AssignmentOrderSchema>;

/** What a queue offers when no capacity backs a promise (its hours are over, or nobody eligible is on shift). */
export const NoCapacityOptionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('callback') }).strict(),
  z
    .object({
      type: z.literal('ticket'),
      responseWithinHours: z
        .number()
        .positive()
        .max(24 * 14),
    })
    .strict(),
  z.object({ type: z.literal('limited_scope') }).strict(),
]);
export type NoCapacityOption = z.infer<typeof NoCapacityOptionSchema>;

/** A queue's routing configuration (its calendar lives beside it, evaluated by the runtime). */
export const RoutingQueueSchema = z
  .object({
    id: z.string().regex(/^queue_[A-Za-z0-9_-]{1,120}$/, { message: 'a queue id has the form queue_…' }),
    skills: z.array(RouterSkillSchema).max(20),
    reservationTimeoutSeconds: z.number().positive().max(3600).default(30),
    order: AssignmentOrderSchema.default('longest_idle'),
    whenNoCapacity: NoCapacityOptionSchema.default({ type: 'callback' }),
  })
  .strict();
export type RoutingQueue = z.infer<typeof RoutingQueueSchema>;
