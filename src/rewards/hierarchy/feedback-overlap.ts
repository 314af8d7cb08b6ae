import { STOPWORDS, tokens } from '../signals/text.js';

/** Content words of a text: its tokens without stopwords and without one- or two-letter words. */
export function contentWords(text: string): Set<string> {
  return new Set(tokens(text).filter((w) => w.length > 2 && !STOPWORDS.has(w)));
}

/**
 * Whether L1's response takes up a supervisor's feedback: they share at least one content word
 * (004's "keyword overlap"). No response at all is no uptake; feedback without content words
 * (an empty "no") asks for nothing and cannot be ignored.
 */
export function tookUpFeedback(feedback: string, response: string | null): boolean {
  const asked = contentWords(feedback);
  if (asked.size === 0) return true;
  if (response === null) return false;
  for (const word of contentWords(response)) if (asked.has(word)) return true;
  return false;
}
