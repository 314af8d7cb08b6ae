/**
 * Reading a number that a customer typed digit by digit, with separators, or in words: "4 8 2 9
 * 1 3", "48-29-13", "seven three seven", "siete tres siete", "sept trois sept", "forty-eight
 * twenty-nine thirteen", "double four one". Redaction needs the digits to know what it is looking
 * at (a 3-digit CVV, a 6-digit code, a 16-digit card) and the span to know what to replace.
 */

// Digit words of the languages customers most often write to a European or American help desk
// in. Articles that double as "one" (un, une, ein, een, uno, um) count only inside a run of other
// digits, which the callers enforce through a minimum length.
const DIGIT_WORDS: Readonly<Record<string, string>> = Object.fromEntries(
  (
    [
      ['0', 'zero oh nought nil cero zéro null nul'],
      ['1', 'one uno una un une eins ein um uma een één'],
      ['2', 'two dos deux zwei zwo due dois duas twee'],
      ['3', 'three tres trois drei tre três drie'],
      ['4', 'four cuatro quatre vier quattro quatro'],
      ['5', 'five cinco cinq fünf fuenf cinque vijf'],
      ['6', 'six seis sechs sei zes'],
      ['7', 'seven siete sept sieben sette sete zeven'],
      ['8', 'eight ocho huit acht otto oito'],
      ['9', 'nine nueve neuf neun nove negen'],
    ] as const
  ).flatMap(([digit, words]) => words.split(' ').map((w) => [w, digit])),
);

const TEENS: Readonly<Record<string, string>> = {
  ten: '10',
  eleven: '11',
  twelve: '12',
  thirteen: '13',
  fourteen: '14',
  fifteen: '15',
  sixteen: '16',
  seventeen: '17',
  eighteen: '18',
  nineteen: '19',
};
const TENS: Readonly<Record<string, string>> = {
  twenty: '2',
  thirty: '3',
  forty: '4',
  fourty: '4',
  fifty: '5',
  sixty: '6',
  seventy: '7',
  eighty: '8',
  ninety: '9',
};
const REPEAT: Readonly<Record<string, number>> = { double: 2, triple: 3, doble: 2, doppel: 2 };

/** A run of digits read from text: the digits, where the run starts and ends, and whether words were part of it. */
export interface DigitRun {
  digits: string;
  start: number;
  end: number;
  spelled: boolean;
}

// One token: a group of digits, or a word. Letters with accents count (`três`, `zéro`, `fünf`).
const TOKEN = /(?<digits>\d{1,19})|(?<word>[A-Za-zÀ-ÖØ-öø-ÿ]+)/y;
// What may stand between two tokens of one number: blanks, and one dash, slash, underscore or
// middle dot, or a dot or comma glued to the next token ("4242.4242"). A dot or comma with a blank
// after it ends a sentence or a list item when digits follow ("code 482913. 7731 is my order"),
// and is only a pause between spelled digits ("siete, tres, siete").
const BETWEEN = /[^\S\n]*(?:[-–—/·_][^\S\n]*|[.,](?=[\p{L}\p{N}]))?/uy;
const PAUSE = /[^\S\n]*[.,;][^\S\n]+/y;

interface Token {
  kind: 'digits' | 'word';
  text: string;
  start: number;
  end: number;
}

function tokenAt(text: string, at: number): Token | null {
  TOKEN.lastIndex = at;
  const m = TOKEN.exec(text);
  if (!m) return null;
  const end = at + m[0].length;
  // A token glued to more letters or digits ("4242abc", "sevenfold") is part of something else.
  if (end < text.length && /[\p{L}\p{N}]/u.test(text.charAt(end)) && m.groups?.['digits'] === undefined) return null;
  return { kind: m.groups?.['digits'] !== undefined ? 'digits' : 'word', text: m[0], start: at, end };
}

/**
 * Reads the run of digits and number words that starts at `at` (after optional blanks): digits
 * in groups with any one-character separator, digit words in seven languages, English teens,
 * tens ("forty-eight") and hundreds ("seven hundred thirty-seven"), and "double"/"triple".
 * Returns null when no digit starts there. `maxTokens` bounds the work on long inputs.
 */
export function readDigitRun(text: string, at: number, maxTokens = 24): DigitRun | null {
  let pos = at;
  while (pos < text.length && /[^\S\n]/.test(text.charAt(pos))) pos += 1;
  if (pos > 0 && /[\p{L}\p{N}]/u.test(text.charAt(pos - 1))) return null;
  const start = pos;
  let digits = '';
  let end = start;
  let spelled = false;
  let repeat = 1;
  for (let n = 0; n < maxTokens; n += 1) {
    const token = tokenAt(text, pos);
    if (!token) break;
    const word = token.text.toLowerCase();
    let value: string | null = null;
    let next = token.end;
    if (token.kind === 'digits') value = token.text;
    else if (REPEAT[word] !== undefined && repeat === 1) {
      repeat = REPEAT[word] ?? 1;
      pos = skipBetween(text, token.end);
      continue;
    } else if (DIGIT_WORDS[word] !== undefined || TEENS[word] !== undefined || TENS[word] !== undefined) {
      const read = readWordNumber(text, token);
      value = read.value;
      next = read.end;
      spelled = true;
    }
    if (value === null) break;
    digits += value.repeat(repeat);
    repeat = 1;
    end = next;
    pos = skipBetween(text, next);
    if (pos === next && token.kind === 'word') pos = pauseBeforeWord(text, next);
  }
  if (digits === '') return null;
  // A digit glued to a letter after it ("482913abc") is an id, not a number.
  if (end < text.length && /[\p{L}\p{N}]/u.test(text.charAt(end))) return null;
  return { digits, start, end, spelled };
}

/** After a spelled digit, a ", " or ". " before another number word is a pause inside the run. */
function pauseBeforeWord(text: string, at: number): number {
  PAUSE.lastIndex = at;
  const m = PAUSE.exec(text);
  if (!m) return at;
  const token = tokenAt(text, at + m[0].length);
  return token?.kind === 'word' && isNumberWord(token.text) ? at + m[0].length : at;
}

function skipBetween(text: string, at: number): number {
  BETWEEN.lastIndex = at;
  const m = BETWEEN.exec(text);
  return at + (m ? m[0].length : 0);
}

/** One spelled number: a digit word, a teen, a ten with an optional unit, or a unit with "hundred" after it. */
function readWordNumber(text: string, first: Token): { value: string; end: number } {
  const word = first.text.toLowerCase();
  const teen = TEENS[word];
  if (teen) return { value: teen, end: first.end };
  const ten = TENS[word];
  if (ten) {
    const unit = peekWord(text, first.end);
    const u = unit ? DIGIT_WORDS[unit.word] : undefined;
    // "forty-eight" is 48, "forty" alone 40; a zero word after a ten is read digit by digit.
    if (unit && u !== undefined && u !== '0') return { value: ten + u, end: unit.end };
    return { value: `${ten}0`, end: first.end };
  }
  const digit = DIGIT_WORDS[word] ?? '';
  const hundred = peekWord(text, first.end);
  if (hundred?.word === 'hundred' && digit !== '0') {
    let end = hundred.end;
    let rest = peekWord(text, end);
    if (rest?.word === 'and') {
      end = rest.end;
      rest = peekWord(text, end);
    }
    if (rest && (TEENS[rest.word] || TENS[rest.word] || DIGIT_WORDS[rest.word])) {
      const tail = readWordNumber(text, { kind: 'word', text: rest.word, start: rest.start, end: rest.end });
      return { value: digit + tail.value.padStart(2, '0'), end: tail.end };
    }
    return { value: `${digit}00`, end };
  }
  return { value: digit, end: first.end };
}

function peekWord(text: string, at: number): { word: string; start: number; end: number } | null {
  const pos = skipBetween(text, at);
  const token = tokenAt(text, pos);
  return token?.kind === 'word' ? { word: token.text.toLowerCase(), start: token.start, end: token.end } : null;
}

/** True when `word` (any case) is a number word that {@link readDigitRun} reads. */
export function isNumberWord(word: string): boolean {
  const w = word.toLowerCase();
  return DIGIT_WORDS[w] !== undefined || TEENS[w] !== undefined || TENS[w] !== undefined || REPEAT[w] !== undefined;
}
