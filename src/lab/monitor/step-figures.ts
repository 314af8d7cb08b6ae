/**
 * The figures of one training step: the lab's definitions (METRICS.md, `docs/metrics.md`) pooled
 * over the step's finished episodes — success over scored episodes, the hand-off rate over all
 * episodes, over-escalation (FP / negatives), missed hand-offs (FN / positives), the citation rate
 * (cited / refusals and hand-offs) — and the mean reward and mean of each reward component. Each
 * rate keeps its numerator and denominator: the trend test weighs a step by them. No interval: a
 * step's noise is what the trend test measures across steps (`trend.ts`).
 */
import { ratioOf } from '../metrics/bootstrap.js';
import type { MonitoredEpisode } from './monitored-episode.js';

/** A count over a base: the rate is `num / den`, null when `den` is 0. */
export interface Share {
  num: number;
  den: number;
  rate: number | null;
}

/** What the monitor reports of one step. */
export interface StepFigures {
  step: number;
  episodes: number;
  /** Scored episodes (the base of success); unscored ones are `episodes − scored`. */
  scored: number;
  positives: number;
  negatives: number;
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  success: Share;
  handoff_rate: Share;
  over_escalation: Share;
  missed: Share;
  citation_rate: Share;
  /** The mean reward over the step's episodes. */
  reward: number | null;
  /** The mean of each numeric reward component, over the episodes that carry it. */
  components: Record<string, number>;
  /**
   * The covariance of each watched rate with success within the step (the delta method over its
   * episodes): the rates are of the same episodes — an unnecessary hand-off usually fails its task
   * — so the variance of their difference is not the sum of theirs.
   */
  covariance_with_success: { handoff_rate: number; over_escalation: number };
}

const share = (num: number, den: number): Share => ({ num, den, rate: ratioOf(num, den) });

/** The series the monitor follows, by name (each a {@link Share} of a step). */
export const MONITORED_RATES = ['success', 'handoff_rate', 'over_escalation', 'missed', 'citation_rate'] as const;
export type MonitoredRate = (typeof MONITORED_RATES)[number];

/** Pools a step's episodes into its figures. */
export function stepFigures(step: number, episodes: readonly MonitoredEpisode[]): StepFigures {
  const counts = { tp: 0, fp: 0, fn: 0, tn: 0 };
  let scored = 0;
  let successes = 0;
  let events = 0;
  let cited = 0;
  let rewardSum = 0;
  const componentSums = new Map<string, { sum: number; n: number }>();
  for (const e of episodes) {
    counts[e.handoff_class] += 1;
    if (e.scored) {
      scored += 1;
      if (e.success === true) successes += 1;
    }
    events += e.citations.events;
    cited += e.citations.cited;
    rewardSum += e.reward.value;
    const components = e.reward.components;
    for (const name in components) {
      let c = componentSums.get(name);
      if (!c) componentSums.set(name, (c = { sum: 0, n: 0 }));
      c.sum += components[name] as number;
      c.n += 1;
    }
  }
  const positives = counts.tp + counts.fn;
  const negatives = counts.fp + counts.tn;
  const successRate = ratioOf(successes, scored);
  const handoffRate = ratioOf(counts.tp + counts.fp, episodes.length);
  const overRate = ratioOf(counts.fp, negatives);
  const components = Object.fromEntries(
    [...componentSums].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, c]) => [name, c.sum / c.n]),
  );
  return {
    step,
    episodes: episodes.length,
    scored,
    positives,
    negatives,
    ...counts,
    success: share(successes, scored),
    handoff_rate: share(counts.tp + counts.fp, episodes.length),
    over_escalation: share(counts.fp, negatives),
    missed: share(counts.fn, positives),
    citation_rate: share(cited, events),
    reward: ratioOf(rewardSum, episodes.length),
    components,
    covariance_with_success: covariances(episodes, successRate, handoffRate, overRate, scored, negatives),
  };
}

/**
 * Cov(rate, success) of one step by the delta method: each rate is a ratio of counts over the
 * step's N episodes, its influence per episode `(x − rate·u) / mean(u)` (x: counted, u: in its
 * base), and the covariance of two ratios `Σ ψ₁ψ₂ / N²`. Zero when a rate has no base.
 */
function covariances(
  episodes: readonly MonitoredEpisode[],
  success: number | null,
  handoff: number | null,
  over: number | null,
  scored: number,
  negatives: number,
): StepFigures['covariance_with_success'] {
  const n = episodes.length;
  if (success === null || n === 0) return { handoff_rate: 0, over_escalation: 0 };
  let handoffSum = 0;
  let overSum = 0;
  for (const e of episodes) {
    const psiSuccess = e.scored ? ((e.success === true ? 1 : 0) - success) / (scored / n) : 0;
    if (handoff !== null) handoffSum += ((e.transferred ? 1 : 0) - handoff) * psiSuccess;
    if (over !== null && !e.should_transfer) overSum += (((e.transferred ? 1 : 0) - over) / (negatives / n)) * psiSuccess;
  }
  return { handoff_rate: handoffSum / (n * n), over_escalation: overSum / (n * n) };
}
