import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { countByKey, openHarness, type Harness, type QueueTuning, type Where } from '../../../test/support/job-harness.js';
import { exponentialBackoffMs, type JobEvent } from './job-queue.js';
import { testPostgres } from '../../../test/support/postgres.js';

async function newDatabase(kind: Where['kind']): Promise<Where> {
  if (kind === 'sqlite') return { kind, path: join(mkdtempSync(join(tmpdir(), 'baton-jobs-')), 'baton.sqlite') };
  const server = await testPostgres();
  return { kind, url: await server.createDatabase() };
}

const open: Harness[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.close()));
});

const FAST: QueueTuning = { pollIntervalMs: 100, leaseMs: 2_000 };

async function harness(where: Where, tuning: QueueTuning = FAST): Promise<Harness> {
  const h = await openHarness(where, tuning);
  open.push(h);
  return h;
}

async function closeHarness(h: Harness): Promise<void> {
  open.splice(open.indexOf(h), 1);
  await h.close();
}

const waitUntil = (check: () => Promise<void> | void, timeout = 30_000) => vi.waitFor(check, { timeout, interval: 50 });
const inMs = (ms: number) => new Date(Date.now() + ms);

describe.each(['sqlite', 'postgres'] as const)('the job queue on %s', (kind) => {
  it('fires a job at or after its runAt, exactly once, and records it done', async () => {
    const h = await harness(await newDatabase(kind));
    await h.start({ 'test.fire': (_job, t) => t.effect() });
    const runAt = inMs(300);
    await h.queue.schedule({ key: 'fire:a', name: 'test.fire', payload: { n: 1 }, runAt });
    expect(await h.queue.status('fire:a')).toMatchObject({ state: 'pending', name: 'test.fire', attempts: 0 });
    await waitUntil(async () => expect(await h.queue.status('fire:a')).toMatchObject({ state: 'done' }));
    // A later job runs after it: had the first been left pending or run again, it would show here.
    await h.queue.schedule({ key: 'fire:b', name: 'test.fire', payload: {}, runAt: inMs(0) });
    await waitUntil(async () => expect(countByKey(await h.effects())).toHaveProperty('fire:b', 1));
    const effects = await h.effects();
    expect(countByKey(effects)).toEqual({ 'fire:a': 1, 'fire:b': 1 });
    const first = effects.find((e) => e.key === 'fire:a')!;
    expect(first.at).toBeGreaterThanOrEqual(runAt.getTime());
    expect(JSON.parse(first.payload)).toEqual({ n: 1 });
    expect(first.attempt).toBe(1);
  });

  it('never fires a cancelled job; cancelling again (or an unknown key) is a no-op that says so', async () => {
    const h = await harness(await newDatabase(kind));
    await h.queue.schedule({ key: 'cancel:a', name: 'test.fire', payload: {}, runAt: inMs(200) });
    await h.queue.schedule({ key: 'cancel:b', name: 'test.fire', payload: {}, runAt: inMs(400) });
    expect(await h.queue.cancel('cancel:a')).toBe(true);
    expect(await h.queue.cancel('cancel:a')).toBe(false);
    expect(await h.queue.cancel('never:scheduled')).toBe(false);
    await h.start({ 'test.fire': (_job, t) => t.effect() });
    await waitUntil(async () => expect(countByKey(await h.effects())).toHaveProperty('cancel:b', 1));
    expect(countByKey(await h.effects())).toEqual({ 'cancel:b': 1 });
    expect(await h.queue.status('cancel:a')).toBeNull();
  });

  it('re-scheduling a pending key replaces its job: one run, with the new payload and time', async () => {
    const h = await harness(await newDatabase(kind));
    await h.queue.schedule({ key: 'replace:a', name: 'test.fire', payload: { n: 1 }, runAt: inMs(3_600_000) });
    await h.queue.schedule({ key: 'replace:a', name: 'test.fire', payload: { n: 2 }, runAt: inMs(0) });
    await h.start({ 'test.fire': (_job, t) => t.effect() });
    await waitUntil(async () => expect(await h.queue.status('replace:a')).toMatchObject({ state: 'done' }));
    const effects = await h.effects();
    expect(effects.map((e) => [e.key, JSON.parse(e.payload)])).toEqual([['replace:a', { n: 2 }]]);
  });

  it('a handler that re-schedules its own key (a recurring check) makes the next run, and is not itself run again', async () => {
    const h = await harness(await newDatabase(kind));
    await h.start({
      'test.recurring': async (job, t) => {
        const n = (job.payload as { n: number }).n;
        // Scheduled while this run holds the key: the new job waits its turn, this one is not retried.
        if (n < 3) await h.queue.schedule({ key: job.key, name: 'test.recurring', payload: { n: n + 1 }, runAt: inMs(50) });
        await t.effect();
      },
    });
    await h.queue.schedule({ key: 'recurring', name: 'test.recurring', payload: { n: 1 }, runAt: inMs(0) });
    await waitUntil(async () => expect((await h.effects()).map((e) => JSON.parse(e.payload).n)).toEqual([1, 2, 3]));
    await waitUntil(async () => expect(await h.queue.status('recurring')).toMatchObject({ state: 'done' }));
    expect((await h.effects()).map((e) => e.attempt)).toEqual([1, 1, 1]);
  });

  it('retries a handler that throws, with back-off, and records the job as failed after its attempts', async () => {
    const events: JobEvent[] = [];
    const backoff = kind === 'sqlite' ? (attempt: number) => 300 * attempt : exponentialBackoffMs;
    const h = await harness(await newDatabase(kind), { ...FAST, backoffMs: backoff, onEvent: (e) => events.push(e) });
    await h.start({
      'test.flaky': async (_job, t) => {
        await t.note('attempt');
        throw new Error('the flaky handler broke');
      },
    });
    await h.queue.schedule({ key: 'flaky:a', name: 'test.flaky', payload: {}, runAt: inMs(0), maxAttempts: 3 });
    await waitUntil(async () => expect(await h.queue.status('flaky:a')).toMatchObject({ state: 'failed' }), 60_000);
    expect(await h.queue.status('flaky:a')).toMatchObject({ attempts: 3, lastError: expect.stringMatching(/the flaky handler broke/) });
    const attempts = await h.effects('attempt');
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
    // Each retry waited at least its back-off after the run before it failed.
    for (let i = 1; i < attempts.length; i++) expect(attempts[i]!.at - attempts[i - 1]!.at).toBeGreaterThanOrEqual(backoff(i) - 50);
    expect(events.map((e) => e.type)).toEqual(['job.retrying', 'job.retrying', 'job.failed']);
    expect(await h.effects()).toEqual([]);
  }, 120_000);

  it('loses no timer and fires none twice across a restart: a job due during the downtime fires once after start', async () => {
    const where = await newDatabase(kind);
    const before = await harness(where);
    await before.start({ 'test.fire': (_job, t) => t.effect() });
    await before.queue.schedule({ key: 'restart:done', name: 'test.fire', payload: {}, runAt: inMs(0) });
    await waitUntil(async () => expect(await before.queue.status('restart:done')).toMatchObject({ state: 'done' }));
    // Its workers drained, the process sets one more timer on its way down (so that none of them
    // can take it however slowly the shutdown goes), and closes.
    await before.queue.stop();
    const dueAt = inMs(300);
    await before.queue.schedule({ key: 'restart:due', name: 'test.fire', payload: {}, runAt: dueAt });
    await closeHarness(before);
    // The downtime: wait (for the clock, not a fixed time) until the job is due while nothing runs.
    await waitUntil(() => expect(Date.now()).toBeGreaterThan(dueAt.getTime()));
    const after = await harness(where);
    expect(await after.queue.status('restart:due')).toMatchObject({ state: 'pending' });
    await after.start({ 'test.fire': (_job, t) => t.effect() });
    await waitUntil(async () => expect(await after.queue.status('restart:due')).toMatchObject({ state: 'done' }));
    // The completed job, older and so first in line had it been pending again, did not run again.
    await after.queue.schedule({ key: 'restart:sentinel', name: 'test.fire', payload: {}, runAt: inMs(0) });
    await waitUntil(async () => expect(countByKey(await after.effects())).toHaveProperty('restart:sentinel', 1));
    expect(countByKey(await after.effects())).toEqual({ 'restart:done': 1, 'restart:due': 1, 'restart:sentinel': 1 });
  });

  it('stop() drains: the running handler finishes and completes, no new job is taken', async () => {
    const h = await harness(await newDatabase(kind), { ...FAST, concurrency: 1 });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    await h.start({
      'test.slow': async (_job, t) => {
        started();
        await gate;
        await t.effect();
      },
    });
    await h.queue.schedule({ key: 'drain:a', name: 'test.slow', payload: {}, runAt: inMs(0) });
    await running;
    // Due at once, but the only worker is busy; once stop() has begun it takes nothing new.
    await h.queue.schedule({ key: 'drain:b', name: 'test.slow', payload: {}, runAt: inMs(0) });
    const stopped = h.queue.stop();
    release();
    await stopped;
    expect(countByKey(await h.effects())).toEqual({ 'drain:a': 1 });
    expect(await h.queue.status('drain:a')).toMatchObject({ state: 'done' });
    expect(await h.queue.status('drain:b')).toMatchObject({ state: 'pending', attempts: 0 });
  });

  it('refuses a bad job spec before writing anything', async () => {
    const h = await harness(await newDatabase(kind));
    await expect(h.queue.schedule({ key: '', name: 'test.fire', payload: {}, runAt: new Date() })).rejects.toThrow(/invalid job spec/);
    await expect(h.queue.schedule({ key: 'k', name: 'Bad Name', payload: {}, runAt: new Date() })).rejects.toThrow(/job name/);
    await expect(h.queue.schedule({ key: 'k', name: 'test.fire', payload: {}, runAt: new Date('nope') })).rejects.toThrow(
      /invalid job spec/,
    );
    expect(await h.queue.status('k')).toBeNull();
  });
});
