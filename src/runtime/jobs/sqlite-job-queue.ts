import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { SqliteStore } from '../../store/sqlite-store.js';
import { retryWhileBusy } from '../../store/store-busy.js';
import { JobRunner, type Claimed, type RunnerOptions } from './job-runner.js';
import {
  errorText,
  exponentialBackoffMs,
  jobPayloadSchema,
  LeaseLostError,
  parseJobSpec,
  type Job,
  type JobContext,
  type JobHandlers,
  type JobQueue,
  type JobSpec,
  type JobStatus,
} from './job-queue.js';

/** Options of {@link SqliteJobQueue}. */
export interface SqliteJobQueueOptions extends RunnerOptions {
  /** The store's database (`SqliteStore.db`), migrated to version 4: the `jobs` table lives beside the conversations. */
  db: Database.Database;
  /** The clock (epoch ms) that decides what is due, when a lease ends and when a retry runs. Default `Date.now`. */
  now?: () => number;
  /** How long a claimed job is this worker's (ms, default 30 s); renewed while the handler runs, so only a dead or stalled process loses it. */
  leaseMs?: number;
  /** Wait before retrying a run that threw (ms, by attempt from 1). Default graphile-worker's: e^attempt seconds. */
  backoffMs?: (attempt: number) => number;
  /** How long a write waits for another process's lock (ms, default 5000), off the event loop (ADR 0011). */
  busyTimeoutMs?: number;
}

/**
 * What a SQLite handler receives: `completeWith(effect)` runs `effect` and marks the job done in
 * one transaction on the store's file, so the effect happens exactly once. `effect` is synchronous
 * (better-sqlite3) and may use the store's tables and `scheduleSync`/`cancelSync` to set the next
 * timer in the same commit. It throws {@link LeaseLostError}, committing nothing, if another worker
 * has taken the job over.
 */
export interface SqliteJobContext extends JobContext {
  completeWith<T>(effect: (db: Database.Database) => T): Promise<T>;
}

interface JobRow {
  id: number;
  key: string;
  name: string;
  payload: string;
  run_at: number;
  state: 'pending' | 'running' | 'done' | 'failed';
  attempts: number;
  max_attempts: number;
  last_error: string | null;
  finished_at: number | null;
}

const jobOf = (row: JobRow): Job => ({
  id: String(row.id),
  key: row.key,
  name: row.name,
  payload: jobPayloadSchema.parse(JSON.parse(row.payload)),
  runAt: new Date(row.run_at),
  attempt: row.attempts,
  maxAttempts: row.max_attempts,
});

function statusOf(row: JobRow): JobStatus {
  const base = { key: row.key, name: row.name };
  switch (row.state) {
    case 'done':
      return { ...base, state: 'done', doneAt: new Date(row.finished_at ?? row.run_at) };
    case 'failed':
      return { ...base, state: 'failed', attempts: row.attempts, lastError: row.last_error ?? 'failed' };
    default:
      return {
        ...base,
        state: row.state,
        runAt: new Date(row.run_at),
        attempts: row.attempts,
        maxAttempts: row.max_attempts,
        lastError: row.last_error,
      };
  }
}

const LEASE_EXPIRED = 'the worker running it stopped before finishing (its lease expired)';

/**
 * The job queue on SQLite: a table in the store's own file (migration 4), shared by every process
 * that opens the file. A worker claims due jobs under a lease in one `BEGIN IMMEDIATE` transaction
 * and completes each in another (or in the handler's own, with `completeWith`). Writes that meet
 * another process's lock wait on timers, never inside SQLite (ADR 0011).
 */
export class SqliteJobQueue implements JobQueue<SqliteJobContext> {
  readonly kind = 'sqlite' as const;
  readonly #db: Database.Database;
  readonly #now: () => number;
  readonly #leaseMs: number;
  readonly #backoffMs: (attempt: number) => number;
  readonly #busyTimeoutMs: number;
  /** This queue's lease token: which rows are ours. */
  readonly #owner = `lease_${randomUUID()}`;
  readonly #runner: JobRunner<SqliteJobContext>;
  readonly #stmt;
  readonly #tx;
  /** The in-memory database this queue opened itself (see `inMemory`), closed with it. */
  #ownStore: SqliteStore | null = null;

  /** A queue in a private in-memory SQLite database: for the memory store and virtual-clock runs. Lost when the process ends. */
  static inMemory(options: Omit<SqliteJobQueueOptions, 'db'> = {}): SqliteJobQueue {
    const store = new SqliteStore({ path: ':memory:' });
    const queue = new SqliteJobQueue({ ...options, db: store.db });
    queue.#ownStore = store;
    return queue;
  }

  constructor(options: SqliteJobQueueOptions) {
    this.#db = options.db;
    this.#now = options.now ?? Date.now;
    this.#leaseMs = options.leaseMs ?? 30_000;
    this.#backoffMs = options.backoffMs ?? exponentialBackoffMs;
    this.#busyTimeoutMs = options.busyTimeoutMs ?? 5_000;
    if (!(this.#leaseMs > 0)) throw new TypeError('leaseMs must be positive');
    const db = this.#db;
    const stmt = {
      pending: db.prepare<[string], { id: number }>(`SELECT id FROM jobs WHERE key = ? AND state = 'pending'`),
      replace: db.prepare(
        `UPDATE jobs SET name = @name, payload = @payload, run_at = @run_at, attempts = 0, max_attempts = @max_attempts,
           last_error = NULL WHERE id = @id`,
      ),
      insert: db.prepare(
        `INSERT INTO jobs (key, name, payload, run_at, state, attempts, max_attempts, created_at)
         VALUES (@key, @name, @payload, @run_at, 'pending', 0, @max_attempts, @now)`,
      ),
      // A running job of the key is superseded: it may finish, but it is not tried again.
      noRetry: db.prepare(`UPDATE jobs SET max_attempts = attempts WHERE key = ? AND state = 'running' AND attempts < max_attempts`),
      deletePending: db.prepare(`DELETE FROM jobs WHERE key = ? AND state = 'pending'`),
      status: db.prepare<[string], JobRow>(
        `SELECT * FROM jobs WHERE key = ? ORDER BY CASE state WHEN 'pending' THEN 0 WHEN 'running' THEN 1 ELSE 2 END, id DESC LIMIT 1`,
      ),
      prune: db.prepare(`DELETE FROM jobs WHERE state IN ('done', 'failed') AND finished_at < ?`),
      expireSpent: db.prepare(
        `UPDATE jobs SET state = 'failed', finished_at = @now, lease_owner = NULL, lease_until = NULL,
           last_error = coalesce(last_error, '${LEASE_EXPIRED}')
         WHERE state = 'running' AND lease_until <= @now AND attempts >= max_attempts`,
      ),
      expire: db.prepare(
        `UPDATE jobs SET state = 'pending', lease_owner = NULL, lease_until = NULL, last_error = '${LEASE_EXPIRED}'
         WHERE state = 'running' AND lease_until <= @now`,
      ),
      due: db.prepare<{ now: number; names: string; limit: number }, { id: number }>(
        `SELECT id FROM jobs WHERE state = 'pending' AND run_at <= @now AND name IN (SELECT value FROM json_each(@names))
         ORDER BY run_at, id LIMIT @limit`,
      ),
      claim: db.prepare<{ id: number; owner: string; until: number }, JobRow>(
        `UPDATE jobs SET state = 'running', attempts = attempts + 1, lease_owner = @owner, lease_until = @until
         WHERE id = @id RETURNING *`,
      ),
      nextDue: db.prepare<{ names: string }, { at: number | null }>(
        `SELECT min(run_at) AS at FROM jobs WHERE state = 'pending' AND name IN (SELECT value FROM json_each(@names))`,
      ),
      nextExpiry: db.prepare<[], { at: number | null }>(`SELECT min(lease_until) AS at FROM jobs WHERE state = 'running'`),
      renew: db.prepare(
        `UPDATE jobs SET lease_until = @until WHERE id = @id AND lease_owner = @owner AND attempts = @attempts AND state = 'running'`,
      ),
      done: db.prepare(
        `UPDATE jobs SET state = 'done', finished_at = @now, lease_owner = NULL, lease_until = NULL
         WHERE id = @id AND lease_owner = @owner AND attempts = @attempts AND state = 'running'`,
      ),
      fail: db.prepare<
        { id: number; owner: string; attempts: number; now: number; retry_at: number; error: string },
        { state: JobRow['state']; run_at: number }
      >(
        `UPDATE jobs SET
           state = CASE WHEN attempts >= max_attempts THEN 'failed' ELSE 'pending' END,
           run_at = CASE WHEN attempts >= max_attempts THEN run_at ELSE @retry_at END,
           finished_at = CASE WHEN attempts >= max_attempts THEN @now END,
           last_error = @error, lease_owner = NULL, lease_until = NULL
         WHERE id = @id AND lease_owner = @owner AND attempts = @attempts AND state = 'running'
         RETURNING state, run_at`,
      ),
    };
    this.#stmt = stmt;
    // Each is one BEGIN IMMEDIATE transaction; called inside a caller's transaction, a savepoint of it.
    this.#tx = {
      schedule: db.transaction((spec: ReturnType<typeof parseJobSpec>) => {
        const row = {
          key: spec.key,
          name: spec.name,
          payload: JSON.stringify(spec.payload),
          run_at: spec.runAt.getTime(),
          max_attempts: spec.maxAttempts,
        };
        stmt.noRetry.run(spec.key);
        const pending = stmt.pending.get(spec.key);
        if (pending) stmt.replace.run({ ...row, id: pending.id });
        else stmt.insert.run({ ...row, now: this.#now() });
      }),
      cancel: db.transaction((key: string) => {
        const removed = stmt.deletePending.run(key).changes;
        const stopped = stmt.noRetry.run(key).changes;
        return removed + stopped > 0;
      }),
      claim: db.transaction((names: string, limit: number, running: Job[]) => {
        const now = this.#now();
        const until = now + this.#leaseMs;
        for (const job of running) stmt.renew.run({ id: Number(job.id), owner: this.#owner, attempts: job.attempt, until });
        stmt.expireSpent.run({ now });
        stmt.expire.run({ now });
        const claimed = stmt.due.all({ now, names, limit }).map(({ id }) => stmt.claim.get({ id, owner: this.#owner, until })!);
        const next = [stmt.nextDue.get({ names })?.at, stmt.nextExpiry.get()?.at].filter((at): at is number => typeof at === 'number');
        return { claimed, nextAt: next.length ? Math.min(...next) : null };
      }),
      renew: db.transaction((jobs: Job[]) => {
        const until = this.#now() + this.#leaseMs;
        return jobs.filter((job) => stmt.renew.run({ id: Number(job.id), owner: this.#owner, attempts: job.attempt, until }).changes === 0);
      }),
      completeWith: db.transaction(<T>(job: Job, effect: (db: Database.Database) => T): T => {
        this.#markDone(job);
        const result = effect(db);
        if (typeof (result as { then?: unknown } | null)?.then === 'function') {
          throw new TypeError('completeWith(effect): the effect must be synchronous (one SQLite transaction); it returned a promise');
        }
        return result;
      }),
      complete: db.transaction((job: Job) => this.#markDone(job)),
    };
    this.#runner = new JobRunner<SqliteJobContext>(options, {
      claim: async (names, limit, running) => {
        const { claimed, nextAt } = await this.#write(() => this.#tx.claim.immediate(JSON.stringify(names), limit, running));
        return { claimed: claimed.map((row): Claimed => ({ job: jobOf(row) })), waitMs: nextAt === null ? null : nextAt - this.#now() };
      },
      renew: async (jobs) => this.#write(() => this.#tx.renew.immediate(jobs)),
      renewEveryMs: this.#leaseMs / 3,
      context: (job, signal) => ({
        signal,
        completeWith: async <T>(effect: (db: Database.Database) => T): Promise<T> => {
          if (this.#runner.isCompleted(job)) throw new Error(`job ${job.id} (${job.key}) was completed already: completeWith runs once`);
          const result = (await this.#write(() => this.#tx.completeWith.immediate(job, effect))) as T;
          this.#runner.markCompleted(job);
          return result;
        },
      }),
      complete: async (job) => {
        await this.#write(() => this.#tx.complete.immediate(job));
      },
      fail: async (job, error) => {
        const now = this.#now();
        const row = await this.#write(() =>
          this.#stmt.fail.get({
            id: Number(job.id),
            owner: this.#owner,
            attempts: job.attempt,
            now,
            retry_at: now + this.#backoffMs(job.attempt),
            error: errorText(error),
          }),
        );
        if (!row) throw new LeaseLostError(job);
        return row.state === 'failed' ? { failed: true } : { failed: false, nextRunAt: new Date(row.run_at) };
      },
    });
  }

  #markDone(job: Job): void {
    const { changes } = this.#stmt.done.run({ id: Number(job.id), owner: this.#owner, attempts: job.attempt, now: this.#now() });
    if (changes === 0) throw new LeaseLostError(job);
  }

  #write<T>(work: () => T): T | Promise<T> {
    return retryWhileBusy(work, { timeoutMs: this.#busyTimeoutMs });
  }

  async schedule(spec: JobSpec): Promise<void> {
    const parsed = parseJobSpec(spec);
    await this.#write(() => this.#tx.schedule.immediate(parsed));
    this.#runner.nudge();
  }

  /**
   * `schedule`, synchronously, for use inside the caller's own transaction on the store's database
   * (`db.transaction(...)`, or a `completeWith` effect): the timer commits or rolls back with the
   * caller's write. Outside a transaction it is its own, and throws SQLITE_BUSY at once if another
   * process holds the lock (prefer `schedule` there, which waits for it off the event loop).
   */
  scheduleSync(spec: JobSpec): void {
    const parsed = parseJobSpec(spec);
    if (this.#db.inTransaction) this.#tx.schedule(parsed);
    else this.#tx.schedule.immediate(parsed);
    this.#runner.nudge();
  }

  async cancel(key: string): Promise<boolean> {
    return this.#write(() => this.#tx.cancel.immediate(key));
  }

  /** `cancel`, synchronously, inside the caller's own transaction (see `scheduleSync`). */
  cancelSync(key: string): boolean {
    return this.#db.inTransaction ? this.#tx.cancel(key) : this.#tx.cancel.immediate(key);
  }

  async status(key: string): Promise<JobStatus | null> {
    const row = await this.#write(() => this.#stmt.status.get(key));
    return row ? statusOf(row) : null;
  }

  async prune(before: Date): Promise<number> {
    return (await this.#write(() => this.#stmt.prune.run(before.getTime()))).changes;
  }

  async start(handlers: JobHandlers<SqliteJobContext>): Promise<void> {
    this.#runner.start(handlers);
  }

  async stop(): Promise<void> {
    await this.#runner.stop();
  }

  /** Stops; the database is the store's, and stays open (unless the queue opened it: `inMemory`). */
  async close(): Promise<void> {
    await this.stop();
    await this.#ownStore?.close();
  }
}
