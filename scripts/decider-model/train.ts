/**
 * Trains the decider's classifier: one-vs-rest logistic regression by stochastic gradient descent
 * over the hashed features of `src/core/text-features.ts`, seeded and with a fixed number of
 * epochs, so the same examples and hyper-parameters give the same weights. Then keeps the
 * `maxFeatures` buckets with the largest weights and writes them as `HandoffModelData`.
 */
import { MODEL_HEADS, type HandoffModelData, type ModelHead } from '../../src/core/handoff-classifier.js';
import { seededRandom } from '../../src/core/random.js';
import { FEATURE_BUCKETS, WORD_WEIGHT, textFeatures } from '../../src/core/text-features.js';
import type { Example, Label } from './examples.js';

/** The knobs of a training run; recorded in the model's provenance. */
export interface HyperParameters {
  seed: number;
  epochs: number;
  learningRate: number;
  l2: number;
  /** How much more a positive example of a head weighs than a negative one. */
  positiveWeight: number;
  maxFeatures: number;
  scale: number;
}

/** The hyper-parameters of the shipped model. */
export const HYPER_PARAMETERS: HyperParameters = {
  seed: 20261201,
  epochs: 40,
  learningRate: 3,
  l2: 0.003,
  positiveWeight: 1,
  maxFeatures: 40_000,
  scale: 1000,
};

const SAFETY_TOPICS: readonly ModelHead[] = ['self_harm', 'danger', 'medical'];

/** Each head's target for a label: 1, 0, or null (not trained on this example: a safety topic of a non-safety example, or unknown). */
export function targets(label: Label): Array<0 | 1 | null> {
  const safety = label === 'safety' || label.startsWith('safety:');
  const topic = label.startsWith('safety:') ? label.slice('safety:'.length) : null;
  return MODEL_HEADS.map((head) => {
    if (SAFETY_TOPICS.includes(head)) return safety && topic !== null ? (head === topic ? 1 : 0) : null;
    if (head === 'safety') return safety ? 1 : 0;
    return head === label ? 1 : 0;
  });
}

/** Distinct (text, label) pairs: the corpora repeat a phrasing in many wrappers, and a repeat teaches nothing new. */
export function distinct(examples: readonly Example[]): Example[] {
  const seen = new Set<string>();
  return examples.filter((e) => {
    const key = `${e.label}\u0000${e.norm}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** Trains on `examples` and returns the model data (thresholds are the caller's). */
export function train(
  examples: readonly Example[],
  hp: HyperParameters,
  meta: { trainedAt: string; script: string; corpora: string[]; thresholds: HandoffModelData['thresholds'] },
): HandoffModelData {
  const heads = MODEL_HEADS.length;
  const rows = distinct(examples).map((e) => ({ features: [...textFeatures(e.norm).values], targets: targets(e.label) }));
  const w = new Float64Array(FEATURE_BUCKETS * heads);
  const bias = new Float64Array(heads);
  const random = seededRandom(hp.seed);
  const order = rows.map((_, i) => i);
  for (let epoch = 0; epoch < hp.epochs; epoch++) {
    // Fisher–Yates with the seeded source: the same order on every machine.
    for (let i = order.length - 1; i > 0; i--) {
      const j = random.int(0, i);
      [order[i], order[j]] = [order[j] as number, order[i] as number];
    }
    const lr = hp.learningRate / (1 + epoch);
    for (const i of order) {
      const row = rows[i];
      if (row === undefined) continue;
      for (let h = 0; h < heads; h++) {
        const t = row.targets[h];
        if (t === null || t === undefined) continue;
        let z = bias[h] ?? 0;
        for (const [b, v] of row.features) z += (w[b * heads + h] ?? 0) * v;
        const g = (sigmoid(z) - t) * (t === 1 ? hp.positiveWeight : 1);
        bias[h] = (bias[h] ?? 0) - lr * g;
        for (const [b, v] of row.features) {
          const k = b * heads + h;
          const old = w[k] ?? 0;
          w[k] = old - lr * (g * v + hp.l2 * old);
        }
      }
    }
  }
  return serialize(w, bias, hp, { ...meta, examples: rows.length });
}

function serialize(
  w: Float64Array,
  bias: Float64Array,
  hp: HyperParameters,
  meta: { trainedAt: string; script: string; corpora: string[]; thresholds: HandoffModelData['thresholds']; examples: number },
): HandoffModelData {
  const heads = MODEL_HEADS.length;
  const kept: Array<{ b: number; row: number[]; size: number }> = [];
  for (let b = 0; b < FEATURE_BUCKETS; b++) {
    const row = Array.from({ length: heads }, (_, h) => Math.round((w[b * heads + h] ?? 0) * hp.scale));
    const size = Math.max(...row.map(Math.abs));
    if (size > 0) kept.push({ b, row, size });
  }
  // The largest weights carry the decisions; ties broken by bucket, so the cut is deterministic.
  kept.sort((x, y) => y.size - x.size || x.b - y.b);
  const top = kept.slice(0, hp.maxFeatures).sort((x, y) => x.b - y.b);
  return {
    version: 1,
    provenance: {
      trainedAt: meta.trainedAt,
      script: meta.script,
      corpora: meta.corpora,
      hyperParameters: {
        ...hp,
        buckets: FEATURE_BUCKETS,
        wordWeight: WORD_WEIGHT,
        features: 'word 1-2-grams, character 3-5-grams of canonical text',
      },
      examples: meta.examples,
      features: top.length,
    },
    heads: [...MODEL_HEADS],
    thresholds: meta.thresholds,
    bias: Array.from(bias, (x) => Math.round(x * hp.scale) / hp.scale),
    scale: hp.scale,
    features: top.map((f) => `${f.b.toString(36)}:${f.row.join(',')}`).join(';'),
  };
}
