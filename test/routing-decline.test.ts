/**
 * A decline and the dispatch that follows it, on both databases. On PostgreSQL a plain decline
 * is one statement that also reads the dispatch's candidates (src/store/routing-postgres.ts), and
 * every other answer — someone else's offer, one already answered, a lapsed offer, a target past
 * its deadline, a warm offer to one named person — falls back to the row that statement locked.
 * The same facts must come out of both databases, and on PostgreSQL two answers to one offer
 * at the same moment resolve it once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { StaffId } from '../src/core/index.js';
import type { RouterRequest } from '../src/core/router/index.js';
import type { RoutingFact } from '../src/store/routing-store.js';
import { billing, overflow, request, routingFixture as fixture, type RoutingFixture as Fixture } from './support/routing-fixture.js';

const A = 'staff_ana' as StaffId;
const B = 'staff_ben' as StaffId;
const C = 'staff_cy' as StaffId;

/** The offers among `facts`, as `request → person`. */
const offers = (facts: readonly RoutingFact[]) => facts.flatMap((f) => (f.kind === 'offered' ? [`${f.request} → ${f.staff}`] : []));

/** The reservation of the offer of `requestId` among `facts`. */
const reservationOf = (facts: readonly RoutingFact[], requestId: string): string => {
  const offer = facts.find((f) => f.kind === 'offered' && f.request === requestId);
  if (offer?.kind !== 'offered') throw new Error(`no offer of ${requestId} in ${JSON.stringify(facts)}`);
  return offer.reservation;
};

/** Every person's count equals what they hold, and nobody holds more than their capacity. */
async function capacityAddsUp(f: Fixture) {
  const rows = await f.query(`SELECT s.staff_id, s.used, s.capacity,
      (SELECT coalesce(sum(r.weight), 0) FROM routing_reservations r WHERE r.staff_id = s.staff_id AND r.status = 'pending') AS pending,
      (SELECT count(*) FROM routing_requests q WHERE q.staff_id = s.staff_id AND q.status = 'assigned') AS assigned
    FROM routing_staff s`);
  return rows.filter((r) => Number(r.used) !== Number(r.pending) + Number(r.assigned) || Number(r.used) > Number(r.capacity));
}

describe.each(['sqlite', 'postgres'] as const)('a decline on %s', (kind) => {
  let f: Fixture;
  afterEach(async () => f?.close());

  it('offers the decliner the best request they may take: priority, then arrival; never one they declined; only their skills', async () => {
    f = await fixture(kind);
    const { routing } = f;
    await routing.setPresence({ staff: A, skills: ['billing'], capacity: 1, presence: 'available' }, 1);
    await routing.setPresence({ staff: B, skills: ['billing'], capacity: 1, presence: 'available' }, 2);
    await routing.setPresence({ staff: C, skills: ['refunds'], capacity: 1, presence: 'available' }, 3);
    const q1 = await routing.submit(await f.open(), request(['billing'], 0), 10);
    const q2 = await routing.submit(await f.open(), request(['billing'], 0), 11);
    const q3 = await routing.submit(await f.open(), request(['billing'], 0), 12);
    const q4 = await routing.submit(await f.open(), request(['billing'], 2), 13);
    const q5 = await routing.submit(await f.open(), request(['refunds'], 5), 14);
    const q6 = await routing.submit(await f.open(), request(['refunds'], 5), 15);
    // Longest idle first: A, then B; C takes the first refund; the rest wait.
    expect([q1, q2, q3, q4, q5, q6].map((q) => offers(q.facts))).toEqual([
      [`${q1.request} → ${A}`],
      [`${q2.request} → ${B}`],
      [],
      [],
      [`${q5.request} → ${C}`],
      [],
    ]);

    // A declines q1: the higher priority q4 goes ahead of q3; q1 (which A declined) and the refund are not for A.
    const d1 = await routing.decline(reservationOf(q1.facts, q1.request), A, 'busy', 20);
    expect(d1).toMatchObject({ ok: true });
    expect(d1.facts.map((x) => x.kind)).toEqual(['declined', 'offered']);
    expect(offers(d1.facts)).toEqual([`${q4.request} → ${A}`]);
    // B declines q2: q1 arrived before q3.
    const d2 = await routing.decline(reservationOf(q2.facts, q2.request), B, 'wrong_skill', 21);
    expect(offers(d2.facts)).toEqual([`${q1.request} → ${B}`]);
    // A declines q4: q2 (declined by B only) arrived before q3.
    const d3 = await routing.decline(reservationOf(d1.facts, q4.request), A, 'busy', 22);
    expect(offers(d3.facts)).toEqual([`${q2.request} → ${A}`]);
    const d4 = await routing.decline(reservationOf(d3.facts, q2.request), A, 'busy', 23);
    expect(offers(d4.facts)).toEqual([`${q3.request} → ${A}`]);
    // A has now declined every billing request but q3; declining q3 leaves A with nothing to take.
    const d5 = await routing.decline(reservationOf(d4.facts, q3.request), A, 'end_of_shift', 24);
    expect(d5.facts.map((x) => x.kind)).toEqual(['declined']);
    expect((await routing.staff()).find((s) => s.staff === A)).toMatchObject({ used: 0 });

    const excluded = await f.query('SELECT id, excluded FROM routing_requests ORDER BY seq');
    expect(excluded.map((r) => [r.id, JSON.parse(String(r.excluded)) as string[]])).toEqual([
      [q1.request, [A]],
      [q2.request, [B, A]],
      [q3.request, [A]],
      [q4.request, [A]],
      [q5.request, []],
      [q6.request, []],
    ]);
    const reasons = await f.query("SELECT reason FROM routing_reservations WHERE status = 'declined' ORDER BY created_at, id");
    expect(reasons.map((r) => r.reason)).toEqual(['busy', 'wrong_skill', 'busy', 'busy', 'end_of_shift']);
    expect(await capacityAddsUp(f)).toEqual([]);
  });

  it('past the first page of waiting requests, the decliner still gets the best one they may take', async () => {
    f = await fixture(kind);
    const { routing } = f;
    await routing.setPresence({ staff: A, skills: ['billing'], capacity: 1, presence: 'available' }, 1);
    const declined = await routing.submit(await f.open(), request(['billing'], 0), 10);
    // More refunds than a page (nobody can take them), then a billing request ahead of the declined one.
    for (let i = 0; i < 12; i += 1) await routing.submit(await f.open(), request(['refunds'], 2), 11 + i);
    const next = await routing.submit(await f.open(), request(['billing'], 1), 30);
    const answer = await routing.decline(reservationOf(declined.facts, declined.request), A, 'busy', 40);
    expect(offers(answer.facts)).toEqual([`${next.request} → ${A}`]);
    expect(await capacityAddsUp(f)).toEqual([]);
  });

  it('the room a decline gives back is counted once, however many offers it then takes', async () => {
    f = await fixture(kind);
    const { routing } = f;
    await routing.setPresence({ staff: A, skills: [], capacity: 2, presence: 'available' }, 1);
    // A callback weighs 2: it fills A, and the two chats behind it wait.
    const callback = await routing.submit(await f.open(), { ...request([], 1), channel: 'callback' }, 10);
    const chats = [await routing.submit(await f.open(), request([], 0), 11), await routing.submit(await f.open(), request([], 0), 12)];
    expect(offers(chats.flatMap((c) => c.facts))).toEqual([]);
    const answer = await routing.decline(reservationOf(callback.facts, callback.request), A, 'busy', 20);
    expect(offers(answer.facts)).toEqual(chats.map((c) => `${c.request} → ${A}`));
    expect((await routing.staff()).map((s) => [s.staff, s.used])).toEqual([[A, 2]]);
    expect(await capacityAddsUp(f)).toEqual([]);
    // And a decline that takes nothing back gives the room back all the same.
    const again = await routing.decline(reservationOf(answer.facts, chats[0]!.request), A, 'busy', 21);
    expect(offers(again.facts)).toEqual([]);
    expect((await routing.staff()).map((s) => [s.staff, s.used])).toEqual([[A, 1]]);
    expect(await capacityAddsUp(f)).toEqual([]);
  });

  it('refuses an answer that is not the one the offer waits for, and changes nothing', async () => {
    f = await fixture(kind);
    const { routing } = f;
    await routing.setPresence({ staff: A, skills: [], capacity: 2, presence: 'available' }, 1);
    await routing.setPresence({ staff: B, skills: [], capacity: 1, presence: 'available' }, 2);
    const q1 = await routing.submit(await f.open(), request([], 0), 10);
    const q2 = await routing.submit(await f.open(), request([], 0), 11);
    const r1 = reservationOf(q1.facts, q1.request);
    const r2 = reservationOf(q2.facts, q2.request);

    const state = () =>
      Promise.all([
        f.query('SELECT * FROM routing_requests ORDER BY id'),
        f.query('SELECT * FROM routing_reservations ORDER BY id'),
        f.query('SELECT * FROM routing_staff ORDER BY staff_id'),
      ]);
    const before = await state();
    expect(await routing.decline('res_nothing', A, 'busy', 20)).toEqual({ ok: false, why: 'not_found', facts: [] });
    expect(await routing.decline(r1, B, 'busy', 20)).toEqual({ ok: false, why: 'not_yours', facts: [] });
    expect(await state()).toEqual(before);

    expect(await routing.decline(r1, A, 'busy', 21)).toMatchObject({ ok: true });
    expect(await routing.accept(r2, B, 22)).toMatchObject({ ok: true });
    const answered = await state();
    expect(await routing.decline(r1, A, 'busy', 23)).toEqual({ ok: false, why: 'answered', facts: [] });
    expect(await routing.decline(r2, B, 'busy', 24)).toEqual({ ok: false, why: 'answered', facts: [] });
    expect(await state()).toEqual(answered);
    expect(await capacityAddsUp(f)).toEqual([]);
  });

  it('a decline after the offer lapsed is its timeout; after the target timed out, the request moves on', async () => {
    f = await fixture(kind);
    const { routing } = f;
    await routing.setPresence({ staff: A, skills: [], capacity: 1, presence: 'available' }, 1);
    await routing.setPresence({ staff: B, skills: [], capacity: 1, presence: 'available' }, 2);
    // The offer lapses at 10 + 600 s.
    const q1 = await routing.submit(await f.open(), request([], 0), 10);
    const lapsed = await routing.decline(reservationOf(q1.facts, q1.request), A, 'busy', 10 + 600_000);
    expect(lapsed).toMatchObject({ ok: false, why: 'expired' });
    expect(lapsed.facts.map((x) => x.kind)).toEqual(['timed_out', 'offered']);
    expect(offers(lapsed.facts)).toEqual([`${q1.request} → ${B}`]);

    // The target times out after 60 s, before the offer (600 s): a decline at 100 s moves it to the fallback queue.
    const targets: RouterRequest['targets'] = [
      { type: 'queue', queue: billing.id, timeoutSeconds: 60 },
      { type: 'queue', queue: overflow.id, timeoutSeconds: 3600 },
    ];
    await routing.setPresence({ staff: C, skills: [], capacity: 1, presence: 'available' }, 700_000);
    const q2 = await routing.submit(await f.open(), request([], 0, targets), 700_000);
    expect(offers(q2.facts)).toEqual([`${q2.request} → ${A}`]);
    const late = await routing.decline(reservationOf(q2.facts, q2.request), A, 'busy', 700_000 + 100_000);
    expect(late).toMatchObject({ ok: true });
    expect(late.facts).toMatchObject([
      { kind: 'declined', request: q2.request, staff: A },
      { kind: 'moved', request: q2.request, to: overflow.id },
      { kind: 'offered', request: q2.request, staff: C },
    ]);
    expect(await capacityAddsUp(f)).toEqual([]);
  });

  it('a warm offer to one named person, declined, fails back to the person who asked', async () => {
    f = await fixture(kind);
    const { routing } = f;
    await routing.setPresence({ staff: A, skills: [], capacity: 1, presence: 'available' }, 1);
    await routing.setPresence({ staff: B, skills: [], capacity: 1, presence: 'available' }, 2);
    const conversation = await f.open();
    const q1 = await routing.submit(conversation, request([], 0), 10);
    expect(await routing.accept(reservationOf(q1.facts, q1.request), A, 11)).toMatchObject({ ok: true });
    const warm = await routing.offerWarm(conversation, { from: A, to: { staff: B }, fallbackQueue: billing.id, timeoutSeconds: 60 }, 12);
    if (!warm.ok) throw new Error(`the warm offer was refused: ${warm.why}`);
    const declined = await routing.decline(reservationOf(warm.facts, warm.request), B, 'busy', 13);
    expect(declined.facts).toMatchObject([
      { kind: 'declined', request: warm.request, staff: B },
      { kind: 'left', request: warm.request, to: 'canceled' },
      { kind: 'warm_failed', request: warm.request, from: A, queue: billing.id },
    ]);
    expect((await routing.staff()).map((s) => [s.staff, s.used])).toEqual([
      [A, 1],
      [B, 0],
    ]);
    expect(await capacityAddsUp(f)).toEqual([]);
  });
});

describe('answers to one offer at the same moment, on PostgreSQL', () => {
  let f: Fixture;
  afterEach(async () => f?.close());

  it('resolve it once: one decline or accept wins, the others are told it was answered', async () => {
    f = await fixture('postgres');
    const { routing } = f;
    const people = Array.from({ length: 6 }, (_, i) => `staff_p${i}` as StaffId);
    for (const [i, p] of people.entries()) await routing.setPresence({ staff: p, skills: [], capacity: 2, presence: 'available' }, i);
    const held: Array<{ reservation: string; staff: StaffId }> = [];
    for (let i = 0; i < 24; i += 1) {
      const q = await routing.submit(await f.open(), request([], i % 3), 100 + i);
      for (const x of q.facts) if (x.kind === 'offered') held.push({ reservation: x.reservation, staff: x.staff });
    }
    expect(held).toHaveLength(12);
    const outcomes = await Promise.all(
      held.map(async (o, i) => {
        const answers = await Promise.all([
          routing.decline(o.reservation, o.staff, 'busy', 200),
          i % 2 === 0 ? routing.decline(o.reservation, o.staff, 'other', 200) : routing.accept(o.reservation, o.staff, 200),
        ]);
        return answers.map((a) => (a.ok ? 'ok' : a.why));
      }),
    );
    expect(outcomes.filter((o) => o.filter((x) => x === 'ok').length !== 1 || !o.includes('answered'))).toEqual([]);
    const resolved = await f.query("SELECT count(*) AS n FROM routing_reservations WHERE status IN ('declined', 'accepted')");
    expect(Number(resolved[0]!.n)).toBe(12);
    expect(await capacityAddsUp(f)).toEqual([]);
  });
});

describe('numbering the next routing request', () => {
  it('reads the largest order from an index, not by scanning every request ever made', async () => {
    const f = await fixture('sqlite');
    try {
      const plan = await f.query('EXPLAIN QUERY PLAN SELECT coalesce(max(seq), 0) AS seq FROM routing_requests');
      expect(plan.map((row) => String(row['detail'])).join(' ')).toMatch(/USING COVERING INDEX routing_requests_seq/);
    } finally {
      await f.close();
    }
  });
});
