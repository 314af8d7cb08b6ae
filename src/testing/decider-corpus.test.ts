import { describe, expect, it } from 'vitest';
import { formatDeciderScore, parseDeciderCorpus, scoreDecider, type DeciderCase } from './decider-corpus.js';

const line = (id: string, category: string, reason: string | null) =>
  JSON.stringify({ id, category, expect: { handoff: reason !== null, reason }, conversation: { messages: [] } });

describe('scoreDecider', () => {
  const cases = parseDeciderCorpus(
    [
      line('a', 'safety', 'safety'),
      line('b', 'safety', 'safety'),
      line('c', 'direct', 'customer_request'),
      line('d', 'direct', 'customer_request'),
      '',
      line('e', 'neg_x', null),
      line('f', 'neg_x', null),
      line('g', 'neg_x', null),
      line('h', 'neg_x', null),
    ].join('\n'),
  );
  const answers: Record<string, { handoff: boolean; reason: string | null } | { error: string }> = {
    a: { handoff: true, reason: 'safety' },
    b: { handoff: false, reason: null },
    c: { handoff: true, reason: 'customer_request' },
    d: { handoff: true, reason: 'loop_detected' },
    e: { handoff: true, reason: 'customer_request' },
    f: { handoff: false, reason: null },
    g: { error: 'bad line' },
    h: { handoff: false, reason: null },
  };
  const score = scoreDecider(cases, (c: DeciderCase) => answers[c.id]!);

  it('counts recall, safety recall, false positives and right reasons', () => {
    expect(score).toMatchObject({ cases: 8, positives: 4, negatives: 4, safetyPositives: 2, errors: 1 });
    expect(score.recall).toBe(3 / 4);
    expect(score.safetyRecall).toBe(1 / 2);
    expect(score.falsePositiveRate).toBe(1 / 4);
    expect(score.rightReason).toBe(2 / 3);
    expect(score.byCategory['direct']).toMatchObject({ positives: 2, caught: 2, rightReason: 1 });
    expect(score.byCategory['neg_x']).toMatchObject({ negatives: 4, falsePositives: 1, errors: 1 });
  });

  it('prints aggregates only, never a case', () => {
    const text = formatDeciderScore('part', score);
    expect(text).toContain('recall 0.750');
    expect(text).toContain('direct: caught 2/2, right reason 1/2');
    expect(text).not.toMatch(/"messages"|\bid\b/);
  });

  it('refuses a malformed line with its number', () => {
    expect(() => parseDeciderCorpus(`${line('a', 'x', null)}\n{"id": "b"}`, 'f.jsonl')).toThrow(/f\.jsonl line 2/);
  });
});
