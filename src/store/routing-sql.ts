import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import type pg from 'pg';
import { retryWhileBusy } from './store-busy.js';

/**
 * One statement of a routing transaction: `all` returns rows, `run` the number of rows changed.
 * `lock` asks PostgreSQL to lock the rows read (`wait`: FOR UPDATE; `skip`: FOR UPDATE SKIP
 * LOCKED, so routers never wait for each other's candidates); SQLite needs neither, since its
 * one write lock already serialises every routing transaction.
 */
export type SqlOp =
  { op: 'all'; sql: string; params: readonly unknown[]; lock?: 'wait' | 'skip' } | { op: 'run'; sql: string; params: readonly unknown[] };

/**
 * A routing transaction, written once for both databases: a generator that yields each statement
 * and is given its result (rows for `all`, the count of changed rows for `run`). SQLite runs it
 * synchronously inside one `BEGIN IMMEDIATE`; PostgreSQL runs it statement by statement inside one
 * transaction that first takes the routing lock. Either way the whole body is one atomic step.
 */
export type SqlBody<T> = Generator<SqlOp, T, unknown>;

export const all = (sql: string, ...params: unknown[]): SqlOp => ({ op: 'all', sql, params });
/** A read that locks its rows on PostgreSQL until the transaction ends. */
export const lockedAll = (lock: 'wait' | 'skip', sql: string, ...params: unknown[]): SqlOp => ({ op: 'all', sql, params, lock });
export const run = (sql: string, ...params: unknown[]): SqlOp => ({ op: 'run', sql, params });

/** Runs routing transactions against one database. */
export interface SqlRunner {
  /** Which SQL the runner speaks, for the few statements that differ (PostgreSQL's data-modifying CTEs). */
  readonly dialect: 'sqlite' | 'postgres';
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
    dialect: 'sqlite',
    transaction: async <T>(body: () => SqlBody<T>) =>
      retryWhileBusy(() => execute.immediate(body) as T, { timeoutMs: options.busyTimeoutMs ?? 5_000 }),
    ...(options.owned ? { close: async () => void db.close() } : {}),
  };
}

/** A statement prepared once per connection, under a name made from its text. */
interface Prepared {
  name: string;
  text: string;
}

/** PostgreSQL's codes for a transaction it aborted to break a deadlock or a serialisation failure: try again. */
const RETRYABLE = new Set(['40P01', '40001']);

/**
 * PostgreSQL: the body runs in one transaction, statement by statement; reads that choose what to
 * change lock their rows (`FOR UPDATE`, or `FOR UPDATE SKIP LOCKED` for candidates, so that
 * routers in several processes work side by side on different people and requests instead of
 * queueing behind one lock), and every capacity change is a conditional UPDATE on a locked row:
 * no two routers can fill one slot. A transaction PostgreSQL aborts to break a deadlock is run
 * again. `?` placeholders become `$n`; every statement is a prepared one.
 */
export function postgresRunner(pool: pg.Pool, options: { attempts?: number } = {}): SqlRunner {
  // Each statement is prepared once per connection under a name made from its text: PostgreSQL
  // then parses it once, and plans it once when a generic plan serves (see routing-postgres.ts).
  // Keyed by the statement's own text (a literal of the code, whose hash the engine keeps), never
  // by a string built per call: a routing statement runs to kilobytes, hashed anew on every call.
  const statements = { none: new Map<string, Prepared>(), wait: new Map<string, Prepared>(), skip: new Map<string, Prepared>() };
  const statement = (sql: string, lock: 'wait' | 'skip' | undefined): Prepared => {
    const cache = statements[lock ?? 'none'];
    let s = cache.get(sql);
    if (s === undefined) {
      let n = 0;
      const text =
        sql.replace(/\?/g, () => `$${++n}`) + (lock === 'wait' ? ' FOR UPDATE' : lock === 'skip' ? ' FOR UPDATE SKIP LOCKED' : '');
      s = { name: `baton_routing_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`, text };
      cache.set(sql, s);
    }
    return s;
  };
  const attempts = options.attempts ?? 5;
  const once = async <T>(body: () => SqlBody<T>): Promise<T> => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const gen = body();
      let step = gen.next();
      while (!step.done) {
        const op = step.value;
        const { name, text } = statement(op.sql, op.op === 'all' ? op.lock : undefined);
        const result = await client.query({ name, text, values: op.params as unknown[] });
        step = gen.next(op.op === 'all' ? result.rows : (result.rowCount ?? 0));
      }
      await client.query('COMMIT');
      return step.value;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  };
  return {
    dialect: 'postgres',
    async transaction<T>(body: () => SqlBody<T>): Promise<T> {
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await once(body);
        } catch (error) {
          const code = (error as { code?: string }).code;
          if (attempt >= attempts || code === undefined || !RETRYABLE.has(code)) throw error;
        }
      }
    },
  };
}
