import { describe, expect, it } from 'vitest';
import { mixedScenario } from './sim-scenario.js';
import { simulateStore } from './simulate-store.js';

// The production router's tables (RoutingStore on an in-memory SQLite) under the mixed scenario on
// a virtual clock: 10 000 conversations span Dublin's DST change and the bank holiday.
describe('the queue simulator over the router’s durable tables', { timeout: 120_000 }, () => {
  for (const load of [0.8, 0.95]) {
    it(`keeps capacity, fills every slot and resolves every offer exactly once (load ${load})`, async () => {
      const r = await simulateStore(mixedScenario(), { seed: 11, load, conversations: 10_000 });
      expect(r.conversations).toBe(10_000);
      expect(r.startMs).toBeLessThan(Date.parse('2026-10-25T01:00:00Z'));
      expect(r.endMs).toBeGreaterThan(Date.parse('2026-10-27T00:00:00Z'));
      // Every conversation was served once, those whose wait outlasted their queue's timeout as callbacks.
      expect(r.served).toBe(10_000);
      expect(r.movedToCallback).toBeLessThan(r.served);
      // Declines and unanswered offers happened, so re-routing was exercised.
      expect(r.counts.reservations).toBeGreaterThan(10_000);
      expect(r.counts).toMatchObject({
        capacityViolations: 0,
        idleSlotWhileWaiting: 0,
        reofferedAfterDecline: 0,
        offersToOffShift: 0,
        unresolvedReservations: 0,
        reservationsResolvedTwice: 0,
      });
      // Those not offered to someone at once were told the estimate baton serve tells, from these
      // tables' history, and it is close to what its Gamma model allows (a wrong holding time or a
      // history read from the wrong rows would put it far above that floor).
      const w = r.waitEstimate;
      expect(w.estimates).toBeGreaterThan(load === 0.8 ? 1_000 : 3_000);
      expect(w.median_abs_error_s).toBeLessThanOrEqual(1.25 * w.model_floor_s);
      expect(w.stated_bound_coverage).toBeGreaterThan(0.8);
    });
  }
});
