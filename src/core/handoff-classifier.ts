/**
 * The decider's trained classifier of customer text: one-vs-rest logistic regression over the
 * hashed features of `text-features.ts`, trained by `scripts/train-decider-model.ts` on the
 * decider corpora's development parts only, its weights shipped as data
 * (`handoff-model-data.ts`). It only scores a clause; `classifier-signals.ts` turns a score
 * into a signal, with the lexicon's scope judgement. Pure, deterministic, no weights from a hub.
 */
import { z } from 'zod';
import { FEATURE_BUCKETS, featureVector, textFeatures, type FeatureWord, type TextFeatures } from './text-features.js';

/** What the classifier scores: whether a clause raises safety, asks for a person, or raises a reserved topic. */
export const FIRING_HEADS = ['safety', 'person_request', 'complaint', 'legal', 'bereavement'] as const;
/** Which kind of safety, scored only to name the topic of a safety signal the first head fired. */
export const SAFETY_TOPIC_HEADS = ['self_harm', 'danger', 'medical'] as const;
/** Every head of the model, in the order of its weights. */
export const MODEL_HEADS = [...FIRING_HEADS, ...SAFETY_TOPIC_HEADS] as const;
/** One head of the model. */
export type ModelHead = (typeof MODEL_HEADS)[number];
/** A head that fires a signal. */
export type FiringHead = (typeof FIRING_HEADS)[number];

/**
 * The shipped form of a model: provenance, thresholds, biases, and the kept features as one
 * string, `bucket(base 36):w,w,…;` with one integer weight per head, divided by `scale`.
 */
export const HandoffModelDataSchema = z.object({
  version: z.literal(1),
  provenance: z.object({
    trainedAt: z.string(),
    script: z.string(),
    corpora: z.array(z.string()).min(1),
    hyperParameters: z.record(z.string(), z.union([z.number(), z.string()])),
    examples: z.number().int().nonnegative(),
    features: z.number().int().nonnegative(),
  }),
  heads: z.array(z.string()),
  thresholds: z.object({ safety: z.number(), person_request: z.number(), topic: z.number() }),
  bias: z.array(z.number()),
  scale: z.number().positive(),
  features: z.string(),
});
export type HandoffModelData = z.infer<typeof HandoffModelDataSchema>;

/**
 * A loaded model: `rowOf[bucket]` is the offset of the bucket's row in `matrix` (one weight per
 * head), or -1 for a bucket the model does not keep; `rows` is how many it keeps.
 */
export interface HandoffModel {
  readonly data: HandoffModelData;
  readonly bias: Float64Array;
  readonly rowOf: Int32Array;
  readonly matrix: Float64Array;
  readonly rows: number;
}

/** Validates shipped model data and builds the bucket → weights table. A malformed model is a bug: it throws. */
export function loadHandoffModel(input: unknown): HandoffModel {
  const data = HandoffModelDataSchema.parse(input);
  if (data.heads.join() !== MODEL_HEADS.join()) throw new Error(`model heads ${data.heads.join()} are not ${MODEL_HEADS.join()}`);
  if (data.bias.length !== MODEL_HEADS.length) throw new Error('model bias: one per head');
  const heads = MODEL_HEADS.length;
  const entries = data.features.split(';').filter((entry) => entry !== '');
  const rowOf = new Int32Array(FEATURE_BUCKETS).fill(-1);
  const matrix = new Float64Array(entries.length * heads);
  let rows = 0;
  for (const entry of entries) {
    const [key, row] = entry.split(':');
    const b = parseInt(key ?? '', 36);
    const values = (row ?? '').split(',').map((w) => Number(w) / data.scale);
    if (!(b >= 0 && b < FEATURE_BUCKETS) || values.length !== heads || values.some((v) => !Number.isFinite(v)))
      throw new Error(`model feature entry "${entry.slice(0, 40)}" is malformed`);
    // A bucket listed twice keeps its last row, as it always did.
    const at = (rowOf[b] ?? -1) >= 0 ? (rowOf[b] as number) : rows++ * heads;
    rowOf[b] = at;
    matrix.set(values, at);
  }
  return { data, bias: Float64Array.from(data.bias), rowOf, matrix: matrix.subarray(0, rows * heads), rows };
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** A clause's scores: the probability of each head, and (worked out again only when asked) the features they came from. */
export interface ClauseScores {
  probability: Readonly<Record<ModelHead, number>>;
  readonly features: TextFeatures;
}

// A clause's probabilities depend on its text and the weights alone (not the thresholds); the
// decider rereads clauses every turn. The features (every n-gram's bucket, by word) are worked
// out again only when asked, for a clause over a threshold, which is rare: keeping them for every
// clause made the cache most of the heap the garbage collector copies.
const cache = new WeakMap<Float64Array, Map<string, ClauseScores>>();

/** Scores a canonical clause on every head. Cached per model. */
export function scoreClause(model: HandoffModel, norm: string): ClauseScores {
  let known = cache.get(model.matrix);
  if (known === undefined) cache.set(model.matrix, (known = new Map()));
  const hit = known.get(norm);
  if (hit !== undefined) return hit;
  const { buckets, values } = featureVector(norm);
  const z = Float64Array.from(model.bias);
  const { rowOf, matrix } = model;
  for (let i = 0; i < buckets.length; i++) {
    const at = rowOf[buckets[i] ?? 0] ?? -1;
    if (at < 0) continue;
    const v = values[i] ?? 0;
    for (let h = 0; h < z.length; h++) z[h] = (z[h] ?? 0) + (matrix[at + h] ?? 0) * v;
  }
  const probability = {} as Record<ModelHead, number>;
  MODEL_HEADS.forEach((head, h) => (probability[head] = sigmoid(z[h] ?? 0)));
  const scores = new LazyScores(probability, norm);
  if (known.size >= 20_000) known.clear();
  known.set(norm, scores);
  return scores;
}

class LazyScores implements ClauseScores {
  #features: TextFeatures | undefined;
  constructor(
    readonly probability: Readonly<Record<ModelHead, number>>,
    private readonly norm: string,
  ) {}
  get features(): TextFeatures {
    return (this.#features ??= textFeatures(this.norm));
  }
}

/**
 * The word that carried a head's score most (the largest summed weight of its features): where
 * the scope judgement of a classifier signal starts, as a lexicon match's start does.
 */
export function anchorWord(model: HandoffModel, features: TextFeatures, head: ModelHead): FeatureWord | undefined {
  const h = MODEL_HEADS.indexOf(head);
  let best: FeatureWord | undefined;
  let bestWeight = -Infinity;
  for (const w of features.words) {
    let sum = 0;
    for (const b of w.buckets) {
      const at = model.rowOf[b] ?? -1;
      if (at >= 0) sum += (model.matrix[at + h] ?? 0) * (features.values.get(b) ?? 0);
    }
    if (sum > bestWeight) {
      bestWeight = sum;
      best = w;
    }
  }
  return best;
}
