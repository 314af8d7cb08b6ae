import type { StoredEvent } from './events.js';
import type { MetricsWindow, Rate } from './runtime-metrics.js';

/** How the router's promises to waiting customers held up, from the log (RUNTIME.md §Router). */
export interface WaitFigures {
  /** Waits told an estimate ("about N minutes") whose outcome is known: a person joined, or the wait has outlasted the promise. */
  estimated: number;
  /** |estimate − actual wait| over estimated waits a person joined (ms). */
  absoluteErrorMs: { p50: number | null; p90: number | null };
  /** Actual waits within the stated bound ("usually within M minutes") ÷ estimated waits. */
  boundCoverage: Rate;
  /** Estimated waits a person joined within the promise ÷ estimated waits whose outcome is known. */
  promiseKept: Rate;
  /** Customers told a colleague was joining now (an offer was held), and how long it then took (ms). */
  joinNow: { count: number; p50Ms: number | null };
  /** Queue-age alerts raised in the window, by queue. */
  ageAlerts: Record<string, number>;
  /** The longest any conversation now waiting has waited, by queue (ms at `now`). */
  oldestWaitingMs: Record<string, number>;
}

const rate = (count: number, of: number): Rate => ({ count, of, rate: of === 0 ? null : count / of });
const quantile = (sorted: readonly number[], q: number): number | null =>
  sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
const inWindow = (window: MetricsWindow, at: string) => at >= window.since && at < window.until;

/**
 * Wait-estimate error, bound coverage, promise kept, "joining now" delays, queue-age alerts and the
 * oldest wait per queue: a pure function of the conversations' logs and the time of asking. A wait
 * starts at the router's `promised` note and ends when a person takes the conversation (claimed, or
 * transferred to a person); a wait still open counts against the promise once it has outlasted it.
 * Promises belong to the window they were made in.
 */
export function waitMetrics(logs: readonly (readonly StoredEvent[])[], window: MetricsWindow, now: number): WaitFigures {
  const errors: number[] = [];
  const joinNow: number[] = [];
  let joinNowCount = 0;
  let estimated = 0;
  let covered = 0;
  let kept = 0;
  const ageAlerts: Record<string, number> = {};
  const oldestWaitingMs: Record<string, number> = {};
  for (const log of logs) {
    let waiting: {
      at: number;
      promise: 'join_now' | 'join_estimate' | 'other';
      pointMs: number;
      boundMs: number;
      promiseMs: number;
      counted: boolean;
    } | null = null;
    let queuedAt: { queue: string; at: number } | null = null;
    for (const event of log) {
      const at = Date.parse(event.at);
      if (event.type === 'routing.noted') {
        const note = event.data;
        if (note.kind === 'promised') {
          waiting = {
            at,
            promise: note.promise === 'join_now' || note.promise === 'join_estimate' ? note.promise : 'other',
            pointMs: note.estimate?.pointMs ?? 0,
            boundMs: note.estimate?.boundMs ?? 0,
            promiseMs: note.estimate?.promiseMs ?? 0,
            counted: inWindow(window, event.at),
          };
          if (waiting.counted && waiting.promise === 'join_now') joinNowCount += 1;
          if (waiting.counted && waiting.promise === 'join_estimate') estimated += 1;
        } else if (note.kind === 'age_alert' && inWindow(window, event.at)) {
          ageAlerts[note.queue] = (ageAlerts[note.queue] ?? 0) + 1;
        }
      } else if (event.type === 'conversation.queued') {
        queuedAt = { queue: event.data.queue, at };
      } else if (
        (event.type === 'conversation.claimed' || event.type === 'conversation.transferred' || event.type === 'conversation.closed') &&
        event.data.state !== 'QUEUED'
      ) {
        queuedAt = null;
        const joined = event.type !== 'conversation.closed' && event.data.owner.type === 'human';
        if (waiting?.counted && joined) {
          const actual = at - waiting.at;
          if (waiting.promise === 'join_now') joinNow.push(actual);
          if (waiting.promise === 'join_estimate') {
            errors.push(Math.abs(waiting.pointMs - actual));
            if (actual <= waiting.boundMs) covered += 1;
            if (actual <= waiting.promiseMs) kept += 1;
          }
        } else if (waiting?.counted && waiting.promise === 'join_estimate') {
          // Closed (or given up) before anyone joined: not within the bound, not a kept promise.
          estimated -= at - waiting.at <= waiting.promiseMs ? 1 : 0;
        }
        waiting = null;
      } else if (event.type === 'conversation.transferred' && event.data.state === 'QUEUED') {
        queuedAt = { queue: event.data.owner.type === 'queue' ? event.data.owner.id : 'unknown', at };
      }
    }
    // Still waiting: an outlasted promise is a broken one; a wait within it has no outcome yet.
    if (waiting?.counted && waiting.promise === 'join_estimate' && now - waiting.at <= waiting.promiseMs) estimated -= 1;
    if (queuedAt !== null) oldestWaitingMs[queuedAt.queue] = Math.max(oldestWaitingMs[queuedAt.queue] ?? 0, now - queuedAt.at);
  }
  errors.sort((a, b) => a - b);
  joinNow.sort((a, b) => a - b);
  return {
    estimated,
    absoluteErrorMs: { p50: quantile(errors, 0.5), p90: quantile(errors, 0.9) },
    boundCoverage: rate(covered, estimated),
    promiseKept: rate(kept, estimated),
    joinNow: { count: joinNowCount, p50Ms: quantile(joinNow, 0.5) },
    ageAlerts,
    oldestWaitingMs,
  };
}
