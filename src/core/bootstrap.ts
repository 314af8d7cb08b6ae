/**
 * Baton's intervals: a seeded percentile bootstrap. The lab resamples tasks (each drawn task
 * bringing all its episodes, every trial and style, with it); production review metrics resample
 * reviewed units within each stratum (`bootstrapStratified`). The statistic is recomputed on each
 * resample; the interval is the 2.5th and 97.5th percentiles of those values. Seeded: the same
 * units, statistic and seed give the same interval, on any machine. Written by hand (it is small,
 * and every number the lab and the review metrics report rests on it). The lab re-exports it from
 * `src/lab/metrics/bootstrap.ts`.
 */
import { seededRandom } from './random.js';

/** The seed every interval uses unless told otherwise. */
export const DEFAULT_BOOTSTRAP_SEED = 1;
/** Resamples per interval unless told otherwise. */
export const DEFAULT_RESAMPLES = 1000;
/** The interval's coverage. */
export const CONFIDENCE_LEVEL = 0.95;

/** A lower and an upper bound. */
export type Interval = [number, number];

/** A figure and its 95% interval; both null when the figure is undefined (a ratio with nothing under it). */
export interface Estimate {
  value: number | null;
  ci: Interval | null;
}

export interface BootstrapOptions {
  /** Seeds the resampling (default `DEFAULT_BOOTSTRAP_SEED`). */
  seed?: number;
  /** How many resamples (default 1,000). */
  resamples?: number;
  /** Coverage of the interval (default 0.95). */
  level?: number;
}

/** A numerator and a denominator (successes and trials, true positives and hand-offs, …) from one task. */
export interface Ratio {
  num: number;
  den: number;
}

/** `num / den`, null when `den` is 0. */
export const ratioOf = (num: number, den: number): number | null => (den === 0 ? null : num / den);

/** Σnum / Σden over the tasks given: the pooled share, null when nothing is under it. */
export function pooled(sample: readonly Ratio[]): number | null {
  let num = 0;
  let den = 0;
  for (const r of sample) {
    num += r.num;
    den += r.den;
  }
  return ratioOf(num, den);
}

/**
 * The `p` quantile (0 ≤ p ≤ 1) of sorted values, linearly interpolated between order statistics
 * (numpy's default, Hyndman and Fan's type 7). Equal values give exactly that value.
 */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) throw new Error('percentile of no values');
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const a = sorted[lo] as number;
  const b = sorted[Math.min(lo + 1, sorted.length - 1)] as number;
  return a === b ? a : a + (h - lo) * (b - a);
}

/** Tasks in a fixed order (by id), so that the same seed draws the same tasks whatever order they came in. */
function ordered<T>(tasks: ReadonlyMap<string, T>): T[] {
  return [...tasks.keys()].sort(compareIds).map((id) => tasks.get(id) as T);
}

/** Plain code-unit order: the same on every machine and locale. */
export const compareIds = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The statistic on each of `resamples` resamples of the tasks (ids drawn with replacement, as
 * many as there are tasks), sorted; resamples on which it is undefined (null) are left out.
 */
export function resampleStatistics<T>(
  tasks: ReadonlyMap<string, T>,
  statistic: (sample: readonly T[]) => number | null,
  options: BootstrapOptions = {},
): number[] {
  const items = ordered(tasks);
  const n = items.length;
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const random = seededRandom(options.seed ?? DEFAULT_BOOTSTRAP_SEED);
  const values: number[] = [];
  if (n === 0) return values;
  const sample: T[] = new Array<T>(n);
  for (let r = 0; r < resamples; r += 1) {
    for (let i = 0; i < n; i += 1) sample[i] = items[Math.floor(random.next() * n)] as T;
    const value = statistic(sample);
    if (value !== null && Number.isFinite(value)) values.push(value);
  }
  return values.sort((a, b) => a - b);
}

/**
 * The statistic on all tasks, with its percentile-bootstrap interval over tasks. `tasks` maps a
 * task id to what the statistic needs from that task (all its episodes together). The value is
 * null when the statistic is undefined on the full sample, and then so is the interval; the
 * interval is also null when the statistic is undefined on every resample. Otherwise resamples
 * on which it is undefined are left out of the percentiles.
 */
export function bootstrap<T>(
  tasks: ReadonlyMap<string, T>,
  statistic: (sample: readonly T[]) => number | null,
  options: BootstrapOptions = {},
): Estimate {
  const value = statistic(ordered(tasks));
  if (value === null || !Number.isFinite(value)) return { value: null, ci: null };
  const values = resampleStatistics(tasks, statistic, options);
  if (values.length === 0) return { value, ci: null };
  const alpha = (1 - (options.level ?? CONFIDENCE_LEVEL)) / 2;
  return { value, ci: [percentile(values, alpha), percentile(values, 1 - alpha)] };
}

/** The pooled share Σnum/Σden with its interval: the common case. */
export function bootstrapRatio(tasks: ReadonlyMap<string, Ratio>, options: BootstrapOptions = {}): Estimate {
  return bootstrap(tasks, pooled, options);
}

/** A paired comparison: the difference, its interval, and how many tasks it rests on. */
export interface PairedDifference extends Estimate {
  /** Tasks both systems ran (the only ones compared). */
  shared: number;
  /** Tasks only one of them ran (left out). */
  only_a: number;
  only_b: number;
}

/**
 * The difference `a − b` of two systems' pooled shares (Σnum/Σden: with one value per task and
 * `den` 1, the difference of means), on the tasks both ran, with its percentile-bootstrap
 * interval: shared tasks are resampled, each bringing its episodes from both systems, so the
 * pairing is kept. Identical systems give exactly 0 with a zero-width interval.
 */
export function pairedDifference(
  a: ReadonlyMap<string, Ratio>,
  b: ReadonlyMap<string, Ratio>,
  options: BootstrapOptions = {},
): PairedDifference {
  const shared = new Map<string, { a: Ratio; b: Ratio }>();
  for (const [id, ra] of a) {
    const rb = b.get(id);
    if (rb) shared.set(id, { a: ra, b: rb });
  }
  const difference = (sample: readonly { a: Ratio; b: Ratio }[]) => {
    const pa = pooled(sample.map((s) => s.a));
    const pb = pooled(sample.map((s) => s.b));
    return pa === null || pb === null ? null : pa - pb;
  };
  const estimate = bootstrap(shared, difference, options);
  return { ...estimate, shared: shared.size, only_a: a.size - shared.size, only_b: b.size - shared.size };
}

/**
 * The statistic on each of `resamples` stratified resamples, sorted: within every stratum, as many
 * units as it has are drawn with replacement from that stratum alone, so each resample keeps the
 * strata's sizes (the design of a stratified sample). Strata are visited in id order and units in
 * the order given, so the same strata, units and seed give the same values. Resamples on which the
 * statistic is undefined (null) are left out. The sample handed to the statistic is reused from one
 * resample to the next: read it, do not keep it.
 */
export function resampleStratified<T>(
  strata: ReadonlyMap<string, readonly T[]>,
  statistic: (sample: ReadonlyMap<string, readonly T[]>) => number | null,
  options: BootstrapOptions = {},
): number[] {
  const keys = [...strata.keys()].sort(compareIds);
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const random = seededRandom(options.seed ?? DEFAULT_BOOTSTRAP_SEED);
  const values: number[] = [];
  // One buffer per stratum, refilled on each resample: the statistic reads it and keeps nothing.
  const sample = new Map<string, T[]>(keys.map((key) => [key, new Array<T>((strata.get(key) as readonly T[]).length)]));
  for (let r = 0; r < resamples; r += 1) {
    for (const key of keys) {
      const units = strata.get(key) as readonly T[];
      const drawn = sample.get(key) as T[];
      for (let i = 0; i < units.length; i += 1) drawn[i] = units[Math.floor(random.next() * units.length)] as T;
    }
    const value = statistic(sample);
    if (value !== null && Number.isFinite(value)) values.push(value);
  }
  return values.sort((a, b) => a - b);
}

/**
 * The statistic on a stratified sample, with its percentile-bootstrap interval from resampling
 * within each stratum (`resampleStratified`). Null value and interval as in `bootstrap`.
 */
export function bootstrapStratified<T>(
  strata: ReadonlyMap<string, readonly T[]>,
  statistic: (sample: ReadonlyMap<string, readonly T[]>) => number | null,
  options: BootstrapOptions = {},
): Estimate {
  const value = statistic(strata);
  if (value === null || !Number.isFinite(value)) return { value: null, ci: null };
  const values = resampleStratified(strata, statistic, options);
  if (values.length === 0) return { value, ci: null };
  const alpha = (1 - (options.level ?? CONFIDENCE_LEVEL)) / 2;
  return { value, ci: [percentile(values, alpha), percentile(values, 1 - alpha)] };
}
