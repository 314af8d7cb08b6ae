/**
 * Label-anchored windows for digit values: after a word that names a secret ("CVV", "código de
 * seguridad", "verification code", "PIN", "card number"), the next few words are read for its
 * value, however it is written: digits with any separators or spelled out ("7 3 7", "seven three
 * seven", "sept trois sept"). A value written before its label ("482913 is my code") is found
 * too. Each window is short and read once, so the cost is linear in the text. Passwords and keys,
 * whose values are words, are read by `redact-word-windows.ts`.
 */

import { isNumberWord, readDigitRun } from './redact-number-words.js';
import { isRedactionMarker, redactionMarker, type RedactionKind, type RedactionCounter } from './redact-fields.js';

type Counter = RedactionCounter;

/** No letter, digit or underscore before: a label's start (Unicode-aware; use with the `u` flag). */
export const B = String.raw`(?<![\p{L}\p{N}_])`;
/** No letter, digit or underscore after: a label's end. */
export const E = String.raw`(?![\p{L}\p{N}_])`;

// "code" alone labels a one-time code, except in the everyday phrases where it does not.
export const NOT_SECRET_CODE_WORDS =
  'zip|postal|post|area|country|airport|promo|promotion|promotional|discount|coupon|voucher|gift|referral|reservation|booking|confirmation|product|item|tracking|error|status|response|exit|sort|swift|bic|bank|routing|dial|iata|icao|fare|class|tax|hs|sku|colou?r|qr|bar|source|region|language|currency|reason|access|event|offer|campaign|store|branch|station|locker|door|gate|seat|dress|postcode|zipcode|machine|morse|penal|civil|legal|building';

/** A family of labels that all introduce one kind of value, with the value's length in digits. */
interface CodeFamily {
  kind: Extract<RedactionKind, 'cvv' | 'otp' | 'password' | 'card'>;
  label: string;
  min: number;
  max: number;
}

const CODE_FAMILIES: readonly CodeFamily[] = [
  {
    kind: 'cvv',
    label: [
      'cvv2?',
      'cvc2?',
      'cvn',
      'csc',
      'cid',
      String.raw`(?:card[ -])?(?:security|sec)[ -](?:code|number|digits)`,
      String.raw`(?:little|small|short|tiny)[ -](?:code|number)(?: on the back)?`,
      String.raw`back of (?:the |my |your )?card`,
      String.raw`card[ -]verification(?:[ -](?:code|value|number))?`,
      String.raw`(?:(?:three|four|3|4)[ -])?(?:digit[ -])?(?:security[ -])?(?:code|digits|numbers?) (?:on|at|from) the back(?: of (?:the|my|your) card)?`,
      String.raw`(?:three|four|3|4)[ -]digit(?:[ -](?:security[ -])?code)`,
      String.raw`c[oó]digo de seguridad`,
      String.raw`c[oó]digo de seguran[cç]a`,
      String.raw`code de s[eé]curit[eé]`,
      String.raw`cryptogramme(?: visuel)?`,
      String.raw`sicherheitscode`,
      String.raw`(?:karten)?pr[uü]f(?:nummer|ziffer|ziffern|code)`,
      String.raw`codice di sicurezza`,
      String.raw`(?:beveiligings|veiligheids)code`,
    ].join('|'),
    min: 3,
    max: 4,
  },
  {
    kind: 'otp',
    label: [
      String.raw`one[- ]?time[- ](?:pass)?(?:code|password|pin)`,
      String.raw`verification|verify`,
      String.raw`(?:six|seven|eight|6|7|8)[ -]digits?(?: code| number| pin)?`,
      String.raw`digits (?:you|we|they) (?:sent|texted|emailed)`,
      'otp',
      'totp',
      String.raw`(?:verification|verify|authentication|auth|2fa|mfa|two[- ]factor|login|log[- ]in|sign[- ]?in|sms|text|security|access|confirmation)[ -]code`,
      'passcode',
      String.raw`(?<!(?:${NOT_SECRET_CODE_WORDS})[\s_:-]{0,3})code`,
      String.raw`c[oó]digo(?: de (?:verificaci[oó]n|confirmaci[oó]n|acceso|verifica[cç][aã]o|confirma[cç][aã]o|un solo uso))?`,
      String.raw`code de (?:v[eé]rification|confirmation|validation)`,
      String.raw`(?:best[aä]tigungs|verifizierungs|einmal|sms[- ]?|anmelde)code`,
      String.raw`codice(?: (?:di verifica|di conferma|otp|monouso))?`,
      String.raw`(?:verificatie|bevestigings|sms)code`,
      String.raw`(?:m|sms[- ]?)?tan`,
    ].join('|'),
    min: 4,
    max: 8,
  },
  {
    kind: 'password',
    label: String.raw`pin(?:[ -]?(?:code|number|nummer))?|geheimzahl|code pin|c[oó]digo pin`,
    min: 4,
    max: 8,
  },
  {
    kind: 'card',
    label: String.raw`(?:credit |debit )?card(?: number| no\.?| num| #)|(?:credit|debit) card|cc(?: number| no\.?| #)|pan|n[uú]mero de (?:la )?tarjeta|tarjeta|num[eé]ro de (?:la )?carte|carte(?: bancaire| bleue)?|(?:kredit)?kartennummer|kreditkarte|numero della carta|carta(?: di credito)?|n[uú]mero do cart[aã]o|cart[aã]o|kaartnummer`,
    min: 13,
    max: 19,
  },
];

// Words that may stand between a label and its value: "the code I got was 482913", "mi código es
// 4 8 2 9 1 3", "le code que j'ai reçu est 482913", "der Code lautet 482913".
const FILLERS = new Set(
  (
    "you i we they u sent send texted text emailed got get received receive see saw have has just me number no no. num nr now here that which it it's its ’s 's " +
    'the a code for my your account is was are be will should would please then so ok okay well um uh actually again ' +
    'digits digit numbers is: are: reads read say says said shows show from sms text message email app phone ' +
    'es era mi tu su el la de que me llegó llego recibí recibi número numero ' +
    "est c'est mon ma votre ton le du j'ai reçu recu numéro voici " +
    'ist lautet war mein meine dein ihr der die das hier nummer von lautete ' +
    'è e il mio mia di della ecco ' +
    'é meu minha o do da ' +
    'mijn het van'
  ).split(' '),
);
// For a CVV the way to the value often goes over the card: "the numbers on the back of my card are 737".
const CVV_FILLERS = new Set('on at from back of card the my'.split(' '));
/** True for a written date ("12.05.2024", "2024-05-15", "05/2027"): a code's digits are no day, month and year. */
function looksLikeDate(text: string): boolean {
  const ymd = /^(\d{4})[-./](\d{1,2})[-./](\d{1,2})$/.exec(text);
  if (ymd) return Number(ymd[2]) <= 12 && Number(ymd[3]) <= 31;
  const dmy = /^(\d{1,2})[-./](\d{1,2})[-./](\d{2}|\d{4})$/.exec(text);
  if (dmy) {
    const [a, b] = [Number(dmy[1]), Number(dmy[2])];
    return a <= 31 && b <= 31 && (a <= 12 || b <= 12);
  }
  const my = /^(\d{1,2})[-./](\d{4})$/.exec(text);
  return my !== null && Number(my[1]) <= 12;
}

const WORD = /[^\S\n]*(?:(?<word>[\p{L}'’.]*[\p{L}](?:[:'’]|\b)?)|(?<punct>[:=#>→\-–—"'“”‘’«»`]+))/uy;

/** A replacement found in the text: the span and its marker. */
export interface Hit {
  start: number;
  end: number;
  marker: string;
  kind: RedactionKind;
}

const familyPatterns = CODE_FAMILIES.map((family) => ({
  family,
  pattern: new RegExp(`${B}(?:${family.label})${E}`, 'giu'),
}));

/** The digit value inside the window after a label, when the words up to it are only fillers. */
function valueAfter(text: string, from: number, family: CodeFamily): Hit | null {
  let pos = from;
  for (let step = 0; step < 14 && pos < text.length; step += 1) {
    const run = startsNumber(text, pos) ? readDigitRun(text, pos) : null;
    if (run) return hitFor(text, run, family);
    const aside = skipAside(text, pos);
    if (aside !== pos) {
      pos = aside;
      continue;
    }
    WORD.lastIndex = pos;
    const m = WORD.exec(text);
    if (!m || m[0].trim() === '') return null;
    const word = m.groups?.['word']?.toLowerCase().replace(/[:.]$/, '');
    if (word !== undefined && !FILLERS.has(word) && !(family.kind === 'cvv' && CVV_FILLERS.has(word))) return null;
    pos += m[0].length;
  }
  return null;
}

// A short aside between a label and its value: "card security code (CVV): 737".
const ASIDE = /[^\S\n]*\([^()\n]{1,40}\)/y;
/** Where the text goes on after an aside at `at`, or `at` when there is none. */
export function skipAside(text: string, at: number): number {
  ASIDE.lastIndex = at;
  return ASIDE.exec(text) ? ASIDE.lastIndex : at;
}

/** True when a digit or a number word starts at `at` (after blanks). */
function startsNumber(text: string, at: number): boolean {
  const m = /[^\S\n]*(?:(\d)|([\p{L}]+))/uy;
  m.lastIndex = at;
  const found = m.exec(text);
  if (!found) return false;
  return found[1] !== undefined || (found[2] !== undefined && isNumberWord(found[2]));
}

function hitFor(text: string, run: { digits: string; start: number; end: number }, family: CodeFamily): Hit | null {
  const n = run.digits.length;
  if (n < family.min || n > family.max) return null;
  if (looksLikeDate(text.slice(run.start, run.end))) return null;
  const marker = family.kind === 'card' ? redactionMarker('card', run.digits.slice(-4)) : redactionMarker(family.kind);
  return { start: run.start, end: run.end, marker, kind: family.kind };
}

// "482913 is my code", "7 3 7 is the CVV", "seven three seven = cvv".
const BEFORE_LABEL =
  /(?:[^\S\n]*[:=\-–—(][^\S\n]*(?:(?:that's|that is|this is|it's|which is|is|was)[^\S\n]+)?|[^\S\n]+(?:that's|that is|this is|it's|which is|is|was|are|es|est|c'est|ist|è|é|e)[^\S\n]+)(?:(?:my|your|the|our|mi|tu|el|la|mon|ma|votre|le|mein|meine|dein|ihr|der|die|das|il|mio|tuo|o|meu|seu|a|minha|mijn|uw|je|de|het)[^\S\n]+)?$/iu;

/** The value written just before a label ("482913 is my code"), if any. */
function valueBefore(text: string, labelStart: number, family: CodeFamily): Hit | null {
  if (family.kind === 'card') return null;
  const windowStart = Math.max(0, labelStart - 80);
  // "482913 is your Google verification code": a name may stand before the label.
  const prefix = text.slice(windowStart, labelStart).replace(/(?<=[^\S\n])[A-Z][\w-]{1,20}[^\S\n]+$/, '');
  const connector = BEFORE_LABEL.exec(prefix);
  if (!connector) return null;
  const runEnd = windowStart + connector.index;
  // The earliest start from which one run reaches exactly to the connector is the whole value.
  for (let at = windowStart; at < runEnd; at += 1) {
    if (at > 0 && /[\p{L}\p{N}]/u.test(text.charAt(at - 1))) continue;
    if (!/[\p{L}\p{N}]/u.test(text.charAt(at))) continue;
    const run = readDigitRun(text, at);
    if (run && run.end === runEnd) return hitFor(text, run, family);
  }
  return null;
}

/** Replaces the digit values that labels introduce, in every family, and reports each to `count`. */
export function redactCodeWindows(text: string, count: Counter): string {
  let out = text;
  for (const { family, pattern } of familyPatterns) {
    const hits: Hit[] = [];
    pattern.lastIndex = 0;
    for (let m = pattern.exec(out); m !== null; m = pattern.exec(out)) {
      if (insideMarker(out, m.index) || isJsonKey(out, m.index, m.index + m[0].length)) continue;
      const hit = valueAfter(out, m.index + m[0].length, family) ?? valueBefore(out, m.index, family);
      const last = hits.at(-1);
      if (hit && (!last || hit.start >= last.end) && !isRedactionMarker(out.slice(hit.start, hit.end))) hits.push(hit);
    }
    out = applyHits(out, hits, count);
  }
  return out;
}

/** A label word that is the name inside a marker (`[password]`, `[otp]`) labels nothing. */
export const insideMarker = (text: string, at: number) => text.charAt(at - 1) === '[';

/**
 * True when the label at `start`–`end` is a whole JSON key (`"code": 4001`): the field rules,
 * which know a number under `code` is a status code, decide those.
 */
export function isJsonKey(text: string, start: number, end: number): boolean {
  return /["']$/.test(text.slice(Math.max(0, start - 1), start)) && /^["']\s*:/.test(text.slice(end, end + 8));
}

/** Replaces each hit (in order, not overlapping) by its marker and reports it to `count`. */
export function applyHits(text: string, hits: readonly Hit[], count: RedactionCounter): string {
  let out = '';
  let last = 0;
  for (const hit of hits) {
    out += text.slice(last, hit.start) + hit.marker;
    last = hit.end;
    count(hit.kind, text.slice(hit.start, hit.end));
  }
  return out + text.slice(last);
}
