import { describe, expect, it } from 'vitest';
import { errorFigures, modelFloorS, type EstimatedWait } from './estimate-figures.js';

const wait = (k: number, scaleMs: number, pointMs: number, boundMs: number, actualMs: number): EstimatedWait => ({
  channel: 'chat',
  estimate: { k, scaleMs, pointMs, boundMs, promiseMs: boundMs * 2 },
  actualMs,
});

describe('the model floor', () => {
  it('is s · asinh(½) for one exponential wait (k = 1): P(|X − s ln 2| ≤ d) = sinh(d / s)', () => {
    expect(modelFloorS([wait(1, 60_000, 0, 0, 0)])).toBeCloseTo(60 * Math.asinh(0.5), 4);
  });

  it('grows with the position: the spread of Gamma(k) is √k times the scale', () => {
    const one = modelFloorS([wait(1, 10_000, 0, 0, 0)]);
    const nine = modelFloorS([wait(9, 10_000, 0, 0, 0)]);
    expect(nine).toBeGreaterThan(2.5 * one);
    // For large k the Gamma is nearly normal: median |X − m| ≈ 0.6745 · √k · s.
    expect(modelFloorS([wait(400, 1000, 0, 0, 0)])).toBeCloseTo(0.6745 * 20, 0);
  });
});

describe('errorFigures', () => {
  it('takes the median absolute error, the median actual wait and the bound coverage over those told', () => {
    const ws = [wait(1, 1000, 10_000, 20_000, 12_000), wait(1, 1000, 10_000, 20_000, 40_000), wait(1, 1000, 30_000, 60_000, 30_000)];
    // Four were told an estimate; one never got a person (moved to a callback): a miss for coverage.
    const f = errorFigures(ws, 4);
    expect(f.median_abs_error_s).toBe(2);
    expect(f.median_actual_wait_s).toBe(30);
    expect(f.stated_bound_coverage).toBe(0.5);
  });
});
