import { describe, expect, it } from 'vitest';
import type { StoredEvent } from './events.js';
import { waitMetrics } from './wait-metrics.js';

/** Hand-written logs: the least each event needs. Times are minutes past 10:00 on one day. */
const at = (minute: number) => new Date(Date.UTC(2026, 11, 1, 10, minute)).toISOString();
const window = { since: '2026-12-01T00:00:00.000Z', until: '2026-12-02T00:00:00.000Z' };
let seq = 0;
const ev = (c: string, type: string, minute: number, data: Record<string, unknown>) =>
  ({ schemaVersion: 1, id: `evt_${(seq += 1)}`, conversationId: c, at: at(minute), type, data, seq }) as unknown as StoredEvent;
const queueOwner = { type: 'queue', id: 'queue_billing' };
const min = 60_000;
const promised = (c: string, m: number, promise: string, estimate: { point: number; bound: number; promise: number } | null = null) =>
  ev(c, 'routing.noted', m, {
    kind: 'promised',
    request: `rq_${c}`,
    promise,
    estimate: estimate && { pointMs: estimate.point * min, boundMs: estimate.bound * min, promiseMs: estimate.promise * min },
    by: null,
  });
const queued = (c: string, m: number) =>
  ev(c, 'conversation.queued', m, {
    version: 3,
    state: 'QUEUED',
    owner: queueOwner,
    from: { state: 'HANDOFF_PENDING', owner: queueOwner },
    queue: 'queue_billing',
  });
const claimed = (c: string, m: number) =>
  ev(c, 'conversation.claimed', m, {
    version: 4,
    state: 'HUMAN_ACTIVE',
    owner: { type: 'human', id: 'staff_ana' },
    from: { state: 'QUEUED', owner: queueOwner },
    staff: 'staff_ana',
  });
const closed = (c: string, m: number) =>
  ev(c, 'conversation.closed', m, {
    version: 4,
    state: 'CLOSED',
    owner: { type: 'none' },
    from: { state: 'QUEUED', owner: queueOwner },
    by: { type: 'customer' },
    reason: 'left',
  });
const alert = (c: string, m: number) =>
  ev(c, 'routing.noted', m, { kind: 'age_alert', request: `rq_${c}`, queue: 'queue_billing', waitedMs: 11 * min });

describe('wait metrics from the log', () => {
  it('scores each estimate against the wait that followed: error, bound coverage, promise kept', () => {
    const logs = [
      // Told about 4 (within 6, promised 9); joined after 5: error 1, within bound, kept.
      [promised('a', 0, 'join_estimate', { point: 4, bound: 6, promise: 9 }), queued('a', 0), claimed('a', 5)],
      // Told about 2 (within 3, promised 5); joined after 8: error 6, outside the bound, promise broken.
      [promised('b', 0, 'join_estimate', { point: 2, bound: 3, promise: 5 }), queued('b', 0), claimed('b', 8)],
      // Told joining now; joined after 1.
      [promised('c', 0, 'join_now'), queued('c', 0), claimed('c', 1)],
      // Told a callback: no estimate to score.
      [promised('d', 0, 'callback'), queued('d', 0)],
    ];
    const m = waitMetrics(logs, window, Date.parse(at(30)));
    expect(m.estimated).toBe(2);
    expect(m.absoluteErrorMs).toEqual({ p50: 1 * min, p90: 6 * min });
    expect(m.boundCoverage).toEqual({ count: 1, of: 2, rate: 0.5 });
    expect(m.promiseKept).toEqual({ count: 1, of: 2, rate: 0.5 });
    expect(m.joinNow).toEqual({ count: 1, p50Ms: 1 * min });
    // d still waits, since minute 0.
    expect(m.oldestWaitingMs).toEqual({ queue_billing: 30 * min });
  });

  it('a wait still open counts against its promise only once it has outlasted it; one closed early is left out', () => {
    const open = [promised('e', 0, 'join_estimate', { point: 2, bound: 3, promise: 5 }), queued('e', 0)];
    const early = waitMetrics([open], window, Date.parse(at(4)));
    expect(early.estimated).toBe(0);
    expect(early.promiseKept).toEqual({ count: 0, of: 0, rate: null });
    const late = waitMetrics([open], window, Date.parse(at(6)));
    expect(late.promiseKept).toEqual({ count: 0, of: 1, rate: 0 });
    // The customer left at minute 3, inside the promise: no outcome to score.
    const left = waitMetrics([[...open, closed('e', 3)]], window, Date.parse(at(30)));
    expect(left.estimated).toBe(0);
    expect(left.oldestWaitingMs).toEqual({});
    // Left at minute 7, after the promise had passed: a broken promise.
    const gaveUp = waitMetrics([[...open, closed('e', 7)]], window, Date.parse(at(30)));
    expect(gaveUp.promiseKept).toEqual({ count: 0, of: 1, rate: 0 });
  });

  it('counts queue-age alerts in the window, by queue', () => {
    const m = waitMetrics(
      [
        [queued('f', 0), alert('f', 11)],
        [queued('g', 0), alert('g', 12), claimed('g', 13)],
      ],
      window,
      Date.parse(at(20)),
    );
    expect(m.ageAlerts).toEqual({ queue_billing: 2 });
    expect(m.oldestWaitingMs).toEqual({ queue_billing: 20 * min });
    const outside = waitMetrics([[queued('f', 0), alert('f', 11)]], { since: at(12), until: at(60) }, Date.parse(at(20)));
    expect(outside.ageAlerts).toEqual({});
  });
});
