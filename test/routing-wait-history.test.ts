/**
 * A queue's wait history in the router's tables, on both databases: what the wait estimate of
 * `baton serve` is computed from (`RoutingStore.waitHistory` → `estimateWait`, the function the
 * queue simulator measures). A served item holds its slot from the offer it accepted to the end of
 * its work; a wait told an estimate ends the first time a person joins or its target times out.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { StaffId } from '../src/core/index.js';
import { DEFAULT_WAIT_ESTIMATOR, QueueWaitEstimator, estimateWait, gammaQuantile } from '../src/core/router/index.js';
import type { RoutingFact } from '../src/store/routing-store.js';
import { billing, overflow, request, routingFixture, type RoutingFixture } from './support/routing-fixture.js';

const A = 'staff_ana' as StaffId;
const windows = DEFAULT_WAIT_ESTIMATOR;
/** A minute in billing, then a minute in overflow, then a callback. */
const targets = [
  { type: 'queue' as const, queue: billing.id, timeoutSeconds: 60 },
  { type: 'queue' as const, queue: overflow.id, timeoutSeconds: 60 },
];

const offerOf = (facts: readonly RoutingFact[], requestId: string) => {
  const offer = facts.find((f) => f.kind === 'offered' && f.request === requestId);
  if (offer?.kind !== 'offered') throw new Error(`no offer of ${requestId} in ${JSON.stringify(facts)}`);
  return offer.reservation;
};

describe.each(['sqlite', 'postgres'] as const)('a queue’s wait history on %s', (kind) => {
  let f: RoutingFixture | undefined;
  afterEach(async () => f?.close());

  it('holds each served item’s slot time from its offer, and each estimated wait until a person joined', async () => {
    f = await routingFixture(kind);
    const { routing } = f;
    await routing.setPresence({ staff: A, skills: [], capacity: 1, presence: 'available' }, 0);
    const first = await routing.submit(await f.open(), request([], 0), 100);
    const second = await routing.submit(await f.open(), request([], 0), 200);
    // The second waits behind the first and is told an estimate; the first was offered at once and is told none.
    await routing.noteEstimate(second.request, billing.id, { k: 1, scaleMs: 60_000, promiseMs: 400_000 }, 200);
    expect(await routing.waitHistory(billing.id, windows)).toEqual({ holdingMs: null, waits: [] });

    const accepted = await routing.accept(offerOf(first.facts, first.request), A, 5_100);
    if (!accepted.ok) throw new Error(accepted.why);
    // Done at 65 100: the slot was held from the offer at 100 (not from the accept at 5 100).
    const freed = await routing.complete(accepted.conversationId, 65_100);
    const joined = await routing.accept(offerOf(freed, second.request), A, 66_200);
    expect(joined.ok).toBe(true);
    expect(await routing.waitHistory(billing.id, windows)).toEqual({
      holdingMs: 65_000,
      waits: [{ k: 1, scaleMs: 60_000, waitedMs: 66_000 }],
    });
    // The estimate of the next customer is the same function of that history as the simulator's.
    const history = await routing.waitHistory(billing.id, windows);
    expect(estimateWait(history, { ahead: 0, servers: 1 })?.pointMs).toBeCloseTo(gammaQuantile(1, 0.5) * 65_000, 3);
  });

  it('ends a wait cut short by its target’s timeout once, for the queue it was told about', async () => {
    f = await routingFixture(kind);
    const { routing } = f;
    // Nobody on shift: the wait outlasts the billing target and moves on to overflow.
    const waiting = await routing.submit(await f.open(), request([], 0, targets), 1_000);
    const untold = await routing.submit(await f.open(), request([], 0, targets), 1_000);
    await routing.noteEstimate(waiting.request, billing.id, { k: 2, scaleMs: 30_000, promiseMs: 50_000 }, 1_000);
    const moved = await routing.sweep(61_000);
    expect(moved.filter((x) => x.kind === 'moved').map((x) => x.request)).toEqual([waiting.request, untold.request]);
    expect((await routing.waitHistory(billing.id, windows)).waits).toEqual([{ k: 2, scaleMs: 30_000, waitedMs: 60_000 }]);
    expect((await routing.waitHistory(overflow.id, windows)).waits).toEqual([]);

    // A person joins later, in overflow: the wait already ended for its estimate, and is not scored twice.
    await routing.setPresence({ staff: A, skills: [], capacity: 2, presence: 'available' }, 70_000);
    const offers = await routing.offersFor(A);
    const offer = offers.find((o) => o.request === waiting.request);
    if (offer === undefined) throw new Error(`no offer of ${waiting.request}: ${JSON.stringify(offers)}`);
    expect((await routing.accept(offer.reservation, A, 80_000)).ok).toBe(true);
    expect((await routing.waitHistory(billing.id, windows)).waits).toEqual([{ k: 2, scaleMs: 30_000, waitedMs: 60_000 }]);
  });

  it('keeps a wait told an estimate in its queue until the promise, past the queue’s own timeout', async () => {
    f = await routingFixture(kind);
    const { routing } = f;
    const promised = await routing.submit(await f.open(), request([], 0, targets), 1_000);
    const untold = await routing.submit(await f.open(), request([], 0, targets), 1_000);
    // Promised a person within two minutes (a quantile: a fraction of a millisecond too): the billing
    // queue's one-minute timeout would break that.
    await routing.noteEstimate(promised.request, billing.id, { k: 1, scaleMs: 30_000, promiseMs: 119_999.4 }, 1_000);
    expect(await routing.nextDeadline()).toBe(61_000);
    expect((await routing.sweep(61_000)).filter((x) => x.kind === 'moved').map((x) => x.request)).toEqual([untold.request]);
    expect(await routing.nextDeadline()).toBe(121_000);
    expect((await routing.sweep(121_000)).filter((x) => x.kind === 'moved').map((x) => x.request)).toEqual([
      promised.request,
      untold.request,
    ]);
  });

  it('folds each served item into its queue’s moving mean, as the simulator’s keeper does', async () => {
    f = await routingFixture(kind);
    const { routing } = f;
    await routing.setPresence({ staff: A, skills: [], capacity: 1, presence: 'available' }, 0);
    const keeper = new QueueWaitEstimator();
    let now = 0;
    for (const heldMs of [120_000, 300_000, 90_000]) {
      const r = await routing.submit(await f.open(), request([], 0), now);
      const accepted = await routing.accept(offerOf(r.facts, r.request), A, now + 5_000);
      if (!accepted.ok) throw new Error(accepted.why);
      await routing.complete(accepted.conversationId, now + heldMs);
      keeper.recordServed(heldMs);
      now += heldMs + 1_000;
    }
    // A conversation that left without being served changes nothing.
    const conversation = await f.open();
    const left = await routing.submit(conversation, request([], 0), now);
    expect(left.facts.some((x) => x.kind === 'offered')).toBe(true);
    await routing.complete(conversation, now + 1);
    expect((await routing.waitHistory(billing.id, windows)).holdingMs).toBeCloseTo(keeper.meanHoldingMs(), 6);
  });

  it('keeps only the newest of each window', async () => {
    f = await routingFixture(kind);
    const { routing } = f;
    for (let i = 0; i < 4; i += 1) {
      const r = await routing.submit(await f.open(), request([], 0), 1_000 * i);
      await routing.noteEstimate(r.request, billing.id, { k: 1, scaleMs: 1_000 * (i + 1), promiseMs: 1_000 }, 1_000 * i);
    }
    await routing.setPresence({ staff: A, skills: [], capacity: 4, presence: 'available' }, 10_000);
    for (const o of await routing.offersFor(A)) expect((await routing.accept(o.reservation, A, 20_000)).ok).toBe(true);
    const history = await routing.waitHistory(billing.id, { historySize: 2 });
    expect(history.waits.map((w) => w.scaleMs).sort()).toEqual([3_000, 4_000]);
  });
});
