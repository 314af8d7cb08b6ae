/**
 * Staff verdicts on hand-offs and the production metrics built from them, over real HTTP on a
 * real SQLite file and a real PostgreSQL database (docs/reviews.md): who may review what, bad verdicts refused with nothing
 * stored, free text redacted, the supervisor's sample stratified and seed-stable, and the
 * acceptance line — a hand-off reviewed as unnecessary and a kept conversation reviewed as a
 * missed hand-off appear in `GET /v1/metrics` and on `/metrics` with their intervals.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationId, StoredEvent } from '../src/core/index.js';
import { json } from './support/http-json.js';
import { billingOrNot } from './support/review-policy.js';
import { startTestRuntime, type TestRuntime, type TestStoreKind } from './support/runtime-server.js';

const open: TestRuntime[] = [];
afterEach(async () => {
  while (open.length) await open.pop()!.close();
});

async function start(kind: TestStoreKind) {
  const t = await startTestRuntime(kind, { policy: () => billingOrNot(), metricsToken: 'scrape-me' });
  open.push(t);
  const call = (path: string, init: { method?: string; body?: unknown; token?: string; key?: string } = {}) => json(t.base, path, init);
  /** A customer who writes `text`; resolves once the agent's turn is done. */
  const customer = async (text: string) => {
    const c = await t.open();
    expect((await call(`/v1/conversations/${c.id}/messages`, { body: { text }, token: c.token, key: 'k1' })).status).toBe(201);
    await t.runtime.service.idle();
    const log = await t.store.listEvents(c.id);
    const handoff = log.find((e) => e.type === 'handoff.requested')?.seq ?? null;
    const message = log.find((e) => e.type === 'message.received')!.seq;
    return { ...c, handoff, message };
  };
  const claim = async (id: ConversationId, token: string) => {
    const c = await t.store.getConversation(id);
    expect((await call(`/v1/conversations/${id}/claim`, { body: { version: c!.version }, token })).status).toBe(200);
  };
  const logLength = async (id: ConversationId) => (await t.store.listEvents(id)).length;
  return { t, call, customer, claim, logLength };
}

const notNeeded = (handoff: number) => ({ subject: 'handoff', handoff, needed: false, packetEnough: true });

describe.each(['sqlite', 'postgres'] as const)('staff verdicts over HTTP (%s)', (kind) => {
  it('the person who took the hand-off reviews it as owner, a supervisor as supervisor; another agent is refused', async () => {
    const { t, call, customer, claim } = await start(kind);
    const owner = await t.staff('agent', ['billing']);
    const other = await t.staff('agent', ['billing']);
    const sup = await t.staff('supervisor');
    const c = await customer('I have a question about my bill');
    expect(c.handoff).not.toBeNull();
    await claim(c.id, owner.token);

    const path = `/v1/conversations/${c.id}/reviews`;
    expect((await call(path, { body: notNeeded(c.handoff!) })).status).toBe(401);
    expect((await call(path, { body: notNeeded(c.handoff!), token: c.token })).status).toBe(403);
    const refused = await call(path, { body: notNeeded(c.handoff!), token: other.token });
    expect(refused).toMatchObject({ status: 403, body: { error: { code: 'forbidden' } } });
    // Who gave a verdict is the caller, never the body.
    expect((await call(path, { body: { ...notNeeded(c.handoff!), by: other.id, as: 'supervisor' }, token: owner.token })).status).toBe(400);

    const mine = await call(path, { body: notNeeded(c.handoff!), token: owner.token });
    expect(mine).toMatchObject({ status: 201, body: { review: { by: owner.id, as: 'owner', subject: 'handoff', needed: false } } });
    const theirs = await call(path, {
      body: {
        subject: 'handoff',
        handoff: c.handoff,
        needed: true,
        timing: 'on_time',
        packetEnough: false,
        askedAgain: 'the order',
      },
      token: sup.token,
    });
    expect(theirs).toMatchObject({
      status: 201,
      body: { review: { by: sup.id, as: 'supervisor', timing: 'on_time', askedAgain: 'the order' } },
    });

    const read = await call(path, { token: other.token });
    expect(read.status).toBe(200);
    expect((read.body['reviews'] as Array<{ by: string }>).map((r) => r.by)).toEqual([owner.id, sup.id]);
    expect(read.body['subjects']).toEqual([
      expect.objectContaining({
        subject: 'handoff',
        handoff: c.handoff,
        reason: 'customer_request',
        queue: 'queue_billing',
        youMayReviewAs: null,
      }),
    ]);
    expect(((await call(path, { token: owner.token })).body['subjects'] as Array<{ youMayReviewAs: string }>)[0]!.youMayReviewAs).toBe(
      'owner',
    );
    const logged = (await t.store.listEvents(c.id)).filter((e: StoredEvent) => e.type === 'review.recorded');
    expect(logged).toHaveLength(2);
  });

  it('refuses a verdict that does not fit the log with a 4xx and stores nothing', async () => {
    const { t, call, customer, claim, logLength } = await start(kind);
    const sup = await t.staff('supervisor');
    const handed = await customer('Please look at my bill');
    const kept = await customer('When do you open?');
    await claim(handed.id, sup.token);
    const before = { handed: await logLength(handed.id), kept: await logLength(kept.id) };
    const h = handed.handoff!;
    const cases: Array<[id: ConversationId, body: unknown, status: number, code: string]> = [
      [handed.id, { ...notNeeded(handed.message) }, 400, 'invalid_review'],
      [handed.id, { subject: 'kept', needed: false }, 409, 'has_handoff'],
      [kept.id, { ...notNeeded(3) }, 400, 'invalid_review'],
      [handed.id, { subject: 'handoff', handoff: h, needed: true, packetEnough: true }, 400, 'invalid_review'],
      [handed.id, { subject: 'handoff', handoff: h, needed: false, timing: 'on_time', packetEnough: true }, 400, 'invalid_review'],
      [handed.id, { subject: 'handoff', handoff: h, needed: true, timing: 'late', packetEnough: true }, 400, 'invalid_review'],
      [
        handed.id,
        { subject: 'handoff', handoff: h, needed: true, timing: 'late', dueAt: h + 1, packetEnough: true },
        400,
        'invalid_review',
      ],
      [
        handed.id,
        { subject: 'handoff', handoff: h, needed: true, timing: 'on_time', dueAt: handed.message, packetEnough: true },
        400,
        'invalid_review',
      ],
      [handed.id, { subject: 'handoff', handoff: h, needed: false, packetEnough: true, askedAgain: 'x' }, 400, 'invalid_review'],
      [handed.id, { subject: 'handoff', handoff: h, needed: false, reason: 'policy_topic', packetEnough: false }, 400, 'invalid_review'],
      [kept.id, { subject: 'kept', needed: true }, 400, 'invalid_review'],
      [kept.id, { subject: 'kept', needed: true, dueAt: 1 }, 400, 'invalid_review'],
      [kept.id, { subject: 'kept', needed: false, dueAt: kept.message }, 400, 'invalid_review'],
      [kept.id, { subject: 'kept', needed: 'yes' }, 400, 'invalid_request'],
      [kept.id, { subject: 'maybe', needed: true }, 400, 'invalid_request'],
      [kept.id, { subject: 'kept', needed: false, note: 'bad \ud800 text' }, 400, 'invalid_request'],
      [kept.id, { subject: 'kept', needed: false, note: 'x'.repeat(2001) }, 400, 'invalid_request'],
      [kept.id, [], 400, 'invalid_request'],
      ['conv_doesnotexist000000000000' as ConversationId, { subject: 'kept', needed: false }, 404, 'not_found'],
      ['not-an-id' as ConversationId, { subject: 'kept', needed: false }, 400, 'invalid_request'],
    ];
    for (const [id, body, status, code] of cases) {
      const answer = await call(`/v1/conversations/${id}/reviews`, { body, token: sup.token });
      expect([JSON.stringify(body), answer.status, (answer.body['error'] as { code: string }).code]).toEqual([
        JSON.stringify(body),
        status,
        code,
      ]);
    }
    const raw = await fetch(`${t.base}/v1/conversations/${kept.id}/reviews`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${sup.token}` },
      body: '{"subject":',
    });
    expect(raw.status).toBe(400);
    expect({ handed: await logLength(handed.id), kept: await logLength(kept.id) }).toEqual(before);
    // And the same verdicts, right, are taken.
    expect(
      (
        await call(`/v1/conversations/${kept.id}/reviews`, {
          body: { subject: 'kept', needed: true, dueAt: kept.message },
          token: sup.token,
        })
      ).status,
    ).toBe(201);
  });

  it("redacts the verdict's free text before it is stored", async () => {
    const { t, call, customer, claim } = await start(kind);
    const owner = await t.staff('agent', ['billing']);
    const c = await customer('My bill is wrong');
    await claim(c.id, owner.token);
    const card = '4111 1111 1111 1111';
    const posted = await call(`/v1/conversations/${c.id}/reviews`, {
      body: {
        subject: 'handoff',
        handoff: c.handoff,
        needed: true,
        timing: 'on_time',
        packetEnough: false,
        askedAgain: `I had to ask for the card ${card} again`,
        note: `they wrote from jane.doe@example.com, with the code 482913 and the card ${card}`,
      },
      token: owner.token,
    });
    expect(posted.status).toBe(201);
    const stored = (await t.store.listEvents(c.id)).find((e) => e.type === 'review.recorded')!;
    const text = JSON.stringify(stored.data);
    expect(text).not.toContain('4111');
    expect(text).not.toContain('482913');
    // What a person needs to act on stays (e-mail addresses are kept: docs/redaction.md).
    expect(text).toContain('I had to ask for the card');
    expect(text).toContain('jane.doe@example.com');
    expect(JSON.stringify(posted.body)).not.toContain('4111');
  });

  it('gives supervisors a stratified sample that the same seed draws again, marking what is reviewed', async () => {
    const { t, call, customer } = await start(kind);
    const sup = await t.staff('supervisor');
    const agent = await t.staff('agent', ['billing']);
    const handed: Array<Awaited<ReturnType<typeof customer>>> = [];
    for (let i = 0; i < 6; i += 1) handed.push(await customer(`Question ${i} about my bill`));
    const kept: typeof handed = [];
    for (let i = 0; i < 5; i += 1) kept.push(await customer(`When do you open on day ${i}?`));
    const sample = async (query: string) => {
      const answer = await call(`/v1/reviews/sample?${query}`, { token: sup.token });
      expect(answer.status).toBe(200);
      return answer.body as {
        strata: Array<{
          stratum: string;
          population: number;
          reviewed: number;
          units: Array<{ conversationId: string; reviewed: boolean; handoff?: number }>;
        }>;
      };
    };
    expect((await call('/v1/reviews/sample', { token: agent.token })).status).toBe(403);
    expect((await call('/v1/reviews/sample?perStratum=0', { token: sup.token })).status).toBe(400);
    expect((await call('/v1/reviews/sample?seed=x', { token: sup.token })).status).toBe(400);

    const first = await sample('seed=11&perStratum=2');
    expect(first.strata.map((s) => [s.stratum, s.population, s.units.length])).toEqual([
      ['handoff:customer_request:queue_billing', 6, 2],
      ['kept', 5, 2],
    ]);
    const ids = (s: typeof first) => s.strata.map((x) => x.units.map((u) => u.conversationId));
    expect(ids(await sample('seed=11&perStratum=2'))).toEqual(ids(first));
    expect(new Set(first.strata[0]!.units.map((u) => u.conversationId)).size).toBe(2);
    expect(first.strata[0]!.units.every((u) => handed.some((h) => h.id === u.conversationId && h.handoff === u.handoff))).toBe(true);
    expect(first.strata[1]!.units.every((u) => kept.some((k) => k.id === u.conversationId))).toBe(true);
    // Other seeds draw other units: over a few, the first pick of the kept stratum changes.
    const picks = new Set<string>();
    for (let seed = 1; seed <= 8; seed += 1) picks.add((await sample(`seed=${seed}&perStratum=1`)).strata[1]!.units[0]!.conversationId);
    expect(picks.size).toBeGreaterThan(1);
    // A larger size per stratum extends the same order.
    expect(ids(await sample('seed=11&perStratum=4')).map((x) => x.slice(0, 2))).toEqual(ids(first));

    const drawn = first.strata[1]!.units[0]!.conversationId as ConversationId;
    expect((await call(`/v1/conversations/${drawn}/reviews`, { body: { subject: 'kept', needed: false }, token: sup.token })).status).toBe(
      201,
    );
    const after = await sample('seed=11&perStratum=2');
    expect(ids(after)).toEqual(ids(first));
    expect(after.strata[1]).toMatchObject({ reviewed: 1, units: [{ conversationId: drawn, reviewed: true }, { reviewed: false }] });
    const left = await sample('seed=11&perStratum=2&onlyUnreviewed=true');
    expect(left.strata[1]!.units.map((u) => u.conversationId)).toEqual([first.strata[1]!.units[1]!.conversationId]);
  });

  it('acceptance: a hand-off reviewed as unnecessary and a kept conversation reviewed as a missed hand-off appear in the metrics with intervals', async () => {
    const { t, call, customer, claim } = await start(kind);
    const owner = await t.staff('agent', ['billing']);
    const sup = await t.staff('supervisor');
    const handed = await customer('Something about my bill');
    const kept = await customer('Can I change my address?');
    await claim(handed.id, owner.token);
    // Reviews come after the work: the owner closes the conversation, then gives the verdict.
    const version = (await t.store.getConversation(handed.id))!.version;
    expect((await call(`/v1/conversations/${handed.id}/close`, { body: { version }, token: owner.token })).status).toBe(200);
    expect((await call(`/v1/conversations/${handed.id}/reviews`, { body: notNeeded(handed.handoff!), token: owner.token })).status).toBe(
      201,
    );
    expect(
      (
        await call(`/v1/conversations/${kept.id}/reviews`, {
          body: { subject: 'kept', needed: true, dueAt: kept.message, reason: 'customer_request', note: 'should have gone to billing' },
          token: sup.token,
        })
      ).status,
    ).toBe(201);

    const metrics = await call('/v1/metrics', { token: sup.token });
    expect(metrics.status).toBe(200);
    const reviews = metrics.body['reviews'] as {
      weighting: { method: string; strata: Array<{ stratum: string; population: number; reviewed: number; weight: number }> };
      overall: Record<string, { value: number | null; ci: [number, number] | null; n: number } | null>;
      byReason: Record<string, Record<string, unknown>>;
      interval: { method: string; resamples: number };
    };
    expect(reviews.weighting.method).toBe('post-stratification');
    expect(reviews.weighting.strata).toEqual([
      {
        stratum: 'handoff:customer_request:queue_billing',
        subject: 'handoff',
        reason: 'customer_request',
        queue: 'queue_billing',
        population: 1,
        reviewed: 1,
        weight: 1,
      },
      { stratum: 'kept', subject: 'kept', reason: null, queue: null, population: 1, reviewed: 1, weight: 1 },
    ]);
    // The one hand-off was not needed; the one kept conversation needed a person.
    expect(reviews.overall['precision']).toEqual({ value: 0, ci: [0, 0], n: 1 });
    expect(reviews.overall['recall']).toEqual({ value: 0, ci: [0, 0], n: 1 });
    expect(reviews.overall['overEscalation']).toEqual({ value: 1, ci: [1, 1], n: 1 });
    expect(reviews.overall['timing']).toEqual({ value: null, ci: null, n: 0 });
    expect(reviews.overall['packetEnough']).toEqual({ value: 1, ci: [1, 1], n: 1 });
    expect(reviews.byReason['customer_request']).toMatchObject({ recall: { value: 0, n: 1 }, precision: { value: 0, n: 1 } });
    expect(reviews.interval).toMatchObject({ method: 'stratified percentile bootstrap', resamples: 1000 });

    // An agent sees the hand-offs of the queues they work: no kept conversation, so no recall.
    const mine = (await call('/v1/metrics', { token: owner.token })).body['reviews'] as typeof reviews;
    expect(mine.overall['precision']).toEqual({ value: 0, ci: [0, 0], n: 1 });
    expect(mine.overall['recall']).toEqual({ value: null, ci: null, n: 0 });
    expect(mine.weighting.strata.map((s) => s.stratum)).toEqual(['handoff:customer_request:queue_billing']);

    const scrape = await fetch(`${t.base}/metrics`, { headers: { authorization: 'Bearer scrape-me' } });
    const text = await scrape.text();
    expect(text).toContain('baton_review_estimate{figure="precision",scope="overall",key=""} 0');
    expect(text).toContain('baton_review_estimate{figure="recall",scope="overall",key=""} 0');
    expect(text).toContain('baton_review_estimate_upper{figure="overEscalation",scope="overall",key=""} 1');
    expect(text).toContain('baton_review_sample_size{figure="recall",scope="overall",key=""} 1');
    expect(text).toContain('baton_review_stratum_population{stratum="kept"} 1');
  });
});
