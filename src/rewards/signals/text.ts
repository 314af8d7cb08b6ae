/**
 * Text helpers shared by the signals: one normalisation, one tokeniser, one stopword list, and a
 * builder for whole-word phrase patterns. Everything here is built once, at module load.
 */

const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;
// Combining marks and invisible format characters (zero-width spaces and joiners, U+FEFF, soft hyphens).
const MARK_OR_FORMAT = /^[\p{M}\p{Cf}]$/u;
const CURLY_APOSTROPHE = /^[\u2018\u2019\u02bc\u2032\u00b4]$/;
const NON_ASCII = /[\u0080-\uffff]/g;
const WHITESPACE_TO_COLLAPSE = /[\t\n\v\f\r ]{2,}|[\t\n\v\f\r]/g;

/**
 * What a non-ASCII character becomes: letters and digits stay, marks and format characters go,
 * curly apostrophes straighten, anything else (dashes, quotes, symbols, emoji, spaces) is a space.
 * Characters outside the Basic Multilingual Plane are seen as two surrogates, so they are spaces
 * too (NFKC has already turned stylised mathematical letters into plain ones).
 *
 * Why a per-character pass: it is what lets every pattern after it use plain ASCII classes, with
 * all remaining non-ASCII characters known to be letters or digits ({@link WORD_CHAR}). Unicode
 * property classes in the patterns themselves cost 5–10× more per character.
 */
export function foldNonAscii(ch: string): string {
  if (LETTER_OR_DIGIT.test(ch)) return ch;
  if (MARK_OR_FORMAT.test(ch)) return '';
  return CURLY_APOSTROPHE.test(ch) ? "'" : ' ';
}

/**
 * A regular-expression class (as source) of one word character in {@link normalize}d text: a
 * lower-case ASCII letter or digit, or any non-ASCII character (normalisation leaves only letters
 * and digits among them).
 */
export const WORD_CHAR = '[a-z0-9\\u0080-\\uffff]';

const WORD = new RegExp(`${WORD_CHAR}+(?:'${WORD_CHAR}+)*`, 'g');

/**
 * The form every phrase pattern runs on: NFKC (full-width and stylised letters become plain ones),
 * lower case, non-ASCII characters folded ({@link foldNonAscii}: zero-width characters removed,
 * curly apostrophes straightened, dashes and other symbols made spaces), backticks made
 * apostrophes, whitespace runs collapsed to one space, trimmed.
 */
export function normalize(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(NON_ASCII, foldNonAscii)
    .replace(/`/g, "'")
    .replace(WHITESPACE_TO_COLLAPSE, ' ')
    .trim();
}

/**
 * The lower-case words of `text` after {@link normalize}: runs of letters and digits, keeping
 * inner apostrophes ("i'm", "don't"). Other punctuation separates words ("e-mail" → "e", "mail";
 * "$12.99" → "12", "99").
 */
export function tokens(text: string): string[] {
  return normalize(text).match(WORD) ?? [];
}

/**
 * Function words dropped before TF-IDF: articles, pronouns and their contractions, auxiliaries,
 * common prepositions and conjunctions, and the politeness filler "please". Negations ("not",
 * "can't") are kept on purpose: "has been refunded" and "has not been refunded" are different answers.
 */
export const STOPWORDS: ReadonlySet<string> = new Set([
  'a',
  'an',
  'the',
  'and',
  'or',
  'but',
  'if',
  'then',
  'so',
  'of',
  'to',
  'in',
  'on',
  'at',
  'for',
  'with',
  'by',
  'from',
  'as',
  'into',
  'about',
  'up',
  'out',
  'is',
  'are',
  'was',
  'were',
  'be',
  'been',
  'being',
  'am',
  'it',
  'its',
  "it's",
  'this',
  'that',
  "that's",
  'these',
  'those',
  'there',
  "there's",
  'here',
  'i',
  "i'm",
  "i've",
  "i'll",
  "i'd",
  'me',
  'my',
  'we',
  "we're",
  "we've",
  "we'll",
  'our',
  'us',
  'you',
  "you're",
  "you've",
  "you'll",
  "you'd",
  'your',
  'he',
  'she',
  'they',
  'them',
  'their',
  'do',
  'does',
  'did',
  'have',
  'has',
  'had',
  'will',
  'would',
  'can',
  'could',
  'should',
  'shall',
  'may',
  'might',
  'just',
  'also',
  'very',
  'too',
  'what',
  'which',
  'who',
  'when',
  'where',
  'how',
  'all',
  'any',
  'some',
  'please',
  'let',
]);

/**
 * One pattern (run it on {@link normalize}d text) matching any of `alternatives` (regular-expression
 * sources, words separated by single spaces) as whole words: a match neither starts nor ends
 * inside a word. An alternative that starts with an apostrophe ("'s been refunded") continues the
 * word before it instead, so it must follow a word character.
 */
export function phrasePattern(alternatives: readonly string[], flags = ''): RegExp {
  const afterWord = alternatives.filter((a) => a.startsWith("'"));
  const standalone = alternatives.filter((a) => !a.startsWith("'"));
  const branches: string[] = [];
  if (standalone.length > 0) branches.push(`(?<!${WORD_CHAR})(?:${standalone.join('|')})`);
  // The apostrophe first, then the look back: a literal first character keeps the scan fast.
  if (afterWord.length > 0) branches.push(`'(?<=${WORD_CHAR}')(?:${afterWord.map((a) => a.slice(1)).join('|')})`);
  return new RegExp(`(?:${branches.join('|')})(?!${WORD_CHAR})`, flags);
}
