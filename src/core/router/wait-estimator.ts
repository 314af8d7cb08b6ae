import { gammaCdf, gammaQuantile } from './gamma-quantile.js';

/** Options of the wait estimate ({@link estimateWait}, {@link QueueWaitEstimator}). */
export interface WaitEstimatorOptions {
  /**
   * The weight of the newest served item in the queue's moving mean of holding time (0.02: a
   * memory of about 50 items); until 1 ÷ this many are served, a plain mean of them.
   */
  holdingWeight: number;
  /** Holding time per item assumed until the queue has history, in ms. */
  priorHoldingMs: number;
  /** The quantile stated to the customer as the upper bound ("usually within …"). */
  boundQuantile: number;
  /** The quantile the promise ("a person will join within …") is built on. */
  promiseQuantile: number;
  /** Added to the promise: one unanswered offer's timeout, since an offer can go unanswered. */
  promiseMarginMs: number;
  /** Recent estimated waits the model is calibrated against (the newest). */
  historySize: number;
  /** Estimated waits needed before the queue's own history is used instead of the bare model. */
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
  holdingWeight: 0.02,
  priorHoldingMs: 300_000,
  boundQuantile: 0.9,
  promiseQuantile: 0.995,
  promiseMarginMs: 30_000,
  historySize: 1000,
  minHistory: 50,
};

/** A wait that was told an estimate: the model it was told from, and how long it lasted (until a person joined, or at least this long when cut short). */
export interface WaitOutcome {
  k: number;
  scaleMs: number;
  waitedMs: number;
}

/**
 * A queue's own history, as the router's tables keep it (`RoutingStore.waitHistory`) and as the
 * queue simulator keeps it in memory ({@link QueueWaitEstimator}).
 */
export interface QueueHistory {
  /**
   * The moving mean of how long the queue's served items held their slots (from the offer each
   * accepted to the end of the work, in ms; see {@link nextHolding}); null before the first.
   */
  holdingMs: number | null;
  /** Recently estimated waits and what followed, in any order (at most `historySize`, the newest). */
  waits: readonly WaitOutcome[];
}

/** The moving mean of holding after one more served item: a plain mean of the first 1 ÷ `holdingWeight`, then exponential. */
export function nextHolding(
  previous: { holdingMs: number; served: number } | null,
  heldMs: number,
  options: WaitEstimatorOptions = DEFAULT_WAIT_ESTIMATOR,
): { holdingMs: number; served: number } {
  if (previous === null) return { holdingMs: heldMs, served: 1 };
  const served = previous.served + 1;
  const alpha = Math.max(options.holdingWeight, 1 / served);
  return { holdingMs: previous.holdingMs + alpha * (heldMs - previous.holdingMs), served };
}

/** PIT values are kept off 0 and 1, so that a recalibrated quantile stays finite. */
const clampPit = (u: number) => Math.min(1 - 1e-6, Math.max(1e-6, u));

/** The mean time an item holds its slot: the queue's moving mean, else the prior. */
export function meanHolding(history: QueueHistory, options: WaitEstimatorOptions = DEFAULT_WAIT_ESTIMATOR): number {
  return history.holdingMs ?? options.priorHoldingMs;
}

/**
 * A queue's wait estimate from its own history. The model: while every one of c slots (the items
 * of the channel that fit in the capacity on shift) is busy, slots free at a rate of
 * c / (mean holding), so a request with n requests ahead waits for k = n + 1 of them: a
 * Gamma(k, c / holding) time — position × mean holding ÷ staff on average, and exact for M/M/c
 * first come first served. Real queues are not M/M/c (priorities overtake, shifts change, offers
 * are declined), so the estimate looks at where the queue's recent waits fell in the model's own
 * distribution (the probability integral transform, u = F_k(actual)), and states the model's
 * quantile at the empirical median of u as the point estimate (a median minimises the absolute
 * error), at the empirical 90th percentile as the bound, and at the 99.5th plus an offer timeout as
 * the promise: the model recalibrated by its own history, position by position. Until the queue has
 * `minHistory` estimated waits, the bare Gamma median and quantiles. `null` when `servers` is 0
 * (nothing may then be promised).
 */
export function estimateWait(
  history: QueueHistory,
  input: { ahead: number; servers: number },
  options: WaitEstimatorOptions = DEFAULT_WAIT_ESTIMATOR,
): WaitEstimate | null {
  const pits = history.waits.length >= options.minHistory ? history.waits.map(pitOf).sort(ascending) : null;
  return estimateFromModel(meanHolding(history, options), pits, input, options);
}

const ascending = (x: number, y: number) => x - y;

/** Where a wait fell in the distribution of the model it was told from (its PIT value, kept off 0 and 1). */
const pitOf = (w: WaitOutcome): number => clampPit(gammaCdf(w.k, w.waitedMs / w.scaleMs));

/** {@link estimateWait} from the mean holding and the history's PIT values in ascending order (`null`: not enough history). */
function estimateFromModel(
  holdingMs: number,
  pits: readonly number[] | null,
  input: { ahead: number; servers: number },
  options: WaitEstimatorOptions,
): WaitEstimate | null {
  if (input.servers <= 0) return null;
  const k = Math.max(1, Math.round(input.ahead + 1));
  const scaleMs = holdingMs / input.servers;
  const { boundQuantile, promiseQuantile, promiseMarginMs } = options;
  const calibrated = (q: number) => (pits === null ? q : clampPit(pits[Math.min(pits.length - 1, Math.floor(q * pits.length))] ?? q));
  const at = (q: number) => gammaQuantile(k, calibrated(q)) * scaleMs;
  return { pointMs: at(0.5), boundMs: at(boundQuantile), promiseMs: at(promiseQuantile) + promiseMarginMs, k, scaleMs };
}

/** The newest `size` items, oldest first once full (a ring). */
class Window<T> {
  private readonly items: T[] = [];
  private next = 0;

  constructor(private readonly size: number) {}

  /** Adds `item`; returns the one it replaced, once the window is full. */
  add(item: T): T | undefined {
    let evicted: T | undefined;
    if (this.items.length < this.size) this.items.push(item);
    else [evicted, this.items[this.next]] = [this.items[this.next], item];
    this.next = (this.next + 1) % this.size;
    return evicted;
  }

  /** The items in any order. */
  get values(): readonly T[] {
    return this.items;
  }
}

/**
 * A queue's history kept in memory, for the queue simulator and tests: the same moving mean and
 * window the router's tables keep (`RoutingStore.waitHistory`), and the same {@link estimateWait}.
 */
export class QueueWaitEstimator {
  private holding: { holdingMs: number; served: number } | null = null;
  private readonly waits: Window<WaitOutcome>;
  /** The PIT values of `waits`, kept in ascending order as they come and go (what `estimateWait` sorts afresh). */
  private readonly pits: number[] = [];

  constructor(private readonly options: WaitEstimatorOptions = DEFAULT_WAIT_ESTIMATOR) {
    this.waits = new Window(options.historySize);
  }

  /** A served item held its slot for `heldMs` (from the offer it accepted to its completion). */
  recordServed(heldMs: number): void {
    this.holding = nextHolding(this.holding, heldMs, this.options);
  }

  /** A wait that was estimated has ended (or is known to be at least `actualMs`, if it was cut short). */
  recordWait(estimate: Pick<WaitEstimate, 'k' | 'scaleMs'>, actualMs: number): void {
    const outcome = { k: estimate.k, scaleMs: estimate.scaleMs, waitedMs: actualMs };
    const evicted = this.waits.add(outcome);
    if (evicted !== undefined) this.pits.splice(lowerBound(this.pits, pitOf(evicted)), 1);
    const u = pitOf(outcome);
    this.pits.splice(lowerBound(this.pits, u), 0, u);
  }

  history(): QueueHistory {
    return { holdingMs: this.holding?.holdingMs ?? null, waits: this.waits.values };
  }

  /** The current mean holding time per item, in ms. */
  meanHoldingMs(): number {
    return meanHolding(this.history(), this.options);
  }

  /** {@link estimateWait} of this history: for a request with `ahead` before it and `servers` items of its channel that fit at once on shift. */
  estimate(input: { ahead: number; servers: number }): WaitEstimate | null {
    const pits = this.pits.length >= this.options.minHistory ? this.pits : null;
    return estimateFromModel(this.meanHoldingMs(), pits, input, this.options);
  }
}

/** The first index of a sorted array whose value is not below `x`. */
function lowerBound(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Salesforce Omni-Channel's published estimator, for comparison: A = 0.9·A′ + 0.1·W, where W is
 * the wait of the last accepted chat, told as A minus the time already waited.
 */
export function salesforceAverage(previous: number, lastWait: number): number {
  return 0.9 * previous + 0.1 * lastWait;
}
