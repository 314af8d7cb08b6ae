import { describe, expect, it } from 'vitest';
import { DEFAULT_CHANNEL_WEIGHTS } from '../../core/router/index.js';
import { SimLedger } from './sim-ledger.js';

const staff = [{ staff: { id: 'ana', skills: ['chat'], capacity: 2 }, shift: null }];
const created = (requestId: string, reservationId: string) =>
  ({ type: 'reservation.created', reservationId, requestId, staffId: 'ana', channel: 'chat', expiresAt: 30_000, at: 0 }) as const;

describe('SimLedger (the simulator’s independent checks)', () => {
  it('counts a reservation that overfills a person, from its own items, whatever the router thinks', () => {
    const ledger = new SimLedger(staff, DEFAULT_CHANNEL_WEIGHTS, () => true);
    for (const id of ['a', 'b', 'c']) ledger.submitted(id, ['chat'], 'chat');
    ledger.apply(created('a', 'r1'));
    ledger.apply(created('b', 'r2'));
    expect(ledger.counts.capacityViolations).toBe(0);
    ledger.apply(created('c', 'r3'));
    expect(ledger.counts.capacityViolations).toBe(1);
  });

  it('counts a free eligible slot beside a waiting conversation, and a re-offer after a decline', () => {
    const ledger = new SimLedger(staff, DEFAULT_CHANNEL_WEIGHTS, () => true);
    ledger.submitted('a', ['chat'], 'chat');
    ledger.checkIdle();
    expect(ledger.counts.idleSlotWhileWaiting).toBe(1);
    ledger.apply(created('a', 'r1'));
    ledger.checkIdle();
    expect(ledger.counts.idleSlotWhileWaiting).toBe(1);
    ledger.apply({ type: 'reservation.declined', reservationId: 'r1', requestId: 'a', staffId: 'ana', reason: 'busy', at: 1 });
    // ana declined it: her free slot is not one it may take.
    ledger.checkIdle();
    expect(ledger.counts.idleSlotWhileWaiting).toBe(1);
    ledger.apply(created('a', 'r2'));
    expect(ledger.counts.reofferedAfterDecline).toBe(1);
  });

  it('counts an offer to someone off shift', () => {
    const ledger = new SimLedger(staff, DEFAULT_CHANNEL_WEIGHTS, () => false);
    ledger.submitted('a', ['chat'], 'chat');
    ledger.apply(created('a', 'r1'));
    expect(ledger.counts.offersToOffShift).toBe(1);
  });
});
