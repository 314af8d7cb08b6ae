/**
 * The team's terminal reward and hierarchy score of seed 004.
 *
 * - **Hierarchy score** = 0.5, + 0.2 if a supervisor reviewed anything, + 0.1 if L1 took at least
 *   2 actions, − 0.2 if a manager was pulled into a low-priority case, clamped to [0, 1].
 * - **Terminal** = 0.25 resolution (0.4 rule + 0.6 judge; without a judge the rule stands in)
 *   + 0.15 SLA + 0.15 empathy + 0.15 policy adherence + 0.10 accuracy + 0.10 efficiency
 *   + 0.10 hierarchy score, less the penalties: 0.2 per loop, 0.15 per contradiction, 0.30 for
 *   keyword stuffing, 0.3 for an escalation that should not have been (L1's premature one, or a
 *   wrong decision to involve the manager), 0.15 per ignored feedback, 0.20 for an unnecessary
 *   manager escalation; clamped to [0, 1].
 */
import { hierarchyGuard } from './hierarchy-guard.js';
import { clamp01, judgedResolution, type HierarchyEpisode } from './hierarchy-episode.js';
import type { RewardResultOf } from './reward-result.js';
import { HIERARCHY_REWARD_DEFAULTS, type HierarchyRewardConfig } from './role-rewards.js';

export interface TeamRewardConfig {
  hierarchy: { base: number; reviewed: number; l1_worked: number; manager_on_low: number; l1_min_actions: number };
  terminal: {
    resolution: number;
    resolution_rule: number;
    resolution_judge: number;
    sla: number;
    empathy: number;
    policy_adherence: number;
    accuracy: number;
    efficiency: number;
    hierarchy: number;
  };
  penalties: {
    loop: number;
    contradiction: number;
    keyword_stuffing: number;
    escalation: number;
    ignored_feedback: number;
    unnecessary_manager: number;
  };
}

export const TEAM_REWARD_DEFAULTS: Readonly<TeamRewardConfig> = {
  hierarchy: { base: 0.5, reviewed: 0.2, l1_worked: 0.1, manager_on_low: 0.2, l1_min_actions: 2 },
  terminal: {
    resolution: 0.25,
    resolution_rule: 0.4,
    resolution_judge: 0.6,
    sla: 0.15,
    empathy: 0.15,
    policy_adherence: 0.15,
    accuracy: 0.1,
    efficiency: 0.1,
    hierarchy: 0.1,
  },
  penalties: { loop: 0.2, contradiction: 0.15, keyword_stuffing: 0.3, escalation: 0.3, ignored_feedback: 0.15, unnecessary_manager: 0.2 },
};

/** 004's hierarchy score: did the structure work as a team should. */
export function hierarchyScore(e: HierarchyEpisode, config: TeamRewardConfig = TEAM_REWARD_DEFAULTS): number {
  const h = config.hierarchy;
  return clamp01(
    h.base +
      (e.reviews.length > 0 ? h.reviewed : 0) +
      (e.l1_actions >= h.l1_min_actions ? h.l1_worked : 0) -
      (e.manager_escalated && e.priority === 'low' ? h.manager_on_low : 0),
  );
}

/** The team's terminal reward, with every term and penalty. */
export function teamReward(
  e: HierarchyEpisode,
  config: TeamRewardConfig = TEAM_REWARD_DEFAULTS,
  roles: HierarchyRewardConfig = HIERARCHY_REWARD_DEFAULTS,
): RewardResultOf {
  const t = config.terminal;
  const p = config.penalties;
  const guard = hierarchyGuard(e, roles.guard);
  const resolution = t.resolution_rule * e.resolution_rule + t.resolution_judge * judgedResolution(e);
  const hierarchy = hierarchyScore(e, config);
  const base =
    t.resolution * resolution +
    t.sla * e.sla +
    t.empathy * e.empathy +
    t.policy_adherence * e.policy_adherence +
    t.accuracy * e.accuracy +
    t.efficiency * e.efficiency +
    t.hierarchy * hierarchy;
  const wrongEscalation = guard.premature_escalation || e.manager_escalated !== e.manager_escalation_due;
  const penalty =
    p.loop * e.loops +
    p.contradiction * e.contradictions +
    (e.keyword_stuffing ? p.keyword_stuffing : 0) +
    (wrongEscalation ? p.escalation : 0) +
    p.ignored_feedback * guard.ignored_feedback +
    (guard.unnecessary_manager ? p.unnecessary_manager : 0);
  return {
    value: clamp01(base - penalty),
    components: {
      role: 'team',
      resolution,
      sla: e.sla,
      empathy: e.empathy,
      policy_adherence: e.policy_adherence,
      accuracy: e.accuracy,
      efficiency: e.efficiency,
      hierarchy,
      base,
      loops: e.loops,
      contradictions: e.contradictions,
      keyword_stuffing: e.keyword_stuffing,
      wrong_escalation: wrongEscalation,
      ignored_feedback: guard.ignored_feedback,
      unnecessary_manager: guard.unnecessary_manager,
      penalty,
    },
  };
}
