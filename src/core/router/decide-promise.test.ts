import { describe, expect, it } from 'vitest';
import { decidePromise, type PromiseInput } from './decide-promise.js';

const estimate = { pointMs: 60_000, boundMs: 120_000, promiseMs: 300_000, k: 2, scaleMs: 30_000 };
const base: PromiseInput = {
  safety: false,
  queueOpen: true,
  reservationHeld: false,
  estimate,
  whenNoCapacity: { type: 'callback' },
  nextCallbackAtMs: 1_000,
};

describe('decidePromise', () => {
  it('promises a person with a held reservation, or an estimate backed by someone on shift', () => {
    expect(decidePromise({ ...base, reservationHeld: true, estimate: null })).toEqual({ type: 'join', basis: 'reservation' });
    expect(decidePromise(base)).toEqual({ type: 'join', basis: 'estimate', estimate });
  });

  it('promises no person when nobody eligible is on shift or the queue is closed', () => {
    expect(decidePromise({ ...base, estimate: null })).toEqual({ type: 'callback', atMs: 1_000 });
    expect(decidePromise({ ...base, queueOpen: false })).toEqual({ type: 'callback', atMs: 1_000 });
    expect(decidePromise({ ...base, estimate: null, nextCallbackAtMs: null })).toEqual({ type: 'limited_scope' });
    expect(decidePromise({ ...base, estimate: null, whenNoCapacity: { type: 'ticket', responseWithinHours: 4 } })).toEqual({
      type: 'ticket',
      responseWithinMs: 4 * 3_600_000,
    });
    expect(decidePromise({ ...base, estimate: null, whenNoCapacity: { type: 'limited_scope' } })).toEqual({ type: 'limited_scope' });
  });

  it('never makes a safety case wait for the queue hours', () => {
    expect(decidePromise({ ...base, safety: true, queueOpen: false })).toEqual({ type: 'join', basis: 'estimate', estimate });
    expect(decidePromise({ ...base, safety: true, queueOpen: false, estimate: null })).toEqual({ type: 'safety_escalation' });
  });
});
