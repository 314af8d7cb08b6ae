import { z } from 'zod';
import { AgentIdSchema } from './ids.js';

/** Rules of ownership that a deployment configures. */
export const OwnershipPolicySchema = z.object({
  /**
   * Ping-pong cap: once a conversation has been handed towards humans this many times, the next
   * hand-off goes straight back to the human who had it (`return_to_previous_human`), or the
   * conversation stays with its human until it closes (`stay_with_human`: hand-back refused).
   */
  maxHandoffs: z.number().int().positive().default(3),
  pingPong: z.enum(['return_to_previous_human', 'stay_with_human']).default('return_to_previous_human'),
  /** The agent hand-off graph: which agents each agent may transfer to. */
  agentEdges: z.record(AgentIdSchema, z.array(AgentIdSchema)).default({}),
  /** Agent-to-agent transfers allowed per conversation. */
  maxAgentTransfers: z.number().int().nonnegative().default(2),
});
export type OwnershipPolicy = z.infer<typeof OwnershipPolicySchema>;

export const DEFAULT_OWNERSHIP_POLICY: OwnershipPolicy = OwnershipPolicySchema.parse({});
