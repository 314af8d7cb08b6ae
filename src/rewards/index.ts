/**
 * Rewards by name, configured in one place (the command line, the environment server).
 */
import { dense, type DeepPartial, type DenseConfig, type RubricJudge } from './dense.js';
import { r2, TASK_REWARD, type R2Weights } from './outcome.js';
import type { Reward } from './reward.js';

export * from './reward.js';
export { dense, denseConfig, denseScore, DENSE_DEFAULTS, type DenseConfig, type RubricJudge, type RubricScores } from './dense.js';
export { r2, r2Reward, R2_DEFAULTS, TASK_REWARD, taskReward, type R2Weights } from './outcome.js';
export { createRubricJudge, renderForRubrics, type RubricJudgeConfig } from './rubric-judge.js';

export const REWARD_NAMES = ['task', 'r2', 'dense'] as const;
export type RewardName = (typeof REWARD_NAMES)[number];

export const isRewardName = (name: string): name is RewardName => (REWARD_NAMES as readonly string[]).includes(name);

/** How rewards are configured: r2's weights, dense's configuration and its optional judge. */
export interface RewardOptions {
  r2?: Partial<R2Weights>;
  dense?: DeepPartial<DenseConfig>;
  judge?: RubricJudge;
}

export function rewardByName(name: RewardName, options: RewardOptions = {}): Reward {
  switch (name) {
    case 'task':
      return TASK_REWARD;
    case 'r2':
      return r2(options.r2);
    case 'dense':
      return dense({ ...(options.dense ? { config: options.dense } : {}), ...(options.judge ? { judge: options.judge } : {}) });
  }
}

/** Parses a comma-separated list of reward names, saying which names exist when one does not. */
export function parseRewardNames(list: string): RewardName[] {
  const names = list
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const unknown = names.filter((n) => !isRewardName(n));
  if (unknown.length > 0) throw new Error(`unknown reward ${unknown.join(', ')}; the rewards are ${REWARD_NAMES.join(', ')}`);
  if (names.length === 0) throw new Error(`name at least one reward: ${REWARD_NAMES.join(', ')}`);
  return [...new Set(names)] as RewardName[];
}
