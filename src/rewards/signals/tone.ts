import { vaderCompound } from './vader.js';

/**
 * The tone of `text` in [0, 1]: VADER's compound polarity c ∈ [-1, 1] mapped to (c + 1) / 2, so
 * 0.5 is neutral (and text without words, including the empty string, scores 0.5). Identical to
 * `vader-sentiment`'s `polarity_scores(text).compound`, computed by a faster port (see `vader.ts`).
 */
export function tone(text: string): number {
  return (vaderCompound(text) + 1) / 2;
}
