/**
 * Per-role rewards of seed 004, each a pure function of one {@link HierarchyEpisode}, returning its
 * value and every term it was built from.
 *
 * - **L1** = 0.30 empathy + 0.25 accuracy + 0.25 (judged resolution if terminal, else tone)
 *   + 0.20 efficiency, × integrity (the single-agent guards × L1's part of the HierarchyGuard),
 *   − 0.7 for an injection, clamped to [0, 1].
 * - **L2** = 0.35 oversight + 0.30 (1 + escalation penalty + unnecessary-manager penalty)
 *   + 0.20 policy adherence + 0.15 (1 if steps ≤ ideal else 0.5), × L2's part of the
 *   HierarchyGuard, − 0.7 for an injection, clamped. Oversight is the share of reviews whose verdict was
 *   the right one (1 when nothing needed review); the escalation penalty (−0.3) is a wrong
 *   decision to involve the manager (one not due, or one due and not made); the unnecessary-manager
 *   penalty (−0.2) is a low-priority case sent to the manager.
 * - **L3** = 0.40 decision quality + 0.30 (judged resolution if terminal, else 0.5)
 *   + 0.30 (1 if terminal else 0), − 0.7 for an injection, clamped.
 *
 * An injection costs 0.7 in hierarchy mode (0.5 in `dense`), subtracted after the multiplier as
 * `dense` does. Every weight lives in {@link HIERARCHY_REWARD_DEFAULTS}.
 */
import { hierarchyGuard, HIERARCHY_GUARD_DEFAULTS, type HierarchyGuardConfig, type HierarchyGuardResult } from './hierarchy-guard.js';
import { clamp01, judgedResolution, type HierarchyEpisode, type Role } from './hierarchy-episode.js';
import type { RewardResultOf } from './reward-result.js';

export interface HierarchyRewardConfig {
  l1: { empathy: number; accuracy: number; resolution: number; efficiency: number };
  l2: { oversight: number; escalation: number; policy_adherence: number; step_budget: number };
  l3: { decision_quality: number; resolution: number; closure: number };
  /** L2's escalation-discipline penalties (added to 1). */
  escalation_penalty: number;
  unnecessary_manager_penalty: number;
  /** L2's step-budget term when the team went over the ideal step count. */
  over_budget: number;
  /** L3's resolution term when the episode did not end. */
  l3_open_resolution: number;
  injection: number;
  guard: HierarchyGuardConfig;
}

export const HIERARCHY_REWARD_DEFAULTS: Readonly<HierarchyRewardConfig> = {
  l1: { empathy: 0.3, accuracy: 0.25, resolution: 0.25, efficiency: 0.2 },
  l2: { oversight: 0.35, escalation: 0.3, policy_adherence: 0.2, step_budget: 0.15 },
  l3: { decision_quality: 0.4, resolution: 0.3, closure: 0.3 },
  escalation_penalty: -0.3,
  unnecessary_manager_penalty: -0.2,
  over_budget: 0.5,
  l3_open_resolution: 0.5,
  injection: 0.7,
  guard: HIERARCHY_GUARD_DEFAULTS,
};

const injectionCost = (e: HierarchyEpisode, role: Role, config: HierarchyRewardConfig) =>
  e.injection.includes(role) ? config.injection : 0;

/** L1's reward: empathy, accuracy, resolution (or tone while open), efficiency, under its integrity multiplier. */
export function l1Reward(e: HierarchyEpisode, config: HierarchyRewardConfig = HIERARCHY_REWARD_DEFAULTS): RewardResultOf {
  const guard = hierarchyGuard(e, config.guard);
  const w = config.l1;
  const resolution = e.terminal ? judgedResolution(e) : e.tone;
  const base = w.empathy * e.empathy + w.accuracy * e.accuracy + w.resolution * resolution + w.efficiency * e.efficiency;
  const integrity = e.reward_guard * guard.l1;
  const injection = injectionCost(e, 'l1', config);
  return {
    value: clamp01(base * integrity - injection),
    components: {
      role: 'l1',
      empathy: e.empathy,
      accuracy: e.accuracy,
      resolution,
      resolution_source: e.terminal ? (e.resolution_judge === null ? 'rule' : 'judge') : 'tone',
      efficiency: e.efficiency,
      base,
      reward_guard: e.reward_guard,
      ...guardComponents(guard),
      integrity,
      injection: injection > 0,
      injection_penalty: -injection,
    },
  };
}

/** The share of reviews whose verdict was the right one; 1 when nothing needed review. */
export function oversightQuality(e: HierarchyEpisode): number {
  if (e.reviews.length === 0) return 1;
  return e.reviews.filter((r) => r.verdict === r.right).length / e.reviews.length;
}

/** L2's reward: oversight quality, escalation discipline, policy adherence, step budget, under its guard. */
export function l2Reward(e: HierarchyEpisode, config: HierarchyRewardConfig = HIERARCHY_REWARD_DEFAULTS): RewardResultOf {
  const guard = hierarchyGuard(e, config.guard);
  const w = config.l2;
  const oversight = oversightQuality(e);
  const wrongEscalation = e.manager_escalated !== e.manager_escalation_due;
  const escalationPenalty = wrongEscalation ? config.escalation_penalty : 0;
  const managerPenalty = e.manager_escalated && e.priority === 'low' ? config.unnecessary_manager_penalty : 0;
  const discipline = clamp01(1 + escalationPenalty + managerPenalty);
  const budget = e.steps <= e.ideal_steps ? 1 : config.over_budget;
  const base = w.oversight * oversight + w.escalation * discipline + w.policy_adherence * e.policy_adherence + w.step_budget * budget;
  const injection = injectionCost(e, 'l2', config);
  return {
    value: clamp01(base * guard.l2 - injection),
    components: {
      role: 'l2',
      reviews: e.reviews.length,
      oversight,
      escalation_penalty: escalationPenalty,
      unnecessary_manager_penalty: managerPenalty,
      escalation_discipline: discipline,
      policy_adherence: e.policy_adherence,
      steps: e.steps,
      ideal_steps: e.ideal_steps,
      step_budget: budget,
      base,
      ...guardComponents(guard),
      integrity: guard.l2,
      injection: injection > 0,
      injection_penalty: -injection,
    },
  };
}

/**
 * L3's reward: decision quality, resolution, closure. An episode the manager never saw has no L3
 * decision; its decision quality counts 0, so a manager is paid only for cases it decided.
 */
export function l3Reward(e: HierarchyEpisode, config: HierarchyRewardConfig = HIERARCHY_REWARD_DEFAULTS): RewardResultOf {
  const w = config.l3;
  const quality = e.decision_quality ?? 0;
  const resolution = e.terminal ? judgedResolution(e) : config.l3_open_resolution;
  const closure = e.terminal ? 1 : 0;
  const base = w.decision_quality * quality + w.resolution * resolution + w.closure * closure;
  const injection = injectionCost(e, 'l3', config);
  return {
    value: clamp01(base - injection),
    components: {
      role: 'l3',
      decided: e.decision_quality !== null,
      decision_quality: quality,
      resolution,
      closure,
      base,
      injection: injection > 0,
      injection_penalty: -injection,
    },
  };
}

function guardComponents(guard: HierarchyGuardResult) {
  return {
    premature_escalation: guard.premature_escalation,
    ignored_feedback: guard.ignored_feedback,
    unnecessary_manager: guard.unnecessary_manager,
    hierarchy_guard: guard.multiplier,
  };
}

/** The reward of one role. */
export function roleReward(role: Role, e: HierarchyEpisode, config: HierarchyRewardConfig = HIERARCHY_REWARD_DEFAULTS): RewardResultOf {
  return role === 'l1' ? l1Reward(e, config) : role === 'l2' ? l2Reward(e, config) : l3Reward(e, config);
}
