import { STOPWORDS, tokens } from './text.js';

/** A message as TF-IDF sees it: term ids with their counts, and all its words (for exact repeats). */
interface Doc {
  readonly counts: ReadonlyMap<number, number>;
  readonly words: string;
}

/**
 * TF-IDF vectors of `messages`, weighted over those same messages: term frequency (the raw count)
 * times the smoothed idf ln((1 + N) / (1 + df)) + 1, where N is the number of messages and df the
 * number containing the term; each vector L2-normalised (a message without terms stays zero).
 * Terms are numbered per call, so each vector is a dense array over the dialogue's vocabulary
 * (a few hundred terms) and a cosine is one pass over the shorter message's terms.
 */
function tfidf(messages: readonly string[]): { docs: Doc[]; vectors: Float64Array[] } {
  const ids = new Map<string, number>();
  const df: number[] = [];
  const docs = messages.map((message): Doc => {
    const all = tokens(message);
    const counts = new Map<number, number>();
    for (const word of all) {
      if (STOPWORDS.has(word)) continue;
      let id = ids.get(word);
      if (id === undefined) {
        id = ids.size;
        ids.set(word, id);
        df.push(0);
      }
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    for (const id of counts.keys()) df[id] = (df[id] ?? 0) + 1;
    return { counts, words: all.join(' ') };
  });
  const n = messages.length;
  const vectors = docs.map((d) => {
    const vector = new Float64Array(ids.size);
    let norm = 0;
    for (const [id, count] of d.counts) {
      const weight = count * (Math.log((1 + n) / (1 + (df[id] ?? 0))) + 1);
      vector[id] = weight;
      norm += weight * weight;
    }
    norm = Math.sqrt(norm);
    for (const id of d.counts.keys()) vector[id] = (vector[id] ?? 0) / norm;
    return vector;
  });
  return { docs, vectors };
}

function cosine(a: Doc, va: Float64Array, b: Doc, vb: Float64Array): number {
  const [small, vs, vl] = a.counts.size <= b.counts.size ? [a, va, vb] : [b, vb, va];
  let dot = 0;
  for (const id of small.counts.keys()) dot += (vs[id] ?? 0) * (vl[id] ?? 0);
  return Math.min(1, dot);
}

/**
 * For each agent message, its highest TF-IDF cosine similarity to any EARLIER agent message (0
 * for the first). Words are {@link tokens} without {@link STOPWORDS}; idf is computed over these
 * messages only, smoothed as ln((1 + N) / (1 + df)) + 1; vectors are L2-normalised, so the cosine
 * is their dot product, in [0, 1]. Two messages with the same words (all of them, stopwords
 * included, so that a repeated "Are you there?" counts) score exactly 1; a message without words
 * scores 0 against everything else.
 */
export function maxSimilarityToEarlier(messages: readonly string[]): number[] {
  const { docs, vectors } = tfidf(messages);
  const empty = new Float64Array(0);
  return docs.map((d, i) => {
    let best = 0;
    for (let j = 0; j < i && best < 1; j++) {
      const earlier = docs[j];
      if (earlier === undefined) continue;
      const similarity = d.words !== '' && earlier.words === d.words ? 1 : cosine(d, vectors[i] ?? empty, earlier, vectors[j] ?? empty);
      if (similarity > best) best = similarity;
    }
    return best;
  });
}

/**
 * Indices of agent messages that loop: whose {@link maxSimilarityToEarlier} exceeds `threshold`
 * (strictly). A message repeated verbatim loops; two different answers on the same topic do not.
 */
export function loops(messages: readonly string[], threshold = 0.85): number[] {
  const found: number[] = [];
  maxSimilarityToEarlier(messages).forEach((similarity, i) => {
    if (similarity > threshold) found.push(i);
  });
  return found;
}
