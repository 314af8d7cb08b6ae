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
  };
}
