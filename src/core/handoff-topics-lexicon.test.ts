import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { splitClauses } from './handoff-lexicon.js';
import { POLICY_TOPIC_PATTERNS } from './handoff-topics-lexicon.js';
import { parseDeciderCorpus } from '../testing/decider-corpus.js';

// A topic pattern's `pre` is a cheap test its every match must pass: a `pre` that misses a word
// one of its alternatives needs would silently switch that alternative off. Checked on every
// customer clause of the development parts, and on the runs of two and three neighbouring clauses
// the decider also reads.
const DIR = new URL('../../data/decider/', import.meta.url);

function texts(): Set<string> {
  const out = new Set<string>();
  for (const name of readdirSync(DIR).filter((f) => f.endsWith('-dev.jsonl'))) {
    for (const c of parseDeciderCorpus(readFileSync(new URL(name, DIR), 'utf8'), name)) {
      for (const m of c.conversation.messages as Array<{ role: string; text?: unknown }>) {
        if (m.role !== 'customer' || typeof m.text !== 'string') continue;
        const norms = splitClauses(m.text).map((cl) => cl.norm);
        norms.forEach((n, k) => {
          out.add(n);
          if (k + 1 < norms.length) out.add(`${n} ${norms[k + 1]}`);
          if (k + 2 < norms.length) out.add(`${n} ${norms[k + 1]} ${norms[k + 2]}`);
        });
      }
    }
  }
  return out;
}

describe('POLICY_TOPIC_PATTERNS', () => {
  const all = texts();

  it('reads a large sample of customer text', () => {
    expect(all.size).toBeGreaterThan(20_000);
  });

  it.each(POLICY_TOPIC_PATTERNS.map((p, i) => ({ i, p })).filter(({ p }) => p.pre !== undefined))(
    'pattern $i ($p.topic): every match passes its cheap test',
    ({ p }) => {
      const matched = [...all].filter((t) => p.re.test(t));
      expect(matched.length).toBeGreaterThan(0);
      expect(matched.filter((t) => !p.pre!.test(t))).toEqual([]);
    },
  );

  it('a pre that lacks a needed word is caught', () => {
    const p = POLICY_TOPIC_PATTERNS.find((q) => q.topic === 'bereavement' && q.pre !== undefined)!;
    const narrowed = /\bzzz-never\b/;
    const matched = [...all].filter((t) => p.re.test(t));
    expect(matched.filter((t) => !narrowed.test(t)).length).toBeGreaterThan(0);
  });
});
