import { describe, expect, it } from 'vitest';
import type { StoredEvent } from './events.js';
import { checkReview, reviewerCapacity, type ReviewInput } from './review-check.js';
import { reviewMetrics } from './review-metrics.js';
import { reviewSample } from './review-sample.js';
import { reviewUnitsOf, verdictFor, reviewsOf } from './review-units.js';

/** Hand-written logs: each event is the least the review code reads; times are minutes past 10:00. */
const at = (minute: number) => new Date(Date.UTC(2026, 11, 1, 10, minute)).toISOString();
const window = { since: '2026-12-01T00:00:00.000Z', until: '2026-12-02T00:00:00.000Z' };
let seq = 0;
const ev = (c: string, type: string, minute: number, data: Record<string, unknown>) =>
  ({ schemaVersion: 1, id: `evt_${(seq += 1)}`, conversationId: c, at: at(minute), type, data, seq }) as unknown as StoredEvent;
const agent = { type: 'agent', id: 'agent_support' };
const said = (c: string, m: number, text = 'hello') => ev(c, 'message.received', m, { message: { id: `msg_${seq}`, text } });
const turn = (c: string, m: number) => ev(c, 'turn.completed', m, { agent: 'agent_support', outcome: 'reply', modelCalls: 1, tokens: 1 });
const handoff = (c: string, m: number, reason = 'customer_request', route = 'queue', q = 'queue_billing') =>
  ev(c, 'handoff.requested', m, {
    version: 2,
    state: route === 'agent' ? 'AGENT_ACTIVE' : 'HANDOFF_PENDING',
    owner: route === 'agent' ? { type: 'agent', id: 'agent_other' } : { type: 'queue', id: q },
    from: { state: 'AGENT_ACTIVE', owner: agent },
    route,
    reason,
    summary: null,
  });
const queued = (c: string, m: number, q: string) =>
  ev(c, 'conversation.queued', m, { version: 3, state: 'QUEUED', owner: { type: 'queue', id: q }, from: {}, queue: q });
const claimed = (c: string, m: number, staff: string) =>
  ev(c, 'conversation.claimed', m, { version: 4, state: 'HUMAN_ACTIVE', owner: { type: 'human', id: staff }, from: {}, staff });
const handedBack = (c: string, m: number) =>
  ev(c, 'conversation.handed_back', m, { version: 5, state: 'AGENT_ACTIVE', owner: agent, from: {}, staff: 'staff_ana' });
const reviewed = (c: string, m: number, data: Record<string, unknown>) => ev(c, 'review.recorded', m, data);

const ana = { id: 'staff_ana', role: 'agent' as const };
const bo = { id: 'staff_bo', role: 'agent' as const };
const sue = { id: 'staff_sue', role: 'supervisor' as const };

describe('review units', () => {
  it('a hand-off towards people per unit, in the queue it waited in; none for a hand-off to an agent; a kept conversation whole', () => {
    const log = [said('a', 0), turn('a', 0), handoff('a', 1, 'policy_topic', 'agent'), handoff('a', 2), queued('a', 2, 'queue_disputes')];
    expect(reviewUnitsOf(log, window)).toEqual([
      { subject: 'handoff', conversationId: 'a', handoff: log[3]!.seq, reason: 'customer_request', queue: 'queue_disputes', at: at(2) },
    ]);
    expect(reviewUnitsOf([said('k', 0), turn('k', 1)], window)).toEqual([{ subject: 'kept', conversationId: 'k', at: at(1) }]);
    // Outside the window: nothing.
    expect(reviewUnitsOf([said('k', 0), turn('k', 1)], { since: window.until, until: '2026-12-03T00:00:00.000Z' })).toEqual([]);
  });
});

describe('checkReview', () => {
  const first = said('c', 0, 'when do you open?');
  const second = said('c', 1, 'about my bill');
  const h1 = handoff('c', 2);
  const log = [first, turn('c', 0), second, h1, claimed('c', 3, 'staff_ana'), handedBack('c', 4), said('c', 5), handoff('c', 6)];
  const h2 = log[7]!;
  log.push(claimed('c', 7, 'staff_bo'));
  const verdict = (over: Partial<Extract<ReviewInput, { subject: 'handoff' }>>): ReviewInput => ({
    subject: 'handoff',
    handoff: h1.seq,
    needed: false,
    dueAt: null,
    reason: null,
    note: null,
    timing: null,
    packetEnough: true,
    askedAgain: null,
    ...over,
  });

  it('the person who took a hand-off reviews it as owner, not the next one; a supervisor any; others none', () => {
    expect(reviewerCapacity(log, h1.seq, ana)).toBe('owner');
    expect(reviewerCapacity(log, h2.seq, ana)).toBeNull();
    expect(reviewerCapacity(log, h2.seq, bo)).toBe('owner');
    expect(reviewerCapacity(log, h1.seq, sue)).toBe('supervisor');
    expect(checkReview(log, verdict({}), bo)).toMatchObject({ ok: false, rejection: { code: 'forbidden' } });
    expect(checkReview(log, verdict({}), ana)).toEqual({ ok: true, as: 'owner' });
  });

  it('a late hand-off was due at a customer message before the one it answered', () => {
    expect(checkReview(log, verdict({ needed: true, timing: 'late', dueAt: first.seq }), ana)).toEqual({ ok: true, as: 'owner' });
    expect(checkReview(log, verdict({ needed: true, timing: 'late', dueAt: second.seq }), ana)).toMatchObject({
      ok: false,
      rejection: { code: 'invalid_review', message: expect.stringMatching(/^dueAt: .*on time/) },
    });
    expect(checkReview(log, verdict({ needed: true, timing: 'late', dueAt: turn('c', 0).seq }), ana)).toMatchObject({ ok: false });
    expect(checkReview(log, verdict({ handoff: first.seq }), ana)).toMatchObject({
      ok: false,
      rejection: { message: expect.stringContaining('a message.received') },
    });
  });

  it('a kept verdict only where no hand-off towards people happened', () => {
    const kept: ReviewInput = { subject: 'kept', needed: true, dueAt: first.seq, reason: 'customer_request', note: null };
    expect(checkReview(log, kept, sue)).toMatchObject({ ok: false, rejection: { code: 'has_handoff' } });
    const alone = [first, turn('c', 0), handoff('c', 1, 'policy_topic', 'agent')];
    expect(checkReview(alone, kept, sue)).toEqual({ ok: true, as: 'supervisor' });
    expect(checkReview(alone, kept, ana)).toMatchObject({ ok: false, rejection: { code: 'forbidden' } });
  });
});

describe('verdicts, the sample and the metrics from logs', () => {
  const logs: StoredEvent[][] = [];
  for (let i = 0; i < 12; i += 1) {
    const c = `conv_${String(i).padStart(2, '0')}`;
    logs.push(i < 5 ? [said(c, i), turn(c, i), handoff(c, i + 1, i < 3 ? 'customer_request' : 'safety')] : [said(c, i), turn(c, i)]);
  }

  it("a supervisor's latest verdict counts over an owner's", () => {
    const log = [...logs[0]!];
    const h = log[2]!.seq;
    log.push(reviewed('conv_00', 30, { subject: 'handoff', handoff: h, as: 'owner', needed: true, timing: 'on_time' }));
    log.push(reviewed('conv_00', 31, { subject: 'handoff', handoff: h, as: 'supervisor', needed: false, timing: null }));
    log.push(reviewed('conv_00', 32, { subject: 'handoff', handoff: h, as: 'owner', needed: true, timing: 'on_time' }));
    const unit = reviewUnitsOf(log, window)[0]!;
    expect(verdictFor(unit, reviewsOf(log))).toMatchObject({ as: 'supervisor', needed: false });
  });

  it('samples each stratum in the seed’s order, the same for the same seed and for logs in another order', () => {
    const a = reviewSample(logs, window, { seed: 3, perStratum: 2 });
    expect(a.strata.map((s) => [s.stratum, s.population, s.units.length])).toEqual([
      ['handoff:customer_request:queue_billing', 3, 2],
      ['handoff:safety:queue_billing', 2, 2],
      ['kept', 7, 2],
    ]);
    expect(reviewSample([...logs].reverse(), window, { seed: 3, perStratum: 2 })).toEqual(a);
    const firsts = new Set(
      Array.from({ length: 10 }, (_, seed) => reviewSample(logs, window, { seed, perStratum: 1 }).strata[2]!.units[0]!.conversationId),
    );
    expect(firsts.size).toBeGreaterThan(2);
  });

  it('weights verdicts by their stratum’s population, counting only units in the window', () => {
    const withVerdicts = logs.map((log, i) =>
      i === 0
        ? [
            ...log,
            reviewed('conv_00', 40, {
              subject: 'handoff',
              handoff: log[2]!.seq,
              as: 'owner',
              needed: false,
              timing: null,
              packetEnough: true,
            }),
          ]
        : i === 5
          ? [...log, reviewed('conv_05', 40, { subject: 'kept', as: 'supervisor', needed: true, dueAt: log[0]!.seq, reason: 'safety' })]
          : log,
    );
    const m = reviewMetrics(withVerdicts, window, { resamples: 50 });
    expect(m.weighting.strata.map((s) => [s.stratum, s.population, s.reviewed, s.weight])).toEqual([
      ['handoff:customer_request:queue_billing', 3, 1, 3],
      ['handoff:safety:queue_billing', 2, 0, null],
      ['kept', 7, 1, 7],
    ]);
    // Needed hand-offs 0 of 3 (the safety stratum has no verdict); missed 7.
    expect(m.overall.precision).toMatchObject({ value: 0, n: 1 });
    expect(m.overall.recall).toMatchObject({ value: 0, n: 1 });
    expect(m.byReason['safety']!.recall).toMatchObject({ value: 0, n: 1 });
    expect(m.weighting).toMatchObject({ population: 12, coveredPopulation: 10 });
  });
});
