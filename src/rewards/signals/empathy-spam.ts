import { normalize, phrasePattern } from './text.js';

/**
 * Empathy phrases, as regular-expression sources over normalised text: any "sorry" ("I'm sorry",
 * "so sorry", "sorry to hear"), "apologize / apologise / apologies / apologizing", "I
 * [completely / totally / fully / really / do / can / definitely] understand", "that's
 * understandable", "appreciate / thank you for / thanks for your patience / understanding", "I can
 * imagine", "that must be frustrating", "I know how frustrating".
 */
export const EMPATHY_PHRASES: readonly string[] = [
  'sorry',
  'apologi[sz](?:e|ing)|apologies',
  'i (?:completely |totally |fully |really |truly |do |can |definitely )*understand',
  "(?:that's|that is|it's|it is) (?:completely |totally )?understandable",
  '(?:appreciate|thank you for|thanks for) your (?:patience|understanding)',
  'i can (?:only )?imagine',
  '(?:that|this) must be (?:so |very |really )?(?:frustrating|annoying|stressful|difficult|upsetting)',
  'i know how (?:frustrating|annoying|stressful|upsetting)',
];

const EMPATHY = phrasePattern(EMPATHY_PHRASES, 'gu');

/** How many empathy phrases ({@link EMPATHY_PHRASES}) `text` contains, counted without overlap. */
export function countEmpathy(text: string): number {
  return normalize(text).match(EMPATHY)?.length ?? 0;
}

/**
 * Whether the agent's messages spam empathy: with 3 or more messages, more than half of them
 * contain an empathy phrase; or any one message contains 3 or more ({@link countEmpathy}).
 */
export function empathySpam(messages: readonly string[]): boolean {
  let withEmpathy = 0;
  for (const message of messages) {
    const count = countEmpathy(message);
    if (count >= 3) return true;
    if (count > 0) withEmpathy++;
  }
  return messages.length >= 3 && withEmpathy > messages.length / 2;
}
