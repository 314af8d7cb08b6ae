/**
 * How long to wait before the next attempt: what the server asked for (`retry-after-ms`,
 * `Retry-After` in seconds or as an HTTP date), else exponential back-off with jitter.
 */

/** Header lookup, as `Headers#get` offers it. */
export interface HeaderSource {
  get(name: string): string | null;
}

/**
 * The wait the server asked for, in milliseconds, or `undefined` when it asked for none (or wrote
 * something unreadable). `retry-after-ms` (OpenAI's, more precise) wins over `Retry-After`. A date
 * in the past means "now": 0.
 */
export function serverRetryDelayMs(headers: HeaderSource | undefined, nowMs: number): number | undefined {
  if (!headers) return undefined;
  const millis = headers.get('retry-after-ms');
  if (millis !== null && /^\s*\d+(\.\d+)?\s*$/.test(millis)) return Math.max(0, Math.ceil(Number(millis)));
  const after = headers.get('retry-after');
  if (after === null || after.trim() === '') return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(after)) return Math.max(0, Math.ceil(Number(after) * 1000));
  // An HTTP date names its weekday and month; anything else (`-3`, which Date.parse would read as
  // the year -3) is unreadable, not a date.
  if (!/[a-z]{3}/i.test(after)) return undefined;
  const date = Date.parse(after);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/** Inputs of the back-off computation. */
export interface BackoffOptions {
  /** The wait before the first retry, before jitter. */
  baseMs: number;
  /** No wait exceeds this. */
  maxMs: number;
  /** Uniform in [0, 1): the jitter source. */
  random: () => number;
}

/**
 * The back-off before retry number `retry` (0 for the first retry): `baseMs · 2^retry`, capped
 * at `maxMs`, then "equal jitter" — somewhere in its upper half — so that clients that failed
 * together do not all come back together, while none retries almost at once.
 */
export function backoffDelayMs(retry: number, options: BackoffOptions): number {
  const ceiling = Math.min(options.maxMs, options.baseMs * 2 ** retry);
  return Math.round(ceiling / 2 + (ceiling / 2) * options.random());
}
