import { describe, expect, it } from 'vitest';
import { createEndpointLimiter, createEndpointLimiters } from './endpoint-limiter.js';

describe('endpoint limiter', () => {
  it('grants up to its limit, then queues in order', async () => {
    const limiter = createEndpointLimiter(2);
    const a = await limiter.acquire();
    const b = await limiter.acquire();
    const order: string[] = [];
    const c = limiter.acquire().then((release) => (order.push('c'), release));
    const d = limiter.acquire().then((release) => (order.push('d'), release));
    expect(limiter).toMatchObject({ inFlight: 2, waiting: 2 });
    a?.();
    a?.(); // releasing twice frees one slot only
    (await c)?.();
    b?.();
    await d;
    expect(order).toEqual(['c', 'd']);
    expect(limiter).toMatchObject({ inFlight: 1, waiting: 0 });
  });

  it('drops an aborted waiter without giving it a slot', async () => {
    const limiter = createEndpointLimiter(1);
    const held = await limiter.acquire();
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    controller.abort();
    expect(await waiting).toBeNull();
    expect(limiter.waiting).toBe(0);
    held?.();
    expect(limiter.inFlight).toBe(0);
    expect(await limiter.acquire(AbortSignal.abort())).toBeNull();
  });

  it('shares one limiter per endpoint, however the URL is spelled, and the lower limit holds', () => {
    const limiters = createEndpointLimiters();
    const first = limiters.forEndpoint('http://LOCALHOST:80/v1/', 4);
    const second = limiters.forEndpoint('http://localhost/v1', 2);
    expect(second).toBe(first);
    expect(first.limit).toBe(2);
    expect(limiters.forEndpoint('http://localhost:8000/v1', 4)).not.toBe(first);
  });

  it('refuses a limit that is not a positive integer', () => {
    expect(() => createEndpointLimiter(0)).toThrow(/positive integer/);
    expect(() => createEndpointLimiters().forEndpoint('http://x/v1', 1.5)).toThrow(/positive integer/);
  });
});
