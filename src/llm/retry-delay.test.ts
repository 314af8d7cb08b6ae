import { describe, expect, it } from 'vitest';
import { backoffDelayMs, serverRetryDelayMs } from './retry-delay.js';

const headers = (values: Record<string, string>) => new Headers(values);
const now = Date.UTC(2026, 0, 1, 12, 0, 0);

describe('serverRetryDelayMs', () => {
  it.each([
    [{ 'retry-after': '2' }, 2_000],
    [{ 'retry-after': '0.5' }, 500],
    [{ 'retry-after': '0' }, 0],
    [{ 'retry-after-ms': '250' }, 250],
    [{ 'retry-after-ms': '250', 'retry-after': '9' }, 250],
    [{ 'retry-after-ms': 'soon', 'retry-after': '1' }, 1_000],
    [{ 'retry-after': new Date(now + 7_000).toUTCString() }, 7_000],
    [{ 'retry-after': new Date(now - 7_000).toUTCString() }, 0],
  ])('reads %j as %i ms', (values, expected) => {
    expect(serverRetryDelayMs(headers(values), now)).toBe(expected);
  });

  it.each([[{}], [{ 'retry-after': 'whenever' }], [{ 'retry-after': '-3' }], [{ 'retry-after': '' }]])('ignores %j', (values) => {
    expect(serverRetryDelayMs(headers(values), now)).toBeUndefined();
  });

  it('ignores missing headers', () => {
    expect(serverRetryDelayMs(undefined, now)).toBeUndefined();
  });
});

describe('backoffDelayMs', () => {
  const options = { baseMs: 100, maxMs: 1_000 };

  it('doubles per retry within the upper half of its ceiling', () => {
    expect([0, 1, 2, 3].map((retry) => backoffDelayMs(retry, { ...options, random: () => 0 }))).toEqual([50, 100, 200, 400]);
    expect([0, 1, 2, 3].map((retry) => backoffDelayMs(retry, { ...options, random: () => 0.999999 }))).toEqual([100, 200, 400, 800]);
  });

  it('never exceeds maxMs', () => {
    expect(backoffDelayMs(10, { ...options, random: () => 0.999999 })).toBe(1_000);
  });
});
