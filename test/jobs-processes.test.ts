import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { countByKey, openHarness, type Harness, type Where } from './support/job-harness.js';
import { testPostgres } from './support/postgres.js';

const LEASE_MS = 1_000;

/** A job worker in its own OS process (test/workers/job-worker.ts), answering on stdout line by line. */
function jobWorker(where: Where, crash: 'before' | 'after' | null = null) {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(import.meta.dirname, 'workers', 'job-worker.ts'),
      JSON.stringify({ where, crash, leaseMs: LEASE_MS, pollIntervalMs: 100, concurrency: 4 }),
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const next = async (): Promise<string> => {
    const line = await lines.next();
    if (line.done) throw new Error('the job worker exited');
    return line.value;
  };
  return {
    pid: child.pid!,
    ready: next(),
    next,
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.stdin!.write('stop\n');
      await exited;
    },
  };
}

const workers: ReturnType<typeof jobWorker>[] = [];
const harnesses: Harness[] = [];
afterEach(async () => {
  // A worker still alive here is one a failed test left hanging in its handler: it cannot drain.
  await Promise.all(workers.splice(0).map((w) => w.kill()));
  await Promise.all(harnesses.splice(0).map((h) => h.close()));
});

async function newDatabase(kind: Where['kind']): Promise<Where> {
  if (kind === 'sqlite') return { kind, path: join(mkdtempSync(join(tmpdir(), 'baton-jobs-procs-')), 'baton.sqlite') };
  const server = await testPostgres();
  return { kind, url: await server.createDatabase() };
}

/** The test's own view of the database: it schedules and counts, and runs no job. */
async function observer(where: Where): Promise<Harness> {
  const h = await openHarness(where);
  harnesses.push(h);
  return h;
}

function spawnWorker(where: Where, crash: 'before' | 'after' | null = null) {
  const w = jobWorker(where, crash);
  workers.push(w);
  return w;
}

const waitUntil = (check: () => Promise<void>, timeout = 60_000) => vi.waitFor(check, { timeout, interval: 100 });
const inMs = (ms: number) => new Date(Date.now() + ms);

describe.each(['sqlite', 'postgres'] as const)('the job queue shared by OS processes on %s', (kind) => {
  it('two processes, 300 jobs: each fires exactly once in total, and both processes take part', async () => {
    const where = await newDatabase(kind);
    const db = await observer(where);
    const [a, b] = [spawnWorker(where), spawnWorker(where)];
    expect([await a.ready, await b.ready]).toEqual(['ready', 'ready']);
    const keys = Array.from({ length: 300 }, (_, i) => `tick:${i}`);
    for (const [i, key] of keys.entries()) {
      await db.queue.schedule({ key, name: 'test.tick', payload: { i }, runAt: inMs((i % 20) * 100) });
    }
    await waitUntil(async () => expect((await db.effects()).length).toBeGreaterThanOrEqual(keys.length));
    await Promise.all([a.stop(), b.stop()]);
    const effects = await db.effects();
    expect(countByKey(effects)).toEqual(Object.fromEntries(keys.map((k) => [k, 1])));
    expect(new Set(effects.map((e) => e.pid))).toEqual(new Set([a.pid, b.pid]));
    expect(effects.every((e) => e.attempt === 1)).toBe(true);
  }, 180_000);

  it('a process killed (SIGKILL) mid-handler: the other retries the job after the lease, and its effect happens once', async () => {
    const where = await newDatabase(kind);
    const db = await observer(where);
    const victim = spawnWorker(where, 'before');
    await victim.ready;
    await db.queue.schedule({ key: 'crash:before', name: 'test.crash', payload: {}, runAt: inMs(0) });
    expect(await victim.next()).toBe('hanging crash:before');
    const survivor = spawnWorker(where);
    await survivor.ready;
    // While the victim lives, its lease holds however long the handler takes: the survivor runs a
    // job due three leases later and still has not taken the hanging one.
    await db.queue.schedule({ key: 'crash:alive', name: 'test.tick', payload: {}, runAt: inMs(3 * LEASE_MS) });
    await waitUntil(async () => expect(countByKey(await db.effects())).toEqual({ 'crash:alive': 1 }));
    expect(await db.queue.status('crash:before')).toMatchObject({ state: 'running', attempts: 1 });
    expect((await db.effects('start')).map((e) => e.pid)).toEqual([victim.pid]);
    await victim.kill();
    await waitUntil(async () => expect(await db.queue.status('crash:before')).toMatchObject({ state: 'done' }));
    const effects = (await db.effects()).filter((e) => e.key === 'crash:before');
    expect(effects.map((e) => [e.key, e.pid, e.attempt])).toEqual([['crash:before', survivor.pid, 2]]);
    expect((await db.effects('start')).map((e) => e.pid)).toEqual([victim.pid, survivor.pid]);
  }, 180_000);

  it('a process killed after its effect committed, before the queue completed the job: the effect is not repeated', async () => {
    const where = await newDatabase(kind);
    const db = await observer(where);
    const victim = spawnWorker(where, 'after');
    await victim.ready;
    await db.queue.schedule({ key: 'crash:after', name: 'test.crash', payload: {}, runAt: inMs(0) });
    expect(await victim.next()).toBe('hanging crash:after');
    const survivor = spawnWorker(where);
    await survivor.ready;
    await victim.kill();
    // Due after the victim's lease has run out: by then a job left to retry would have been retried.
    await db.queue.schedule({ key: 'crash:sentinel', name: 'test.tick', payload: {}, runAt: inMs(3 * LEASE_MS) });
    await waitUntil(async () => {
      expect(await db.queue.status('crash:after')).toMatchObject({ state: 'done' });
      expect(countByKey(await db.effects())).toHaveProperty('crash:sentinel', 1);
    });
    expect(countByKey(await db.effects())).toEqual({ 'crash:after': 1, 'crash:sentinel': 1 });
    expect((await db.effects()).find((e) => e.key === 'crash:after')?.pid).toBe(victim.pid);
    // The survivor never ran the handler: the committed effect marked the job done (SQLite) or the
    // retry found its record and skipped it (PostgreSQL).
    expect((await db.effects('start')).map((e) => e.pid)).toEqual([victim.pid]);
  }, 180_000);
});
