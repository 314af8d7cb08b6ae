import type { StoredEvent } from './events.js';
import type { MetricsWindow } from './runtime-metrics.js';
import { reviewsOf, reviewUnitsOf, stratumOf, unitId, verdictFor, type ReviewUnit } from './review-units.js';

/**
 * A 53-bit hash of a text (cyrb53: two multiplicative 32-bit lanes): the sample's order key. It
 * is no secret and needs none; it only has to scatter ids evenly and be the same on every machine.
 */
export function orderHash(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** A unit of the sample, and whether someone has already reviewed it. */
export type SampledUnit = ReviewUnit & { reviewed: boolean };

/** One stratum of the sample: its population in the window, and the units drawn from it. */
export interface SampleStratum {
  stratum: string;
  subject: 'handoff' | 'kept';
  reason: string | null;
  queue: string | null;
  /** Units of this stratum in the window. */
  population: number;
  /** Of those, how many already have a verdict. */
  reviewed: number;
  /** The first `perStratum` units in the seed's order. */
  units: SampledUnit[];
}

/** A stratified, seeded sample of what to review over a window. */
export interface ReviewSample {
  window: MetricsWindow;
  seed: number;
  perStratum: number;
  strata: SampleStratum[];
}

/**
 * The units of the window (`reviewUnitsOf`) split into strata (hand-offs by reason and queue;
 * kept conversations), each stratum's units ordered by `orderHash(seed:unit)`, and the first
 * `perStratum` of each taken. The same logs, window and seed give the same sample; another seed
 * another, equally random one. Units already reviewed stay in the sample, marked, so a sample
 * keeps its shape while it is worked through (`onlyUnreviewed` leaves them out, without drawing
 * others in their place).
 */
export function reviewSample(
  logs: readonly (readonly StoredEvent[])[],
  window: MetricsWindow,
  options: { seed: number; perStratum: number; onlyUnreviewed?: boolean },
): ReviewSample {
  const strata = new Map<string, { units: SampledUnit[]; key: Map<SampledUnit, number> }>();
  for (const log of logs) {
    const reviews = reviewsOf(log);
    for (const unit of reviewUnitsOf(log, window)) {
      const sampled: SampledUnit = { ...unit, reviewed: verdictFor(unit, reviews) !== null };
      const name = stratumOf(unit);
      const stratum = strata.get(name) ?? { units: [] as SampledUnit[], key: new Map<SampledUnit, number>() };
      stratum.units.push(sampled);
      stratum.key.set(sampled, orderHash(`${options.seed}:${unitId(unit)}`));
      strata.set(name, stratum);
    }
  }
  const out: SampleStratum[] = [...strata]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, { units, key }]) => {
      const ordered = [...units].sort((a, b) => key.get(a)! - key.get(b)! || (unitId(a) < unitId(b) ? -1 : 1));
      const first = units[0]!;
      return {
        stratum: name,
        subject: first.subject,
        reason: first.subject === 'handoff' ? first.reason : null,
        queue: first.subject === 'handoff' ? first.queue : null,
        population: units.length,
        reviewed: units.filter((u) => u.reviewed).length,
        units: ordered.slice(0, options.perStratum).filter((u) => !(options.onlyUnreviewed && u.reviewed)),
      };
    });
  return { window, seed: options.seed, perStratum: options.perStratum, strata: out };
}
