import { describe, expect, it } from 'vitest';
import { erlangC } from './erlang-c.js';

describe('erlangC', () => {
  it('is M/M/1 for one server: P(wait) = ρ, E[Wq] = ρ / (μ − λ)', () => {
    const r = erlangC({ arrivalRate: 0.8, serviceRate: 1, servers: 1 });
    expect(r.probabilityOfWait).toBeCloseTo(0.8, 12);
    expect(r.meanWait).toBeCloseTo(0.8 / 0.2, 10);
  });

  it('matches the M/M/2 closed form: P(wait) = 2ρ² / (1 + ρ)', () => {
    const rho = 0.75;
    const r = erlangC({ arrivalRate: 1.5, serviceRate: 1, servers: 2 });
    expect(r.probabilityOfWait).toBeCloseTo((2 * rho * rho) / (1 + rho), 12);
    expect(r.meanWait).toBeCloseTo(r.probabilityOfWait / (2 - 1.5), 12);
  });

  it('gives the hand-computed A = 2, c = 3 case: C = 4/9', () => {
    // Σ_{k<3} 2^k/k! = 5; 2^3/3! · 3/(3 − 2) = 4; C = 4 / (5 + 4).
    const r = erlangC({ arrivalRate: 2, serviceRate: 1, servers: 3 });
    expect(r.probabilityOfWait).toBeCloseTo(4 / 9, 12);
    expect(r.meanWait).toBeCloseTo(4 / 9 / 1, 12);
  });

  it('gives the textbook call-centre figures (A = 10 Erlangs, 11 agents: P(wait) ≈ 0.682)', () => {
    const r = erlangC({ arrivalRate: 10, serviceRate: 1, servers: 11 });
    expect(r.probabilityOfWait).toBeCloseTo(0.6821, 3);
    // By hand, A = 3 and c = 4: Σ_{k<4} 3^k/k! = 13; 3^4/4! · 4/(4 − 3) = 13.5; C = 13.5/26.5.
    const small = erlangC({ arrivalRate: 3 / 60, serviceRate: 1 / 60, servers: 4 });
    expect(small.probabilityOfWait).toBeCloseTo(13.5 / 26.5, 12);
    expect(small.meanWait).toBeCloseTo(13.5 / 26.5 / (4 / 60 - 3 / 60), 8);
  });

  it('stays finite for many servers and refuses an unstable queue', () => {
    const big = erlangC({ arrivalRate: 950, serviceRate: 1, servers: 1000 });
    expect(Number.isFinite(big.meanWait)).toBe(true);
    expect(big.probabilityOfWait).toBeGreaterThan(0);
    expect(() => erlangC({ arrivalRate: 3, serviceRate: 1, servers: 3 })).toThrow(/unstable/);
  });
});
