import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HANDOFF_MODEL_DATA } from '../src/core/handoff-model-data.js';
import { parseDeciderCorpus } from '../src/testing/decider-corpus.js';
import { caseExamples } from '../scripts/decider-model/examples.js';
import { HYPER_PARAMETERS, train } from '../scripts/decider-model/train.js';

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
