import type { RewardResult } from '../reward.js';

/** A hierarchical reward's answer: the same shape as every Baton reward's, without per-step shaping. */
export type RewardResultOf = Omit<RewardResult, 'steps'>;
