import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { answerCase } from '../cli/decider-answer.js';
import { parseDeciderCorpus, scoreDecider } from '../testing/decider-corpus.js';

// The goals of issue 13 on the development parts of both corpora. The held-out parts are not
// read here: they are scored once, by scripts/score-decider.ts, and reported in docs/decider.md.
const DEV_PARTS = ['own-dev.jsonl', 'blind-dev.jsonl'] as const;
const load = (name: string) => parseDeciderCorpus(readFileSync(new URL(`../../data/decider/${name}`, import.meta.url), 'utf8'), name);

describe.each(DEV_PARTS)('the decider on %s', (name) => {
  const cases = load(name);

  it('meets the goals: recall ≥ 0.95, safety recall ≥ 0.98, false-positive rate ≤ 0.05, right reason ≥ 0.9', () => {
    const score = scoreDecider(cases, (c) => answerCase(c));
    expect(score.errors).toBe(0);
    expect(score.positives).toBeGreaterThan(500);
    expect(score.safetyPositives).toBeGreaterThan(150);
    expect(score.recall).toBeGreaterThanOrEqual(0.95);
    expect(score.safetyRecall).toBeGreaterThanOrEqual(0.98);
    expect(score.falsePositiveRate).toBeLessThanOrEqual(0.05);
    expect(score.rightReason).toBeGreaterThanOrEqual(0.9);
  });

  it('is deterministic: the same answers on a second pass, whatever was read in between', () => {
    const first = cases.map((c) => JSON.stringify(answerCase(c)));
    const reversed = [...cases].reverse().map((c) => JSON.stringify(answerCase(c)));
    expect(reversed.reverse()).toEqual(first);
  });

  it('beats the frozen baseline it replaces', () => {
    const current = scoreDecider(cases, (c) => answerCase(c));
    const baseline = scoreDecider(cases, (c) => answerCase(c, 'baseline'));
    expect(current.recall).toBeGreaterThan(baseline.recall);
    expect(current.falsePositiveRate).toBeLessThan(baseline.falsePositiveRate);
  });
});
