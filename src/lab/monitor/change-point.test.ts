import { describe, expect, it } from 'vitest';
import { changeFits, difference, noiseFactor, single, type RatePoint } from './change-point.js';

/** A series of rates over `den` episodes each, the numerators given. */
const series = (nums: readonly number[], den: number): RatePoint[] => nums.map((num, i) => ({ x: i + 1, num, den }));
const WINDOWS = { minBaseline: 3, minClimb: 2, maxClimb: 5 };

describe('changeFits', () => {
  it('recovers a broken line exactly: the baseline, the climb per step since the change, its rise, with binomial noise (φ = 1)', () => {
    // 10% for six steps, then +2 points a step for four: the change is after step 6.
    const nums = [100, 100, 100, 100, 100, 100, 120, 140, 160, 180];
    const fits = changeFits(single(series(nums, 1000)), WINDOWS, 1);
    const atSix = fits.find((t) => t.from === 6);
    expect(atSix?.slope).toBeCloseTo(0.02, 12);
    expect(atSix?.fitted_first).toBeCloseTo(0.1, 12);
    expect(atSix?.fitted_last).toBeCloseTo(0.18, 12);
    expect(atSix?.rise).toBeCloseTo(0.08, 12);
    expect(atSix?.to).toBe(10);
    expect(atSix?.noise).toBe(1);
    expect(noiseFactor(single(series(nums, 1000)))).toBe(1);
    expect(atSix?.z).toBeCloseTo((atSix?.slope as number) / (atSix?.se as number), 12);
    // The true change step has the largest z of the candidates (the GLR's maximum).
    const best = fits.reduce((a, b) => (b.z > a.z ? b : a));
    expect(best.from).toBe(6);
  });

  it('tries every change step that leaves the baseline and a climb of the lengths asked for, latest first', () => {
    const fits = changeFits(single(series([100, 100, 100, 100, 100, 100, 100, 100, 100, 100], 1000)), WINDOWS, 1);
    // 10 steps: the change after step 8 (2 steps of climb) back to after step 5 (5 of climb).
    expect(fits.map((t) => t.from)).toEqual([8, 7, 6, 5]);
    expect(changeFits(single(series([100, 100, 100, 100], 1000)), WINDOWS, 1)).toEqual([]);
    const short = changeFits(single(series([100, 100, 100, 100, 100, 100], 1000)), WINDOWS, 1);
    expect(short.map((t) => t.from)).toEqual([4, 3]);
    // The noise factor given scales δ's standard error by its square root.
    const noisy = changeFits(single(series([100, 100, 100, 100, 100, 100], 1000)), WINDOWS, 4);
    expect(noisy[0]?.se).toBeCloseTo(2 * (short[0]?.se as number), 12);
  });

  it('leaves out steps with no base, and finds no climb in a series that never moves', () => {
    const points = [...series([0, 0, 0, 0], 50), { x: 5, num: 0, den: 0 }, ...series([0, 0], 50).map((p, i) => ({ ...p, x: 6 + i }))];
    const fits = changeFits(single(points), { minBaseline: 3, minClimb: 1, maxClimb: 5 }, 1);
    expect(fits.map((t) => t.from)).toEqual([6, 4, 3]);
    for (const t of fits) expect(t).toMatchObject({ slope: 0, z: 0 });
  });

  it('sees a jump of level as a climb starting near it (a broken line, not a step, but significant)', () => {
    const nums = [200, 200, 200, 200, 200, 200, 200, 200, 260, 260];
    const fits = changeFits(single(series(nums, 1000)), WINDOWS, 1);
    const best = fits.reduce((a, b) => (b.z > a.z ? b : a));
    expect([7, 8]).toContain(best.from);
    expect(best.z).toBeGreaterThan(4);
    expect(best.rise).toBeGreaterThan(0.04);
  });

  it('counts the uncertainty of the baseline: a short baseline gives a smaller z for the same climb', () => {
    const climb = [120, 140, 160, 180];
    const long = changeFits(single(series([...Array<number>(20).fill(100), ...climb], 1000)), { ...WINDOWS, maxClimb: 4 }, 1);
    const short = changeFits(single(series([...Array<number>(3).fill(100), ...climb], 1000)), { ...WINDOWS, maxClimb: 4 }, 1);
    const at = (fits: typeof long, from: number) => fits.find((t) => t.from === from)?.z as number;
    expect(at(long, 20)).toBeGreaterThan(at(short, 3));
    expect(long.find((t) => t.from === 20)?.slope).toBeCloseTo(short.find((t) => t.from === 3)?.slope as number, 12);
  });
});

describe('noiseFactor', () => {
  it('is 1 for a broken line (a climb is not noise) and above 1 for a series that jumps about', () => {
    expect(noiseFactor(single(series([100, 100, 100, 100, 150, 200, 250, 300], 1000)))).toBe(1);
    // ±10 points around 50% with 1,000 episodes a step is far beyond the binomial (±1.6 points).
    const jumpy = noiseFactor(single(series([400, 600, 400, 600, 400, 600], 1000)));
    expect(jumpy).toBeGreaterThan(20);
  });
});

describe('a difference of two rates', () => {
  it('has their variances added less twice their covariance: rates that move together have a smaller one', () => {
    const a = series([100, 100, 100, 100, 100, 100, 110, 120, 130, 145], 1000);
    const b = series([500, 500, 500, 500, 500, 500, 500, 500, 500, 500], 1000);
    const at6 = (covariance?: number) =>
      changeFits(difference(a, b, covariance === undefined ? undefined : a.map(() => covariance)), WINDOWS, 1).find(
        (t) => t.from === 6,
      ) as NonNullable<ReturnType<typeof changeFits>[number]>;
    const independent = at6();
    const together = at6(0.0001);
    const opposed = at6(-0.0001);
    expect(together.slope).toBeCloseTo(independent.slope, 3);
    expect(together.se).toBeLessThan(independent.se);
    expect(opposed.se).toBeGreaterThan(independent.se);
  });
});
