import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HANDOFF_MODEL_DATA } from '../src/core/handoff-model-data.js';
import { parseDeciderCorpus } from '../src/testing/decider-corpus.js';
import { caseExamples } from '../scripts/decider-model/examples.js';
import { HYPER_PARAMETERS, train } from '../scripts/decider-model/train.js';
import { chooseThresholds, type Trial } from '../scripts/decider-model/cross-validate.js';

// The shipped weights are what the committed script makes of the committed development parts.
describe('scripts/train-decider-model.ts', () => {
  it('reproduces the shipped weights from the development parts', () => {
    const p = HANDOFF_MODEL_DATA.provenance;
    const cases = p.corpora.flatMap((path) => parseDeciderCorpus(readFileSync(new URL(`../${path}`, import.meta.url), 'utf8'), path));
    const data = train(
      cases.flatMap((c) => caseExamples(c)),
      HYPER_PARAMETERS,
      {
        trainedAt: p.trainedAt,
        script: p.script,
        corpora: p.corpora,
        thresholds: HANDOFF_MODEL_DATA.thresholds,
      },
    );
    expect(data.provenance).toEqual(p);
    expect(data.bias).toEqual(HANDOFF_MODEL_DATA.bias);
    expect(data.features).toBe(HANDOFF_MODEL_DATA.features);
  });
});

describe('chooseThresholds', () => {
  const trial = (
    safety: number,
    p: number,
    recall: number,
    safetyRecall: number,
    falsePositiveRate: number,
    other = falsePositiveRate,
  ): Trial => ({
    thresholds: { safety, person_request: p, topic: p },
    recall,
    safetyRecall,
    falsePositiveRate,
    otherFalsePositiveRate: other,
    rightReason: 1,
    answers: new Map(),
  });

  it('takes the highest safety threshold that reaches the safety recall, its false positives accepted', () => {
    const trials = [
      trial(0.3, 0.8, 0.91, 0.99, 0.09, 0.04),
      trial(0.4, 0.5, 0.92, 0.96, 0.075, 0.058),
      trial(0.4, 0.8, 0.9, 0.96, 0.061, 0.045),
      trial(0.4, 0.9, 0.89, 0.96, 0.06, 0.044),
      trial(0.5, 0.8, 0.89, 0.93, 0.052, 0.045),
      trial(0.5, 0.9, 0.88, 0.93, 0.05, 0.044),
    ];
    // 0.5 misses 0.95 and 0.3 is lower than needed: 0.4. Its false positives for other reasons keep
    // p = 0.8 and 0.9 inside the 0.057 cap (p = 0.5 is out), and p = 0.8's recall is worth its
    // one more false positive in a thousand.
    expect(chooseThresholds(trials, 0.057, 0.95, 0).thresholds).toEqual({ safety: 0.4, person_request: 0.8, topic: 0.8 });
    // Asked for less safety recall, the higher threshold is enough; the value rule picks among its settings.
    expect(chooseThresholds(trials, 0.057, 0.9, 0).thresholds).toEqual({ safety: 0.5, person_request: 0.8, topic: 0.8 });
    // Never below the floor, however much recall a lower one would buy.
    expect(chooseThresholds(trials, 0.057, 0.95, 0.5).thresholds.safety).toBe(0.5);
  });

  it('keeps person and topics at or above their floor when a setting there exists', () => {
    const trials = [trial(0.5, 0.6, 0.92, 0.96, 0.05), trial(0.5, 0.7, 0.9, 0.96, 0.05)];
    expect(chooseThresholds(trials, 0.06, 0.95, 0.5, 0).thresholds.person_request).toBe(0.6);
    expect(chooseThresholds(trials, 0.06, 0.95, 0.5, 0.7).thresholds.person_request).toBe(0.7);
    // None at or above the floor: the rule takes what there is.
    expect(chooseThresholds([trial(0.5, 0.6, 0.92, 0.96, 0.05)], 0.06, 0.95, 0.5, 0.7).thresholds.person_request).toBe(0.6);
  });

  it('falls back to the lowest safety threshold tried when none reaches the recall', () => {
    const trials = [trial(0.2, 0.5, 0.9, 0.9, 0.1), trial(0.5, 0.5, 0.9, 0.8, 0.05)];
    expect(chooseThresholds(trials, 0.05, 0.95, 0).thresholds.safety).toBe(0.2);
    expect(chooseThresholds(trials, 0.05, 0.95, 0.3).thresholds.safety).toBe(0.5);
  });
});
