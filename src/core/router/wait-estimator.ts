import { gammaCdf, gammaQuantile } from './gamma-quantile.js';

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
  /** The model this estimate was made from: Gamma(k) in units of `scaleMs` (kept to score it when the wait ends). */
  k: number;
  scaleMs: number;
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

/** Where past waits fell in the model's distribution (their PIT values), one window per channel. */
class PitHistory {
  private readonly values: number[] = [];
  private next = 0;
  private sorted: number[] | null = null;
  private sinceSort = 0;

  constructor(private readonly size: number) {}

  add(u: number): void {
    if (this.values.length < this.size) this.values.push(u);
    else this.values[this.next] = u;
    this.next = (this.next + 1) % this.size;
    this.sinceSort += 1;
  }

  get length(): number {
    return this.values.length;
  }

  quantile(q: number): number {
    // Re-sorted after every 1% of the window's turnover: the quantiles move slowly anyway.
    if (this.sorted === null || this.sinceSort > Math.max(1, this.values.length / 100)) {
      this.sorted = [...this.values].sort((x, y) => x - y);
      this.sinceSort = 0;
    }
    return this.sorted[Math.min(this.sorted.length - 1, Math.floor(q * this.sorted.length))] ?? q;
  }
}

/** PIT values are kept off 0 and 1, so that a recalibrated quantile stays finite. */
const clampPit = (u: number) => Math.min(1 - 1e-6, Math.max(1e-6, u));

/**
 * A queue's wait estimate from its own history. The model: the queue keeps a moving mean of the
 * time each item holds its slot (service plus offers declined or unanswered before it), so while
 * every one of c slots (the items of the channel that fit in the capacity on shift) is busy, slots
 * free at a rate of c / (mean holding). A request with n requests ahead waits for k = n + 1 of
 * them: a Gamma(k, c / holding) time — position × mean holding ÷ staff on average, and exact for
 * M/M/c first come first served. Real queues are not M/M/c (priorities overtake, shifts change,
 * offers are declined), so each channel keeps where its recent waits fell in the
 * model's own distribution (the probability integral transform, u = F_k(actual)), and states the
 * model's quantile at the empirical median of u as the point estimate (a median minimises the
 * absolute error), at the empirical 90th percentile as the bound, and at the 99.5th plus an offer
 * timeout as the promise: the model recalibrated by its own history, position by position. Until a
 * channel has history, the bare Gamma median and quantiles.
 */
export class QueueWaitEstimator {
  private holdingMs: number;
  private lostMs = 0;
  private observed = 0;
  private readonly history = new Map<string, PitHistory>();

  constructor(private readonly options: WaitEstimatorOptions = DEFAULT_WAIT_ESTIMATOR) {
    this.holdingMs = options.priorHoldingMs;
  }

  /** Time a slot was held by an offer that was declined or timed out; charged to the next served item. */
  recordLost(ms: number): void {
    this.lostMs += ms;
  }

  /** A served item held its slot for `heldMs` (from its reservation to its completion). */
  recordServed(heldMs: number): void {
    const x = heldMs + this.lostMs;
    this.lostMs = 0;
    this.observed += 1;
    // A plain running mean until the window has filled, then the moving mean.
    const alpha = Math.max(this.options.smoothing, 1 / this.observed);
    this.holdingMs = (1 - alpha) * this.holdingMs + alpha * x;
  }

  /** A wait that was estimated has ended (or is known to be at least `actualMs`, if it was cut short). */
  recordWait(channel: string, estimate: WaitEstimate, actualMs: number): void {
    let history = this.history.get(channel);
    if (history === undefined) {
      history = new PitHistory(this.options.historySize);
      this.history.set(channel, history);
    }
    history.add(clampPit(gammaCdf(estimate.k, actualMs / estimate.scaleMs)));
  }

  /** The current mean holding time per item, in ms. */
  meanHoldingMs(): number {
    return this.holdingMs;
  }

  /**
   * The estimate for a request on `channel` with `ahead` requests before it, when `servers` items of
   * its channel fit at once in the capacity of the eligible people on shift (capacity 2 and weight 2
   * is one server); `null` when there are none (nothing may then be promised).
   */
  estimate(input: { channel: string; ahead: number; servers: number }): WaitEstimate | null {
    if (input.servers <= 0) return null;
    const k = Math.max(1, Math.round(input.ahead + 1));
    const scaleMs = this.holdingMs / input.servers;
    const { boundQuantile, promiseQuantile, promiseMarginMs, minHistory } = this.options;
    const history = this.history.get(input.channel);
    const calibrated = history !== undefined && history.length >= minHistory;
    const at = (q: number) => gammaQuantile(k, calibrated ? clampPit(history.quantile(q)) : q) * scaleMs;
    return { pointMs: at(0.5), boundMs: at(boundQuantile), promiseMs: at(promiseQuantile) + promiseMarginMs, k, scaleMs };
  }
}

/**
 * Salesforce Omni-Channel's published estimator, for comparison: A = 0.9·A′ + 0.1·W, where W is
 * the wait of the last accepted chat, told as A minus the time already waited.
 */
export function salesforceAverage(previous: number, lastWait: number): number {
  return 0.9 * previous + 0.1 * lastWait;
}
