import { describe, expect, it } from 'vitest';
import { difference, fitTrend, noiseFactor, single, type RatePoint } from './trend.js';

/** A series of rates over `den` episodes each, the numerators given. */
const series = (nums: readonly number[], den: number): RatePoint[] => nums.map((num, i) => ({ x: i + 1, num, den }));

describe('fitTrend', () => {
  it('recovers the slope of a straight series exactly, with binomial noise (φ = 1) and its rise over the window', () => {
    // 10%, 12%, … 28% of 1,000 episodes: a straight line, so every second difference is 0.
    const t = fitTrend(single(series([100, 120, 140, 160, 180, 200, 220, 240, 260, 280], 1000)), 10);
    expect(t?.slope).toBeCloseTo(0.02, 12);
    expect(t?.noise).toBe(1);
    expect(t?.rise).toBeCloseTo(0.18, 12);
    expect(t?.fitted_first).toBeCloseTo(0.1, 12);
    expect(t?.fitted_last).toBeCloseTo(0.28, 12);
    // se² = p(1−p)/den / Σ(x − x̄)², p pooled (19%).
    expect(t?.se).toBeCloseTo(Math.sqrt((0.19 * 0.81) / 1000 / 82.5), 12);
    expect(t?.z).toBeCloseTo((t?.slope as number) / (t?.se as number), 12);
  });

  it('fits only the last `windowSteps` steps, and needs three', () => {
    const t = fitTrend(single(series([500, 500, 500, 100, 200, 300], 1000)), 3);
    expect([t?.from, t?.to]).toEqual([4, 6]);
    expect(t?.slope).toBeCloseTo(0.1, 12);
    expect(fitTrend(single(series([1, 2], 10)), 10)).toBeNull();
  });

  it('leaves out steps with no base, and finds no trend in a series that never moves', () => {
    const t = fitTrend(single([...series([0, 0, 0], 50), { x: 4, num: 0, den: 0 }, { x: 5, num: 0, den: 50 }]), 10);
    expect(t).toMatchObject({ slope: 0, z: 0, from: 1, to: 5 });
  });

  it('weighs a step by its episodes: a big step pulls the line, a tiny one hardly', () => {
    const points = [
      { x: 1, num: 10, den: 100 },
      { x: 2, num: 10, den: 100 },
      { x: 3, num: 9, den: 10 },
      { x: 4, num: 10, den: 100 },
    ];
    expect(Math.abs(fitTrend(single(points), 4)?.slope as number)).toBeLessThan(0.05);
  });
});

describe('noiseFactor', () => {
  it('is 1 for a straight climb (a trend is not noise) and above 1 for a series that jumps about', () => {
    expect(noiseFactor(single(series([100, 150, 200, 250, 300, 350], 1000)))).toBe(1);
    // ±10 points around 50% with 1,000 episodes a step is far beyond the binomial (±1.6 points).
    const jumpy = noiseFactor(single(series([400, 600, 400, 600, 400, 600], 1000)));
    expect(jumpy).toBeGreaterThan(20);
  });
});

describe('a difference of two rates', () => {
  it('has their variances added less twice their covariance: rates that move together have a smaller one', () => {
    const a = series([100, 110, 120, 130, 140, 150, 160, 170, 180, 195], 1000);
    const b = series([500, 500, 500, 500, 500, 500, 500, 500, 500, 500], 1000);
    const independent = fitTrend(difference(a, b), 10) as NonNullable<ReturnType<typeof fitTrend>>;
    const together = fitTrend(
      difference(
        a,
        b,
        a.map(() => 0.0001),
      ),
      10,
    ) as NonNullable<ReturnType<typeof fitTrend>>;
    const opposed = fitTrend(
      difference(
        a,
        b,
        a.map(() => -0.0001),
      ),
      10,
    ) as NonNullable<ReturnType<typeof fitTrend>>;
    expect(together.slope).toBeCloseTo(independent.slope, 12);
    expect(together.se).toBeLessThan(independent.se);
    expect(opposed.se).toBeGreaterThan(independent.se);
  });
});
