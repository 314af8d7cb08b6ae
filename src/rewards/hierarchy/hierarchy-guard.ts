/**
 * The HierarchyGuard of seed 004: multipliers for the three ways a team games its rewards.
 *
 * - **Premature escalation** × 0.5: L1 escalated a low- or medium-priority case after fewer than
 *   3 actions (it passed the work up instead of doing it).
 * - **Ignored supervisor feedback** × 0.7: L1's next step after a rejection with feedback shares
 *   no content word with the feedback (004's keyword overlap).
 * - **Unnecessary manager escalation** × 0.4: the supervisor escalated a low-priority case to the
 *   manager.
 *
 * Each flag is charged to the role that raised it — the first two to L1, the third to L2 — as
 * every Baton reward pays for an agent's own decisions (decision 0012); `multiplier` is the
 * product of all three, as 004 states it, for the team's terminal reward. `severity` (the
 * curriculum's) scales every factor toward 1: factor′ = 1 − severity·(1 − factor), so severity 1
 * is 004's numbers and 0 switches the guard off.
 */
import { tookUpFeedback } from './feedback-overlap.js';
import type { HierarchyEpisode } from './hierarchy-episode.js';

export interface HierarchyGuardConfig {
  premature_escalation: number;
  ignored_feedback: number;
  unnecessary_manager: number;
  /** L1 escalating a low or medium case with fewer actions than this is premature. */
  min_actions_before_escalation: number;
  /** In [0, 1]: how much of each penalty applies (1 = 004's). */
  severity: number;
}

export const HIERARCHY_GUARD_DEFAULTS: Readonly<HierarchyGuardConfig> = {
  premature_escalation: 0.5,
  ignored_feedback: 0.7,
  unnecessary_manager: 0.4,
  min_actions_before_escalation: 3,
  severity: 1,
};

export interface HierarchyGuardResult {
  premature_escalation: boolean;
  /** Rejections with feedback that L1's next step did not take up. */
  ignored_feedback: number;
  unnecessary_manager: boolean;
  /** L1's part: premature escalation × ignored feedback (charged once, however many were ignored). */
  l1: number;
  /** L2's part: unnecessary manager escalation. */
  l2: number;
  /** All three, 004's HierarchyGuard multiplier. */
  multiplier: number;
}

const scaled = (factor: number, severity: number) => 1 - severity * (1 - factor);

/** The guard's flags on one episode, and the multipliers they give. */
export function hierarchyGuard(episode: HierarchyEpisode, config: HierarchyGuardConfig = HIERARCHY_GUARD_DEFAULTS): HierarchyGuardResult {
  if (!(config.severity >= 0 && config.severity <= 1))
    throw new Error(`hierarchy guard: severity must be in [0, 1], got ${config.severity}`);
  const premature =
    episode.l1_escalated &&
    (episode.priority === 'low' || episode.priority === 'medium') &&
    episode.l1_actions < config.min_actions_before_escalation;
  const ignored = episode.reviews.filter(
    (r) => r.verdict === 'reject' && r.feedback !== null && !tookUpFeedback(r.feedback, r.response),
  ).length;
  const unnecessaryManager = episode.manager_escalated && episode.priority === 'low';
  const s = config.severity;
  const l1 = (premature ? scaled(config.premature_escalation, s) : 1) * (ignored > 0 ? scaled(config.ignored_feedback, s) : 1);
  const l2 = unnecessaryManager ? scaled(config.unnecessary_manager, s) : 1;
  return {
    premature_escalation: premature,
    ignored_feedback: ignored,
    unnecessary_manager: unnecessaryManager,
    l1,
    l2,
    multiplier: l1 * l2,
  };
}
