import { describe, expect, it } from 'vitest';
import { simQueue } from './sim-queue.js';

// The acceptance bounds of issue 14, asserted as stated, on three seeds at each load. The mixed
// segment has its full 10 000 conversations (it is cheap); the stationary segment its default
// 200 000, which the Erlang-C check needs at high load (see docs/router.md).
const SEEDS = [1, 2, 3];
const run = (seed: number, load: number) => simQueue({ seed, load, conversations: 10_000, stationaryConversations: 200_000, servers: 4 });

describe('baton sim queue: acceptance', () => {
  for (const load of [0.6, 0.8, 0.95]) {
    it(`meets every bound at load ${load}`, { timeout: 600_000 }, () => {
      for (const seed of SEEDS) {
        const r = run(seed, load);
        const at = `seed ${seed}, load ${load}`;
        expect(r.capacity_violations, at).toBe(0);
        expect(r.idle_slot_while_waiting, at).toBe(0);
        expect(r.promises_without_capacity, at).toBe(0);
        expect(r.segments.mixed.callbacks_outside_hours, at).toBe(0);
        expect(r.segments.mixed.reoffered_after_decline, at).toBe(0);
        expect(r.segments.mixed.spans_dublin_dst_change && r.segments.mixed.spans_dublin_holiday, at).toBe(true);
        expect(r.promise_kept_rate, at).toBeGreaterThanOrEqual(0.99);
        expect(r.wait_estimate.median_abs_error_s, at).toBeLessThanOrEqual(Math.max(30, 0.25 * r.wait_estimate.median_actual_wait_s));
        expect(r.wait_estimate.stated_bound_coverage, at).toBeGreaterThanOrEqual(0.85);
        expect(r.wait_estimate.stated_bound_coverage, at).toBeLessThanOrEqual(0.95);
        expect(r.erlang_c.relative_error, at).toBeLessThanOrEqual(0.1);
      }
    });
  }

  it('gives the same JSON for the same seed', () => {
    const small = () => simQueue({ seed: 7, load: 0.8, conversations: 1_000, stationaryConversations: 5_000, servers: 4 });
    expect(JSON.stringify(small())).toBe(JSON.stringify(small()));
  });
});
