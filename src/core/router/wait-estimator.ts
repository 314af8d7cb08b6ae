import { gammaQuantile } from './gamma-quantile.js';

/** Options of a {@link QueueWaitEstimator}. */
export interface WaitEstimatorOptions {
  /** Weight of the newest observation in the moving mean of holding time (0.02 ≈ the last 50 items). */
  smoothing: number;
  /** Holding time per capacity unit assumed until the queue has history, in ms. */
  priorHoldingMs: number;
  /** The quantile stated to the customer as the upper bound ("usually within …"). */
  boundQuantile: number;
  /** The quantile the promise ("a person will join within …") is built on. */
  promiseQuantile: number;
  /** Added to the promise: one unanswered offer's timeout, since an offer can go unanswered. */
  promiseMarginMs: number;
  /** Recent waits kept per channel to calibrate the model against (the newest replace the oldest). */
  historySize: number;
  /** Waits needed on a channel before its own history is used instead of the bare model. */
  minHistory: number;
}

/** What is told to a waiting customer: a point estimate, the stated upper bound and the promise, in ms. */
export interface WaitEstimate {
  pointMs: number;
  boundMs: number;
  promiseMs: number;
  /** The model's mean and spread this estimate was made from (kept to score it when the wait ends). */
  modelMs: number;
  spreadMs: number;
}

/** The defaults: the bound is the 90th percentile; the promise the 99.5th plus a 30 s offer timeout. */
export const DEFAULT_WAIT_ESTIMATOR: WaitEstimatorOptions = {
  smoothing: 0.02,
  priorHoldingMs: 300_000,
  boundQuantile: 0.9,
  promiseQuantile: 0.995,
  promiseMarginMs: 30_000,
  historySize: 1000,
  minHistory: 50,
};

/** Residuals of one channel's past waits, in units of the model's spread. */
class ResidualHistory {
  private readonly values: number[] = [];
  private next = 0;
  private sorted: number[] | null = null;
  private sinceSort = 0;

  constructor(private readonly size: number) {}

  add(z: number): void {
    if (this.values.length < this.size) this.values.push(z);
    else this.values[this.next] = z;
    this.next = (this.next + 1) % this.size;
    this.sinceSort += 1;
  }

  get length(): number {
    return this.values.length;
  }

  quantile(q: number): number {
    // Re-sorted after every 1% of the window's turnover: the quantiles move slowly anyway.
    if (this.sorted === null || this.sinceSort > Math.max(1, this.values.length / 100)) {
      this.sorted = [...this.values].sort((a, b) => a - b);
      this.sinceSort = 0;
    }
    return this.sorted[Math.min(this.sorted.length - 1, Math.floor(q * this.sorted.length))] ?? 0;
  }
}

/**
 * A queue's wait estimate from its own history. The model: the queue keeps a moving mean of the
 * time each capacity unit is held per item (service plus offers declined or unanswered before it),
 * so while every unit is busy, units free at a rate of (units on shift) / (mean holding). A request
 * with u units ahead that needs w waits for k = u + w of them: a Gamma(k, units / holding) time,
 * mean k · holding / units and spread √k · holding / units — exact for M/M/c first come first
 * served. Real queues are not M/M/c (priorities overtake, shifts end, a callback needs two units
 * free on one person), so each channel keeps the residuals of its recent waits, (actual − mean) /
 * spread, and states mean + spread × their median as the point estimate (the median minimises the
 * absolute error), × their 90th percentile as the bound, and × their 99.5th plus an offer timeout
 * as the promise: a split-conformal calibration of the model. Until a channel has history, the
 * bare Gamma mean and quantiles.
 */
export class QueueWaitEstimator {
  private holdingMs: number;
  private lostMs = 0;
  private observedUnits = 0;
  private readonly residuals = new Map<string, ResidualHistory>();

  constructor(private readonly options: WaitEstimatorOptions = DEFAULT_WAIT_ESTIMATOR) {
    this.holdingMs = options.priorHoldingMs;
  }

  /** Unit-time lost to an offer that was declined or timed out; charged to the next served item. */
  recordLost(unitMs: number): void {
    this.lostMs += unitMs;
  }

  /** A served item held `units` for `heldMs` (from its reservation to its completion). */
  recordServed(heldMs: number, units: number): void {
    const x = heldMs + this.lostMs / Math.max(1, units);
    this.lostMs = 0;
    this.observedUnits += units;
    // Weighted by units, so the mean is per unit; a plain running mean until the window fills.
    const alpha = Math.min(1, Math.max(this.options.smoothing * units, units / this.observedUnits));
    this.holdingMs = (1 - alpha) * this.holdingMs + alpha * x;
  }

  /** A wait that was estimated has ended (or is known to be at least `actualMs`, if it was cut short). */
  recordWait(channel: string, estimate: WaitEstimate, actualMs: number): void {
    let history = this.residuals.get(channel);
    if (history === undefined) {
      history = new ResidualHistory(this.options.historySize);
      this.residuals.set(channel, history);
    }
    history.add((actualMs - estimate.modelMs) / estimate.spreadMs);
  }

  /** The current mean holding time per capacity unit, in ms. */
  meanHoldingMs(): number {
    return this.holdingMs;
  }

  /**
   * The estimate for a request on `channel` that needs `units` with `unitsAhead` ahead of it, when
   * `unitsOnShift` eligible units are on shift; `null` when none are (nothing may then be promised).
   */
  estimate(input: { channel: string; unitsAhead: number; units: number; unitsOnShift: number }): WaitEstimate | null {
    if (input.unitsOnShift <= 0) return null;
    const k = Math.max(1, Math.round(input.unitsAhead + input.units));
    const scale = this.holdingMs / input.unitsOnShift;
    const modelMs = k * scale;
    const spreadMs = Math.sqrt(k) * scale;
    const { boundQuantile, promiseQuantile, promiseMarginMs, minHistory } = this.options;
    const history = this.residuals.get(input.channel);
    if (history === undefined || history.length < minHistory) {
      return {
        pointMs: modelMs,
        boundMs: gammaQuantile(k, boundQuantile) * scale,
        promiseMs: gammaQuantile(k, promiseQuantile) * scale + promiseMarginMs,
        modelMs,
        spreadMs,
      };
    }
    const at = (q: number) => Math.max(0, modelMs + spreadMs * history.quantile(q));
    return { pointMs: at(0.5), boundMs: at(boundQuantile), promiseMs: at(promiseQuantile) + promiseMarginMs, modelMs, spreadMs };
  }
}

/**
 * Salesforce Omni-Channel's published estimator, for comparison: A = 0.9·A′ + 0.1·W, where W is
 * the wait of the last accepted chat, told as A minus the time already waited.
 */
export function salesforceAverage(previous: number, lastWait: number): number {
  return 0.9 * previous + 0.1 * lastWait;
}
