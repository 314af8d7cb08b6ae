import { describe, expect, it } from 'vitest';
import { PriorityInputSchema, SAFETY_PRIORITY, routingPriority } from './routing-priority.js';

const p = (input: object) => routingPriority(PriorityInputSchema.parse(input));

describe('routingPriority', () => {
  it('adds tier, value at stake and channel deadline points (hand-computed)', () => {
    expect(p({})).toBe(10); // standard chat
    expect(p({ channel: 'callback' })).toBe(0);
    expect(p({ tier: 'gold', valueAtStake: 1000 })).toBe(20 + 20 + 10);
    expect(p({ tier: 'platinum', valueAtStake: 1e9 })).toBe(40 + 30 + 10);
    expect(p({ valueAtStake: 5 })).toBe(10);
  });

  it('puts safety above any other request', () => {
    expect(p({ safety: true, channel: 'callback' })).toBe(SAFETY_PRIORITY);
    expect(SAFETY_PRIORITY).toBeGreaterThan(p({ tier: 'platinum', valueAtStake: 1e9 }));
  });
});
