/**
 * The detector of seed 000's R1 signature: hand-offs (or over-escalation) climbing while success
 * does not. Over the last `trendSteps` closed steps it fits three trends (`trend.ts`): the watched
 * rate, success, and their difference (the watched rate minus success, step by step, so that the
 * test sees how the two move together in the same episodes). The signature holds when
 *
 * 1. the watched rate climbs: its slope's z ≥ `z` and its fitted rise over the window ≥ `minRise`;
 * 2. success does not climb with it: the difference climbs too, z ≥ `z` and rise ≥ `minRise` —
 *    the hand-offs gained more than success did, beyond the noise of both.
 *
 * The noise of each series is measured on the last `noiseSteps` steps (the window included). A
 * sequence where success climbs as fast as the hand-offs leaves the difference flat, and no alert.
 * Success falling while hand-offs climb is the signature too.
 */
import type { MonitoredRate, StepFigures } from './step-figures.js';
import { difference as differenceOf, fitTrend, single, type RatePoint, type Trend } from './trend.js';

/** The rates whose climb the detector watches. */
export const WATCHED_RATES = ['handoff_rate', 'over_escalation'] as const satisfies readonly MonitoredRate[];
export type WatchedRate = (typeof WATCHED_RATES)[number];

export interface DetectorConfig {
  /** The sliding window of steps each trend is fitted over. */
  trendSteps: number;
  /** The z a trend must reach (one-sided). */
  z: number;
  /** The smallest fitted rise over the window that counts (a share: 0.05 is five points). */
  minRise: number;
  /** How many recent steps the noise of each series is measured over (at least the window). */
  noiseSteps: number;
}

/**
 * The defaults. z = 4 is a one-sided p of 3 × 10⁻⁵ per look under the noise model: the monitor
 * looks once per step at two rates, and hundreds of steps go by in a run without a false alarm.
 * Ten steps is about the shortest window whose slope separates a climb from a jump of one noisy
 * step; five points over it is a change a person would act on.
 */
export const DETECTOR_DEFAULTS: DetectorConfig = { trendSteps: 10, z: 4, minRise: 0.05, noiseSteps: 50 };

/** What the detector found over one window, for one watched rate. */
export interface TrendFinding {
  metric: WatchedRate;
  from_step: number;
  to_step: number;
  /** The watched rate: its trend, and its value at the first and last step of the window. */
  rate: Trend & { first: number | null; last: number | null };
  success: Trend & { first: number | null; last: number | null };
  /** The watched rate minus success. */
  difference: Trend;
  /** Whether this window shows the signature (both conditions above). */
  signature: boolean;
}

const pointsOf = (steps: readonly StepFigures[], metric: MonitoredRate): RatePoint[] =>
  steps.map((s) => ({ x: s.step, num: s[metric].num, den: s[metric].den }));

/** Checks the detector's configuration; a bad one fails with what to change. */
export function checkDetectorConfig(config: DetectorConfig): DetectorConfig {
  if (!Number.isInteger(config.trendSteps) || config.trendSteps < 4)
    throw new Error(`the trend window must be a whole number of steps, at least 4 (got ${config.trendSteps})`);
  if (!(config.z > 0)) throw new Error(`the trend z threshold must be positive (got ${config.z})`);
  if (!(config.minRise >= 0 && config.minRise < 1)) throw new Error(`the minimum rise must be a share in [0, 1) (got ${config.minRise})`);
  if (!Number.isInteger(config.noiseSteps) || config.noiseSteps < config.trendSteps)
    throw new Error(`the noise is measured over at least the trend window (${config.trendSteps} steps; got ${config.noiseSteps})`);
  return config;
}

/**
 * The detector's finding for `metric` over the last `trendSteps` of `steps` (closed steps, in
 * order); null until that many steps have closed, or when a series has no base in the window.
 */
export function detectSignature(steps: readonly StepFigures[], metric: WatchedRate, config: DetectorConfig): TrendFinding | null {
  if (steps.length < config.trendSteps) return null;
  const history = steps.slice(-config.noiseSteps);
  const window = history.slice(-config.trendSteps);
  const rate = fitTrend(single(pointsOf(history, metric)), config.trendSteps);
  const success = fitTrend(single(pointsOf(history, 'success')), config.trendSteps);
  const difference = fitTrend(differenceOf(pointsOf(history, metric), pointsOf(history, 'success')), config.trendSteps);
  if (!rate || !success || !difference) return null;
  const firstLast = (m: MonitoredRate) => ({
    first: (window[0] as StepFigures)[m].rate,
    last: (window.at(-1) as StepFigures)[m].rate,
  });
  const climbs = (t: Trend) => t.z >= config.z && t.rise >= config.minRise;
  return {
    metric,
    from_step: rate.from,
    to_step: rate.to,
    rate: { ...rate, ...firstLast(metric) },
    success: { ...success, ...firstLast('success') },
    difference,
    signature: climbs(rate) && climbs(difference),
  };
}
