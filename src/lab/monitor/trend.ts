/**
 * The trend test behind the monitor's alert: a weighted least-squares line through a series of
 * per-step rates (or the difference of two rates measured on the same steps), whose slope is
 * judged against the noise the series has shown.
 *
 * - A step's rate is a share of `den` episodes, so at a steady rate p its variance is p(1−p)/den
 *   (binomial): a step of 800 episodes counts for more than one of 8. For the fit, p is pooled over
 *   the window; a difference's variance is the sum of its two rates'.
 * - Real steps are noisier than that (a batch's task mix changes, the policy moves within a step,
 *   two rates of the same episodes move together). The factor φ by which they are is measured from
 *   the series' own second differences `y[i] − 2y[i−1] + y[i−2]`, each over its binomial variance
 *   (p pooled over those three steps): a straight trend leaves second differences untouched, so a
 *   climb does not pass for noise. φ is never taken below 1 (binomial noise is always there) and
 *   scales the slope's variance.
 * - `z = slope / se`; `rise` is the fitted change over the window (slope × (last − first step)),
 *   for a minimum effect size: with very large steps a trend too small to matter is significant.
 *
 * Pure; the monitor's detector (`loophole-detector.ts`) combines these for its alert.
 */

/** A rate at a step: `num` of `den`. */
export interface RatePoint {
  x: number;
  num: number;
  den: number;
}

/** A fitted trend over a window of steps. */
export interface Trend {
  from: number;
  to: number;
  /** Per step. */
  slope: number;
  se: number;
  /** slope / se; 0 when the series does not vary at all. */
  z: number;
  /** The fitted line at the window's first and last step. */
  fitted_first: number;
  fitted_last: number;
  /** slope × (to − from). */
  rise: number;
  /** The noise factor φ applied (≥ 1). */
  noise: number;
}

/**
 * A series: one rate (`terms` of one series, sign +1), or a difference of rates (+1, −1), each term
 * given at the same steps in the same order.
 */
export interface Series {
  terms: readonly (readonly RatePoint[])[];
  signs: readonly number[];
  /** For a difference: the two rates' covariance within each step (same order), subtracted twice from its variance. */
  covariance?: readonly number[];
}

/** A rate on its own. */
export const single = (points: readonly RatePoint[]): Series => ({ terms: [points], signs: [1] });
/** `a − b`, step by step, with their covariance within each step (0 if not given). */
export const difference = (a: readonly RatePoint[], b: readonly RatePoint[], covariance?: readonly number[]): Series => ({
  terms: [a, b],
  signs: [1, -1],
  ...(covariance ? { covariance } : {}),
});

/** Keeps the steps where every term has a base (den > 0). */
function defined(series: Series): Series {
  const first = series.terms[0] ?? [];
  const keep = first.map((_, i) => series.terms.every((t) => (t[i]?.den ?? 0) > 0));
  const covariance = series.covariance?.filter((_, i) => keep[i]);
  return { terms: series.terms.map((t) => t.filter((_, i) => keep[i])), signs: series.signs, ...(covariance ? { covariance } : {}) };
}

const valueAt = (series: Series, i: number) =>
  series.terms.reduce((sum, t, k) => sum + (series.signs[k] as number) * ((t[i] as RatePoint).num / (t[i] as RatePoint).den), 0);

/** p(1−p) of each term, p pooled over points [from, to]. */
function pooledVariances(series: Series, from: number, to: number): number[] {
  return series.terms.map((t) => {
    let num = 0;
    let den = 0;
    for (let i = from; i <= to; i++) {
      num += (t[i] as RatePoint).num;
      den += (t[i] as RatePoint).den;
    }
    const p = num / den;
    return p * (1 - p);
  });
}

/**
 * The binomial-model variance of the series' value at point i, the terms' variances pooled as
 * given, less twice the terms' covariance for a difference — never below a tenth of the sum of
 * the terms' variances (a covariance estimated from few episodes can be too large).
 */
function varianceAt(series: Series, pooled: readonly number[], i: number): number {
  const independent = series.terms.reduce((sum, t, k) => sum + (pooled[k] as number) / (t[i] as RatePoint).den, 0);
  const covariance = series.covariance?.[i] ?? 0;
  return Math.max(independent / 10, independent - 2 * covariance);
}

/**
 * The noise factor φ ≥ 1 of a series: the mean of its squared second differences, each over its
 * binomial variance (var y[i] + 4 var y[i−1] + var y[i−2], p pooled over the three steps); 1 when
 * there is nothing to measure.
 */
export function noiseFactor(input: Series): number {
  const series = defined(input);
  const n = (series.terms[0] ?? []).length;
  let sum = 0;
  let count = 0;
  for (let i = 2; i < n; i++) {
    const pooled = pooledVariances(series, i - 2, i);
    const variance = varianceAt(series, pooled, i - 2) + 4 * varianceAt(series, pooled, i - 1) + varianceAt(series, pooled, i);
    if (!(variance > 0)) continue;
    sum += (valueAt(series, i) - 2 * valueAt(series, i - 1) + valueAt(series, i - 2)) ** 2 / variance;
    count += 1;
  }
  return count === 0 ? 1 : Math.max(1, sum / count);
}

/**
 * The weighted least-squares trend of a series over its last `windowSteps` defined steps (weights
 * 1 / binomial variance, p pooled over the window), the slope's variance scaled by the noise factor
 * of the whole series given (the window and the steps before it). Null with fewer than three
 * points in the window.
 */
export function fitTrend(input: Series, windowSteps: number): Trend | null {
  const all = defined(input);
  const n = (all.terms[0] ?? []).length;
  const from = Math.max(0, n - windowSteps);
  if (n - from < 3) return null;
  const noise = noiseFactor(all);
  const xs = (all.terms[0] as readonly RatePoint[]).map((p) => p.x);
  const first = xs[from] as number;
  const last = xs[n - 1] as number;
  const pooled = pooledVariances(all, from, n - 1);
  const points = [];
  for (let i = from; i < n; i++) points.push({ x: xs[i] as number, y: valueAt(all, i), variance: varianceAt(all, pooled, i) });
  // A series with no variance under the model (a rate at 0% or 100% throughout the window) has no trend.
  if (points.some((p) => !(p.variance > 0))) {
    const y = (points[0] as { y: number }).y;
    return { from: first, to: last, slope: 0, se: 0, z: 0, fitted_first: y, fitted_last: y, rise: 0, noise };
  }
  let sw = 0;
  let swx = 0;
  let swy = 0;
  for (const p of points) {
    sw += 1 / p.variance;
    swx += p.x / p.variance;
    swy += p.y / p.variance;
  }
  const mx = swx / sw;
  const my = swy / sw;
  let sxx = 0;
  let sxy = 0;
  for (const p of points) {
    sxx += (p.x - mx) ** 2 / p.variance;
    sxy += ((p.x - mx) * (p.y - my)) / p.variance;
  }
  const slope = sxy / sxx;
  const se = Math.sqrt(noise / sxx);
  const at = (x: number) => my + slope * (x - mx);
  return {
    from: first,
    to: last,
    slope,
    se,
    z: slope / se,
    fitted_first: at(first),
    fitted_last: at(last),
    rise: slope * (last - first),
    noise,
  };
}
