// A job queue on a real store (a SQLite file or a PostgreSQL database) with a table of effects
// beside it, so that tests count what handlers did in the database, not in memory. Used by the
// queue's own tests and by the OS processes of test/jobs-processes.test.ts.
import type { Job, JobQueue } from '../../src/runtime/jobs/index.js';
import {
  PostgresJobQueue,
  SqliteJobQueue,
  type PostgresJobQueueOptions,
  type SqliteJobQueueOptions,
} from '../../src/runtime/jobs/index.js';
import { PostgresStore } from '../../src/store/postgres-store.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { retryWhileBusy } from '../../src/store/store-busy.js';

export type Where = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

/** One effect of a handler, as recorded in the database. */
export interface EffectRow {
  key: string;
  kind: string;
  payload: string;
  attempt: number;
  pid: number;
  at: number;
}

export type HarnessHandler = (
  job: Job,
  tools: {
    /** Records the effect and completes the job in one transaction (`completeWith`). */
    effect(kind?: string): Promise<void>;
    /** Records a row on its own (not part of the job's completion). */
    note(kind: string): Promise<void>;
    signal: AbortSignal;
  },
) => Promise<void> | void;

export interface Harness {
  queue: JobQueue;
  start(handlers: Record<string, HarnessHandler>): Promise<void>;
  effects(kind?: string): Promise<EffectRow[]>;
  close(): Promise<void>;
}

const EFFECTS = `CREATE TABLE IF NOT EXISTS test_effects (
  key TEXT NOT NULL, kind TEXT NOT NULL, payload TEXT NOT NULL, attempt INTEGER NOT NULL, pid INTEGER NOT NULL, at BIGINT NOT NULL)`;

const rowOf = (job: Job, kind: string) => [job.key, kind, JSON.stringify(job.payload), job.attempt, process.pid, Date.now()] as const;

export type QueueTuning = Partial<
  Pick<SqliteJobQueueOptions & PostgresJobQueueOptions, 'pollIntervalMs' | 'leaseMs' | 'concurrency' | 'onEvent' | 'backoffMs'>
>;

/** Opens the store (migrating it), its job queue and the effects table. Call again to "restart". */
export async function openHarness(where: Where, tuning: QueueTuning = {}): Promise<Harness> {
  if (where.kind === 'sqlite') {
    const store = new SqliteStore({ path: where.path });
    store.db.exec(EFFECTS);
    const insert = store.db.prepare('INSERT INTO test_effects (key, kind, payload, attempt, pid, at) VALUES (?, ?, ?, ?, ?, ?)');
    const queue = new SqliteJobQueue({ db: store.db, ...tuning });
    return {
      queue,
      start: (handlers) =>
        queue.start(
          Object.fromEntries(
            Object.entries(handlers).map(([name, handler]) => [
              name,
              (job, ctx) =>
                handler(job, {
                  signal: ctx.signal,
                  effect: async (kind = 'effect') => {
                    await ctx.completeWith(() => insert.run(...rowOf(job, kind)));
                  },
                  note: async (kind) => {
                    await retryWhileBusy(() => insert.run(...rowOf(job, kind)), { timeoutMs: 5_000 });
                  },
                }),
            ]),
          ),
        ),
      effects: async (kind = 'effect') =>
        (await retryWhileBusy(() => store.db.prepare('SELECT * FROM test_effects WHERE kind = ? ORDER BY at').all(kind), {
          timeoutMs: 5_000,
        })) as EffectRow[],
      close: async () => {
        await queue.close();
        await store.close();
      },
    };
  }
  const store = await PostgresStore.open({ url: where.url, poolSize: 4 });
  await store.pool.query(EFFECTS);
  const { backoffMs: _ignored, ...pgTuning } = tuning;
  const queue = await PostgresJobQueue.open({ url: where.url, ...pgTuning });
  const sql = 'INSERT INTO test_effects (key, kind, payload, attempt, pid, at) VALUES ($1, $2, $3, $4, $5, $6)';
  return {
    queue,
    start: (handlers) =>
      queue.start(
        Object.fromEntries(
          Object.entries(handlers).map(([name, handler]) => [
            name,
            (job, ctx) =>
              handler(job, {
                signal: ctx.signal,
                effect: async (kind = 'effect') => {
                  await ctx.completeWith((client) => client.query(sql, [...rowOf(job, kind)]));
                },
                note: async (kind) => {
                  await store.pool.query(sql, [...rowOf(job, kind)]);
                },
              }),
          ]),
        ),
      ),
    effects: async (kind = 'effect') =>
      (await store.pool.query<EffectRow>('SELECT * FROM test_effects WHERE kind = $1 ORDER BY at', [kind])).rows.map((r) => ({
        ...r,
        at: Number(r.at),
      })),
    close: async () => {
      await queue.close();
      await store.close();
    },
  };
}

/** Effects counted by key. */
export const countByKey = (rows: EffectRow[]): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const row of rows) counts[row.key] = (counts[row.key] ?? 0) + 1;
  return counts;
};
