import { describe, expect, it } from 'vitest';
import type { StoredEvent } from './events.js';
import { runtimeMetrics } from './runtime-metrics.js';

/**
 * Hand-written logs: each event is the least that the metrics read. Times are minutes past 10:00
 * on one day; the window is that day.
 */
const at = (minute: number, second = 0) => new Date(Date.UTC(2026, 11, 1, 10, minute, second)).toISOString();
const window = { since: '2026-12-01T00:00:00.000Z', until: '2026-12-02T00:00:00.000Z' };
let seq = 0;
const ev = (conversationId: string, type: string, minute: number, data: Record<string, unknown>, second = 0) =>
  ({ schemaVersion: 1, id: `evt_${(seq += 1)}`, conversationId, at: at(minute, second), type, data, seq }) as unknown as StoredEvent;
const agent = { type: 'agent', id: 'agent_support' };
const queue = (id = 'queue_billing') => ({ type: 'queue', id });
const human = (id = 'staff_ana') => ({ type: 'human', id });
const turn = (c: string, m: number) =>
  ev(c, 'turn.completed', m, { agent: 'agent_support', outcome: 'reply', modelCalls: 1, tokens: 1, wallMs: 1 });
const handoff = (c: string, m: number, reason: string, q = 'queue_billing') =>
  ev(c, 'handoff.requested', m, {
    version: 2,
    state: 'HANDOFF_PENDING',
    owner: queue(q),
    from: { state: 'AGENT_ACTIVE', owner: agent },
    route: 'queue',
    reason,
    summary: null,
  });
const queued = (c: string, m: number, q = 'queue_billing') =>
  ev(c, 'conversation.queued', m, {
    version: 3,
    state: 'QUEUED',
    owner: queue(q),
    from: { state: 'HANDOFF_PENDING', owner: queue(q) },
    queue: q,
  });
const claimed = (c: string, m: number) =>
  ev(c, 'conversation.claimed', m, {
    version: 4,
    state: 'HUMAN_ACTIVE',
    owner: human(),
    from: { state: 'QUEUED', owner: queue() },
    staff: 'staff_ana',
  });
const humanSays = (c: string, m: number, text: string, second = 0) =>
  ev(c, 'message.sent', m, { message: { id: `msg_${seq}`, sender: human(), text } }, second);
const handedBack = (c: string, m: number) =>
  ev(c, 'conversation.handed_back', m, {
    version: 5,
    state: 'AGENT_ACTIVE',
    owner: agent,
    from: { state: 'HUMAN_ACTIVE', owner: human() },
    staff: 'staff_ana',
    agent: 'agent_support',
    notes: null,
    constraints: [],
  });
const closed = (c: string, m: number) =>
  ev(c, 'conversation.closed', m, {
    version: 6,
    state: 'CLOSED',
    owner: { type: 'none' },
    from: { state: 'HUMAN_ACTIVE', owner: human() },
    by: human(),
    reason: 'resolved',
  });
const packet = (c: string, m: number) =>
  ev(c, 'packet.built', m, {
    packet: {
      customer: { id: 'cus_1', verified: true },
      intent: 'refund a duplicate',
      facts: [{ source: 'list_charges', field: 'amount', value: '89.00' }],
    },
  });

describe('runtime metrics from hand-written logs', () => {
  it('counts a hand-off answered by a human, one never answered, one handed over twice, a suppressed reply and a hand-back', () => {
    const answered = [
      turn('a', 0),
      handoff('a', 1, 'value_threshold'),
      packet('a', 1),
      queued('a', 1),
      claimed('a', 3),
      humanSays('a', 4, 'Hi, I can see the charge of 89.00.'),
      humanSays('a', 5, 'What is the amount you were charged?'),
      humanSays('a', 6, 'Which flight did you take?'),
      closed('a', 9),
    ];
    const never = [turn('b', 0), handoff('b', 2, 'customer_request'), queued('b', 2)];
    const twice = [
      turn('c', 0),
      handoff('c', 1, 'customer_request'),
      queued('c', 1),
      claimed('c', 2),
      humanSays('c', 2, 'Hello!', 30),
      handedBack('c', 5),
      turn('c', 6),
      ev('c', 'message.suppressed', 6, { sender: agent, text: 'late', speaker: 'human:staff_ana', state: 'HUMAN_ACTIVE' }),
      handoff('c', 7, 'policy_topic', 'queue_legal'),
      queued('c', 7, 'queue_legal'),
    ];
    const kept = [turn('d', 0), turn('d', 1)];
    const m = runtimeMetrics([answered, never, twice, kept], window);

    expect(m.conversationsServed).toBe(4);
    expect(m.handoffs).toBe(4);
    expect(m.handoffRateByReason).toEqual({
      customer_request: { count: 2, of: 4, rate: 0.5, handoffs: 2 },
      policy_topic: { count: 1, of: 4, rate: 0.25, handoffs: 1 },
      value_threshold: { count: 1, of: 4, rate: 0.25, handoffs: 1 },
    });
    // a: 3 minutes to the first human message; c: 1 min 30 s; b and c's second: not answered.
    expect(m.timeToHumanMs).toEqual({ p50: 90_000, p95: 180_000, answered: 2, unanswered: 2 });
    // Two of a's messages are questions; the amount one asks what the packet already says.
    expect(m.reAsk).toEqual({ count: 1, of: 2, rate: 0.5 });
    // Only a's hand-off ended in a close with no hand-off after it.
    expect(m.resolutionAfterHandoff).toEqual({ count: 1, of: 4, rate: 0.25 });
    // c went to a human twice; a, b and c were handed off.
    expect(m.bounce).toEqual({ count: 1, of: 3, rate: 1 / 3 });
    expect(m.suppressedMessages).toBe(1);

    expect(Object.keys(m.byQueue).sort()).toEqual(['queue_billing', 'queue_legal']);
    expect(m.byQueue['queue_legal']!.handoffs).toBe(1);
    expect(m.byQueue['queue_billing']!.timeToHumanMs.answered).toBe(2);
    expect(m.byAgent['agent_support']!.handoffs).toBe(4);
  });

  it('never divides by nothing, and no rate passes 100%', () => {
    const m = runtimeMetrics([], window);
    expect(m.conversationsServed).toBe(0);
    expect(m.reAsk.rate).toBeNull();
    expect(m.bounce.rate).toBeNull();
    expect(m.timeToHumanMs).toEqual({ p50: null, p95: null, answered: 0, unanswered: 0 });
    // A conversation handed off five times in one window still counts once as served.
    const c = [
      turn('e', 0),
      ...[1, 2, 3, 4, 5].flatMap((i) => [
        handoff('e', i * 2, 'customer_request'),
        queued('e', i * 2),
        claimed('e', i * 2),
        handedBack('e', i * 2 + 1),
      ]),
    ];
    const five = runtimeMetrics([c], window);
    expect(five.handoffRateByReason['customer_request']).toEqual({ count: 1, of: 1, rate: 1, handoffs: 5 });
    expect(five.bounce.rate).toBe(1);
    expect(five.resolutionAfterHandoff.rate).toBe(0);
  });

  it('counts a hand-off in the window its request falls in, and what answers it even after the window', () => {
    const log = [turn('f', 0), handoff('f', 59, 'customer_request'), queued('f', 59), claimed('f', 59), humanSays('f', 59, 'Hi', 30)];
    const inside = runtimeMetrics([log], { since: at(0), until: at(59, 10) });
    expect(inside.handoffs).toBe(1);
    expect(inside.timeToHumanMs.p50).toBe(30_000);
    const after = runtimeMetrics([log], { since: at(59, 10), until: window.until });
    expect(after.handoffs).toBe(0);
    expect(after.conversationsServed).toBe(0);
  });
});
