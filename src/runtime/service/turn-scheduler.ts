/**
 * Runs agent turns off the request path: one at a time per conversation (a conversation's turns
 * never overlap), at most `concurrency` at once over all of them, so a slow or failing model
 * holds up only its own conversation. In one process; several processes on PostgreSQL claim turns
 * as jobs instead (DESIGN.md §Scale-out).
 */
export interface TurnScheduler {
  /** Queues `work` behind the conversation's earlier turns; resolves with its result. */
  schedule<T>(key: string, work: () => Promise<T>): Promise<T>;
  /** Resolves once nothing is queued or running (tests, shutdown). */
  idle(): Promise<void>;
  /** Turns queued or running now. */
  readonly pending: number;
}

/** Options of {@link createTurnScheduler}. */
export interface TurnSchedulerOptions {
  /** Turns running at once over all conversations (default 256: a turn mostly waits on its model, and every waiting turn holds a slot). */
  concurrency?: number;
  /** Told of a turn that threw (a bug, or a store that failed); the scheduler goes on. */
  onError?: (key: string, error: unknown) => void;
}

export function createTurnScheduler(options: TurnSchedulerOptions = {}): TurnScheduler {
  const concurrency = Math.max(1, options.concurrency ?? 256);
  const tails = new Map<string, Promise<unknown>>();
  const waiting: Array<() => void> = [];
  let running = 0;
  let pending = 0;
  let idleWaiters: Array<() => void> = [];

  const acquire = () =>
    running < concurrency ? ((running += 1), Promise.resolve()) : new Promise<void>((resolve) => waiting.push(resolve));
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  };

  return {
    schedule<T>(key: string, work: () => Promise<T>): Promise<T> {
      pending += 1;
      const before = tails.get(key) ?? Promise.resolve();
      const run = before.then(async () => {
        await acquire();
        try {
          return await work();
        } finally {
          release();
        }
      });
      const settled = run.then(
        () => undefined,
        (error: unknown) => options.onError?.(key, error),
      );
      tails.set(key, settled);
      void settled.then(() => {
        if (tails.get(key) === settled) tails.delete(key);
        pending -= 1;
        if (pending === 0) {
          const waiters = idleWaiters;
          idleWaiters = [];
          for (const w of waiters) w();
        }
      });
      return run;
    },
    idle: () => (pending === 0 ? Promise.resolve() : new Promise<void>((resolve) => idleWaiters.push(resolve))),
    get pending() {
      return pending;
    },
  };
}
