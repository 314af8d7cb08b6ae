/**
 * Hashed text features for the decider's trained classifier (`handoff-classifier.ts`): word
 * unigrams and bigrams and character 3–5-grams of a canonical clause (`canonicalize`), each
 * hashed into a fixed number of buckets (the "hashing trick"), so the model needs no vocabulary.
 * Pure and deterministic: the same text gives the same features on every machine.
 */

/** The number of hash buckets: 2^18. A model's buckets are indices below this. */
export const FEATURE_BUCKETS = 1 << 18;

/** FNV-1a, 32 bits, over the UTF-16 code units of a string. */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
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
const bucket = (s: string) => fnv1a(s) % FEATURE_BUCKETS;

/**
 * The features of a canonical text. Every feature is credited to a word (a bigram to its second
 * word, a character n-gram to the word it starts in), which is how the classifier says which
 * word carried a decision — the anchor its scope judgement starts from.
 */
export function textFeatures(norm: string): TextFeatures {
  const found: FeatureWord[] = [];
  for (const m of norm.matchAll(WORD)) found.push({ word: m[0], start: m.index, buckets: [] });
  const raw = new Map<number, number>();
  const words: FeatureWord[] = found.map((w, i) => {
    const own: number[] = [];
    const add = (key: string, weight: number) => {
      const b = bucket(key);
      if (!raw.has(b)) {
        raw.set(b, weight);
        own.push(b);
      }
    };
    add(`w:${w.word}`, WORD_WEIGHT);
    add(`b:${found[i - 1]?.word ?? '^'} ${w.word}`, WORD_WEIGHT);
    if (i === found.length - 1) add(`b:${w.word} $`, WORD_WEIGHT);
    // Character n-grams of the word with its edges (" word "): slips and inflections share most of them.
    const padded = ` ${w.word} `;
    for (let n = 3; n <= 5; n++) for (let k = 0; k + n <= padded.length; k++) add(`c:${padded.slice(k, k + n)}`, 1);
    return { ...w, buckets: own };
  });
  let norm2 = 0;
  for (const v of raw.values()) norm2 += v * v;
  const scale = norm2 === 0 ? 0 : 1 / Math.sqrt(norm2);
  const values = new Map<number, number>();
  for (const [b, v] of raw) values.set(b, v * scale);
  return { values, words };
}
