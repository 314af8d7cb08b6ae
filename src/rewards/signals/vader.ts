/**
 * VADER's compound score (Hutto & Gilbert, 2014), computed exactly as `vader-sentiment` 1.1.3
 * computes it, but about 25 times faster.
 *
 * Why a port: the package rebuilds, for every call, a dictionary of every word of the text glued to
 * each of 17 punctuation marks (34 string keys per word) just to strip punctuation from tokens. That
 * costs ≈ 10 µs per word, ≈ 1.4 ms for a dialogue of 150 agent words: the dense reward could not
 * score 1,000 dialogues a second. Here the same token rule is tested directly. Everything else — lexicon
 * (read once from the package's own `vader_lexicon.txt`), boosters, negations, the "but" and "least"
 * rules, idioms, caps and punctuation emphasis — follows the package line by line, quirks included
 * (its case-sensitive negation and idiom checks, its `toFixed(4)` rounding), so scores are
 * identical; `signals.test.ts` checks that against the package on every lexicon entry and on
 * generated texts.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const B_INCR = 0.293;
const B_DECR = -0.293;
const C_INCR = 0.733;
const N_SCALAR = -0.74;

const PUNC_LIST = new Set(['.', '!', '?', ',', ';', ':', '-', "'", '"', '!!', '!!!', '??', '???', '?!?', '!?!', '?!?!', '!?!?']);

const NEGATE = new Set([
  'aint',
  'arent',
  'cannot',
  'cant',
  'couldnt',
  'darent',
  'didnt',
  'doesnt',
  "ain't",
  "aren't",
  "can't",
  "couldn't",
  "daren't",
  "didn't",
  "doesn't",
  'dont',
  'hadnt',
  'hasnt',
  'havent',
  'isnt',
  'mightnt',
  'mustnt',
  'neither',
  "don't",
  "hadn't",
  "hasn't",
  "haven't",
  "isn't",
  "mightn't",
  "mustn't",
  'neednt',
  "needn't",
  'never',
  'none',
  'nope',
  'nor',
  'not',
  'nothing',
  'nowhere',
  'oughtnt',
  'shant',
  'shouldnt',
  'uhuh',
  'wasnt',
  'werent',
  "oughtn't",
  "shan't",
  "shouldn't",
  'uh-uh',
  "wasn't",
  "weren't",
  'without',
  'wont',
  'wouldnt',
  "won't",
  "wouldn't",
  'rarely',
  'seldom',
  'despite',
]);

const BOOSTERS = new Map<string, number>([
  ...[
    'absolutely',
    'amazingly',
    'awfully',
    'completely',
    'considerably',
    'decidedly',
    'deeply',
    'effing',
    'enormously',
    'entirely',
    'especially',
    'exceptionally',
    'extremely',
    'fabulously',
    'flipping',
    'flippin',
    'fricking',
    'frickin',
    'frigging',
    'friggin',
    'fully',
    'fucking',
    'greatly',
    'hella',
    'highly',
    'hugely',
    'incredibly',
    'intensely',
    'majorly',
    'more',
    'most',
    'particularly',
    'purely',
    'quite',
    'really',
    'remarkably',
    'so',
    'substantially',
    'thoroughly',
    'totally',
    'tremendously',
    'uber',
    'unbelievably',
    'unusually',
    'utterly',
    'very',
  ].map((w): [string, number] => [w, B_INCR]),
  ...[
    'almost',
    'barely',
    'hardly',
    'just enough',
    'kind of',
    'kinda',
    'kindof',
    'kind-of',
    'less',
    'little',
    'marginally',
    'occasionally',
    'partly',
    'scarcely',
    'slightly',
    'somewhat',
    'sort of',
    'sorta',
    'sortof',
    'sort-of',
  ].map((w): [string, number] => [w, B_DECR]),
]);

const IDIOMS = new Map<string, number>([
  ['the shit', 3],
  ['the bomb', 3],
  ['bad ass', 1.5],
  ['yeah right', -2],
  ['cut the mustard', 2],
  ['kiss of death', -1.5],
  ['hand to mouth', -2],
]);

/** The lexicon, as the package's Python original reads it: the first two tab-separated fields of each line. */
const LEXICON: ReadonlyMap<string, number> = (() => {
  const path = createRequire(import.meta.url).resolve('vader-sentiment/vader_lexicon.txt');
  const lexicon = new Map<string, number>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const [word, measure] = line.trim().split('\t');
    if (word !== undefined && word !== '' && measure !== undefined) lexicon.set(word, Number(measure));
  }
  return lexicon;
})();

// Python's `isupper` as the package writes it, /^[^a-z]*[A-Z]+[^a-z]*$/: no ASCII lower-case letter, at least one upper-case one.
function isUpper(word: string): boolean {
  let capital = false;
  for (let k = 0; k < word.length; k++) {
    const code = word.charCodeAt(k);
    if (code >= 97 && code <= 122) return false;
    if (code >= 65 && code <= 90) capital = true;
  }
  return capital;
}

const negated = (word: string): boolean => NEGATE.has(word) || word.includes("n't");

// ASCII punctuation (the characters of the package's REGEX_REMOVE_PUNCTUATION), by char code.
const IS_PUNCTUATION = new Uint8Array(128);
for (const ch of '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~') IS_PUNCTUATION[ch.charCodeAt(0)] = 1;
const isPunctuation = (code: number): boolean => code < 128 && IS_PUNCTUATION[code] === 1;

// What JavaScript's \s matches (the package splits on /\s/).
const IS_SPACE = new Set([9, 10, 11, 12, 13, 32, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff]);
const isSpace = (code: number): boolean => IS_SPACE.has(code) || (code >= 0x2000 && code <= 0x200a);

function hasPunctuation(text: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (isPunctuation(text.charCodeAt(k))) return true;
  return false;
}

/**
 * The package's `SentiText.words_and_emoticons`: the whitespace tokens longer than one character,
 * a token made of a mark from its punctuation list and a word (`!great`, `great!!`) replaced by
 * the word. The package decides that by building, for every call, the string of each
 * punctuation-free word glued to each mark and looking tokens up among them (its hot spot). The
 * same condition, tested directly: the token's leading (else trailing) run of ASCII punctuation is
 * one of the marks, and the rest is longer than one character and holds no ASCII punctuation —
 * such a rest is always among the package's punctuation-free words, since the token itself, once
 * stripped of punctuation, is that rest.
 */
function wordsAndEmoticons(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let end = 0; end <= text.length; end++) {
    if (end < text.length && !isSpace(text.charCodeAt(end))) continue;
    if (end - start > 1) {
      let lead = start;
      while (lead < end && isPunctuation(text.charCodeAt(lead))) lead++;
      let trail = end;
      if (lead === start) while (trail > start && isPunctuation(text.charCodeAt(trail - 1))) trail--;
      if (lead > start && end - lead > 1 && PUNC_LIST.has(text.slice(start, lead)) && !hasPunctuation(text, lead, end)) {
        out.push(text.slice(lead, end));
      } else if (trail < end && trail - start > 1 && PUNC_LIST.has(text.slice(trail, end)) && !hasPunctuation(text, start, trail)) {
        out.push(text.slice(start, trail));
      } else {
        out.push(text.slice(start, end));
      }
    }
    start = end + 1;
  }
  return out;
}

/** A text's words with what the rules ask of each, computed once. */
interface Words {
  /** As written: the negation, "never", "so"/"this", idiom and "but" checks compare these, case-sensitively, as the package does. */
  readonly raw: readonly string[];
  readonly lower: readonly string[];
  readonly upper: readonly boolean[];
  /** The lexicon valence of each lower-cased word, or undefined. */
  readonly valence: readonly (number | undefined)[];
  /** Some but not all words are in capitals. */
  readonly isCapDiff: boolean;
}

function scalarIncDec(w: Words, k: number, valence: number): number {
  const booster = BOOSTERS.get(w.lower[k] ?? '');
  if (booster === undefined) return 0;
  let scalar = valence < 0 ? -booster : booster;
  if (w.isCapDiff && w.upper[k] === true) scalar += valence > 0 ? C_INCR : -C_INCR;
  return scalar;
}

function neverCheck(valence: number, raw: readonly string[], startI: number, i: number): number {
  const one = raw[i - 1] ?? '';
  const two = raw[i - 2] ?? '';
  if (startI === 0) {
    if (negated(one)) valence *= N_SCALAR;
  } else if (startI === 1) {
    if (two === 'never' && (one === 'so' || one === 'this')) valence *= 1.5;
    else if (negated(two)) valence *= N_SCALAR;
  } else {
    const three = raw[i - 3] ?? '';
    if ((three === 'never' && (two === 'so' || two === 'this')) || one === 'so' || one === 'this') valence *= 1.25;
    else if (negated(three)) valence *= N_SCALAR;
  }
  return valence;
}

// Only reached with i ≥ 3 (the third preceding word exists).
function idiomsCheck(valence: number, raw: readonly string[], i: number): number {
  const zero = raw[i] ?? '';
  const one = raw[i - 1] ?? '';
  const two = raw[i - 2] ?? '';
  const three = raw[i - 3] ?? '';
  const twoOne = `${two} ${one}`;
  const threeTwo = `${three} ${two}`;
  for (const sequence of [`${one} ${zero}`, `${two} ${one} ${zero}`, twoOne, `${three} ${two} ${one}`, threeTwo]) {
    const idiom = IDIOMS.get(sequence);
    if (idiom !== undefined) {
      valence = idiom;
      break;
    }
  }
  if (raw.length - 1 > i) valence = IDIOMS.get(`${zero} ${raw[i + 1] ?? ''}`) ?? valence;
  if (raw.length - 1 > i + 1) valence = IDIOMS.get(`${zero} ${raw[i + 1] ?? ''} ${raw[i + 2] ?? ''}`) ?? valence;
  if (BOOSTERS.has(threeTwo) || BOOSTERS.has(twoOne)) valence += B_DECR;
  return valence;
}

function leastCheck(valence: number, w: Words, i: number): number {
  if (i === 0 || w.lower[i - 1] !== 'least' || w.valence[i - 1] !== undefined) return valence;
  if (i > 1) {
    const twoBefore = w.lower[i - 2];
    return twoBefore !== 'at' && twoBefore !== 'very' ? valence * N_SCALAR : valence;
  }
  return valence * N_SCALAR;
}

function valenceAt(w: Words, i: number): number {
  const lexical = w.valence[i];
  if (lexical === undefined) return 0;
  let valence = lexical;
  if (w.upper[i] === true && w.isCapDiff) valence += valence > 0 ? C_INCR : -C_INCR;
  for (let startI = 0; startI < 3; startI++) {
    const k = i - (startI + 1);
    if (k >= 0 && w.valence[k] === undefined) {
      let s = scalarIncDec(w, k, valence);
      if (startI === 1 && s !== 0) s *= 0.95;
      else if (startI === 2 && s !== 0) s *= 0.9;
      valence += s;
      valence = neverCheck(valence, w.raw, startI, i);
      if (startI === 2) valence = idiomsCheck(valence, w.raw, i);
    }
  }
  return leastCheck(valence, w, i);
}

/** VADER's compound polarity of `text`, in [-1, 1], rounded to 4 decimals as the package does; 0 for text without words. */
export function vaderCompound(text: string): number {
  const raw = wordsAndEmoticons(text);
  const n = raw.length;
  if (n === 0) return 0;
  const lower = raw.map((word) => word.toLowerCase());
  const upper = raw.map(isUpper);
  let upperCount = 0;
  for (const u of upper) if (u) upperCount++;
  const w: Words = { raw, lower, upper, valence: lower.map((word) => LEXICON.get(word)), isCapDiff: upperCount > 0 && upperCount < n };

  const sentiments: number[] = [];
  for (let i = 0; i < n; i++) {
    const kindOf = i < n - 1 && lower[i] === 'kind' && lower[i + 1] === 'of';
    sentiments.push(kindOf || BOOSTERS.has(lower[i] ?? '') ? 0 : valenceAt(w, i));
  }

  // A "but" halves what comes before it and strengthens what comes after (first "but", or "BUT").
  let but = raw.indexOf('but');
  if (but === -1) but = raw.indexOf('BUT');
  if (but !== -1) {
    for (let i = 0; i < n; i++) {
      if (i < but) sentiments[i] = (sentiments[i] ?? 0) * 0.5;
      else if (i > but) sentiments[i] = (sentiments[i] ?? 0) * 1.5;
    }
  }

  let sum = 0;
  for (const s of sentiments) sum += s;
  const exclamations = Math.min(4, countChar(text, '!'));
  const questions = countChar(text, '?');
  const emphasis = exclamations * 0.292 + (questions > 1 ? (questions <= 3 ? questions * 0.18 : 0.96) : 0);
  if (sum > 0) sum += emphasis;
  else if (sum < 0) sum -= emphasis;
  const compound = Math.min(1, Math.max(-1, sum / Math.sqrt(sum * sum + 15)));
  return parseFloat(compound.toFixed(4));
}

function countChar(text: string, ch: string): number {
  let n = 0;
  for (let at = text.indexOf(ch); at !== -1; at = text.indexOf(ch, at + 1)) n++;
  return n;
}
