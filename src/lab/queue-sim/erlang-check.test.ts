import { describe, expect, it } from 'vitest';
import { erlangC } from '../../core/router/index.js';
import { batchMeansInterval, erlangCheck } from './erlang-check.js';
import type { SimConversation } from './simulate-segment.js';

const conversation = (arrivalMs: number, waitMs: number, serviceMs: number, measured = true): SimConversation => ({
  arrivalMs,
  channel: 'chat',
  safety: false,
  measured,
  promise: { type: 'join', basis: 'reservation' },
  promisedWithinMs: 60_000,
  joinedAtMs: arrivalMs + waitMs,
  movedToCallback: false,
  serviceMs,
});

describe('erlangCheck', () => {
  it('predicts at the rates the run realised, and says how far they are from the nominal ones', () => {
    // 2 001 measured arrivals one per second (the nominal asked for one per 1.25 s), services of 1.5 s, two servers.
    const cs = [conversation(-5_000, 0, 9_000, false), ...Array.from({ length: 2001 }, (_, i) => conversation(i * 1000, 400, 1500))];
    const r = erlangCheck({ conversations: cs, servers: 2, nominalArrivalPerMs: 1 / 1250, nominalServiceMs: 1500 });
    const realised = erlangC({ arrivalRate: 1 / 1000, serviceRate: 1 / 1500, servers: 2 }).meanWait;
    const nominal = erlangC({ arrivalRate: 1 / 1250, serviceRate: 1 / 1500, servers: 2 }).meanWait;
    expect(r.realised.arrivals_per_hour).toBeCloseTo(3600, 6);
    expect(r.realised.mean_service_s).toBe(1.5);
    expect(r.realised.utilisation).toBeCloseTo(0.75, 6);
    expect(r.predicted_mean_wait_s).toBeCloseTo(realised / 1000, 2);
    expect(r.nominal.predicted_mean_wait_s).toBeCloseTo(nominal / 1000, 2);
    expect(r.simulated_mean_wait_s).toBe(0.4);
    expect(r.relative_error).toBeCloseTo(Math.abs(400 - realised) / realised, 4);
    // 25% more arrivals than asked, over 2 000 of them: (1.25 − 1) · √2000 standard errors.
    expect(r.realised.arrival_rate_z).toBeCloseTo(0.25 * Math.sqrt(2000), 1);
    expect(r.realised.service_mean_z).toBe(0);
  });

  it('builds a 95% interval from the means of 20 consecutive batches', () => {
    // Batches alternate between mean waits of 1 s and 3 s: batch sd = √(20/19), half-width t₁₉ · sd / √20.
    const cs = Array.from({ length: 200 }, (_, i) => conversation(i * 1000, Math.floor(i / 10) % 2 === 0 ? 1000 : 3000, 1000));
    const { meanMs, halfMs, batches } = batchMeansInterval(cs);
    expect(batches).toBe(20);
    expect(meanMs).toBe(2000);
    expect(halfMs).toBeCloseTo((2.093 * 1000 * Math.sqrt(20 / 19)) / Math.sqrt(20), 6);
    // Unmeasured (warm-up) and unserved conversations are left out; too few for batches: no interval.
    expect(batchMeansInterval([conversation(0, 5, 5, false), { ...conversation(1, 5, 5), joinedAtMs: null }]).halfMs).toBe(Infinity);
  });
});
