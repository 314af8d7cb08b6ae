import { z } from 'zod';
import { ChannelSchema } from './routing-config.js';

/** The facts a routing priority is computed from. */
export const PriorityInputSchema = z
  .object({
    tier: z.enum(['standard', 'gold', 'platinum']).default('standard'),
    /** Money at stake in the conversation, in the account's currency. */
    valueAtStake: z.number().nonnegative().default(0),
    channel: ChannelSchema.default('chat'),
    /** A crisis (self-harm, danger): always first, never waits for queue hours. */
    safety: z.boolean().default(false),
  })
  .strict();
export type PriorityInput = z.infer<typeof PriorityInputSchema>;

const TIER_POINTS = { standard: 0, gold: 20, platinum: 40 } as const;
/** Channels whose customer gives up sooner rank a little higher: a waiting chat is live, a callback is booked. */
const CHANNEL_POINTS = { chat: 10, callback: 0 } as const;
/** Safety outranks any sum of the other terms (at most 40 + 30 + 10). */
export const SAFETY_PRIORITY = 1000;

/**
 * A request's priority, higher first: safety above everything; otherwise tier points, plus up to
 * 30 points for value at stake (10 per decade above 10: 100 → 10, 1 000 → 20, ≥ 10 000 → 30), plus
 * the channel's deadline points.
 */
export function routingPriority(input: PriorityInput): number {
  if (input.safety) return SAFETY_PRIORITY;
  const value = input.valueAtStake > 10 ? Math.min(30, Math.round(10 * (Math.log10(input.valueAtStake) - 1))) : 0;
  return TIER_POINTS[input.tier] + value + CHANNEL_POINTS[input.channel];
}
