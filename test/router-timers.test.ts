/**
 * The router's timers as durable jobs (issue 14, item 7): an offer's timeout is fired by a
 * `routing.due` job on the store's own job queue — a table in the SQLite file, graphile-worker on
 * PostgreSQL — not by a polling loop; a restart loses no timer (the job is a row the next process
 * finds, and what came due meanwhile fires at start), and none fires twice, even with two
 * processes' timers on one database.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationId, StoredEvent } from '../src/core/index.js';
import { jobQueueFor, type AnyJobQueue } from '../src/runtime/jobs/index.js';
import { ROUTING_DUE_JOB, startRouterTimers, type RouterTimers } from '../src/runtime/router/router-timers.js';
import type { Store } from '../src/store/store.js';
import { json } from './support/http-json.js';
import { handoffPolicy, openTestStore, startTestRuntime, type TestRuntime } from './support/runtime-server.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const manualClock = (start = Date.parse('2026-12-01T10:00:00Z')) => {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
};

/** A runtime on `store` with its timers on the store's job queue (as `baton serve` runs them). */
async function serve(store: Store, clock: { now(): number }, reservationTimeoutSeconds: number) {
  const t = await startTestRuntime(store.kind === 'postgres' ? 'postgres' : 'sqlite', {
    store,
    clock,
    policy: () => handoffPolicy(),
    config: { routing: { queues: [{ id: 'queue_billing', reservationTimeoutSeconds }] } } as never,
  });
  const jobs: AnyJobQueue = await jobQueueFor(store, { pollIntervalMs: 20, ...(store.kind === 'sqlite' ? { now: clock.now } : {}) });
  const errors: unknown[] = [];
  const timers: RouterTimers = await startRouterTimers(t.runtime.router, jobs, { clock, onError: (e) => errors.push(e) });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await timers.stop();
    await jobs.close();
    await t.close();
  };
  cleanups.push(close);
  return { t, jobs, errors, close };
}

async function handOff(t: TestRuntime) {
  const call = (path: string, init: { method?: string; body?: unknown; token?: string; key?: string } = {}) => json(t.base, path, init);
  const s = await t.staff('agent', ['billing']);
  expect((await call('/v1/staff/me/presence', { method: 'PUT', body: { presence: 'available' }, token: s.token })).status).toBe(200);
  const c = await t.open();
  expect((await call(`/v1/conversations/${c.id}/messages`, { body: { text: 'a person please' }, token: c.token, key: 'k1' })).status).toBe(
    201,
  );
  await t.runtime.service.idle();
  const offers = (await call('/v1/offers', { token: s.token })).body['offers'] as Array<{ id: string; expiresAt: string }>;
  expect(offers).toHaveLength(1);
  return { conversation: c.id, offer: offers[0]! };
}

const routingNotes = async (store: Store, id: ConversationId, kind: string) =>
  (await store.listEvents(id)).filter((e: StoredEvent) => e.type === 'routing.noted' && (e.data as { kind: string }).kind === kind).length;

describe('router timers on the job queue (SQLite file)', () => {
  it('an offer times out by its job, once; the job outlives a restart, and what came due meanwhile fires at start', async () => {
    const opened = await openTestStore('sqlite');
    cleanups.unshift(() => opened.cleanup());
    const clock = manualClock();

    // First process: the offer's timeout is a pending job in the file, at the offer's expiry.
    const a = await serve(opened.store, clock, 30);
    const first = await handOff(a.t);
    const expiry = Date.parse(first.offer.expiresAt);
    const key = `routing:due:${expiry}`;
    expect(await a.jobs.status(key)).toMatchObject({ name: ROUTING_DUE_JOB, state: 'pending' });

    // Its time comes: the job fires it (nothing else sweeps here), once.
    clock.advance(31_000);
    await expect.poll(() => routingNotes(opened.store, first.conversation, 'timed_out'), { timeout: 10_000 }).toBe(1);
    await expect.poll(async () => (await a.jobs.status(key))?.state, { timeout: 10_000 }).toBe('done');

    // Someone new comes on shift and is offered the waiting conversation; the process stops before that offer times out.
    const s2 = await a.t.staff('agent', ['billing']);
    expect(
      (await json(a.t.base, '/v1/staff/me/presence', { method: 'PUT', body: { presence: 'available' }, token: s2.token })).status,
    ).toBe(200);
    const second = (await json(a.t.base, '/v1/offers', { token: s2.token })).body['offers'] as Array<{ id: string; expiresAt: string }>;
    expect(second).toHaveLength(1);
    const secondExpiry = Date.parse(second[0]!.expiresAt);
    expect(a.errors).toEqual([]);
    await a.close();

    // Down past the timeout: the job is still in the file, and the next process fires it at start, once.
    clock.advance(60_000);
    const store = await opened.reopen();
    const b = await serve(store, clock, 30);
    await expect.poll(() => routingNotes(store, first.conversation, 'timed_out'), { timeout: 10_000 }).toBe(2);
    // Later looks (the job left from the first process, the chain) fire nothing more.
    await expect.poll(async () => (await b.jobs.status(`routing:due:${secondExpiry}`))?.state, { timeout: 10_000 }).toBe('done');
    clock.advance(120_000);
    await b.t.runtime.router.sweep();
    expect(await routingNotes(store, first.conversation, 'timed_out')).toBe(2);
    expect(b.errors).toEqual([]);
  });
});

describe('router timers on the job queue (PostgreSQL, two processes)', () => {
  it('fires an offer timeout once, on the real clock, with both processes running timers', async () => {
    const opened = await openTestStore('postgres');
    const other = await opened.reopen();
    const a = await serve(opened.store, { now: Date.now }, 0.5);
    const b = await serve(other, { now: Date.now }, 0.5);
    const { conversation } = await handOff(a.t);
    // Nobody else is eligible after the lapse, so the timeout is noted once and the request waits.
    await expect.poll(() => routingNotes(opened.store, conversation, 'timed_out'), { timeout: 20_000, interval: 100 }).toBe(1);
    // Both processes' timers have looked again since (the chain, the accept-grace look): still once.
    await b.t.runtime.router.sweep();
    await a.t.runtime.router.sweep();
    expect(await routingNotes(opened.store, conversation, 'timed_out')).toBe(1);
    expect([...a.errors, ...b.errors]).toEqual([]);
  });
});
