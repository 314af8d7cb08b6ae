import { bootstrapStratified, DEFAULT_BOOTSTRAP_SEED, DEFAULT_RESAMPLES, CONFIDENCE_LEVEL, type Estimate } from './bootstrap.js';
import type { StoredEvent } from './events.js';
import type { MetricsWindow } from './runtime-metrics.js';
import { reviewsOf, reviewUnitsOf, stratumOf, unitId, verdictFor, type RecordedReview, type ReviewUnit } from './review-units.js';

/**
 * Production hand-off quality from people's verdicts (issue 19; docs/reviews.md; ADR 0027).
 * Every figure is a ratio of two post-stratified totals: within each stratum, the reviewed units'
 * mean is scaled up to the stratum's population in the window, so a stratum reviewed heavily
 * counts for its size, not for its number of verdicts. Intervals come from the stratified
 * percentile bootstrap (resampling verdicts within each stratum, populations fixed).
 */

/** One verdict, reduced to what the figures read. */
export interface Verdict {
  /** The unit was a hand-off (else a conversation the agent kept). */
  handoff: boolean;
  /** A person was needed. */
  needed: boolean;
  /** For a needed hand-off: it came on time. */
  onTime: boolean | null;
  /** For a hand-off: the packet was enough. */
  packetEnough: boolean | null;
  /** The reason the reviewer gave (for a kept conversation that needed a person: the reason it should have had). */
  reason: string | null;
}

/** A stratum as the estimator sees it: its population in the window and the verdicts on its units. */
export interface StratumInput {
  stratum: string;
  subject: 'handoff' | 'kept';
  reason: string | null;
  queue: string | null;
  population: number;
  verdicts: readonly Verdict[];
}

/** The figures, each the lab's meaning carried to production (../shared/METRICS.md). */
export const REVIEW_FIGURES = ['precision', 'recall', 'overEscalation', 'timing', 'packetEnough'] as const;
export type ReviewFigureName = (typeof REVIEW_FIGURES)[number];

/** An estimate, its interval, and how many verdicts are under its denominator. */
export interface ReviewEstimate extends Estimate {
  n: number;
}

/** The figures of one slice; a figure is null where the slice cannot define it (say, recall of one queue). */
export type ReviewFigures = { reviewed: number } & { [F in ReviewFigureName]: ReviewEstimate | null };

/** How one stratum was weighted. */
export interface StratumWeight {
  stratum: string;
  subject: 'handoff' | 'kept';
  reason: string | null;
  queue: string | null;
  /** Units of the stratum in the window. */
  population: number;
  /** Of those, how many have a verdict. */
  reviewed: number;
  /** How many units each verdict stands for (population ÷ reviewed); null when none is reviewed. */
  weight: number | null;
}

/** Production review metrics over a window. */
export interface ReviewMetrics {
  window: MetricsWindow;
  weighting: {
    method: 'post-stratification';
    description: string;
    strata: StratumWeight[];
    /** Units in the window, and those in strata with at least one verdict (what the estimates cover). */
    population: number;
    coveredPopulation: number;
  };
  interval: { method: 'stratified percentile bootstrap'; level: number; resamples: number; seed: number };
  overall: ReviewFigures;
  byReason: Record<string, ReviewFigures>;
  byQueue: Record<string, ReviewFigures>;
}

export const WEIGHTING_DESCRIPTION =
  'Post-stratified: strata are hand-offs by reason and queue, and conversations the agent kept. ' +
  "Each stratum's reviewed share is weighted by the stratum's population in the window " +
  '(each verdict stands for population ÷ reviewed units); strata with no verdict are left out of every estimate, ' +
  'and recall and over-escalation are left undefined while kept conversations exist but none is reviewed.';

/** What a verdict adds to a figure's numerator and denominator (0 or 1 each). */
type Contribution = (v: Verdict) => [num: number, den: number];

const bit = (b: boolean | null) => (b === true ? 1 : 0);

/** The lab's definitions on verdicts: precision TP/(TP+FP), recall TP/(TP+FN), over-escalation FP/negatives. */
const CONTRIBUTIONS: Record<ReviewFigureName, Contribution> = {
  precision: (v) => (v.handoff ? [bit(v.needed), 1] : [0, 0]),
  recall: (v) => [bit(v.handoff && v.needed), bit(v.needed)],
  overEscalation: (v) => [bit(v.handoff && !v.needed), bit(!v.needed)],
  timing: (v) => (v.handoff && v.needed ? [bit(v.onTime), 1] : [0, 0]),
  packetEnough: (v) => (v.handoff ? [bit(v.packetEnough), 1] : [0, 0]),
};

/** One verdict's share of a figure: what it adds to the numerator and the denominator (0 or 1 each). */
interface Share {
  num: number;
  den: number;
}

/** Σ_h N_h·mean_h(num) ÷ Σ_h N_h·mean_h(den) over the strata given; null when the denominator is 0. */
function poststratified(sample: ReadonlyMap<string, readonly Share[]>, populations: ReadonlyMap<string, number>): number | null {
  let num = 0;
  let den = 0;
  for (const [stratum, shares] of sample) {
    if (shares.length === 0) continue;
    let a = 0;
    let b = 0;
    for (const share of shares) {
      a += share.num;
      b += share.den;
    }
    const scale = (populations.get(stratum) ?? 0) / shares.length;
    num += a * scale;
    den += b * scale;
  }
  return den === 0 ? null : num / den;
}

export interface ReviewEstimateOptions {
  seed?: number;
  resamples?: number;
  level?: number;
}

/** One figure over the strata given, with its interval and sample size. */
function estimate(strata: readonly StratumInput[], f: Contribution, options: ReviewEstimateOptions): ReviewEstimate {
  const reviewed = strata.filter((s) => s.verdicts.length > 0);
  // Each verdict's share is worked out once, not on every resample.
  const sample = new Map(
    reviewed.map((s) => [
      s.stratum,
      s.verdicts.map((v): Share => {
        const [num, den] = f(v);
        return { num, den };
      }),
    ]),
  );
  const populations = new Map(reviewed.map((s) => [s.stratum, s.population]));
  const n = [...sample.values()].reduce((sum, shares) => sum + shares.filter((share) => share.den === 1).length, 0);
  const { value, ci } = bootstrapStratified(sample, (resampled) => poststratified(resampled, populations), {
    seed: options.seed ?? DEFAULT_BOOTSTRAP_SEED,
    resamples: options.resamples ?? DEFAULT_RESAMPLES,
    level: options.level ?? CONFIDENCE_LEVEL,
  });
  return { value, ci, n };
}

/** Whether kept conversations are accounted for: none in the window, or some reviewed. */
const keptKnown = (strata: readonly StratumInput[]) =>
  strata.every((s) => s.subject !== 'kept' || s.population === 0 || s.verdicts.length > 0);

/**
 * The figures of one slice. `kind` says which: everything; one reason (hand-offs with that
 * reason, and kept conversations the reviewer said should have gone to a person for it — a kept
 * conversation rightly kept has no reason, so over-escalation is not defined per reason); one
 * queue (its hand-offs: kept conversations are in no queue, so neither recall nor over-escalation is).
 */
function slice(
  strata: readonly StratumInput[],
  kind: 'all' | 'reason' | 'queue',
  options: ReviewEstimateOptions,
  reviewed = strata.reduce((n, s) => n + s.verdicts.length, 0),
): ReviewFigures {
  const figures = { reviewed } as ReviewFigures;
  for (const name of REVIEW_FIGURES) {
    const needsKept = name === 'recall' || name === 'overEscalation';
    const undefinedHere = (needsKept && (kind === 'queue' || !keptKnown(strata))) || (name === 'overEscalation' && kind === 'reason');
    figures[name] = undefinedHere ? null : estimate(strata, CONTRIBUTIONS[name], options);
  }
  return figures;
}

/**
 * The estimates from strata with known populations and their verdicts: overall, per reason and
 * per queue, each figure with its stratified bootstrap interval and sample size, and the weights.
 */
export function estimateReviews(
  strata: readonly StratumInput[],
  window: MetricsWindow,
  options: ReviewEstimateOptions = {},
): ReviewMetrics {
  const handoffStrata = strata.filter((s) => s.subject === 'handoff');
  const kept = strata.filter((s) => s.subject === 'kept');
  const distinct = (pick: (s: StratumInput) => string | null) =>
    [...new Set(handoffStrata.map(pick).filter((x): x is string => x !== null))].sort();
  // Reasons: the agent's, and those reviewers named for hand-offs that never came.
  const missOf = (v: Verdict, reason: string) => v.needed && v.reason === reason;
  const reasons = [
    ...new Set([
      ...distinct((s) => s.reason),
      ...kept.flatMap((s) => s.verdicts.flatMap((v) => (v.needed && v.reason !== null ? [v.reason] : []))),
    ]),
  ].sort();
  const byReason = Object.fromEntries(
    reasons.map((reason) => {
      const own = handoffStrata.filter((s) => s.reason === reason);
      // A kept conversation counts for a reason only as a miss of that reason.
      const misses = kept.map((s) => ({ ...s, verdicts: s.verdicts.map((v) => (missOf(v, reason) ? v : { ...v, needed: false })) }));
      const reviewed =
        own.reduce((n, s) => n + s.verdicts.length, 0) + kept.reduce((n, s) => n + s.verdicts.filter((v) => missOf(v, reason)).length, 0);
      return [reason, slice([...own, ...misses], 'reason', options, reviewed)];
    }),
  );
  const byQueue = Object.fromEntries(
    distinct((s) => s.queue).map((queue) => [
      queue,
      slice(
        handoffStrata.filter((s) => s.queue === queue),
        'queue',
        options,
      ),
    ]),
  );
  const population = strata.reduce((n, s) => n + s.population, 0);
  return {
    window,
    weighting: {
      method: 'post-stratification',
      description: WEIGHTING_DESCRIPTION,
      strata: strata.map((s) => ({
        stratum: s.stratum,
        subject: s.subject,
        reason: s.reason,
        queue: s.queue,
        population: s.population,
        reviewed: s.verdicts.length,
        weight: s.verdicts.length === 0 ? null : s.population / s.verdicts.length,
      })),
      population,
      coveredPopulation: strata.filter((s) => s.verdicts.length > 0).reduce((n, s) => n + s.population, 0),
    },
    interval: {
      method: 'stratified percentile bootstrap',
      level: options.level ?? CONFIDENCE_LEVEL,
      resamples: options.resamples ?? DEFAULT_RESAMPLES,
      seed: options.seed ?? DEFAULT_BOOTSTRAP_SEED,
    },
    overall: slice(strata, 'all', options),
    byReason,
    byQueue,
  };
}

/** A recorded review as the estimator reads it. */
export function verdictOf(review: RecordedReview): Verdict {
  return review.subject === 'handoff'
    ? {
        handoff: true,
        needed: review.needed,
        onTime: review.needed ? review.timing === 'on_time' : null,
        packetEnough: review.packetEnough,
        reason: review.reason,
      }
    : { handoff: false, needed: review.needed, onTime: null, packetEnough: null, reason: review.reason };
}

/**
 * The review metrics of a window, from the conversations' logs: the window's units in their
 * strata (`reviewUnitsOf`), the verdict that counts for each (`verdictFor`), then `estimateReviews`.
 * `keep` limits the units (an agent sees the hand-offs of their own queues).
 */
export function reviewMetrics(
  logs: readonly (readonly StoredEvent[])[],
  window: MetricsWindow,
  options: ReviewEstimateOptions & { keep?: (unit: ReviewUnit) => boolean } = {},
): ReviewMetrics {
  const strata = new Map<string, StratumInput & { verdicts: Verdict[] }>();
  const units: Array<{ id: string; unit: ReviewUnit; reviews: RecordedReview[] }> = [];
  for (const log of logs) {
    const reviews = reviewsOf(log);
    for (const unit of reviewUnitsOf(log, window)) if (!options.keep || options.keep(unit)) units.push({ id: unitId(unit), unit, reviews });
  }
  // In id order, so the bootstrap draws the same verdicts whatever order the store listed the logs in.
  units.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const { unit, reviews } of units) {
    const name = stratumOf(unit);
    const stratum = strata.get(name) ?? {
      stratum: name,
      subject: unit.subject,
      reason: unit.subject === 'handoff' ? unit.reason : null,
      queue: unit.subject === 'handoff' ? unit.queue : null,
      population: 0,
      verdicts: [],
    };
    stratum.population += 1;
    const verdict = verdictFor(unit, reviews);
    if (verdict) stratum.verdicts.push(verdictOf(verdict));
    strata.set(name, stratum);
  }
  const ordered = [...strata.values()].sort((a, b) => (a.stratum < b.stratum ? -1 : a.stratum > b.stratum ? 1 : 0));
  return estimateReviews(ordered, window, options);
}
