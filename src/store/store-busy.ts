import { setImmediate as yieldToLoop, setTimeout as wait } from 'node:timers/promises';

/**
 * The store could not get its write lock within its bound (another process held the SQLite file's
 * lock for that long). Nothing was written. An expected condition under load, not a bug: the
 * HTTP layer answers `503` with `Retry-After`, and the caller may try again.
 */
export class StoreBusyError extends Error {
  override readonly name = 'StoreBusyError';
  constructor(
    readonly store: 'sqlite' | 'postgres',
    /** How long the write was retried, in ms. */
    readonly waitedMs: number,
  ) {
    super(`the ${store} store stayed locked by another process for ${waitedMs} ms; nothing was written, try again`);
  }
}

/** Whether `error` is SQLite's "the database is locked" (SQLITE_BUSY and its extended codes). */
export const isSqliteBusy = (error: unknown): boolean =>
  typeof (error as { code?: unknown } | null)?.code === 'string' && (error as { code: string }).code.startsWith('SQLITE_BUSY');

// Short at first (a writer holds the lock for well under a millisecond), then every 16 ms at most.
const MAX_BACKOFF_MS = 16;

/**
 * Runs `attempt` (one synchronous SQLite statement or transaction) until it does not fail with
 * SQLITE_BUSY, waiting between tries on a timer, so that the event loop serves other work while
 * another process holds the lock; after `timeoutMs` it gives up with {@link StoreBusyError}. A
 * busy transaction rolled back before running, so trying again is safe. (SQLite's own
 * `busy_timeout` would wait inside the call, blocking every request this process serves; it is
 * set to 0.) The first try runs at once and, when it succeeds, its value is returned as it is:
 * the common case costs no promise.
 */
export function retryWhileBusy<T>(attempt: () => T, options: { timeoutMs: number; now?: () => number }): T | Promise<T> {
  try {
    return attempt();
  } catch (error) {
    if (!isSqliteBusy(error)) throw error;
    return retryLater(attempt, options.timeoutMs, options.now ?? Date.now);
  }
}

async function retryLater<T>(attempt: () => T, timeoutMs: number, now: () => number): Promise<T> {
  const started = now();
  await yieldToLoop();
  for (let tries = 1; ; tries++) {
    try {
      return attempt();
    } catch (error) {
      if (!isSqliteBusy(error)) throw error;
      const waited = now() - started;
      if (waited >= timeoutMs) throw new StoreBusyError('sqlite', waited);
      await wait(Math.min(MAX_BACKOFF_MS, 2 ** (tries - 1)) * (0.5 + Math.random() / 2));
    }
  }
}
