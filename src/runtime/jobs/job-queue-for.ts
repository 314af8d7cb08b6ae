import { PostgresStore } from '../../store/postgres-store.js';
import { SqliteStore } from '../../store/sqlite-store.js';
import type { Store } from '../../store/store.js';
import { PostgresJobQueue, type PostgresJobQueueOptions } from './postgres-job-queue.js';
import { SqliteJobQueue, type SqliteJobQueueOptions } from './sqlite-job-queue.js';

/** Options for whichever queue the store gets (each store reads its own; see the two queues). */
export type JobQueueOptions = Omit<SqliteJobQueueOptions, 'db'> & Omit<PostgresJobQueueOptions, 'url'>;

/** The store's job queue, in the store's own database: either kind, narrowed by `kind`; both are a `JobQueue`. */
export type AnyJobQueue = SqliteJobQueue | PostgresJobQueue;

/**
 * Opens the job queue that lives beside `store`: a table in its SQLite file, or graphile-worker
 * in its PostgreSQL database. The memory store keeps nothing across a restart; its timers live in
 * a private in-memory SQLite database, with the same semantics for as long as the process runs.
 */
export async function jobQueueFor(store: Store, options: JobQueueOptions = {}): Promise<AnyJobQueue> {
  const { now, leaseMs, backoffMs, busyTimeoutMs, pollIntervalMs, concurrency, onEvent, poolSize } = options;
  const common = {
    ...(pollIntervalMs === undefined ? {} : { pollIntervalMs }),
    ...(concurrency === undefined ? {} : { concurrency }),
    ...(onEvent === undefined ? {} : { onEvent }),
    ...(leaseMs === undefined ? {} : { leaseMs }),
  };
  const sqlite = {
    ...common,
    ...(now === undefined ? {} : { now }),
    ...(backoffMs === undefined ? {} : { backoffMs }),
    ...(busyTimeoutMs === undefined ? {} : { busyTimeoutMs }),
  };
  if (store instanceof SqliteStore) return new SqliteJobQueue({ ...sqlite, db: store.db });
  if (store instanceof PostgresStore) {
    const url = store.pool.options.connectionString;
    if (!url) throw new Error('the PostgreSQL store was opened without a connection string; the job queue needs one');
    return PostgresJobQueue.open({ ...common, ...(poolSize === undefined ? {} : { poolSize }), url });
  }
  return SqliteJobQueue.inMemory(sqlite);
}
