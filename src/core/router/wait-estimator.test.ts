import { describe, expect, it } from 'vitest';
import { seededRandom } from '../random.js';
import { gammaCdf, gammaQuantile, normalQuantile } from './gamma-quantile.js';
import { DEFAULT_WAIT_ESTIMATOR, QueueWaitEstimator, estimateWait, meanHolding, nextHolding, salesforceAverage } from './wait-estimator.js';

describe('gamma quantiles', () => {
  it('is the exponential quantile for k = 1 and agrees with the CDF', () => {
    expect(gammaQuantile(1, 0.9)).toBeCloseTo(-Math.log(0.1), 9);
    expect(gammaCdf(5, gammaQuantile(5, 0.95))).toBeCloseTo(0.95, 9);
    // Wilson–Hilferty above k = 40: within 0.5% of the exact value.
    expect(gammaCdf(60, gammaQuantile(60, 0.9))).toBeCloseTo(0.9, 2);
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 5);
  });
});

describe('estimateWait and QueueWaitEstimator', () => {
  it('states Gamma(position) quantiles of holding ÷ units on shift: median, bound and promise', () => {
    const e = new QueueWaitEstimator({ ...DEFAULT_WAIT_ESTIMATOR, promiseMarginMs: 0 });
    e.recordServed(300_000);
    expect(e.meanHoldingMs()).toBe(300_000);
    const est = e.estimate({ ahead: 3, servers: 10 });
    expect(est).toMatchObject({ k: 4, scaleMs: 30_000 });
    expect(est?.pointMs).toBeCloseTo(gammaQuantile(4, 0.5) * 30_000, 3);
    expect(est?.boundMs).toBeCloseTo(gammaQuantile(4, 0.9) * 30_000, 3);
    expect(est?.promiseMs).toBeCloseTo(gammaQuantile(4, 0.995) * 30_000, 3);
    expect(e.estimate({ ahead: 0, servers: 0 })).toBeNull();
  });

  it('recalibrates by where its own past waits fell in the model (PIT), once the queue has history', () => {
    const options = { ...DEFAULT_WAIT_ESTIMATOR, promiseMarginMs: 0, minHistory: 10, historySize: 10 };
    const e = new QueueWaitEstimator(options);
    e.recordServed(300_000);
    const first = e.estimate({ ahead: 0, servers: 10 });
    if (first === null) throw new Error('expected an estimate');
    // Waits twice what the exponential model (k = 1, 30 s) says: at its quantiles 0.05, 0.15, … 0.95, doubled.
    for (let i = 0; i < 9; i += 1) e.recordWait(first, 2 * gammaQuantile(1, 0.05 + 0.1 * i) * 30_000);
    // Nine waits are not yet history: the bare model.
    expect(e.estimate({ ahead: 0, servers: 10 })?.pointMs).toBeCloseTo(gammaQuantile(1, 0.5) * 30_000, 3);
    e.recordWait(first, 2 * gammaQuantile(1, 0.95) * 30_000);
    const next = e.estimate({ ahead: 0, servers: 10 });
    // Each recorded wait's PIT is 1 − (1 − q)²; the median is taken at the 6th of 10 (q = 0.55).
    const pit = (q: number) => 1 - (1 - q) ** 2;
    expect(next?.pointMs).toBeCloseTo(gammaQuantile(1, pit(0.55)) * 30_000, 0);
    expect(next?.pointMs).toBeCloseTo(2 * gammaQuantile(1, 0.55) * 30_000, 0);
    // The same history, as the router's tables return it (any order), gives the same estimate.
    const { holdingMs, waits } = e.history();
    expect(estimateWait({ holdingMs, waits: [...waits].reverse() }, { ahead: 0, servers: 10 }, options)).toEqual(next);
  });

  it('keeps its PIT values sorted as waits come and go: the same estimates as estimateWait of its history', () => {
    const options = { ...DEFAULT_WAIT_ESTIMATOR, historySize: 40, minHistory: 10 };
    const e = new QueueWaitEstimator(options);
    const rng = seededRandom(7);
    for (let i = 0; i < 300; i += 1) {
      e.recordServed(60_000 + 600_000 * rng.next());
      // Some waits repeat exactly, so that evicting one of two equal values is exercised.
      const waited = i % 5 === 0 ? 30_000 : 200_000 * rng.next();
      e.recordWait({ k: 1 + (i % 4), scaleMs: 20_000 + 1_000 * (i % 3) }, waited);
      for (const ahead of [0, 3, 12])
        expect(e.estimate({ ahead, servers: 3 })).toEqual(estimateWait(e.history(), { ahead, servers: 3 }, options));
    }
  });

  it('keeps a moving mean of holding: a plain mean of the first items, then exponential; the prior before any', () => {
    const options = { ...DEFAULT_WAIT_ESTIMATOR, holdingWeight: 0.25 };
    const e = new QueueWaitEstimator(options);
    expect(e.meanHoldingMs()).toBe(DEFAULT_WAIT_ESTIMATOR.priorHoldingMs);
    for (const ms of [100_000, 200_000, 300_000, 400_000]) e.recordServed(ms);
    // The first four (1 ÷ 0.25) are a plain mean.
    expect(e.meanHoldingMs()).toBeCloseTo(250_000, 6);
    e.recordServed(650_000);
    expect(e.meanHoldingMs()).toBeCloseTo(250_000 + 0.25 * 400_000, 6);
    expect(nextHolding({ holdingMs: 250_000, served: 4 }, 650_000, options)).toEqual({ holdingMs: 350_000, served: 5 });
    expect(meanHolding({ holdingMs: null, waits: [] })).toBe(DEFAULT_WAIT_ESTIMATOR.priorHoldingMs);
  });

  it('keeps Salesforce’s moving average for comparison: A = 0.9·A′ + 0.1·W', () => {
    expect(salesforceAverage(100, 200)).toBeCloseTo(110, 10);
  });
});
