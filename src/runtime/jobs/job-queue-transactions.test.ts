import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryStore } from '../../store/memory-store.js';
import { PostgresStore } from '../../store/postgres-store.js';
import { SqliteStore } from '../../store/sqlite-store.js';
import { jobQueueFor } from './job-queue-for.js';
import { PostgresJobQueue } from './postgres-job-queue.js';
import { SqliteJobQueue } from './sqlite-job-queue.js';
import { testPostgres } from '../../../test/support/postgres.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
const waitUntil = (check: () => Promise<void> | void) => vi.waitFor(check, { timeout: 30_000, interval: 50 });

function sqliteStore(): SqliteStore {
  const store = new SqliteStore({ path: join(mkdtempSync(join(tmpdir(), 'baton-jobs-tx-')), 'baton.sqlite') });
  store.db.exec('CREATE TABLE fired (key TEXT NOT NULL, at INTEGER NOT NULL)');
  cleanups.push(() => store.close());
  return store;
}

async function postgresStore(): Promise<PostgresStore> {
  const server = await testPostgres();
  const store = await PostgresStore.open({ url: await server.createDatabase(), poolSize: 4 });
  await store.pool.query('CREATE TABLE fired (key TEXT NOT NULL, at BIGINT NOT NULL)');
  cleanups.push(() => store.close());
  return store;
}

describe('the job queue on SQLite, in the store’s transactions', () => {
  it('runs on the injected clock: a job is due when the clock says so, not the wall clock', async () => {
    const store = sqliteStore();
    const t0 = Date.parse('2026-03-29T00:30:00Z');
    let clock = t0;
    const queue = new SqliteJobQueue({ db: store.db, now: () => clock, pollIntervalMs: 20 });
    cleanups.push(() => queue.close());
    const fired = () => store.db.prepare('SELECT key, at FROM fired ORDER BY rowid').all() as { key: string; at: number }[];
    await queue.start({
      'test.fire': (job, ctx) => ctx.completeWith((db) => db.prepare('INSERT INTO fired (key, at) VALUES (?, ?)').run(job.key, clock)),
    });
    await queue.schedule({ key: 'later', name: 'test.fire', payload: {}, runAt: new Date(t0 + 3_600_000) });
    await queue.schedule({ key: 'now', name: 'test.fire', payload: {}, runAt: new Date(t0) });
    await waitUntil(() => expect(fired().map((f) => f.key)).toEqual(['now']));
    // The wall clock is long past both run times: had it decided, both would have fired at once.
    expect(await queue.status('later')).toMatchObject({ state: 'pending' });
    clock = t0 + 3_600_000;
    await waitUntil(() =>
      expect(fired()).toEqual([
        { key: 'now', at: t0 },
        { key: 'later', at: t0 + 3_600_000 },
      ]),
    );
  });

  it('a clock that jumps past the lease while a handler runs does not start the job a second time', async () => {
    const store = sqliteStore();
    let clock = Date.parse('2026-10-25T00:00:00Z');
    const queue = new SqliteJobQueue({ db: store.db, now: () => clock, pollIntervalMs: 20, leaseMs: 1_000, concurrency: 2 });
    cleanups.push(() => queue.close());
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const starts: string[] = [];
    const insert = store.db.prepare('INSERT INTO fired (key, at) VALUES (?, ?)');
    await queue.start({
      'test.slow': async (job, ctx) => {
        starts.push(job.key);
        if (job.key === 'slow') await gate;
        await ctx.completeWith(() => insert.run(job.key, clock));
      },
    });
    await queue.schedule({ key: 'slow', name: 'test.slow', payload: {}, runAt: new Date(clock) });
    await waitUntil(() => expect(starts).toEqual(['slow']));
    clock += 60_000;
    // A claim after the jump (it takes `other`) is the moment a stale lease would have been taken.
    await queue.schedule({ key: 'other', name: 'test.slow', payload: {}, runAt: new Date(clock) });
    await waitUntil(async () => expect(await queue.status('other')).toMatchObject({ state: 'done' }));
    release();
    await waitUntil(async () => expect(await queue.status('slow')).toMatchObject({ state: 'done' }));
    expect(starts).toEqual(['slow', 'other']);
  });

  it('an effect schedules the next timer in the same commit; an effect that throws commits neither', async () => {
    const store = sqliteStore();
    const queue = new SqliteJobQueue({ db: store.db, pollIntervalMs: 50, backoffMs: () => 100 });
    cleanups.push(() => queue.close());
    const fired = () => (store.db.prepare('SELECT key FROM fired ORDER BY rowid').all() as { key: string }[]).map((r) => r.key);
    await queue.start({
      'target.timeout': (job, ctx) =>
        ctx.completeWith((db) => {
          db.prepare('INSERT INTO fired (key, at) VALUES (?, ?)').run(job.key, Date.now());
          queue.scheduleSync({ key: `${job.key}:next`, name: 'target.last', payload: {}, runAt: new Date() });
          if (job.key === 'broken' && job.attempt === 1) throw new Error('the router refused');
        }),
      'target.last': (job, ctx) =>
        ctx.completeWith((db) => db.prepare('INSERT INTO fired (key, at) VALUES (?, ?)').run(job.key, Date.now())),
    });
    await queue.schedule({ key: 'chain', name: 'target.timeout', payload: {}, runAt: new Date() });
    await queue.schedule({ key: 'broken', name: 'target.timeout', payload: {}, runAt: new Date() });
    await waitUntil(async () => expect(await queue.status('broken:next')).toMatchObject({ state: 'done' }));
    await waitUntil(async () => expect(await queue.status('chain:next')).toMatchObject({ state: 'done' }));
    // The first run of `broken` rolled back: its row and its follow-up are absent; the retry wrote each once.
    expect(fired().sort()).toEqual(['broken', 'broken:next', 'chain', 'chain:next']);
  });

  it('cancels a timer inside the caller’s transaction: with its commit, and not at all if it rolls back', async () => {
    const store = sqliteStore();
    const queue = new SqliteJobQueue({ db: store.db, pollIntervalMs: 50 });
    cleanups.push(() => queue.close());
    const accept = store.db.transaction((reservation: string, fail: boolean) => {
      store.db.prepare('INSERT INTO fired (key, at) VALUES (?, ?)').run(`${reservation}:accepted`, Date.now());
      expect(queue.cancelSync(`${reservation}:timeout`)).toBe(true);
      if (fail) throw new Error('the acceptance failed');
    });
    for (const r of ['res_1', 'res_2'])
      await queue.schedule({ key: `${r}:timeout`, name: 'reservation.timeout', payload: {}, runAt: new Date() });
    accept.immediate('res_1', false);
    expect(() => accept.immediate('res_2', true)).toThrow(/the acceptance failed/);
    await queue.start({
      'reservation.timeout': (job, ctx) =>
        ctx.completeWith((db) => db.prepare('INSERT INTO fired (key, at) VALUES (?, ?)').run(job.key, 0)),
    });
    await waitUntil(async () => expect(await queue.status('res_2:timeout')).toMatchObject({ state: 'done' }));
    const keys = (store.db.prepare('SELECT key FROM fired ORDER BY rowid').all() as { key: string }[]).map((r) => r.key);
    expect(keys).toEqual(['res_1:accepted', 'res_2:timeout']);
    expect(await queue.status('res_1:timeout')).toBeNull();
  });

  it('refuses an asynchronous effect, committing nothing, and retries the job', async () => {
    const store = sqliteStore();
    const queue = new SqliteJobQueue({ db: store.db, pollIntervalMs: 50, backoffMs: () => 50 });
    cleanups.push(() => queue.close());
    await queue.start({
      'test.async': (job, ctx) =>
        ctx.completeWith((db) => {
          db.prepare('INSERT INTO fired (key, at) VALUES (?, ?)').run(job.key, 0);
          return Promise.resolve();
        }),
    });
    await queue.schedule({ key: 'async', name: 'test.async', payload: {}, runAt: new Date(), maxAttempts: 2 });
    await waitUntil(async () => expect(await queue.status('async')).toMatchObject({ state: 'failed', attempts: 2 }));
    expect(await queue.status('async')).toMatchObject({ lastError: expect.stringMatching(/must be synchronous/) });
    expect(store.db.prepare('SELECT count(*) AS n FROM fired').get()).toEqual({ n: 0 });
  });

  it('prunes finished records: a pruned key reads as never scheduled', async () => {
    const store = sqliteStore();
    const queue = new SqliteJobQueue({ db: store.db, pollIntervalMs: 50 });
    cleanups.push(() => queue.close());
    await queue.start({ 'test.fire': () => {} });
    await queue.schedule({ key: 'old', name: 'test.fire', payload: {}, runAt: new Date() });
    await waitUntil(async () => expect(await queue.status('old')).toMatchObject({ state: 'done' }));
    await queue.schedule({ key: 'future', name: 'test.fire', payload: {}, runAt: new Date(Date.now() + 3_600_000) });
    expect(await queue.prune(new Date(Date.now() + 1_000))).toBe(1);
    expect(await queue.status('old')).toBeNull();
    expect(await queue.status('future')).toMatchObject({ state: 'pending' });
  });

  it('gives the memory store a queue in a private in-memory database, and a file store its own file', async () => {
    const memory = await jobQueueFor(new MemoryStore(), { pollIntervalMs: 20 });
    cleanups.push(() => memory.close());
    expect(memory.kind).toBe('sqlite');
    await memory.start({ 'test.fire': () => {} });
    await memory.schedule({ key: 'm', name: 'test.fire', payload: {}, runAt: new Date() });
    await waitUntil(async () => expect(await memory.status('m')).toMatchObject({ state: 'done' }));
    const store = sqliteStore();
    const onFile = await jobQueueFor(store);
    await onFile.schedule({ key: 'f', name: 'test.fire', payload: { a: [1] }, runAt: new Date(0) });
    expect(store.db.prepare('SELECT key, payload, state FROM jobs').all()).toEqual([{ key: 'f', payload: '{"a":[1]}', state: 'pending' }]);
  });
});

describe('the job queue on PostgreSQL, in the store’s transactions', () => {
  it('an effect schedules the next timer in its transaction; a rolled-back transaction leaves none', async () => {
    const store = await postgresStore();
    const queue = await jobQueueFor(store, { pollIntervalMs: 100 });
    cleanups.push(() => queue.close());
    if (queue.kind !== 'postgres') throw new Error('expected the PostgreSQL queue');
    await queue.start({
      'target.timeout': (job, ctx) =>
        ctx.completeWith(async (client) => {
          await client.query('INSERT INTO fired (key, at) VALUES ($1, $2)', [job.key, Date.now()]);
          await queue.scheduleIn(client, { key: `${job.key}:next`, name: 'target.last', payload: {}, runAt: new Date() });
        }),
      'target.last': (job, ctx) => ctx.completeWith((client) => client.query('INSERT INTO fired (key, at) VALUES ($1, $2)', [job.key, 0])),
    });
    const client = await store.pool.connect();
    try {
      await client.query('BEGIN');
      await queue.scheduleIn(client, { key: 'rolled-back', name: 'target.timeout', payload: {}, runAt: new Date() });
      await client.query('ROLLBACK');
      await client.query('BEGIN');
      await queue.scheduleIn(client, { key: 'chain', name: 'target.timeout', payload: {}, runAt: new Date() });
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    await waitUntil(async () => expect(await queue.status('chain:next')).toMatchObject({ state: 'done' }));
    const { rows } = await store.pool.query<{ key: string }>('SELECT key FROM fired ORDER BY key');
    expect(rows.map((r) => r.key)).toEqual(['chain', 'chain:next']);
    expect(await queue.status('rolled-back')).toBeNull();
    expect(await queue.prune(new Date(Date.now() + 60_000))).toBe(2);
    expect(await queue.status('chain')).toBeNull();
  });

  it('refuses to open on a database the store has not migrated, saying what to do', async () => {
    const server = await testPostgres();
    await expect(PostgresJobQueue.open({ url: await server.createDatabase() })).rejects.toThrow(/open the PostgresStore on it first/);
  });
});
