/**
 * The router behind `baton serve`, over real HTTP on SQLite and PostgreSQL: a hand-off is offered
 * to the longest-idle eligible person as a reservation; a decline or a timeout never offers it to
 * that person again; an accept makes them the owner; what the customer is told is what the router
 * can back (a held offer, an estimate backed by someone on shift, or the queue's honest option).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationId, StoredEvent } from '../src/core/index.js';
import { AvailabilityCalendarSchema, isOpenAt } from '../src/runtime/router/availability-calendar.js';
import { PostgresStore } from '../src/store/postgres-store.js';
import { SqliteStore } from '../src/store/sqlite-store.js';
import { json } from './support/http-json.js';
import { handoffPolicy, startTestRuntime, type TestRuntime, type TestStoreKind } from './support/runtime-server.js';

const open: TestRuntime[] = [];
afterEach(async () => {
  while (open.length) await open.pop()!.close();
});

/** A clock the test moves by hand: the router's timeouts run on it. */
const manualClock = (start = Date.parse('2026-12-01T10:00:00Z')) => {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
};

async function start(kind: TestStoreKind, routing: Record<string, unknown> = {}, clock = manualClock()) {
  const t = await startTestRuntime(kind, { policy: () => handoffPolicy(), config: { routing } as never, clock, metricsToken: 'scrape-me' });
  open.push(t);
  const call = (path: string, init: { method?: string; body?: unknown; token?: string; key?: string } = {}) => json(t.base, path, init);
  const person = async (skills: string[]) => {
    const s = await t.staff('agent', skills);
    return { ...s, available: () => call('/v1/staff/me/presence', { method: 'PUT', body: { presence: 'available' }, token: s.token }) };
  };
  /** A customer who asks for a person; resolves once the hand-off is carried out. */
  const customer = async () => {
    const c = await t.open();
    const posted = await call(`/v1/conversations/${c.id}/messages`, {
      body: { text: 'I want a person please' },
      token: c.token,
      key: 'k1',
    });
    expect(posted.status).toBe(201);
    await t.runtime.service.idle();
    const page = await call(`/v1/conversations/${c.id}/messages?after=0`, { token: c.token });
    const notices = (page.body['messages'] as Array<{ from: string; text: string }>).filter((m) => m.from === 'system');
    return { ...c, notice: notices.at(-1)?.text ?? null };
  };
  const offers = async (token: string) =>
    (await call('/v1/offers', { token })).body['offers'] as Array<{ id: string; conversationId: string }>;
  const notes = async (id: ConversationId) =>
    (await t.store.listEvents(id)).flatMap((e: StoredEvent) => (e.type === 'routing.noted' ? [e.data] : []));
  return { t, call, person, customer, offers, notes, clock };
}

/** Rows of the router's tables, read straight from the database of either kind. */
async function tableRows(t: TestRuntime, sql: string): Promise<Array<Record<string, unknown>>> {
  if (t.store instanceof PostgresStore) return (await t.store.pool.query(sql)).rows as Array<Record<string, unknown>>;
  if (t.store instanceof SqliteStore) return t.store.db.prepare(sql).all() as Array<Record<string, unknown>>;
  throw new Error('the router’s tables are read on SQLite or PostgreSQL');
}

describe.each(['sqlite', 'postgres'] as const)('the router over HTTP (%s)', (kind) => {
  it('offers to the longest idle, re-routes a decline and a timeout, and an accept makes the owner', async () => {
    const { t, call, person, customer, offers, notes, clock } = await start(kind, {
      queues: [{ id: 'queue_billing', reservationTimeoutSeconds: 30 }],
    });
    const a = await person(['billing']);
    const b = await person(['billing']);
    const legal = await person(['legal']);
    expect((await a.available()).status).toBe(200);
    clock.advance(1000);
    expect((await b.available()).status).toBe(200);
    expect((await legal.available()).status).toBe(200);

    const c = await customer();
    // An offer is held at once, so "joining now" is true.
    expect(c.notice).toMatch(/joining now/);
    expect((await offers(a.token)).map((o) => o.conversationId)).toEqual([c.id]);
    expect(await offers(b.token)).toEqual([]);
    expect(await offers(legal.token)).toEqual([]);

    // A declines: the offer goes to B, never back to A.
    const first = (await offers(a.token))[0]!.id;
    expect((await call(`/v1/offers/${first}/decline`, { body: { reason: 'busy' }, token: a.token })).status).toBe(200);
    expect(await offers(a.token)).toEqual([]);
    const second = (await offers(b.token))[0]!.id;
    expect(second).not.toBe(first);
    // A's own old offer cannot be answered again, nor B's by A.
    expect((await call(`/v1/offers/${first}/accept`, { method: 'POST', token: a.token })).status).toBe(409);
    expect((await call(`/v1/offers/${second}/accept`, { method: 'POST', token: a.token })).status).toBe(404);

    // B lets it lapse: nobody eligible is left, so it waits.
    clock.advance(31_000);
    await t.runtime.router.sweep();
    expect(await offers(b.token)).toEqual([]);
    expect((await call(`/v1/offers/${second}/accept`, { method: 'POST', token: b.token })).status).toBe(409);
    expect(await offers(a.token)).toEqual([]);

    // Someone new comes on shift and is offered it at once; they accept and own the conversation.
    const d = await person(['billing']);
    await d.available();
    const third = (await offers(d.token))[0]!.id;
    const accepted = await call(`/v1/offers/${third}/accept`, { method: 'POST', token: d.token });
    expect(accepted.status).toBe(200);
    expect(accepted.body['conversation']).toMatchObject({ state: 'HUMAN_ACTIVE', owner: { type: 'human', id: d.id } });
    expect((await call(`/v1/offers/${third}/accept`, { method: 'POST', token: d.token })).status).toBe(409);

    const held = async () => (await t.runtime.router.setPresence(d.id as never, 'available')).used;
    expect(await held()).toBe(1);
    const version = (accepted.body['conversation'] as { version: number }).version;
    const back = await call(`/v1/conversations/${c.id}/hand-back`, { body: { version, notes: 'done' }, token: d.token });
    expect(back.status).toBe(200);
    // The hand-back frees the person's slot.
    expect(await held()).toBe(0);

    const kinds = (await notes(c.id)).map((n) =>
      n.kind === 'offered' || n.kind === 'declined' || n.kind === 'timed_out' || n.kind === 'accepted' ? `${n.kind}:${n.staff}` : n.kind,
    );
    expect(kinds).toEqual([
      'queued',
      `offered:${a.id}`,
      'promised',
      `declined:${a.id}`,
      `offered:${b.id}`,
      `timed_out:${b.id}`,
      `offered:${d.id}`,
      `accepted:${d.id}`,
      'left',
    ]);
  });

  it('never promises a person nobody backs: the queue closed, nobody on shift, or everyone full', async () => {
    const hours = {
      timeZone: 'Europe/Dublin',
      weekly: { mon: [], tue: [{ from: '09:00', to: '17:00' }], wed: [], thu: [], fri: [], sat: [], sun: [] },
    };
    // Tuesday 1 December 2026, 07:00 in Dublin: before the queue opens.
    const clock = manualClock(Date.parse('2026-12-01T07:00:00Z'));
    const { customer, notes, person } = await start(kind, { queues: [{ id: 'queue_billing', hours }], staffCapacity: 1 }, clock);
    const early = await customer();
    expect(early.notice).not.toMatch(/join/);
    const promised = (await notes(early.id)).find((n) => n.kind === 'promised');
    expect(promised).toMatchObject({ promise: 'callback' });
    const by = Date.parse((promised as { by: string }).by);
    expect(isOpenAt(AvailabilityCalendarSchema.parse(hours), by)).toBe(true);
    expect(by).toBe(Date.parse('2026-12-01T09:00:00Z'));

    // Open now, but nobody is on shift: still no promise of a person.
    clock.advance(3 * 3_600_000);
    const nobody = await customer();
    expect(nobody.notice).not.toMatch(/join/);
    expect((await notes(nobody.id)).find((n) => n.kind === 'promised')).toMatchObject({ promise: 'callback' });

    // One person (capacity 1) comes on shift and takes the oldest; the next is told an estimate they back.
    const p = await person(['billing']);
    await p.available();
    const waiting = await customer();
    expect(waiting.notice).toMatch(/The wait is about \d+ minutes?/);
    expect((await notes(waiting.id)).find((n) => n.kind === 'promised')).toMatchObject({
      promise: 'join_estimate',
      estimate: { pointMs: expect.any(Number) },
    });
  });

  it('tells the estimate of the queue’s own history, and scores it when a person joins', async () => {
    const { t, call, person, customer, offers, notes, clock } = await start(kind, {
      queues: [{ id: 'queue_billing', reservationTimeoutSeconds: 600 }],
      staffCapacity: 1,
    });
    const p = await person(['billing']);
    await p.available();
    /** Accepts the offer of `c` and returns the conversation's version. */
    const take = async (c: { id: string }) => {
      const offer = (await offers(p.token)).find((o) => o.conversationId === c.id);
      if (offer === undefined) throw new Error(`no offer of ${c.id}`);
      const accepted = await call(`/v1/offers/${offer.id}/accept`, { method: 'POST', token: p.token });
      expect(accepted.status).toBe(200);
      return (accepted.body['conversation'] as { version: number }).version;
    };
    const handBack = async (c: { id: string }, version: number) =>
      expect(
        (await call(`/v1/conversations/${c.id}/hand-back`, { body: { version, notes: 'done' }, token: p.token, key: c.id })).status,
      ).toBe(200);
    // The first is offered at once, accepted five minutes later, and handed back ten minutes after that:
    // it held the person's slot for fifteen minutes, from the offer.
    const first = await customer();
    clock.advance(5 * 60_000);
    const v1 = await take(first);
    clock.advance(10 * 60_000);
    await handBack(first, v1);
    const second = await customer();
    const v2 = await take(second);
    // The third waits behind the second: the median of Gamma(1) × 15 minutes ≈ 10.4 minutes.
    const third = await customer();
    expect(third.notice).toMatch(/The wait is about 10 minutes/);
    const told = (await notes(third.id)).find((n) => n.kind === 'promised') as { estimate: { pointMs: number } };
    expect(told.estimate.pointMs).toBeCloseTo(Math.LN2 * 15 * 60_000, 0);
    // A person joins three minutes later: the wait is kept beside the model it was told from.
    clock.advance(3 * 60_000);
    await handBack(second, v2);
    await take(third);
    const rows = await tableRows(t, 'SELECT told_queue, told_k, told_scale_ms, waited_ms FROM routing_requests WHERE told_k IS NOT NULL');
    expect(rows.map((r) => [r['told_queue'], Number(r['told_k']), Number(r['told_scale_ms']), Number(r['waited_ms'])])).toEqual([
      ['queue_billing', 1, 15 * 60_000, 3 * 60_000],
    ]);
  });

  it('warm transfer: accepted joins the new person; declined or unanswered goes cold to the queue', async () => {
    const { t, call, person, customer, offers, notes, clock } = await start(kind, { queues: [{ id: 'queue_billing' }] });
    const a = await person(['billing']);
    await a.available();
    /** A conversation A took from an offer. */
    const owned = async () => {
      const c = await customer();
      const offer = (await offers(a.token)).find((o) => o.conversationId === c.id)!;
      const accepted = await call(`/v1/offers/${offer.id}/accept`, { method: 'POST', token: a.token });
      expect(accepted.status).toBe(200);
      return { ...c, version: (accepted.body['conversation'] as { version: number }).version };
    };
    const conversation = async (id: string) => (await t.store.getConversation(id as ConversationId))!;
    const customerSees = async (c: { id: string; token: string }) =>
      (
        (await call(`/v1/conversations/${c.id}/messages?after=0`, { token: c.token })).body['messages'] as Array<{
          from: string;
          text: string;
        }>
      ).map((m) => m.text);
    const used = async (id: string) => (await t.runtime.router.staffState(id as never))?.used ?? 0;

    // Accepted: B owns it, A's slot is free, the customer hears a colleague joined (and only then).
    const first = await owned();
    // B comes on shift later than A's last offer, so A stays the longest idle for the conversations below.
    clock.advance(1000);
    const b = await person(['billing']);
    await b.available();
    const warm = await call(`/v1/conversations/${first.id}/transfer`, {
      body: { to: b.id, mode: 'warm', version: first.version },
      token: a.token,
    });
    expect(warm.status).toBe(202);
    expect((await conversation(first.id)).owner).toEqual({ type: 'human', id: a.id });
    const before = await customerSees(first);
    const offer = (await offers(b.token)).find((o) => o.conversationId === first.id)!;
    expect((await call(`/v1/offers/${offer.id}/accept`, { method: 'POST', token: b.token })).status).toBe(200);
    expect((await conversation(first.id)).owner).toEqual({ type: 'human', id: b.id });
    // Nothing was said to the customer by the transfer itself.
    expect(await customerSees(first)).toEqual(before);
    // B holds it but takes no new offers for now, so that the next conversation goes to A.
    await call('/v1/staff/me/presence', { method: 'PUT', body: { presence: 'busy' }, token: b.token });
    const hello = await call(`/v1/conversations/${first.id}/replies`, {
      body: { text: 'Hi, I am taking over from my colleague.', version: (await conversation(first.id)).version },
      token: b.token,
    });
    expect(hello.status).toBe(201);
    expect(await customerSees(first)).toContain('Hi, I am taking over from my colleague.');
    expect(await used(a.id)).toBe(0);
    expect(await used(b.id)).toBe(1);

    // Declined: cold to the queue, with the honest notice; A's slot is free.
    const second = await owned();
    await b.available();
    await call(`/v1/conversations/${second.id}/transfer`, { body: { to: b.id, mode: 'warm', version: second.version }, token: a.token });
    const declined = (await offers(b.token)).find((o) => o.conversationId === second.id)!;
    expect((await call(`/v1/offers/${declined.id}/decline`, { body: { reason: 'wrong_skill' }, token: b.token })).status).toBe(200);
    expect(await conversation(second.id)).toMatchObject({ state: 'QUEUED', owner: { type: 'queue', id: 'queue_billing' } });
    expect((await notes(second.id)).map((n) => n.kind)).toContain('warm_failed');
    // A holds nothing of it now; from the queue it is offered again to one of them (a reservation counts).
    const held = async (id: string) => (await t.runtime.router.staffState(id as never))?.used ?? 0;
    expect((await held(a.id)) + (await held(b.id))).toBe(2);
    // Never straight back to the person who passed it on.
    expect((await offers(a.token)).some((o) => o.conversationId === second.id)).toBe(false);

    // Unanswered: after the warm timeout (60 s) the sweep passes it on cold.
    clock.advance(1000);
    const c = await person(['billing']);
    await c.available();
    await call('/v1/staff/me/presence', { method: 'PUT', body: { presence: 'busy' }, token: b.token });
    const third = await owned();
    await call(`/v1/conversations/${third.id}/transfer`, { body: { to: c.id, mode: 'warm', version: third.version }, token: a.token });
    const unanswered = (await offers(c.token)).find((o) => o.conversationId === third.id)!;
    clock.advance(61_000);
    await t.runtime.router.sweep();
    expect((await conversation(third.id)).state).toBe('QUEUED');
    // The warm offer lapsed (the queue may offer the conversation to C again, as a new offer).
    expect((await offers(c.token)).some((o) => o.id === unanswered.id)).toBe(false);
    expect((await call(`/v1/offers/${unanswered.id}/accept`, { method: 'POST', token: c.token })).status).toBe(409);
    expect((await notes(third.id)).filter((n) => n.kind === 'warm_failed')).toHaveLength(1);

    // A warm transfer to someone away is refused, and changes nothing.
    const away = await person(['billing']);
    await call('/v1/staff/me/presence', { method: 'PUT', body: { presence: 'busy' }, token: c.token });
    const fourth = await owned();
    const refused = await call(`/v1/conversations/${fourth.id}/transfer`, {
      body: { to: away.id, mode: 'warm', version: fourth.version },
      token: a.token,
    });
    expect(refused.status).toBe(409);
    expect((await conversation(fourth.id)).owner).toEqual({ type: 'human', id: a.id });
  });

  it('raises one queue-age alert per wait past the threshold, as an event and in the Prometheus text', async () => {
    const { t, customer, notes, clock } = await start(kind, { queueAgeAlertSeconds: 60 });
    const c = await customer();
    clock.advance(59_000);
    await t.runtime.router.sweep();
    expect((await notes(c.id)).filter((n) => n.kind === 'age_alert')).toHaveLength(0);
    clock.advance(2_000);
    await t.runtime.router.sweep();
    await t.runtime.router.sweep();
    expect((await notes(c.id)).filter((n) => n.kind === 'age_alert')).toEqual([
      expect.objectContaining({ kind: 'age_alert', queue: 'queue_billing', waitedMs: 61_000 }),
    ]);
    const res = await fetch(`${t.base}/metrics`, { headers: { authorization: 'Bearer scrape-me' } });
    const text = await res.text();
    expect(text).toMatch(/^baton_queue_age_alerts\{queue="queue_billing"\} 1$/m);
    expect(text).toMatch(/^baton_queue_oldest_wait_seconds\{queue="queue_billing"\} 61$/m);
  });

  it('a customer who leaves the queue ends the wait: the offer is withdrawn and the slot freed', async () => {
    const { t, call, person, customer, offers, notes } = await start(kind, { queues: [{ id: 'queue_billing' }] });
    const a = await person(['billing']);
    await a.available();
    const c = await customer();
    const offer = (await offers(a.token))[0]!;
    expect(offer.conversationId).toBe(c.id);
    const left = await call(`/v1/conversations/${c.id}/leave`, { method: 'POST', token: c.token });
    expect(left.status).toBe(200);
    expect(left.body['conversation']).toMatchObject({ state: 'CLOSED' });
    expect(await offers(a.token)).toEqual([]);
    expect((await t.runtime.router.staffState(a.id as never))?.used).toBe(0);
    const late = await call(`/v1/offers/${offer.id}/accept`, { method: 'POST', token: a.token });
    expect(late.status).toBe(409);
    expect(late.body['error']).toMatchObject({ code: 'offer_withdrawn' });
    expect((await notes(c.id)).map((n) => n.kind)).toContain('left');
    // Leaving twice, or with another conversation's token, changes nothing.
    expect((await call(`/v1/conversations/${c.id}/leave`, { method: 'POST', token: c.token })).status).toBe(409);
    const other = await t.open();
    expect((await call(`/v1/conversations/${c.id}/leave`, { method: 'POST', token: other.token })).status).toBe(404);
  });

  it('a wait past its timeout becomes a callback: the customer is told, and the next person on shift is offered it', async () => {
    const { t, call, person, customer, offers, notes, clock } = await start(kind, {
      queues: [{ id: 'queue_billing', waitTimeoutSeconds: 60 }],
      weights: { chat: 1, callback: 2 },
      staffCapacity: 3,
    });
    const c = await customer();
    clock.advance(61_000);
    await t.runtime.router.sweep();
    const said = (
      (await call(`/v1/conversations/${c.id}/messages?after=0`, { token: c.token })).body['messages'] as Array<{
        from: string;
        text: string;
      }>
    )
      .filter((m) => m.from === 'system')
      .map((m) => m.text);
    expect(said.at(-1)).toMatch(/now a callback/);
    expect((await notes(c.id)).filter((n) => n.kind === 'moved')).toEqual([expect.objectContaining({ to: 'callback' })]);
    // The next person on shift is offered it, and it holds what a callback weighs (2).
    const free = await person(['billing']);
    await free.available();
    const callback = (await offers(free.token)).find((o) => o.conversationId === c.id)!;
    expect((await call(`/v1/offers/${callback.id}/accept`, { method: 'POST', token: free.token })).status).toBe(200);
    expect((await t.runtime.router.staffState(free.id as never))?.used).toBe(2);
  });

  it('a safety case out of hours never waits for the hours: crisis resources now, the on-call escalation', async () => {
    const closed = { timeZone: 'Europe/Dublin', weekly: { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] } };
    const queues = ['queue_billing', 'queue_complaints', 'queue_bereavement', 'queue_legal', 'queue_account_security'].map((id) => ({
      id,
      hours: closed,
    }));
    const { t, call, notes } = await start(kind, { queues });
    const c = await t.open();
    const posted = await call(`/v1/conversations/${c.id}/messages`, {
      body: { text: "I can't go on. I have the pills here and I want to end my life tonight." },
      token: c.token,
      key: 'k1',
    });
    expect(posted.status).toBe(201);
    await t.runtime.service.idle();
    const requested = (await t.store.listEvents(c.id as ConversationId)).find((e) => e.type === 'handoff.requested');
    expect(requested?.type === 'handoff.requested' && requested.data.reason).toBe('safety');
    expect((await notes(c.id as ConversationId)).find((n) => n.kind === 'promised')).toMatchObject({ promise: 'safety_escalation' });
    const said = (
      (await call(`/v1/conversations/${c.id}/messages?after=0`, { token: c.token })).body['messages'] as Array<{
        from: string;
        text: string;
      }>
    )
      .filter((m) => m.from !== 'customer')
      .map((m) => m.text)
      .join(' ');
    expect(said).toMatch(/emergency number/);
    expect(said).not.toMatch(/when the team is next in|within \d+ hours/);
  });

  it('past the ping-pong cap a hand-off goes straight back to the person who had it (counted on their capacity), or to the queue when they are off shift', async () => {
    const t = await startTestRuntime(kind, {
      policy: () => handoffPolicy(),
      config: { routing: { queues: [{ id: 'queue_billing' }] }, ownership: { maxHandoffs: 1 } } as never,
    });
    open.push(t);
    const a = await t.staff('agent', ['billing']);
    const presence = await fetch(`${t.base}/v1/staff/me/presence`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ presence: 'available' }),
    });
    expect(presence.status).toBe(200);
    const c = await t.open();
    await t.runtime.service.handleCustomerMessage(c.id, { text: 'I want a person please', idempotencyKey: 'k1' });
    const [offer] = await t.runtime.router.offers(a.id as never);
    const accepted = await t.runtime.router.accept(offer!.reservation, a.id as never);
    expect(accepted.ok).toBe(true);
    const owned = (await t.store.getConversation(c.id))!;
    const back = await t.runtime.service.handBack(c.id, a.id as never, { version: owned.version, notes: null, constraints: [] });
    expect(back.ok).toBe(true);
    expect((await t.runtime.router.staffState(a.id as never))?.used).toBe(0);
    // The second hand-off is past the cap: straight back to A, who holds it again.
    await t.runtime.service.handleCustomerMessage(c.id, { text: 'A person again, please', idempotencyKey: 'k2' });
    expect(await t.store.getConversation(c.id)).toMatchObject({ state: 'HUMAN_ACTIVE', owner: { type: 'human', id: a.id } });
    expect((await t.runtime.router.staffState(a.id as never))?.used).toBe(1);

    // A goes off shift after handing back again: the next hand-off goes to the queue, not to A.
    const again = (await t.store.getConversation(c.id))!;
    expect((await t.runtime.service.handBack(c.id, a.id as never, { version: again.version, notes: null, constraints: [] })).ok).toBe(true);
    const away = await fetch(`${t.base}/v1/staff/me/presence`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ presence: 'offline' }),
    });
    expect(away.status).toBe(200);
    await t.runtime.service.handleCustomerMessage(c.id, { text: 'And a person once more', idempotencyKey: 'k3' });
    expect(await t.store.getConversation(c.id)).toMatchObject({ state: 'QUEUED', owner: { type: 'queue', id: 'queue_billing' } });
    const last = (await t.store.listEvents(c.id as ConversationId)).findLast((e) => e.type === 'handoff.requested');
    expect(last?.type === 'handoff.requested' && last.data.route).toBe('queue');
    expect((await t.runtime.router.staffState(a.id as never))?.used).toBe(0);
  });
});
