import { gammaCdf, gammaQuantile } from '../../core/router/gamma-quantile.js';
import type { Channel, WaitEstimate } from '../../core/router/index.js';
import type { SimConversation } from './simulate-segment.js';

/** A conversation that was told an estimate and was served. */
export interface EstimatedWait {
  channel: Channel;
  estimate: WaitEstimate;
  actualMs: number;
}

/** The estimated conversations of a segment that a person joined, with their actual wait. */
export function estimatedWaits(conversations: readonly SimConversation[]): EstimatedWait[] {
  const out: EstimatedWait[] = [];
  for (const c of conversations) {
    if (c.promise.type !== 'join' || c.promise.basis !== 'estimate' || c.joinedAtMs === null) continue;
    out.push({ channel: c.channel, estimate: c.promise.estimate, actualMs: c.joinedAtMs - c.arrivalMs });
  }
  return out;
}

/**
 * The model's own floor: the median absolute error the estimates would have if every wait
 * followed its model exactly — Gamma(k, scale), the time for k slots to free — and the point told
 * were that Gamma's median. The d with mean over conversations of P(|X − median| ≤ d) = ½, by
 * bisection (no sampling). Under exponential service and a known state this is the spread no
 * estimate from the state at arrival can remove (the remaining service of a busy slot is
 * memoryless), so an observed error near it means the estimator has little left to gain.
 */
export function modelFloorS(waits: readonly EstimatedWait[]): number {
  if (waits.length === 0) return 0;
  const models = waits.map((w) => ({ k: w.estimate.k, s: w.estimate.scaleMs, m: gammaQuantile(w.estimate.k, 0.5) * w.estimate.scaleMs }));
  const within = (d: number) => {
    let p = 0;
    for (const { k, s, m } of models) p += gammaCdf(k, (m + d) / s) - gammaCdf(k, (m - d) / s);
    return p / models.length;
  };
  let lo = 0;
  let hi = Math.max(...models.map((x) => x.m)) * 10 + 1;
  for (let i = 0; i < 40; i += 1) {
    const mid = (lo + hi) / 2;
    if (within(mid) < 0.5) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2 / 1000;
}

/** Median absolute error, median actual wait and stated-bound coverage of some estimated waits, in s. */
export function errorFigures(waits: readonly EstimatedWait[], told: number) {
  const errors = waits.map((w) => Math.abs(w.estimate.pointMs - w.actualMs) / 1000);
  const covered = waits.filter((w) => w.actualMs <= w.estimate.boundMs).length;
  return {
    estimates: told,
    median_abs_error_s: round(median(errors), 2),
    median_actual_wait_s: round(median(waits.map((w) => w.actualMs / 1000)), 2),
    stated_bound_coverage: round(covered / Math.max(1, told)),
    model_floor_s: round(modelFloorS(waits), 2),
  };
}

const median = (xs: number[]): number => {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};
const round = (x: number, digits = 4) => Number(x.toFixed(digits));
