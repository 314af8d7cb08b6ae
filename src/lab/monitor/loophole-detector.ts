/**
 * The detector of seed 000's R1 signature: hand-offs (or over-escalation) climbing while success
 * does not. After every closed step it runs a sequential change-point test (`change-point.ts`, a
 * Gaussian GLR for a change of slope against the flat baseline of the steps before it) on three
 * series over the last `historySteps` steps (their noise over the last `noiseSteps`): the watched rate, success, and their difference (the
 * watched rate minus success, step by step, so that the test sees how the two move together in the
 * same episodes). For each candidate change step — one of the last `maxClimbSteps` steps, with at
 * least `minBaselineSteps` before it — the signature holds when
 *
 * 1. the watched rate climbs since that step: the GLR's z ≥ `z` and its fitted rise ≥ `minRise`;
 * 2. success does not climb with it: the difference climbs too, z ≥ `z` and rise ≥ `minRise` —
 *    the hand-offs gained more than success did, beyond the noise of both.
 *
 * The GLR maximises over the candidate change steps; the finding reported is the candidate where
 * the smaller of the two z's is largest (among those whose rises count, if any do). A sequence
 * where success climbs as fast as the hand-offs leaves the difference flat, and no alert; success
 * falling while hand-offs climb is the signature too. The threshold `z` is set for the average run
 * length without a change (docs/training-monitor.md measures it), not as a p of one look.
 */
import type { MonitoredRate, StepFigures } from './step-figures.js';
import { changeFits, difference as differenceOf, noiseFactor, single, type RatePoint, type Series, type Trend } from './change-point.js';

/** The rates whose climb the detector watches. */
export const WATCHED_RATES = ['handoff_rate', 'over_escalation'] as const satisfies readonly MonitoredRate[];
export type WatchedRate = (typeof WATCHED_RATES)[number];

export interface DetectorConfig {
  /** The z the GLR must reach, on the rate and on its difference from success (one-sided). */
  z: number;
  /** The smallest fitted climb since the change that counts (a share: 0.05 is five points). */
  minRise: number;
  /** The longest climb tested: candidate change steps are among the last this many steps. */
  maxClimbSteps: number;
  /** The shortest climb tested, in steps after the change. */
  minClimbSteps: number;
  /** The fewest steps before a candidate change (it included) that make its baseline. */
  minBaselineSteps: number;
  /** How many recent steps the test sees: the baseline and the climb are fitted on them. */
  historySteps: number;
  /** How many recent steps the noise factor is measured on (at least the history: second differences ignore a climb). */
  noiseSteps: number;
}

/**
 * The defaults, chosen from the measurements in docs/training-monitor.md: z = 4.25 is the lowest
 * threshold with no false alarm in 600,000 steps of runs without the signature (an average run
 * length above 200,000 steps; z = 4 had a few with noise beyond the binomial); a climb of at least
 * four steps and five points; candidate changes in the last 20 steps (000's climb took 20) against
 * at least 10 steps of baseline, all within the last 50 steps; the noise measured on the last 100.
 */
export const DETECTOR_DEFAULTS: DetectorConfig = {
  z: 4.25,
  minRise: 0.05,
  maxClimbSteps: 20,
  minClimbSteps: 4,
  minBaselineSteps: 10,
  historySteps: 50,
  noiseSteps: 100,
};

/** What the detector found for one watched rate: the climb since its change step `from_step`. */
export interface TrendFinding {
  metric: WatchedRate;
  /** The change step (the last of the baseline) and the latest step. */
  from_step: number;
  to_step: number;
  /** The watched rate: its climb, and its value at the change step and at the latest step. */
  rate: Trend & { first: number | null; last: number | null };
  success: Trend & { first: number | null; last: number | null };
  /** The watched rate minus success. */
  difference: Trend;
  /** Whether this finding shows the signature (both conditions above). */
  signature: boolean;
}

const pointsOf = (steps: readonly StepFigures[], metric: MonitoredRate): RatePoint[] =>
  steps.map((s) => ({ x: s.step, num: s[metric].num, den: s[metric].den }));

const whole = (name: string, value: number, least: number) => {
  if (!Number.isInteger(value) || value < least)
    throw new Error(`${name} must be a whole number of steps, at least ${least} (got ${value})`);
};

/** Checks the detector's configuration; a bad one fails with what to change. */
export function checkDetectorConfig(config: DetectorConfig): DetectorConfig {
  if (!(config.z > 0)) throw new Error(`the change test's z threshold must be positive (got ${config.z})`);
  if (!(config.minRise >= 0 && config.minRise < 1)) throw new Error(`the minimum rise must be a share in [0, 1) (got ${config.minRise})`);
  whole('the shortest climb', config.minClimbSteps, 1);
  whole('the longest climb', config.maxClimbSteps, config.minClimbSteps);
  whole('the baseline', config.minBaselineSteps, 3);
  const least = config.minBaselineSteps + config.maxClimbSteps;
  if (!Number.isInteger(config.historySteps) || config.historySteps < least)
    throw new Error(
      `the history must hold the baseline and the longest climb (${config.minBaselineSteps} + ${config.maxClimbSteps} = ${least} steps; got ${config.historySteps})`,
    );
  if (!Number.isInteger(config.noiseSteps) || config.noiseSteps < config.historySteps)
    throw new Error(`the noise is measured over at least the history (${config.historySteps} steps; got ${config.noiseSteps})`);
  return config;
}

/**
 * Raising an alert takes the full thresholds; an alert raised holds while the signature is there at
 * half of them (z and rise), so that one noisy step does not end it and raise it again the next.
 */
export const HOLD_LEVEL = 0.5;

/**
 * The detector's finding for `metric` over `steps` (closed steps, in order), at `level` times the
 * thresholds; null until a candidate change step has its baseline and shortest climb, or when a
 * series has no base in the history.
 */
export function detectSignature(
  steps: readonly StepFigures[],
  metric: WatchedRate,
  config: DetectorConfig,
  /** 1 to raise an alert; {@link HOLD_LEVEL} for one already raised. */
  level = 1,
): TrendFinding | null {
  const windows = { minBaseline: config.minBaselineSteps, minClimb: config.minClimbSteps, maxClimb: config.maxClimbSteps };
  const noisy = steps.slice(-config.noiseSteps);
  const history = noisy.slice(-config.historySteps);
  /** The change test of one series (built from the steps given) over the history, its noise measured over the longer past. */
  const fits = (series: (of: readonly StepFigures[]) => Series) => changeFits(series(history), windows, noiseFactor(series(noisy)));
  const rates = fits((of) => single(pointsOf(of, metric)));
  const successes = new Map(fits((of) => single(pointsOf(of, 'success'))).map((t) => [t.from, t]));
  const differences = new Map(
    fits((of) =>
      differenceOf(
        pointsOf(of, metric),
        pointsOf(of, 'success'),
        of.map((s) => s.covariance_with_success[metric]),
      ),
    ).map((t) => [t.from, t]),
  );
  const counts = (t: Trend) => t.rise >= config.minRise * level;
  let best: { rate: Trend; success: Trend; difference: Trend; counts: boolean; score: number } | null = null;
  for (const rate of rates) {
    const success = successes.get(rate.from);
    const difference = differences.get(rate.from);
    if (!success || !difference) continue;
    const candidate = { rate, success, difference, counts: counts(rate) && counts(difference), score: Math.min(rate.z, difference.z) };
    if (!best || (candidate.counts && !best.counts) || (candidate.counts === best.counts && candidate.score > best.score)) best = candidate;
  }
  if (!best) return null;
  const found = best;
  const at = (step: number, m: MonitoredRate) => history.find((s) => s.step === step)?.[m].rate ?? null;
  const ends = (m: MonitoredRate) => ({ first: at(found.rate.from, m), last: at(found.rate.to, m) });
  return {
    metric,
    from_step: found.rate.from,
    to_step: found.rate.to,
    rate: { ...found.rate, ...ends(metric) },
    success: { ...found.success, ...ends('success') },
    difference: found.difference,
    signature: found.counts && found.score >= config.z * level,
  };
}
