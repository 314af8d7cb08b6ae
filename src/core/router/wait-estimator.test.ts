import { describe, expect, it } from 'vitest';
import { gammaCdf, gammaQuantile, normalQuantile } from './gamma-quantile.js';
import { DEFAULT_WAIT_ESTIMATOR, QueueWaitEstimator, salesforceAverage } from './wait-estimator.js';

describe('gamma quantiles', () => {
  it('is the exponential quantile for k = 1 and agrees with the CDF', () => {
    expect(gammaQuantile(1, 0.9)).toBeCloseTo(-Math.log(0.1), 9);
    expect(gammaCdf(5, gammaQuantile(5, 0.95))).toBeCloseTo(0.95, 9);
    // Wilson–Hilferty above k = 40: within 0.5% of the exact value.
    expect(gammaCdf(60, gammaQuantile(60, 0.9))).toBeCloseTo(0.9, 2);
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 5);
  });
});

describe('QueueWaitEstimator', () => {
  it('estimates position × mean holding ÷ units on shift, with Gamma quantiles as bound and promise', () => {
    const e = new QueueWaitEstimator({ ...DEFAULT_WAIT_ESTIMATOR, promiseMarginMs: 0 });
    for (const ms of [200_000, 400_000]) e.recordServed(ms, 1);
    expect(e.meanHoldingMs()).toBe(300_000);
    const est = e.estimate({ channel: 'chat', unitsAhead: 3, units: 1, unitsOnShift: 10 });
    expect(est?.pointMs).toBeCloseTo(4 * 30_000, 6);
    expect(est?.boundMs).toBeCloseTo(gammaQuantile(4, 0.9) * 30_000, 6);
    expect(est?.promiseMs).toBeCloseTo(gammaQuantile(4, 0.995) * 30_000, 6);
    expect(e.estimate({ channel: 'chat', unitsAhead: 0, units: 1, unitsOnShift: 0 })).toBeNull();
  });

  it('calibrates against its own history once a channel has enough waits', () => {
    const e = new QueueWaitEstimator({ ...DEFAULT_WAIT_ESTIMATOR, promiseMarginMs: 0, minHistory: 10, historySize: 10 });
    e.recordServed(300_000, 1);
    const first = e.estimate({ channel: 'callback', unitsAhead: 3, units: 1, unitsOnShift: 10 });
    if (first === null) throw new Error('expected an estimate');
    // model 120 s, spread √4 · 30 s = 60 s; actual waits of 120 + 60·z for z = 0 … 9.
    for (let z = 0; z < 10; z += 1) e.recordWait('callback', first, 120_000 + 60_000 * z);
    const next = e.estimate({ channel: 'callback', unitsAhead: 3, units: 1, unitsOnShift: 10 });
    expect(next?.pointMs).toBeCloseTo(120_000 + 60_000 * 5, 6);
    expect(next?.boundMs).toBeCloseTo(120_000 + 60_000 * 9, 6);
    // Chats have no history yet: the bare model.
    expect(e.estimate({ channel: 'chat', unitsAhead: 3, units: 1, unitsOnShift: 10 })?.pointMs).toBeCloseTo(120_000, 6);
  });

  it('charges time lost to declined offers to the next served item', () => {
    const e = new QueueWaitEstimator({ ...DEFAULT_WAIT_ESTIMATOR, smoothing: 0.5 });
    e.recordLost(30_000);
    e.recordServed(100_000, 1);
    expect(e.meanHoldingMs()).toBe(130_000);
  });

  it('keeps Salesforce’s moving average for comparison: A = 0.9·A′ + 0.1·W', () => {
    expect(salesforceAverage(100, 200)).toBeCloseTo(110, 10);
  });
});
