import type { Clock } from '../core/index.js';

/** A clock that moves only when told to: `advance(ms)`, or `tickMs` after every reading. */
export function fixedClock(start = Date.UTC(2026, 0, 1), tickMs = 0): Clock & { advance(ms: number): void } {
  let now = start;
  return {
    now: () => {
      const reading = now;
      now += tickMs;
      return reading;
    },
    advance: (ms: number) => {
      now += ms;
    },
  };
}
