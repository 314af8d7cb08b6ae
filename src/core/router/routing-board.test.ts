import { describe, expect, it } from 'vitest';
import { DEFAULT_CHANNEL_WEIGHTS, RoutingQueueSchema, type RoutingStaff } from './routing-config.js';
import { RoutingBoard } from './routing-board.js';
import type { RouterRequest, RoutingEvent } from './routing-request.js';

const queues = [
  RoutingQueueSchema.parse({ id: 'queue_billing', skills: ['billing'], reservationTimeoutSeconds: 30 }),
  RoutingQueueSchema.parse({ id: 'queue_general', skills: [] }),
];
const staff: RoutingStaff[] = [
  { id: 'ana', skills: ['billing'], capacity: 2 },
  { id: 'ben', skills: ['billing'], capacity: 2 },
  { id: 'cy', skills: [], capacity: 1 },
];
const request = (id: string, over: Partial<RouterRequest> = {}): RouterRequest => ({
  id,
  skills: [],
  channel: 'chat',
  priority: 10,
  safety: false,
  targets: [
    { type: 'queue', queue: 'queue_billing', timeoutSeconds: 600 },
    { type: 'queue', queue: 'queue_general', timeoutSeconds: 600 },
    { type: 'callback' },
  ],
  ...over,
});
const board = (on: string[] = ['ana', 'ben']) => {
  const b = new RoutingBoard({ queues, staff, weights: DEFAULT_CHANNEL_WEIGHTS });
  on.forEach((id, i) => b.setPresence(id, 'available', i));
  return b;
};
const reserved = (events: RoutingEvent[]) =>
  events.flatMap((e) => (e.type === 'reservation.created' ? [[e.requestId, e.staffId, e.reservationId]] : []));

describe('RoutingBoard', () => {
  it('reserves the longest idle person at once, taking capacity in the same step', () => {
    const b = board();
    expect(reserved(b.submit(request('r1'), 10))).toEqual([['r1', 'ana', 'res_1']]);
    // ana holds 1 of 2 units; ben has been idle longer now, so he gets the next.
    expect(reserved(b.submit(request('r2'), 11))).toEqual([['r2', 'ben', 'res_2']]);
    expect(reserved(b.submit(request('r3'), 12))).toEqual([['r3', 'ana', 'res_3']]);
    expect(reserved(b.submit(request('r4'), 13))).toEqual([['r4', 'ben', 'res_4']]);
    // Four units, four items: the fifth waits; no slot is filled twice.
    expect(reserved(b.submit(request('r5'), 14))).toEqual([]);
    expect(b.waitingCount()).toBe(1);
    expect(b.positionOf('r5')).toEqual({ ahead: 0, unitsAhead: 0 });
  });

  it('never re-offers to someone who declined or let the offer time out, and re-routes at once', () => {
    const b = board();
    const [first] = reserved(b.submit(request('r1'), 10));
    expect(first?.[1]).toBe('ana');
    const declined = b.decline(first?.[2] ?? '', 'busy', 20);
    expect(declined[0]).toMatchObject({ type: 'reservation.declined', staffId: 'ana', reason: 'busy' });
    const [second] = reserved(declined);
    expect(second?.[1]).toBe('ben');
    // ben lets it time out after 30 s: nobody eligible is left in billing, so it waits.
    const expired = b.expire(20 + 30_000);
    expect(expired.map((e) => e.type)).toEqual(['reservation.timed_out']);
    expect(b.waitingCount()).toBe(1);
  });

  it('moves to the next target when a target times out, then to the callback', () => {
    const b = board(['cy']);
    expect(reserved(b.submit(request('r1'), 0))).toEqual([]);
    expect(b.nextDeadline()).toBe(600_000);
    const moved = b.expire(600_000);
    expect(moved[0]).toMatchObject({ type: 'request.target_moved', to: { type: 'queue', queue: 'queue_general' } });
    expect(reserved(moved)).toEqual([['r1', 'cy', 'res_1']]);

    const c = board([]);
    c.submit(request('r2'), 0);
    c.expire(600_000);
    const last = c.expire(1_200_000);
    expect(last.map((e) => e.type)).toEqual(['request.target_moved', 'request.left']);
    expect(c.waitingCount()).toBe(0);
  });

  it('serves higher priority first and fills a slot the moment it frees', () => {
    const b = board(['cy']);
    const general = { targets: [{ type: 'queue' as const, queue: 'queue_general', timeoutSeconds: 900 }] };
    const [r0] = reserved(b.submit(request('r0', general), 0));
    b.submit(request('low', general), 1);
    b.submit(request('high', { ...general, priority: 50 }), 2);
    expect(b.positionOf('low')).toEqual({ ahead: 1, unitsAhead: 1 });
    expect(b.positionFor('queue_general', 50)).toEqual({ ahead: 1, unitsAhead: 1 });
    expect(b.positionFor('queue_general', 10)).toEqual({ ahead: 2, unitsAhead: 2 });
    b.accept(r0?.[2] ?? '', 3);
    expect(reserved(b.complete('r0', 100))).toEqual([['high', 'cy', 'res_2']]);
  });

  it('waits a callback (weight 2) for two free units and serves chats meanwhile', () => {
    const b = board(['ana']);
    const general = { targets: [{ type: 'queue' as const, queue: 'queue_billing', timeoutSeconds: 900 }] };
    const [r0] = reserved(b.submit(request('r0', general), 0));
    expect(reserved(b.submit(request('cb', { ...general, channel: 'callback', priority: 90 }), 1))).toEqual([]);
    expect(reserved(b.submit(request('chat', general), 2))).toEqual([['chat', 'ana', 'res_2']]);
    b.accept(r0?.[2] ?? '', 3);
    expect(reserved(b.complete('r0', 50))).toEqual([]);
    b.accept('res_2', 51);
    expect(reserved(b.complete('chat', 60))).toEqual([['cb', 'ana', 'res_3']]);
  });

  it('offers nothing to someone away, and dispatches when they come back', () => {
    const b = board([]);
    b.submit(request('r1'), 0);
    b.setPresence('ana', 'away', 1);
    expect(b.waitingCount()).toBe(1);
    expect(reserved(b.setPresence('ana', 'available', 2))).toEqual([['r1', 'ana', 'res_1']]);
  });
});
