import type Database from 'better-sqlite3';
import type pg from 'pg';
import { retryWhileBusy } from './store-busy.js';

/** One statement of a routing transaction: `all` returns rows, `run` the number of rows changed. */
export type SqlOp = { op: 'all'; sql: string; params: readonly unknown[] } | { op: 'run'; sql: string; params: readonly unknown[] };

/**
 * A routing transaction, written once for both databases: a generator that yields each statement
 * and is given its result (rows for `all`, the count of changed rows for `run`). SQLite runs it
 * synchronously inside one `BEGIN IMMEDIATE`; PostgreSQL runs it statement by statement inside one
 * transaction that first takes the routing lock. Either way the whole body is one atomic step.
 */
export type SqlBody<T> = Generator<SqlOp, T, unknown>;

export const all = (sql: string, ...params: unknown[]): SqlOp => ({ op: 'all', sql, params });
export const run = (sql: string, ...params: unknown[]): SqlOp => ({ op: 'run', sql, params });

/** Runs routing transactions against one database. */
export interface SqlRunner {
  transaction<T>(body: () => SqlBody<T>): Promise<T>;
  close?(): Promise<void>;
}

/**
 * SQLite: the body runs synchronously in one `BEGIN IMMEDIATE` transaction (SQLite's one write
 * lock serialises routers in every process sharing the file); a lock held by another process is
 * waited for off the event loop (ADR 0011).
 */
export function sqliteRunner(db: Database.Database, options: { busyTimeoutMs?: number; owned?: boolean } = {}): SqlRunner {
  const statements = new Map<string, Database.Statement>();
  const prepared = (sql: string) => {
    let s = statements.get(sql);
    if (!s) statements.set(sql, (s = db.prepare(sql)));
    return s;
  };
  const execute = db.transaction(<T>(body: () => SqlBody<T>): T => {
    const gen = body();
    let step = gen.next();
    while (!step.done) {
      const { op, sql, params } = step.value;
      const stmt = prepared(sql);
      step = gen.next(op === 'all' ? stmt.all(...params) : stmt.run(...params).changes);
    }
    return step.value;
  });
  return {
    transaction: async <T>(body: () => SqlBody<T>) =>
      retryWhileBusy(() => execute.immediate(body) as T, { timeoutMs: options.busyTimeoutMs ?? 5_000 }),
    ...(options.owned ? { close: async () => void db.close() } : {}),
  };
}

/** A key for `pg_advisory_xact_lock`: every router process on the database takes the same one. */
const ROUTING_LOCK_KEY = 0x6261746f6e; // "baton"

/**
 * PostgreSQL: the body runs in one transaction that first takes a transaction-scoped advisory lock,
 * so routing transitions are serialised across every process on the database (ADR 0016's
 * reasoning: capacity is counted in the same transaction as the reservation, and no two routers
 * ever decide on the same free slot). `?` placeholders become `$n`.
 */
export function postgresRunner(pool: pg.Pool): SqlRunner {
  const texts = new Map<string, string>();
  const dollar = (sql: string) => {
    let t = texts.get(sql);
    if (t === undefined) {
      let n = 0;
      t = sql.replace(/\?/g, () => `$${++n}`);
      texts.set(sql, t);
    }
    return t;
  };
  return {
    async transaction<T>(body: () => SqlBody<T>): Promise<T> {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query('SELECT pg_advisory_xact_lock($1)', [ROUTING_LOCK_KEY]);
        const gen = body();
        let step = gen.next();
        while (!step.done) {
          const { op, sql, params } = step.value;
          const result = await client.query(dollar(sql), params as unknown[]);
          step = gen.next(op === 'all' ? result.rows : (result.rowCount ?? 0));
        }
        await client.query('COMMIT');
        return step.value;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
  };
}
