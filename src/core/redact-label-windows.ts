/**
 * Label-anchored windows: after a word that names a secret ("CVV", "código de seguridad",
 * "verification code", "PIN", "password", "pw", "Kennwort", "card number"), the next few words
 * are read for its value, however it is written: digits with any separators or spelled out
 * ("7 3 7", "seven three seven", "sept trois sept"), or, for a password, the first word that is
 * not talk about the password ("my password, it is Sunshine2024"). A value written before its
 * label ("482913 is my code") is found too. Each window is short and read once, so the cost is
 * linear in the text.
 */

import { isNumberWord, readDigitRun } from './redact-number-words.js';
import { isRedactionMarker, redactionMarker, type RedactionKind, type RedactionCounter } from './redact-fields.js';

type Counter = RedactionCounter;

const B = String.raw`(?<![\p{L}\p{N}_])`;
const E = String.raw`(?![\p{L}\p{N}_])`;

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
    'you i we they u sent texted emailed got received just me number no no. num nr now here that which it it\'s its ’s \'s ' +
    'the a code for my your account is was are be will should would please then so ok okay well um uh actually again ' +
    'digits digit numbers is: are: reads read say says said shows show from sms text message email app phone ' +
    'es era mi tu su el la de que me llegó llego recibí recibi número numero ' +
    'est c\'est mon ma votre ton le du j\'ai reçu recu numéro voici ' +
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
interface Hit {
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
function skipAside(text: string, at: number): number {
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
    out = apply(out, hits, count);
  }
  return out;
}

/** A label word that is the name inside a marker (`[password]`, `[otp]`) labels nothing. */
const insideMarker = (text: string, at: number) => text.charAt(at - 1) === '[';

/**
 * True when the label at `start`–`end` is a whole JSON key (`"code": 4001`): the field rules,
 * which know a number under `code` is a status code, decide those.
 */
export function isJsonKey(text: string, start: number, end: number): boolean {
  return /["']$/.test(text.slice(Math.max(0, start - 1), start)) && /^["']\s*:/.test(text.slice(end, end + 8));
}

function apply(text: string, hits: readonly Hit[], count: Counter): string {
  let out = '';
  let last = 0;
  for (const hit of hits) {
    out += text.slice(last, hit.start) + hit.marker;
    last = hit.end;
    count(hit.kind, text.slice(hit.start, hit.end));
  }
  return out + text.slice(last);
}

// Labels of a password in any spelling people use for it: "password", "passw0rd", "p@ssword",
// "pass word", "passwd", "pwd", "pw", "p/w", "pswd", "pass" (only with a ':' or 'is'), and the
// word in other languages.
const PASSWORD_LABEL = new RegExp(
  `${B}(?:p[a@4][s$5]{2}[ -]?w[o0]?r?d|(?<abbr>p[a@4]?[s$5]{0,2}w[o0]?r?d|pw|p/w|psw|passcode|pass[ -]?code)|login password|` +
    `(?<!(?:boarding|bus|day|season|gym|ski|hall|free|by|train|rail|travel|guest|backstage|park|weekly|monthly|annual|festival)[ -]?)p[a@4][s$5]{2}|` +
    `contrase[nñ]a|clave(?: de acceso)?|mot de passe|mdp|passwort|kennwort|senha|wachtwoord|has[łl]o|parola(?: d'ordine)?|l[oö]senord|adgangskode|salasana|` +
    `security answer|memorable word|secret word)(?:'s|’s)?${E}`,
  'giu',
);
// Ways to say "is" between a password label and its value, in the languages above.
const JOINS = new Set('is was are be it\'s its = : => -> - — – → es era est c\'est ist war lautet è é e equals reads'.split(' '));
const PASSWORD_FILLERS = new Set(
  (
    'my the your our his her i we it that which this one new current temporary temp account login for on at here now just ' +
    'then also will would should actually again please and well so oh ok um uh mi mon ma mein meine il mio o meu minha mijn'
  ).split(' '),
);
// Words that say something about the password rather than being it: the window ends there.
const TALK = new Set(
  (
    'not wrong incorrect invalid expired correct right too being required locked the a an same different weak strong case missing ' +
    'empty blank sent protected saved stored encrypted hidden secure safe fine working broken lost forgotten forgot long short ' +
    'needed compromised leaked visible shown attached included revoked rotated valid active inactive disabled enabled null none ' +
    'undefined true false yes no manager field policy reset link hint change changes changed update updated expires expiring ' +
    'requirements rules strength doesn\'t don\'t didn\'t isn\'t won\'t can\'t cannot never always what how where when why who ' +
    'no_es pas nicht falsch incorrecta incorrecto incorrect'
  ).split(' '),
);
// Verbs after which "to" introduces the new value: "changed it to Summer2024!".
const SET_VERBS = new Set('changed set reset updated switched change'.split(' '));

const SET_BEFORE = /\b(?:changed|set|reset|updated|switched|change|update)\b(?:[^\S\n]+(?:my|the|your|our|it|account|login|new))*[^\S\n]+$/i;

const PW_TOKEN = /[^\S\n]*(?:(?<q>["'“‘`«])(?<quoted>[^"'”’`»\n]{1,200})["'”’`»]|(?<tok>[^\s"“”]{1,200}))/uy;

/** Whether `word` looks made up rather than written: letters with digits or symbols in it. */
const passwordLike = (word: string) => /\p{L}/u.test(word) && /[\d\W_]/u.test(word) && word.length >= 4;

/** The password in the window after a label, if any. */
type Label = 'word' | 'abbreviation' | 'needs-join';

function passwordAfter(text: string, from: number, label: Label, labelStart: number): Hit | null {
  let pos = from;
  let connected = false;
  let skipped = 0;
  // "I changed my password to X": the verb before the label makes "to" the join.
  let previous = SET_BEFORE.test(text.slice(Math.max(0, labelStart - 40), labelStart)) ? 'changed' : '';
  for (let step = 0; step < 12 && pos < text.length; step += 1) {
    const aside = skipAside(text, pos);
    if (aside !== pos) {
      pos = aside;
      continue;
    }
    PW_TOKEN.lastIndex = pos;
    const m = PW_TOKEN.exec(text);
    if (!m) return null;
    const tokStart = pos + (m[0].length - m[0].trimStart().length);
    pos += m[0].length;
    const quoted = m.groups?.['quoted'];
    if (quoted !== undefined) {
      if (isRedactionMarker(quoted) || TALK.has(quoted.toLowerCase())) return null;
      return { start: tokStart + 1, end: tokStart + 1 + quoted.length, marker: redactionMarker('password'), kind: 'password' };
    }
    const raw = m.groups?.['tok'] ?? '';
    // A leading ':' or a trailing ',' belongs to the sentence, not the value.
    const lead = /^[:=]+/.exec(raw)?.[0] ?? '';
    if (lead) connected = true;
    const body = raw.slice(lead.length);
    const trail = /[.,;:!?)]+$/.exec(body)?.[0] ?? '';
    const word = body.slice(0, body.length - trail.length);
    const lower = word.toLowerCase();
    const endsSentence = /[.!?]$/.test(trail) && trail !== '';
    if (word === '') {
      if (trail && /[.!?;]/.test(trail)) return null;
      continue;
    }
    if (isRedactionMarker(word)) return null;
    if (JOINS.has(lower) || (lower === 'to' && SET_VERBS.has(previous)) || lower === 'as') {
      connected = true;
    } else if (SET_VERBS.has(lower) && !connected) {
      // "password changed to X" goes on; "password reset link" stops at "link" below.
    } else if (PASSWORD_FILLERS.has(lower)) {
      // "my password, it is …", "the password for the portal is …"
    } else if (TALK.has(lower)) {
      return null;
    } else if (connected || (step === 0 && (label === 'abbreviation' ? word.length >= 4 : label === 'word' && passwordLike(word)))) {
      const start = tokStart + lead.length;
      return { start, end: start + word.length, marker: redactionMarker('password'), kind: 'password' };
    } else if ((skipped += 1) > 2) {
      return null;
    }
    if (!PASSWORD_FILLERS.has(lower)) previous = lower;
    if (endsSentence || /[;)]$/.test(trail)) return null;
    // "password, it is X": a comma pauses; "password: X" connects.
    if (trail.endsWith(':')) connected = true;
  }
  return null;
}

/** Replaces the values that password labels introduce and reports each to `count`. */
export function redactPasswordWindows(text: string, count: Counter): string {
  const hits: Hit[] = [];
  PASSWORD_LABEL.lastIndex = 0;
  for (let m = PASSWORD_LABEL.exec(text); m !== null; m = PASSWORD_LABEL.exec(text)) {
    if (insideMarker(text, m.index)) continue;
    // "pass" alone is an ordinary word; it labels a password only with a ':' or 'is' after it. An
    // abbreviation ("pwd hunter", "pw Winter22") is only ever used to label one.
    const label: Label = /^p[a@4][s$5]{2}$/i.test(m[0]) ? 'needs-join' : m.groups?.['abbr'] !== undefined ? 'abbreviation' : 'word';
    const hit = passwordAfter(text, m.index + m[0].length, label, m.index);
    const last = hits.at(-1);
    if (hit && (!last || hit.start >= last.end)) {
      hits.push(hit);
      PASSWORD_LABEL.lastIndex = Math.max(PASSWORD_LABEL.lastIndex, hit.end);
    }
  }
  return apply(text, hits, count);
}

/** Shannon entropy in bits per character: random keys score high, words and repeated digits low. */
function entropy(s: string): number {
  const freq = new Map<string, number>();
  for (const ch of s) freq.set(ch, (freq.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of freq.values()) bits -= (n / s.length) * Math.log2(n / s.length);
  return bits;
}

/** A string that looks generated rather than written: long, mixed character classes, high entropy. */
export function looksRandom(s: string): boolean {
  const classes = [/[a-z]/, /[A-Z]/, /\d/].filter((r) => r.test(s)).length;
  return s.length >= 16 && classes >= 2 && /\d/.test(s) && entropy(s) >= 3;
}

// "I regenerated the key, new one is 9f2c…", "here's my API key → sk_…", "the secret we use: …".
const SECRET_LABEL = new RegExp(
  `${B}(?:api[ _-]?key|key|secret|token|credentials?|client[ _-]?secret|access[ _-]?key|private[ _-]?key|signing[ _-]?key|clave (?:de )?api|cl[eé] (?:d'|de l')?api|schl[uü]ssel)${E}`,
  'giu',
);
const SECRET_FILLERS = new Set(
  'new one is was it it\'s its this that the my our your here here\'s use please now i we you just regenerated generated rotated created got have has sent : = - → ->'.split(
    ' ',
  ),
);
const SECRET_TOKEN = /[^\S\n]*(?<tok>[^\s"'“”‘’`]{1,200})/uy;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The secret within a few words after a key label: a value that looks generated (or a UUID) and nothing but fillers before it. */
function secretAfter(text: string, from: number): Hit | null {
  let pos = from;
  let skipped = 0;
  for (let step = 0; step < 10 && pos < text.length; step += 1) {
    SECRET_TOKEN.lastIndex = pos;
    const m = SECRET_TOKEN.exec(text);
    if (!m) return null;
    const raw = m.groups?.['tok'] ?? '';
    const start = pos + m[0].length - raw.length;
    pos += m[0].length;
    const value = raw.replace(/^[:=(]+/, '').replace(/[.,;:!?)]+$/, '');
    const lower = value.toLowerCase();
    if (value === '' || SECRET_FILLERS.has(lower)) continue;
    if (isRedactionMarker(value) || value.includes('[')) return null;
    // Keys are written in URL-safe or base64 characters; anything else is a word of the sentence.
    if (/^[A-Za-z0-9._~+/=-]+$/.test(value) && (looksRandom(value) || UUID.test(value))) {
      const at = start + raw.indexOf(value);
      return { start: at, end: at + value.length, marker: redactionMarker('secret'), kind: 'secret' };
    }
    if (/[.!?]$/.test(raw) || (skipped += 1) > 1) return null;
  }
  return null;
}

/** Replaces a generated-looking value a few words after a key or secret label, and reports each to `count`. */
export function redactSecretWindows(text: string, count: Counter): string {
  const hits: Hit[] = [];
  SECRET_LABEL.lastIndex = 0;
  for (let m = SECRET_LABEL.exec(text); m !== null; m = SECRET_LABEL.exec(text)) {
    if (insideMarker(text, m.index)) continue;
    const hit = secretAfter(text, m.index + m[0].length);
    const last = hits.at(-1);
    if (hit && (!last || hit.start >= last.end)) {
      hits.push(hit);
      SECRET_LABEL.lastIndex = Math.max(SECRET_LABEL.lastIndex, hit.end);
    }
  }
  return apply(text, hits, count);
}
