/**
 * Seed 004's rewards for a support team (docs/hierarchy.md): per-role rewards (L1, L2, L3), the
 * HierarchyGuard, the team's terminal reward and hierarchy score, all pure functions of one
 * {@link HierarchyEpisode}.
 */
export * from './hierarchy-episode.js';
export { contentWords, tookUpFeedback } from './feedback-overlap.js';
export { hierarchyGuard, HIERARCHY_GUARD_DEFAULTS, type HierarchyGuardConfig, type HierarchyGuardResult } from './hierarchy-guard.js';
export {
  l1Reward,
  l2Reward,
  l3Reward,
  oversightQuality,
  roleReward,
  HIERARCHY_REWARD_DEFAULTS,
  type HierarchyRewardConfig,
} from './role-rewards.js';
export { hierarchyScore, teamReward, TEAM_REWARD_DEFAULTS, type TeamRewardConfig } from './team-reward.js';
export type { RewardResultOf } from './reward-result.js';
export * from './curriculum.js';
