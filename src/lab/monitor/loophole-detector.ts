/**
 * The detector of seed 000's R1 signature: hand-offs (or over-escalation) climbing while success
 * does not. Over each of its windows (the last 10 and the last 20 closed steps, by default) it fits three trends (`trend.ts`): the watched
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
 *
 * Two windows because the noise of a step depends on how many episodes it has: with thousands per
 * step a climb like 000's shows within five steps in the short window; with a few hundred only a
 * longer window sees it through the noise. The finding reported is the shortest window's that
 * shows the signature (else the shortest window's).
 */
import type { MonitoredRate, StepFigures } from './step-figures.js';
import { difference as differenceOf, fitTrend, single, type RatePoint, type Trend } from './trend.js';

/** The rates whose climb the detector watches. */
export const WATCHED_RATES = ['handoff_rate', 'over_escalation'] as const satisfies readonly MonitoredRate[];
export type WatchedRate = (typeof WATCHED_RATES)[number];

export interface DetectorConfig {
  /** The sliding windows of steps the trends are fitted over, shortest first. */
  trendSteps: readonly number[];
  /** The z a trend must reach (one-sided). */
  z: number;
  /** The smallest fitted rise over the window that counts (a share: 0.05 is five points). */
  minRise: number;
  /** How many recent steps the noise of each series is measured over (at least the window). */
  noiseSteps: number;
}

/**
 * The defaults. z = 4 is a one-sided p of 3 × 10⁻⁵ per look under the noise model: the monitor
 * looks once per step at two rates over two windows, and hundreds of steps go by in a run without
 * a false alarm. Ten steps is about the shortest window whose slope separates a climb from a jump
 * of one noisy step; five points over it is a change a person would act on.
 */
export const DETECTOR_DEFAULTS: DetectorConfig = { trendSteps: [10, 20], z: 4, minRise: 0.05, noiseSteps: 50 };

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
  const windows = config.trendSteps;
  if (windows.length === 0 || windows.some((w) => !Number.isInteger(w) || w < 4))
    throw new Error(`each trend window must be a whole number of steps, at least 4 (got ${windows.join(', ') || 'none'})`);
  if (windows.some((w, i) => i > 0 && w <= (windows[i - 1] as number)))
    throw new Error(`the trend windows must be given shortest first, each once (got ${windows.join(', ')})`);
  const longest = windows.at(-1) as number;
  if (!(config.z > 0)) throw new Error(`the trend z threshold must be positive (got ${config.z})`);
  if (!(config.minRise >= 0 && config.minRise < 1)) throw new Error(`the minimum rise must be a share in [0, 1) (got ${config.minRise})`);
  if (!Number.isInteger(config.noiseSteps) || config.noiseSteps < longest)
    throw new Error(`the noise is measured over at least the longest trend window (${longest} steps; got ${config.noiseSteps})`);
  return config;
}

/**
 * Raising an alert takes the full thresholds; an alert raised holds while the signature is there at
 * half of them (z and rise), so that one noisy step does not end it and raise it again the next.
 */
export const HOLD_LEVEL = 0.5;

/** The finding over the last `windowSteps` steps; null until that many have closed, or when a series has no base in them. */
function findingOver(
  steps: readonly StepFigures[],
  metric: WatchedRate,
  windowSteps: number,
  config: DetectorConfig,
  level: number,
): TrendFinding | null {
  if (steps.length < windowSteps) return null;
  const history = steps.slice(-Math.max(config.noiseSteps, windowSteps));
  const window = history.slice(-windowSteps);
  const rate = fitTrend(single(pointsOf(history, metric)), windowSteps);
  const success = fitTrend(single(pointsOf(history, 'success')), windowSteps);
  const covariance = history.map((s) => s.covariance_with_success[metric]);
  const difference = fitTrend(differenceOf(pointsOf(history, metric), pointsOf(history, 'success'), covariance), windowSteps);
  if (!rate || !success || !difference) return null;
  const firstLast = (m: MonitoredRate) => ({
    first: (window[0] as StepFigures)[m].rate,
    last: (window.at(-1) as StepFigures)[m].rate,
  });
  const climbs = (t: Trend) => t.z >= config.z * level && t.rise >= config.minRise * level;
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

/**
 * The detector's finding for `metric` over `steps` (closed steps, in order): the shortest window
 * showing the signature, else the shortest window's finding; null until the shortest window is full.
 */
export function detectSignature(
  steps: readonly StepFigures[],
  metric: WatchedRate,
  config: DetectorConfig,
  /** 1 to raise an alert; {@link HOLD_LEVEL} for one already raised. */
  level = 1,
): TrendFinding | null {
  let shortest: TrendFinding | null = null;
  for (const windowSteps of config.trendSteps) {
    const finding = findingOver(steps, metric, windowSteps, config, level);
    if (finding?.signature) return finding;
    shortest ??= finding;
  }
  return shortest;
}
