import { describe, expect, it } from 'vitest';
import { fits, itemsThatFit, usedCapacity } from './channel-capacity.js';
import { chooseAssignee, type AssigneeCandidate } from './choose-assignee.js';
import { DEFAULT_CHANNEL_WEIGHTS as W, RoutingQueueSchema, RoutingStaffSchema } from './routing-config.js';

const person = (
  id: string,
  skills: string[],
  idleSinceMs: number,
  capacity = 2,
  presence: AssigneeCandidate['presence'] = 'available',
) => ({
  staff: RoutingStaffSchema.parse({ id, skills, capacity }),
  presence,
  idleSinceMs,
});
const chat = { skills: ['billing'], channel: 'chat' as const, excluded: new Set<string>() };
const longest = { weights: W, order: 'longest_idle' as const };

describe('channel capacity', () => {
  it('counts weights (capacity 6, weight 2 → 3 items) and refuses what does not fit', () => {
    expect(itemsThatFit(6, 'callback', { chat: 1, callback: 2 })).toBe(3);
    expect(usedCapacity([{ channel: 'chat' }, { channel: 'callback' }], W)).toBe(3);
    expect(fits(3, 1, 'callback', W)).toBe(true);
    expect(fits(3, 2, 'callback', W)).toBe(false);
  });
});

describe('chooseAssignee', () => {
  it('offers the longest idle eligible person first', () => {
    const candidates = [person('staff_b', ['billing'], 200), person('staff_a', ['billing'], 100), person('staff_c', ['tech'], 0)];
    expect(chooseAssignee(chat, candidates, new Map(), longest)).toEqual({ type: 'chosen', staffId: 'staff_a' });
  });

  it('offers the most free capacity first when configured', () => {
    const candidates = [person('staff_a', ['billing'], 100, 3), person('staff_b', ['billing'], 200, 3)];
    const load = new Map([['staff_a', 2]]);
    expect(chooseAssignee(chat, candidates, load, { weights: W, order: 'most_free_capacity' })).toEqual({
      type: 'chosen',
      staffId: 'staff_b',
    });
  });

  it('packs with best fit: the fewest free units that still fit', () => {
    const candidates = [person('staff_a', ['billing'], 100, 2), person('staff_b', ['billing'], 200, 2)];
    const load = new Map([['staff_b', 1]]);
    expect(chooseAssignee(chat, candidates, load, { weights: W, order: 'best_fit' })).toEqual({ type: 'chosen', staffId: 'staff_b' });
    expect(chooseAssignee(chat, candidates, load, longest)).toEqual({ type: 'chosen', staffId: 'staff_a' });
  });

  it('never offers to someone excluded, unavailable, unskilled or full, and says why', () => {
    const a = person('staff_a', ['billing'], 0);
    expect(chooseAssignee({ ...chat, excluded: new Set(['staff_a']) }, [a], new Map(), longest)).toEqual({
      type: 'none',
      reason: 'excluded',
    });
    expect(chooseAssignee(chat, [person('staff_a', ['billing'], 0, 2, 'away')], new Map(), longest)).toEqual({
      type: 'none',
      reason: 'not_available',
    });
    expect(chooseAssignee(chat, [person('staff_a', ['tech'], 0)], new Map(), longest)).toEqual({ type: 'none', reason: 'no_skill' });
    expect(chooseAssignee(chat, [a], new Map([['staff_a', 2]]), longest)).toEqual({ type: 'none', reason: 'no_capacity' });
    expect(chooseAssignee(chat, [], new Map(), longest)).toEqual({ type: 'none', reason: 'no_candidate' });
  });

  it('fits a callback (weight 2) only where two units are free', () => {
    const callback = { ...chat, channel: 'callback' as const };
    const candidates = [person('staff_a', ['billing'], 0, 2), person('staff_b', ['billing'], 50, 3)];
    expect(
      chooseAssignee(
        callback,
        candidates,
        new Map([
          ['staff_a', 1],
          ['staff_b', 1],
        ]),
        longest,
      ),
    ).toEqual({
      type: 'chosen',
      staffId: 'staff_b',
    });
  });
});

describe('routing configuration', () => {
  it('fills defaults and explains a bad queue', () => {
    const q = RoutingQueueSchema.parse({ id: 'queue_billing', skills: ['billing'] });
    expect(q).toMatchObject({ reservationTimeoutSeconds: 30, order: 'longest_idle', whenNoCapacity: { type: 'callback' } });
    const bad = RoutingQueueSchema.safeParse({ id: 'billing', skills: ['Billing'] });
    expect(bad.error?.issues.map((i) => i.message)).toEqual([
      'a queue id has the form queue_…',
      'a skill is a lower-case word of letters, digits, - or _ (at most 40)',
    ]);
  });
});
