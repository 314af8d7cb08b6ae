/**
 * Hashed text features for the decider's trained classifier (`handoff-classifier.ts`): word
 * unigrams and bigrams and character 3–5-grams of a canonical clause (`canonicalize`), each
 * hashed into a fixed number of buckets (the "hashing trick"), so the model needs no vocabulary.
 * Pure and deterministic: the same text gives the same features on every machine.
 */
import { allMatches } from './all-matches.js';

/** A canonical text with everything but letters, digits, apostrophes and single spaces removed: how a whole message is scored. */
export const lettersOnly = (s: string): string =>
  s
    .replace(/[^a-z0-9' ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** The number of hash buckets: 2^18. A model's buckets are indices below this. */
export const FEATURE_BUCKETS = 1 << 18;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a, 32 bits, over the UTF-16 code units of a string. */
export function fnv1a(s: string): number {
  return fnvMore(FNV_OFFSET, s, 0, s.length) >>> 0;
}

/** FNV-1a's state `h` carried on over `s[from, to)`: hashing a key in pieces needs no concatenated string. */
function fnvMore(h: number, s: string, from: number, to: number): number {
  for (let i = from; i < to; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, FNV_PRIME);
  }
  return h;
}

/** One word of a clause, where it starts in the canonical text, and the buckets it contributes. */
export interface FeatureWord {
  word: string;
  start: number;
  buckets: readonly number[];
}

/** A clause's features: bucket → value (by kind, then scaled to unit length), and its words. */
export interface TextFeatures {
  values: ReadonlyMap<number, number>;
  words: readonly FeatureWord[];
}

const WORD = /[a-z0-9]+(?:'[a-z]+)?/g;
/** A word or word-pair feature weighs this many character n-grams: there are some fifteen n-grams to a word. */
export const WORD_WEIGHT = 3;
const W_KEY = fnvMore(FNV_OFFSET, 'w:', 0, 2);
const B_KEY = fnvMore(FNV_OFFSET, 'b:', 0, 2);
const C_KEY = fnvMore(FNV_OFFSET, 'c:', 0, 2);

/**
 * Walks the feature keys of a canonical text, word by word and in order, giving each key's hash
 * and weight: the one walk both `textFeatures` and `featureVector` are built from. The keys are
 * `w:word`, `b:previous word`, `b:word $` and `c:n-gram`, hashed piece by piece (the same hash as
 * of the whole key, without building it: this runs on every new clause).
 */
function walkFeatures(norm: string, onWord: (word: string, start: number) => void, add: (h: number, weight: number) => void): void {
  let previous = '^';
  let last: { word: string; start: number } | undefined;
  const visit = (word: string, start: number) => {
    onWord(word, start);
    add(fnvMore(W_KEY, word, 0, word.length), WORD_WEIGHT);
    add(fnvMore(fnvMore(fnvMore(B_KEY, previous, 0, previous.length), ' ', 0, 1), word, 0, word.length), WORD_WEIGHT);
    previous = word;
  };
  const ngrams = (word: string) => {
    // Character n-grams of the word with its edges (" word "): slips and inflections share most of them.
    const padded = ` ${word} `;
    for (let n = 3; n <= 5; n++) for (let k = 0; k + n <= padded.length; k++) add(fnvMore(C_KEY, padded, k, k + n), 1);
  };
  for (const m of allMatches(WORD, norm)) {
    if (last !== undefined) ngrams(last.word);
    last = { word: m[0], start: m.index };
    visit(last.word, last.start);
  }
  if (last === undefined) return;
  // The last word's end-of-text bigram comes before its n-grams, as every word's bigrams do.
  add(fnvMore(fnvMore(B_KEY, last.word, 0, last.word.length), ' $', 0, 2), WORD_WEIGHT);
  ngrams(last.word);
}

const bucketOf = (h: number) => (h >>> 0) % FEATURE_BUCKETS;

/**
 * The features of a canonical text. Every feature is credited to a word (a bigram to its second
 * word, a character n-gram to the word it starts in), which is how the classifier says which
 * word carried a decision — the anchor its scope judgement starts from.
 */
export function textFeatures(norm: string): TextFeatures {
  const raw = new Map<number, number>();
  const words: FeatureWord[] = [];
  let own: number[] = [];
  walkFeatures(
    norm,
    (word, start) => {
      own = [];
      words.push({ word, start, buckets: own });
    },
    (h, weight) => {
      const b = bucketOf(h);
      if (!raw.has(b)) {
        raw.set(b, weight);
        own.push(b);
      }
    },
  );
  const scale = unitScale(raw.values());
  const values = new Map<number, number>();
  for (const [b, v] of raw) values.set(b, v * scale);
  return { values, words };
}

/** A text's features as two parallel arrays, each bucket once, in the order `textFeatures` gives them. */
export interface FeatureVector {
  buckets: readonly number[];
  values: readonly number[];
}

// Which buckets the current `featureVector` call has seen: a stamp per bucket, so no set is built.
let seen: Uint32Array | undefined;
let stamp = 0;

/** The values of `textFeatures(norm)` without its words or maps: what scoring a clause needs, and nothing it does not. */
export function featureVector(norm: string): FeatureVector {
  seen ??= new Uint32Array(FEATURE_BUCKETS);
  if (++stamp === 0xffffffff) {
    seen.fill(0);
    stamp = 1;
  }
  const table = seen;
  const buckets: number[] = [];
  const values: number[] = [];
  walkFeatures(
    norm,
    () => undefined,
    (h, weight) => {
      const b = bucketOf(h);
      if (table[b] !== stamp) {
        table[b] = stamp;
        buckets.push(b);
        values.push(weight);
      }
    },
  );
  const scale = unitScale(values);
  for (let i = 0; i < values.length; i++) values[i] = (values[i] ?? 0) * scale;
  return { buckets, values };
}

/** The factor that scales weights to unit length (0 for none). */
function unitScale(weights: Iterable<number>): number {
  let norm2 = 0;
  for (const v of weights) norm2 += v * v;
  return norm2 === 0 ? 0 : 1 / Math.sqrt(norm2);
}
