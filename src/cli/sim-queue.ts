import { z } from 'zod';
import { SIM_QUEUE_DEFAULTS, servedSegment, simQueue } from '../lab/queue-sim/sim-queue.js';

/** The options of `baton sim queue`, as the command line gives them. */
export const SimQueueCommandSchema = z
  .object({
    json: z.boolean().optional(),
    seed: z.coerce
      .number()
      .int({ message: '--seed takes a whole number' })
      .min(0)
      .max(2 ** 32 - 1),
    load: z.coerce
      .number()
      .gt(0, { message: '--load must be above 0' })
      .lt(1, { message: '--load must be below 1 (Erlang C needs a stable queue)' }),
    conversations: z.coerce.number().int().positive({ message: '--conversations takes a positive whole number' }),
    stationaryConversations: z.coerce.number().int().positive({ message: '--stationary-conversations takes a positive whole number' }),
    stationaryPrecision: z.coerce
      .number({ message: '--stationary-precision takes a number, a share of the mean wait' })
      .gt(0, { message: '--stationary-precision must be above 0' })
      .max(1, { message: '--stationary-precision is a share of the mean wait, at most 1' }),
    stationaryMaxConversations: z.coerce
      .number()
      .int()
      .positive({ message: '--stationary-max-conversations takes a positive whole number' }),
    servers: z.coerce.number().int().min(1, { message: '--servers takes a whole number ≥ 1' }).max(1000),
  })
  .strict();
export type SimQueueCommandOptions = z.input<typeof SimQueueCommandSchema>;

/** `baton sim queue`: runs the queue simulator and prints its figures as JSON on stdout. */
export async function runSimQueue(raw: SimQueueCommandOptions): Promise<void> {
  const parsed = SimQueueCommandSchema.safeParse({ ...SIM_QUEUE_DEFAULTS, ...raw });
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => i.message).join('; '));
  const { json, ...options } = parsed.data;
  const result = { ...simQueue(options), served: await servedSegment(options) };
  process.stdout.write(`${JSON.stringify(result, null, json === true ? 0 : 2)}\n`);
}
