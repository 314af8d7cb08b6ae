import { gammaQuantile } from './gamma-quantile.js';

/** Options of a {@link QueueWaitEstimator}. */
export interface WaitEstimatorOptions {
  /** Weight of the newest observation in the moving mean of holding time (0.02 ≈ the last 50 items). */
  smoothing: number;
  /** Holding time per item assumed until the queue has history, in ms. */
  priorHoldingMs: number;
  /** The quantile stated to the customer as the upper bound ("usually within …"). */
  boundQuantile: number;
  /** The quantile the promise ("a person will join within …") is built on. */
  promiseQuantile: number;
  /** Added to the promise: one unanswered offer's timeout, since an offer can go unanswered. */
  promiseMarginMs: number;
}

/** What is told to a waiting customer: a point estimate, the stated upper bound and the promise, in ms. */
export interface WaitEstimate {
  pointMs: number;
  boundMs: number;
  promiseMs: number;
}

/** The defaults: the bound is the 90th percentile; the promise the 99.5th plus a 30 s offer timeout. */
export const DEFAULT_WAIT_ESTIMATOR: WaitEstimatorOptions = {
  smoothing: 0.02,
  priorHoldingMs: 300_000,
  boundQuantile: 0.9,
  promiseQuantile: 0.995,
  promiseMarginMs: 30_000,
};

/**
 * A queue's wait estimate from its own history. It keeps a moving mean of the capacity-unit time
 * each served item held (service plus the time lost to offers declined or unanswered before it),
 * so the queue releases units at a rate of (units on shift) / (mean holding). A request with u
 * units ahead of it that needs w units waits, while every unit is busy, for u + w releases: a
 * Gamma(u + w, units / holding) time. The point estimate is its mean, (u + w) · holding / units;
 * the bound and the promise are its quantiles. Exact for M/M/c first come first served; the error
 * elsewhere (priorities, bursts, shifts) is what the simulator measures.
 */
export class QueueWaitEstimator {
  private holdingMs: number;
  private lostMs = 0;
  private observed = 0;

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
    this.observed += 1;
    // Until the window has filled, a plain running mean (no leftover weight on the prior).
    const alpha = Math.max(this.options.smoothing, 1 / this.observed);
    this.holdingMs = (1 - alpha) * this.holdingMs + alpha * x;
  }

  /** The current mean holding time per item, in ms. */
  meanHoldingMs(): number {
    return this.holdingMs;
  }

  /**
   * The estimate for a request that needs `units` with `unitsAhead` ahead of it, when `unitsOnShift`
   * eligible units are on shift; `null` when none are (nothing may then be promised).
   */
  estimate(input: { unitsAhead: number; units: number; unitsOnShift: number }): WaitEstimate | null {
    if (input.unitsOnShift <= 0) return null;
    const k = Math.max(1, Math.round(input.unitsAhead + input.units));
    const scale = this.holdingMs / input.unitsOnShift;
    return {
      pointMs: k * scale,
      boundMs: gammaQuantile(k, this.options.boundQuantile) * scale,
      promiseMs: gammaQuantile(k, this.options.promiseQuantile) * scale + this.options.promiseMarginMs,
    };
  }
}

/**
 * Salesforce Omni-Channel's published estimator, for comparison: A = 0.9·A′ + 0.1·W, where W is
 * the wait of the last accepted chat, told as A minus the time already waited.
 */
export function salesforceAverage(previous: number, lastWait: number): number {
  return 0.9 * previous + 0.1 * lastWait;
}
