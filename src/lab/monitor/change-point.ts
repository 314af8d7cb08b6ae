/**
 * The change-point test behind the monitor's alert: a Gaussian generalized likelihood ratio (GLR)
 * test for a change of slope in a series of per-step rates (or the difference of two rates
 * measured on the same steps) that was flat before the change — the "broken line"
 * `y = μ₀ + δ · max(0, x − x_c)` against `y = μ₀`, the change step `x_c` unknown.
 *
 * - For a given change step the model is linear, so its likelihood ratio is the weighted
 *   least-squares z of δ with the regressors 1 and `max(0, x − x_c)` over the history; the GLR
 *   maximises it over the candidate change steps (`loophole-detector.ts` does, for the last few
 *   steps). The baseline μ₀ is estimated from the steps so far — mostly those before the change.
 * - A step's rate is a share of `den` episodes, so at a steady rate p its variance is p(1−p)/den
 *   (binomial): a step of 800 episodes counts for more than one of 8. p is pooled separately over
 *   the steps before the change and after it (a rate that moves changes its variance); a
 *   difference's variance is the sum of its two rates' less twice their covariance in the step.
 * - Real steps are noisier than that (a batch's task mix changes, the policy moves within a step).
 *   The factor φ by which they are is measured from the series' own second differences
 *   `y[i] − 2y[i−1] + y[i−2]`, each over its binomial variance (p pooled over those three steps): a
 *   broken line leaves second differences untouched but at its kink, so a climb does not pass for
 *   noise. φ is never taken below 1 (binomial noise is always there) and scales δ's variance.
 * - `z = δ / se`; `rise` is the fitted climb since the change (δ × (last − change step)), for a
 *   minimum effect size: with very large steps a climb too small to matter is significant.
 *
 * Pure; the monitor's detector (`loophole-detector.ts`) combines these for its alert.
 */

/** A rate at a step: `num` of `den`. */
export interface RatePoint {
  x: number;
  num: number;
  den: number;
}

/** A fitted climb: from the change step `from` (the last one of the flat baseline) to `to`, the latest. */
export interface Trend {
  from: number;
  to: number;
  /** δ: the climb per step since the change. */
  slope: number;
  se: number;
  /** slope / se; 0 when the series does not vary at all. */
  z: number;
  /** The fitted broken line at the change step (the baseline μ₀) and at the latest step. */
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

/** p(1−p) of each term, p pooled over points [from, to] (with half an event either way). */
function pooledVariances(series: Series, from: number, to: number): number[] {
  return series.terms.map((t) => {
    let num = 0;
    let den = 0;
    for (let i = from; i <= to; i++) {
      num += (t[i] as RatePoint).num;
      den += (t[i] as RatePoint).den;
    }
    // Half an event either way keeps a rate seen at 0% or 100% from having no variance at all.
    const p = (num + 0.5) / (den + 1);
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

/** What the change test needs to know of the candidates: how long a baseline and a climb must be, and how long a climb can be. */
export interface ChangeWindows {
  /** The fewest steps before the change (the change step included) that make a baseline. */
  minBaseline: number;
  /** The fewest and the most steps after the change. */
  minClimb: number;
  maxClimb: number;
}

/**
 * The broken line fitted with its change after point `c` of a defined series (weights 1 / binomial
 * variance, p pooled before and after the change), δ's variance scaled by `noise`.
 */
function fitAt(series: Series, c: number, noise: number): Trend {
  const n = (series.terms[0] as readonly RatePoint[]).length;
  const xs = (series.terms[0] as readonly RatePoint[]).map((p) => p.x);
  const base = pooledVariances(series, 0, c);
  const post = pooledVariances(series, c + 1, n - 1);
  const xc = xs[c] as number;
  let sw = 0;
  let swu = 0;
  let swy = 0;
  const points = [];
  for (let i = 0; i < n; i++) {
    const w = 1 / varianceAt(series, i <= c ? base : post, i);
    const u = Math.max(0, (xs[i] as number) - xc);
    const y = valueAt(series, i);
    points.push({ w, u, y });
    sw += w;
    swu += w * u;
    swy += w * y;
  }
  const mu = swu / sw;
  const my = swy / sw;
  let suu = 0;
  let suy = 0;
  for (const p of points) {
    suu += p.w * (p.u - mu) ** 2;
    suy += p.w * (p.u - mu) * (p.y - my);
  }
  const slope = suy / suu;
  const se = Math.sqrt(noise / suu);
  const baseline = my - slope * mu;
  const climb = (xs[n - 1] as number) - xc;
  return {
    from: xc,
    to: xs[n - 1] as number,
    slope,
    se,
    z: slope / se,
    fitted_first: baseline,
    fitted_last: baseline + slope * climb,
    rise: slope * climb,
    noise,
  };
}

/**
 * The change test of a series at every candidate change step: the broken line fitted with its
 * change after each of the series' defined steps that leaves at least `minBaseline` steps before
 * it (itself included) and between `minClimb` and `maxClimb` after it, latest change first, δ's
 * variance scaled by `noise` (the series' {@link noiseFactor}, measured by the caller on as long a
 * history as it keeps). Empty when no step qualifies.
 */
export function changeFits(input: Series, windows: ChangeWindows, noise: number): Trend[] {
  const series = defined(input);
  const n = (series.terms[0] ?? []).length;
  const fits: Trend[] = [];
  const first = Math.max(windows.minBaseline - 1, n - 1 - windows.maxClimb);
  if (n - 1 - windows.minClimb < first) return fits;
  for (let c = n - 1 - windows.minClimb; c >= first; c--) fits.push(fitAt(series, c, noise));
  return fits;
}
