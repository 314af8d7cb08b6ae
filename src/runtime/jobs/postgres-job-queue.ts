import { EventEmitter } from 'node:events';
import { Logger, makeWorkerUtils, run, type JobHelpers, type Runner, type TaskList, type WorkerUtils } from 'graphile-worker';
import pg from 'pg';
import { z } from 'zod';
import {
  assertHandlers,
  errorText,
  exponentialBackoffMs,
  jobPayloadSchema,
  LeaseLostError,
  parseJobSpec,
  type Job,
  type JobContext,
  type JobEvent,
  type JobHandlers,
  type JobQueue,
  type JobSpec,
  type JobStatus,
} from './job-queue.js';

/** Options of {@link PostgresJobQueue.open}. */
export interface PostgresJobQueueOptions {
  /** The store's connection string; the database must have been opened by `PostgresStore` (migration 4). */
  url: string;
  /** Longest wait between looks for jobs that became due (graphile-worker's `pollInterval`; ms, default 1000). New jobs due now arrive by LISTEN/NOTIFY at once. */
  pollIntervalMs?: number;
  /** Handlers running at once in this process (default 4). */
  concurrency?: number;
  /**
   * How long a job stays locked by a worker that stopped beating (ms, default 30 s). Every process
   * beats for its workers every third of it, and releases the locks of workers that stopped, so
   * another process retries their jobs (graphile-worker alone would wait 4 hours).
   */
  leaseMs?: number;
  /** Connections in this queue's own pool (default concurrency + 4). */
  poolSize?: number;
  /** Retries, failures and graphile-worker's errors. Default: ignored. */
  onEvent?: (event: JobEvent) => void;
}

/** One SQL statement with its parameters (`$1`…), as `pg` takes it. */
export interface SqlStatement {
  text: string;
  values: readonly unknown[];
}

/**
 * What a PostgreSQL handler receives: `completeWith(effect)` runs `effect` on a client inside one
 * transaction that also records the job as done (`jobs_done`), so the effect commits exactly once:
 * a second run of the same job (its first worker died after committing, or still runs) finds the
 * record and commits nothing ({@link LeaseLostError}), and a later retry skips the handler.
 * graphile-worker's own completion (deleting the job) follows in its own transaction.
 */
export interface PostgresJobContext extends JobContext {
  completeWith<T>(effect: (client: pg.PoolClient) => Promise<T>): Promise<T>;
  /**
   * `completeWith` for an effect that is one statement: the statement and the job's done record
   * are one statement, so one round trip and one commit (`completeWith` takes five). The
   * statement is an INSERT, UPDATE, DELETE or SELECT that does not begin with `WITH` (the done
   * record is put before it as a data-modifying `WITH`); its parameters are `$1`…`$n` of
   * `values`. A second run of the same job commits nothing and throws {@link LeaseLostError}.
   */
  completeWithStatement(statement: SqlStatement): Promise<pg.QueryResult>;
}

// Wrapped so that a payload is never merged (graphile-worker concatenates two array payloads on
// replace) and so that the key survives graphile-worker clearing it from a superseded job.
const envelopeSchema = z.object({ v: z.literal(1), key: z.string(), data: jobPayloadSchema });

/** PostgreSQL's SQLSTATE for a duplicate key. */
const UNIQUE_VIOLATION = '23505';

/** Arbitrary but fixed: serialises graphile-worker's schema migration across processes. */
const MIGRATION_LOCK = 7_310_221_416;

const quietLogger = (onEvent: (event: JobEvent) => void) =>
  new Logger(() => (level, message, meta) => {
    // A handler's failure is reported by the queue itself (job.retrying, job.failed).
    if (level === 'error' && meta?.['failure'] !== true) onEvent({ type: 'queue.error', error: message });
  });

/**
 * The job queue on PostgreSQL: graphile-worker 0.16 in this process, in the store's database.
 * `schedule` is `add_job` with the key as its `job_key` (mode `replace`), `cancel` is
 * `remove_job`; graphile-worker's runner claims jobs with `SKIP LOCKED`, retries with e^attempt
 * seconds of back-off, and keeps a job that used its attempts as permanently failed. Baton adds
 * the record of completed runs and the heartbeat leases (docs/decisions/0016-durable-timers.md).
 */
export class PostgresJobQueue implements JobQueue<PostgresJobContext> {
  readonly kind = 'postgres' as const;
  readonly #pool: pg.Pool;
  readonly #utils: WorkerUtils;
  readonly #options: PostgresJobQueueOptions;
  readonly #onEvent: (event: JobEvent) => void;
  readonly #leaseMs: number;
  /** The first runner, and one more for each worker graphile-worker lost (it does not replace them). */
  #runners: Runner[] = [];
  #stopping = false;
  #started = false;
  readonly #workerIds = new Set<string>();
  #beatTimer: NodeJS.Timeout | null = null;
  #beating: Promise<void> = Promise.resolve();
  #closed = false;

  private constructor(pool: pg.Pool, utils: WorkerUtils, options: PostgresJobQueueOptions) {
    this.#pool = pool;
    this.#utils = utils;
    this.#options = options;
    this.#onEvent = options.onEvent ?? (() => {});
    this.#leaseMs = options.leaseMs ?? 30_000;
  }

  /** Connects, checks the store's migration is there, installs or upgrades graphile-worker's schema. */
  static async open(options: PostgresJobQueueOptions): Promise<PostgresJobQueue> {
    const concurrency = options.concurrency ?? 4;
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new TypeError('concurrency must be a positive integer');
    if (!((options.leaseMs ?? 30_000) > 0)) throw new TypeError('leaseMs must be positive');
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? concurrency + 4 });
    pool.on('error', () => {});
    try {
      const { rows } = await pool.query<{ table: string | null }>(`SELECT to_regclass('jobs_done')::text AS table`);
      if (!rows[0]?.table) {
        throw new Error('this database has no jobs_done table: open the PostgresStore on it first (it runs migration 4, jobs)');
      }
      // makeWorkerUtils migrates graphile-worker's schema as it starts: under the lock, or two
      // processes opening a fresh database at once race to create it.
      const client = await pool.connect();
      let utils: WorkerUtils;
      try {
        await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
        utils = await makeWorkerUtils({ pgPool: pool, logger: quietLogger(options.onEvent ?? (() => {})) });
        await utils.migrate();
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
        client.release();
      }
      return new PostgresJobQueue(pool, utils, { ...options, concurrency });
    } catch (error) {
      await pool.end();
      throw error;
    }
  }

  async schedule(spec: JobSpec): Promise<void> {
    await this.scheduleIn(this.#pool, spec);
  }

  /** `schedule` on the caller's client: inside the caller's transaction, the timer commits or rolls back with its write. */
  async scheduleIn(client: pg.Pool | pg.PoolClient, spec: JobSpec): Promise<void> {
    const s = parseJobSpec(spec);
    await client.query(
      `SELECT graphile_worker.add_job($1, $2::json, run_at => $3, max_attempts => $4, job_key => $5, job_key_mode => 'replace')`,
      [s.name, JSON.stringify({ v: 1, key: s.key, data: s.payload }), s.runAt.toISOString(), s.maxAttempts, s.key],
    );
  }

  /**
   * Adds each job unless a job of its key is already pending or running (graphile-worker's
   * `unsafe_dedupe`): adding the same keys again never duplicates a job, nor restarts or replaces
   * one. Only for work whose payload a key fixes for good (a lab episode of a run), since a
   * running job is not told of the second add. A key whose job failed for good is given a fresh
   * job. One transaction for all of them.
   */
  async addOnce(specs: readonly JobSpec[]): Promise<void> {
    if (specs.length === 0) return;
    const parsed = specs.map(parseJobSpec);
    const column = <T>(pick: (s: (typeof parsed)[number]) => T) => parsed.map(pick);
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      // Failed for good (attempts used up, not locked): removed, so that the add below starts it afresh.
      await client.query(
        `SELECT graphile_worker.remove_job(key) FROM graphile_worker.jobs
         WHERE key = ANY($1::text[]) AND locked_at IS NULL AND attempts >= max_attempts`,
        [column((s) => s.key)],
      );
      await client.query(
        `SELECT graphile_worker.add_job(t.name, t.payload::json, run_at => t.run_at, max_attempts => t.max_attempts,
                job_key => t.key, job_key_mode => 'unsafe_dedupe')
         FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::int[], $5::text[]) AS t(name, payload, run_at, max_attempts, key)`,
        [
          column((s) => s.name),
          column((s) => JSON.stringify({ v: 1, key: s.key, data: s.payload })),
          column((s) => s.runAt.toISOString()),
          column((s) => s.maxAttempts),
          column((s) => s.key),
        ],
      );
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  async cancel(key: string): Promise<boolean> {
    return this.cancelIn(this.#pool, key);
  }

  /** `cancel` on the caller's client (see `scheduleIn`). */
  async cancelIn(client: pg.Pool | pg.PoolClient, key: string): Promise<boolean> {
    const { rows } = await client.query<{ id: string | null }>('SELECT (graphile_worker.remove_job($1)).id AS id', [key]);
    return rows[0]?.id != null;
  }

  async status(key: string): Promise<JobStatus | null> {
    const { rows } = await this.#pool.query<{
      task_identifier: string;
      run_at: Date;
      attempts: number;
      max_attempts: number;
      last_error: string | null;
      locked_at: Date | null;
    }>('SELECT task_identifier, run_at, attempts, max_attempts, last_error, locked_at FROM graphile_worker.jobs WHERE key = $1', [key]);
    const live = rows[0];
    if (live) {
      const base = { key, name: live.task_identifier, attempts: live.attempts };
      if (live.locked_at === null && live.attempts >= live.max_attempts) {
        return { ...base, state: 'failed', lastError: live.last_error ?? 'failed' };
      }
      return {
        ...base,
        state: live.locked_at === null ? 'pending' : 'running',
        runAt: live.run_at,
        maxAttempts: live.max_attempts,
        lastError: live.last_error,
      };
    }
    const done = await this.#pool.query<{ name: string; done_at: Date }>(
      'SELECT name, done_at FROM jobs_done WHERE key = $1 ORDER BY done_at DESC LIMIT 1',
      [key],
    );
    const row = done.rows[0];
    return row ? { state: 'done', key, name: row.name, doneAt: row.done_at } : null;
  }

  /** Of `keys`, those whose job failed for good (its attempts used up), with its last error. */
  async failedOf(keys: readonly string[]): Promise<{ key: string; lastError: string }[]> {
    if (keys.length === 0) return [];
    const { rows } = await this.#pool.query<{ key: string; last_error: string | null }>(
      `SELECT key, last_error FROM graphile_worker.jobs
       WHERE key = ANY($1::text[]) AND locked_at IS NULL AND attempts >= max_attempts ORDER BY key`,
      [keys],
    );
    return rows.map((r) => ({ key: r.key, lastError: r.last_error ?? 'failed' }));
  }

  /** Forgets done records; jobs that failed stay in graphile-worker's table until cancelled or re-scheduled. */
  async prune(before: Date): Promise<number> {
    const { rowCount } = await this.#pool.query('DELETE FROM jobs_done WHERE done_at < $1', [before]);
    return rowCount ?? 0;
  }

  async start(handlers: JobHandlers<PostgresJobContext>): Promise<void> {
    if (this.#started) throw new Error('this job queue was started already');
    if (this.#closed) throw new Error('this job queue is closed');
    const names = assertHandlers(handlers);
    const taskList: TaskList = {};
    for (const name of names) taskList[name] = (payload, helpers) => this.#handle(handlers[name]!, payload, helpers);
    this.#started = true;
    const events = new EventEmitter() as NonNullable<Parameters<typeof run>[0]['events']>;
    events.on('worker:create', ({ worker }) => {
      this.#workerIds.add(worker.workerId);
      this.#beat();
    });
    const runner = (concurrency: number) =>
      run({
        pgPool: this.#pool,
        taskList,
        concurrency,
        pollInterval: this.#options.pollIntervalMs ?? 1_000,
        logger: quietLogger(this.#onEvent),
        events,
        // No cron: recurring checks re-schedule their own key. (Without this it would read ./crontab.)
        crontab: '',
        // The process's owner decides what a signal means; the queue is stopped by stop().
        noHandleSignals: true,
      });
    // A worker that could not record a job's end (its database connection failed at that moment)
    // stops for good, and graphile-worker 0.16 does not start another. Its id is no longer renewed,
    // so the job it held is released once its lease lapses (by this process's next beat or any
    // other's) and runs again; and a runner of one takes its place, so the process keeps its workers.
    events.on('worker:stop', ({ worker, error }) => {
      this.#workerIds.delete(worker.workerId);
      if (error === undefined || this.#stopping) return;
      this.#onEvent({ type: 'queue.error', error: `worker ${worker.workerId} stopped (${errorText(error)}); starting another` });
      runner(1).then(
        (replacement) => (this.#stopping ? void replacement.stop() : this.#runners.push(replacement)),
        (failed: unknown) => this.#onEvent({ type: 'queue.error', error: `replacing a stopped worker: ${errorText(failed)}` }),
      );
    });
    this.#runners = [await runner(this.#options.concurrency ?? 4)];
    this.#beatTimer = setInterval(() => this.#beat(), this.#leaseMs / 3);
    this.#beatTimer.unref();
  }

  async #handle(handler: JobHandlers<PostgresJobContext>[string], payload: unknown, helpers: JobHelpers): Promise<void> {
    const envelope = envelopeSchema.parse(payload);
    const g = helpers.job;
    const job: Job = {
      id: String(g.id),
      key: envelope.key,
      name: g.task_identifier,
      payload: envelope.data,
      runAt: g.run_at,
      attempt: g.attempts,
      maxAttempts: g.max_attempts,
    };
    // A run that committed its effect and died before graphile-worker deleted the job: done already.
    const recorded = await this.#pool.query('SELECT 1 FROM jobs_done WHERE job_id = $1', [job.id]);
    if (recorded.rowCount) return;
    let completed = false;
    const completeWith = async <T>(effect: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
      if (completed) throw new Error(`job ${job.id} (${job.key}) was completed already: completeWith runs once`);
      const client = await this.#pool.connect();
      try {
        await client.query('BEGIN');
        // The record's unique key is the lock: a second run of this job waits here, then finds it.
        const inserted = await client.query(
          'INSERT INTO jobs_done (job_id, key, name, done_at) VALUES ($1, $2, $3, now()) ON CONFLICT (job_id) DO NOTHING',
          [job.id, job.key, job.name],
        );
        if (inserted.rowCount === 0) throw new LeaseLostError(job);
        const result = await effect(client);
        await client.query('COMMIT');
        completed = true;
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    };
    const completeWithStatement = async (statement: SqlStatement): Promise<pg.QueryResult> => {
      if (completed) throw new Error(`job ${job.id} (${job.key}) was completed already: completeWith runs once`);
      if (/^\s*with\b/i.test(statement.text)) {
        throw new TypeError('completeWithStatement: the statement must not begin with WITH (the done record is put before it as one)');
      }
      const n = statement.values.length;
      try {
        // A data-modifying WITH runs to completion whether or not the statement reads it. No ON
        // CONFLICT: a second run of this job waits on the first's key, then fails the whole
        // statement with a unique violation, which rolls its effect back with it.
        const result = await this.#pool.query(
          `WITH baton_job_done AS (INSERT INTO jobs_done (job_id, key, name, done_at) VALUES ($${n + 1}, $${n + 2}, $${n + 3}, now())) ${statement.text}`,
          [...statement.values, job.id, job.key, job.name],
        );
        completed = true;
        return result;
      } catch (error) {
        if (error instanceof pg.DatabaseError && error.code === UNIQUE_VIOLATION && error.constraint === 'jobs_done_pkey') {
          throw new LeaseLostError(job);
        }
        throw error;
      }
    };
    const signal = helpers.abortSignal ?? new AbortController().signal;
    try {
      await handler(job, { signal, completeWith, completeWithStatement });
    } catch (error) {
      if (completed) {
        this.#onEvent({ type: 'queue.error', error: `job ${job.id} (${job.key}) threw after it completed: ${errorText(error)}` });
        return;
      }
      if (error instanceof LeaseLostError) {
        this.#onEvent({ type: 'job.lease_lost', job });
        return;
      }
      this.#onEvent(
        job.attempt >= job.maxAttempts
          ? { type: 'job.failed', job, error: errorText(error) }
          : { type: 'job.retrying', job, error: errorText(error), nextRunAt: new Date(Date.now() + exponentialBackoffMs(job.attempt)) },
      );
      throw error;
    }
    if (!completed) {
      await this.#pool.query(
        'INSERT INTO jobs_done (job_id, key, name, done_at) VALUES ($1, $2, $3, now()) ON CONFLICT (job_id) DO NOTHING',
        [job.id, job.key, job.name],
      );
    }
  }

  /** One beat at a time: renews this process's workers, releases the locks of workers that stopped beating. */
  #beat(): void {
    this.#beating = this.#beating.then(async () => {
      if (this.#closed || this.#workerIds.size === 0) return;
      try {
        const lease = `${Math.ceil(this.#leaseMs)} milliseconds`;
        await this.#pool.query(
          `INSERT INTO job_workers (worker_id, beat_at) SELECT unnest($1::text[]), now()
           ON CONFLICT (worker_id) DO UPDATE SET beat_at = now()`,
          [[...this.#workerIds]],
        );
        // Locked for longer than a lease, by a worker with no fresh beat: its process is gone.
        const { rows } = await this.#pool.query<{ locked_by: string }>(
          `SELECT DISTINCT j.locked_by FROM graphile_worker.jobs j
           WHERE j.locked_by IS NOT NULL AND j.locked_at < now() - $1::interval
           AND NOT EXISTS (SELECT 1 FROM job_workers w WHERE w.worker_id = j.locked_by AND w.beat_at > now() - $1::interval)`,
          [lease],
        );
        if (rows.length > 0) await this.#utils.forceUnlockWorkers(rows.map((r) => r.locked_by));
        await this.#pool.query(`DELETE FROM job_workers WHERE beat_at < now() - 10 * $1::interval`, [lease]);
      } catch (error) {
        this.#onEvent({ type: 'queue.error', error: `heartbeat: ${errorText(error)}` });
      }
    });
  }

  async stop(): Promise<void> {
    const runners = this.#runners;
    if (runners.length === 0) return;
    this.#stopping = true;
    this.#runners = [];
    await Promise.all(runners.map((r) => r.stop()));
    if (this.#beatTimer) clearInterval(this.#beatTimer);
    this.#beatTimer = null;
    await this.#beating;
    const ids = [...this.#workerIds];
    this.#workerIds.clear();
    if (ids.length) await this.#pool.query('DELETE FROM job_workers WHERE worker_id = ANY($1::text[])', [ids]).catch(() => {});
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    await this.stop();
    this.#closed = true;
    await this.#utils.release();
    await this.#pool.end();
  }
}
