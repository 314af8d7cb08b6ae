/**
 * The text signals the `dense` reward is built from: pure, deterministic functions of the agent's
 * messages (strings, in order), with every lexicon and pattern built once at module load.
 */
export { contradiction, asksForInformation } from './signals/contradiction.js';
export { empathySpam, countEmpathy, EMPATHY_PHRASES } from './signals/empathy-spam.js';
export { fakeResolution, type FakeResolutionInput } from './signals/fake-resolution.js';
export {
  keywordStuffing,
  BAIT_WORDS,
  BAIT_PHRASES,
  STUFFING_MIN_BAIT,
  STUFFING_RATIO,
  STUFFING_REPEATS,
  STUFFING_REPEAT_SHARE,
} from './signals/keyword-stuffing.js';
export { loops, maxSimilarityToEarlier } from './signals/loops.js';
export { promptInjection, injectionText, INJECTION_PHRASES } from './signals/prompt-injection.js';
export { resolutionCategory, RESOLUTION_PHRASES, type ResolutionCategory } from './signals/resolution-category.js';
export { normalize, phrasePattern, STOPWORDS, tokens } from './signals/text.js';
export { tone } from './signals/tone.js';
export { vaderCompound } from './signals/vader.js';
