import { describe, expect, it } from 'vitest';
import { seededRandom } from './random.js';
import { estimateReviews, type StratumInput, type Verdict } from './review-metrics.js';

const window = { since: '2026-12-01T00:00:00.000Z', until: '2026-12-02T00:00:00.000Z' };

const handoff = (needed: boolean, onTime: boolean | null, packetEnough: boolean): Verdict => ({
  handoff: true,
  needed,
  onTime: needed ? onTime : null,
  packetEnough,
  reason: null,
});
const kept = (needed: boolean, reason: string | null = null): Verdict => ({
  handoff: false,
  needed,
  onTime: null,
  packetEnough: null,
  reason,
});

const stratum = (name: string, population: number, verdicts: Verdict[], where: { reason?: string; queue?: string } = {}): StratumInput => ({
  stratum: name,
  subject: name === 'kept' ? 'kept' : 'handoff',
  reason: where.reason ?? null,
  queue: where.queue ?? null,
  population,
  verdicts,
});

describe('estimateReviews', () => {
  const strata = [
    stratum(
      'handoff:a',
      100,
      [handoff(true, true, true), handoff(true, true, true), handoff(true, false, true), handoff(false, null, false)],
      { reason: 'customer_request', queue: 'queue_billing' },
    ),
    stratum('handoff:b', 300, [handoff(false, null, true), handoff(false, null, false)], { reason: 'policy', queue: 'queue_general' }),
    stratum('kept', 600, [kept(true, 'customer_request'), kept(false), kept(false)]),
  ];

  it('gives the post-stratified figures of known populations, with the weights and sample sizes', () => {
    const m = estimateReviews(strata, window, { resamples: 200 });
    // Needed hand-offs: 100·3/4 = 75 of 400; missed: 600·1/3 = 200; unneeded: 100·1/4 + 300 = 325; rightly kept 400.
    expect(m.overall.precision).toMatchObject({ value: 75 / 400, n: 6 });
    expect(m.overall.recall).toMatchObject({ value: 75 / 275, n: 4 });
    expect(m.overall.overEscalation).toMatchObject({ value: 325 / 725, n: 5 });
    expect(m.overall.timing).toMatchObject({ value: 2 / 3, n: 3 });
    expect(m.overall.packetEnough).toMatchObject({ value: (75 + 150) / 400, n: 6 });
    expect(m.overall.reviewed).toBe(9);
    expect(m.weighting.strata.map((s) => [s.stratum, s.population, s.reviewed, s.weight])).toEqual([
      ['handoff:a', 100, 4, 25],
      ['handoff:b', 300, 2, 150],
      ['kept', 600, 3, 200],
    ]);
    expect(m.weighting).toMatchObject({ method: 'post-stratification', population: 1000, coveredPopulation: 1000 });
    for (const figure of [m.overall.precision, m.overall.recall, m.overall.overEscalation, m.overall.packetEnough]) {
      expect(figure!.ci![0]).toBeLessThanOrEqual(figure!.value!);
      expect(figure!.ci![1]).toBeGreaterThanOrEqual(figure!.value!);
    }
  });

  it('per reason counts a kept conversation only as a miss of the reason its reviewer named; per queue only hand-offs', () => {
    const m = estimateReviews(strata, window, { resamples: 100 });
    // customer_request: 75 needed hand-offs, 200 missed.
    expect(m.byReason['customer_request']!.recall).toMatchObject({ value: 75 / 275, n: 4 });
    expect(m.byReason['customer_request']!.precision).toMatchObject({ value: 3 / 4, n: 4 });
    // policy: no needed hand-off and no miss named for it.
    expect(m.byReason['policy']!.recall).toEqual({ value: null, ci: null, n: 0 });
    expect(m.byReason['policy']!.precision).toMatchObject({ value: 0, n: 2 });
    expect(m.byReason['policy']!.overEscalation).toBeNull();
    expect([m.byReason['customer_request']!.reviewed, m.byReason['policy']!.reviewed]).toEqual([5, 2]);
    expect(m.byQueue['queue_billing']!.precision).toMatchObject({ value: 3 / 4 });
    expect(m.byQueue['queue_billing']!.recall).toBeNull();
    expect(m.byQueue['queue_general']!.packetEnough).toMatchObject({ value: 1 / 2, n: 2 });
  });

  it('lists a reason the agent never handed off for, when a reviewer named it for a miss', () => {
    const m = estimateReviews([strata[0]!, stratum('kept', 600, [kept(true, 'safety'), kept(false)])], window, { resamples: 50 });
    expect(Object.keys(m.byReason)).toEqual(['customer_request', 'safety']);
    expect(m.byReason['safety']).toMatchObject({ reviewed: 1, recall: { value: 0, n: 1 }, precision: { value: null, n: 0 } });
  });

  it('leaves recall and over-escalation undefined while kept conversations exist but none is reviewed', () => {
    const m = estimateReviews([strata[0]!, stratum('kept', 600, [])], window, { resamples: 50 });
    expect(m.overall.recall).toBeNull();
    expect(m.overall.overEscalation).toBeNull();
    expect(m.overall.precision).toMatchObject({ value: 3 / 4 });
    expect(m.weighting).toMatchObject({ population: 700, coveredPopulation: 100 });
    expect(m.weighting.strata[1]).toMatchObject({ reviewed: 0, weight: null });
  });

  it('is the same for the same seed, and another seed moves only the interval', () => {
    const a = estimateReviews(strata, window, { seed: 7, resamples: 300 });
    expect(estimateReviews(strata, window, { seed: 7, resamples: 300 })).toEqual(a);
    const b = estimateReviews(strata, window, { seed: 8, resamples: 300 });
    expect(b.overall.precision!.value).toBe(a.overall.precision!.value);
    const intervals = (x: typeof a) => Object.values(x.overall).map((f) => (typeof f === 'object' && f !== null ? f.ci : null));
    expect(intervals(b)).not.toEqual(intervals(a));
  });

  it('corrects a deliberately unbalanced sample: the large stratum counts for its size, not its verdicts', () => {
    // 900 hand-offs of which 90% were needed, 100 of which 10% were; the sample takes 10 and 90.
    const big = stratum('handoff:big', 900, [...Array.from({ length: 9 }, () => handoff(true, true, true)), handoff(false, null, true)]);
    const small = stratum('handoff:small', 100, [
      ...Array.from({ length: 9 }, () => handoff(true, true, true)),
      ...Array.from({ length: 81 }, () => handoff(false, null, true)),
    ]);
    const m = estimateReviews([big, small], window, { resamples: 200 });
    const naive = (9 + 9) / 100;
    const truth = 0.9 * 0.9 + 0.1 * 0.1;
    expect(m.overall.precision!.value).toBeCloseTo(truth, 12);
    expect(Math.abs(m.overall.precision!.value! - naive)).toBeGreaterThan(0.5);
    expect(m.overall.precision!.ci![0]).toBeLessThan(truth);
    expect(m.overall.precision!.ci![1]).toBeGreaterThan(truth);
  });

  it('its 95% intervals contain the truth at about the nominal rate over many seeded samples', () => {
    // A finite population of three strata with known shares; each round samples verdicts without
    // replacement from each stratum and checks whether the interval holds the population's figure.
    const sizes = [4000, 1500, 6000];
    const neededShare = [0.7, 0.25, 0.08];
    const draws = [40, 40, 60];
    const population = sizes.map((size, h) =>
      Array.from({ length: size }, (_, i) => (h < 2 ? handoff(i < size * neededShare[h]!, true, true) : kept(i < size * neededShare[h]!))),
    );
    const needed = (h: number) => sizes[h]! * neededShare[h]!;
    const truth = {
      precision: (needed(0) + needed(1)) / (sizes[0]! + sizes[1]!),
      recall: (needed(0) + needed(1)) / (needed(0) + needed(1) + needed(2)),
    };
    const rounds = 200;
    let covered = { precision: 0, recall: 0 };
    for (let round = 0; round < rounds; round += 1) {
      const random = seededRandom(1000 + round);
      const strata = population.map((units, h) => {
        const pool = [...units];
        const drawn: Verdict[] = [];
        for (let i = 0; i < draws[h]!; i += 1) drawn.push(pool.splice(Math.floor(random.next() * pool.length), 1)[0]!);
        return stratum(h === 2 ? 'kept' : `handoff:${h}`, sizes[h]!, drawn);
      });
      const m = estimateReviews(strata, window, { seed: round + 1, resamples: 400 });
      const inside = (e: { ci: [number, number] | null } | null, t: number) => (e?.ci ? e.ci[0] <= t && t <= e.ci[1] : false);
      covered = {
        precision: covered.precision + (inside(m.overall.precision, truth.precision) ? 1 : 0),
        recall: covered.recall + (inside(m.overall.recall, truth.recall) ? 1 : 0),
      };
    }
    expect(covered.precision / rounds).toBeGreaterThan(0.88);
    expect(covered.precision / rounds).toBeLessThan(0.995);
    expect(covered.recall / rounds).toBeGreaterThan(0.85);
    expect(covered.recall / rounds).toBeLessThan(0.995);
  });
});
