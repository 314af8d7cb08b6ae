/**
 * The detectors behind `redactText`, in the order they run: issued keys and tokens by prefix,
 * field pairs (`"cvv": "123"`, `api_key=…`), labels with the value next to them, label windows
 * (values spaced or spelled out, or a few words on), and the shapes that need no label: IBANs,
 * card numbers, SSNs and National Insurance numbers.
 */

import { redactCards } from './redact-cards.js';
import {
  isRedactionMarker,
  redactFieldValue,
  redactionMarker,
  type RedactionCounts,
  type RedactionKind,
  type RedactionCounter,
} from './redact-fields.js';
import { isJsonKey, NOT_SECRET_CODE_WORDS, redactCodeWindows } from './redact-label-windows.js';
import { looksRandom, redactPasswordWindows, redactSecretWindows } from './redact-word-windows.js';
import { isNumberWord } from './redact-number-words.js';
import { redactNinos, redactSsnShapes } from './redact-national-ids.js';

export { luhnValid } from './redact-cards.js';

/** True when `candidate` (spaces and dashes allowed) is an IBAN: 15–34 characters whose ISO 13616 mod-97 check holds. */
export function ibanValid(candidate: string): boolean {
  const s = candidate.replace(/[\s.-]/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(s)) return false;
  let rem = 0;
  for (const ch of s.slice(4) + s.slice(0, 4)) {
    const code = ch.charCodeAt(0);
    const value = code >= 65 ? String(code - 55) : ch;
    for (const digit of value) rem = (rem * 10 + (digit.charCodeAt(0) - 48)) % 97;
  }
  return rem === 1;
}

// Words that follow "password is …" or "token: …" in ordinary talk about a secret, not the secret.
const STOP_WORDS = new Set(
  (
    'not wrong incorrect invalid expired correct right too being required reset changed updated set locked the a an my your ' +
    'his her their our still also same different weak strong case now here there below above missing empty blank sent ' +
    'protected saved stored encrypted hidden secure safe fine ok okay working broken lost forgotten long short and or but ' +
    'that this it in on for to with what which new old known unknown needed compromised leaked visible shown attached ' +
    'included revoked rotated valid active inactive disabled enabled null none undefined true false yes no'
  ).split(' '),
);

type Counter = RedactionCounter;
type Replace = (match: RegExpExecArray) => string | null;

/** Replaces every match of `pattern` (global, with `d` indices) by what `replace` returns; null leaves it. */
function substitute(text: string, pattern: RegExp, replace: Replace): string {
  let out = '';
  let last = 0;
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    if (m[0] === '') {
      pattern.lastIndex += 1;
      continue;
    }
    const next = replace(m);
    if (next === null) continue;
    out += text.slice(last, m.index) + next;
    last = m.index + m[0].length;
  }
  return out + text.slice(last);
}

/** Replaces the named group `group` inside the match (the label before it stays). */
function replaceGroup(m: RegExpExecArray, group: string, marker: string): string {
  const span = m.indices?.groups?.[group];
  if (!span) return m[0];
  const start = span[0] - m.index;
  return m[0].slice(0, start) + marker + m[0].slice(span[1] - m.index);
}

/** A detector that needs no label: the value's own shape gives it away. */
interface ShapeRule {
  kind: RedactionKind;
  pattern: RegExp;
  /** The group holding the secret; the whole match when absent. */
  group?: string;
}

// Issued keys and tokens announce themselves by prefix. Run first so that a key is replaced whole
// before the card or label detectors see its pieces.
const SHAPES: readonly ShapeRule[] = [
  { kind: 'secret', pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/dg },
  { kind: 'token', pattern: /\beyJ[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]*/dg },
  { kind: 'token', pattern: /\bBearer\s+(?<v>[A-Za-z0-9._~+/-]{8,}=*)/dgi, group: 'v' },
  { kind: 'token', pattern: /\bBasic\s+(?<v>[A-Za-z0-9+/]{12,}=*)/dg, group: 'v' },
  { kind: 'secret', pattern: /\bsk-[A-Za-z0-9_-]{16,}/dg },
  { kind: 'secret', pattern: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}/dg },
  { kind: 'secret', pattern: /\bwhsec_[A-Za-z0-9+/=]{16,}/dg },
  { kind: 'token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/dg },
  { kind: 'token', pattern: /\bglpat-[A-Za-z0-9_-]{20,}/dg },
  { kind: 'token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/dg },
  { kind: 'token', pattern: /\b(?:hf|npm)_[A-Za-z0-9]{30,}/dg },
  { kind: 'secret', pattern: /\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA)[A-Z0-9]{16}\b/dg },
  { kind: 'secret', pattern: /\bAIza[0-9A-Za-z_-]{30,}/dg },
  { kind: 'secret', pattern: /\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/dg },
  { kind: 'secret', pattern: /\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}\b/dg },
  // user:password@host in a URL: the password goes, the user and host stay.
  { kind: 'password', pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:(?<v>[^\s@/]+)@/dgi, group: 'v' },
];

// Structured pairs, where the field name says what the value is: `"cvv": "123"` in JSON or a
// Python dict, `api_key=…` in a query string, `X-Api-Key: …` at the start of a line.
const JSON_PAIR = /(?<q>["'])(?<key>[^"'\n]{1,60})\k<q>\s*:\s*(?:"(?<v>(?:[^"\\\n]|\\.)*)"|'(?<v2>[^'\n]*)'|(?<v3>-?\d[\d.]*))/dg;
const PAIRS: readonly RegExp[] = [
  JSON_PAIR,
  /(?<![\w.-])(?<key>[A-Za-z_][\w.-]{0,40})=(?<v>[^&\s"'<>,;]+)/dg,
  // Not after "word ": "zip code: 19122" is a phrase, not a field called `code`.
  // A passphrase runs to the end of its sentence, which the label rule below knows how to take.
  /(?<![\w-][ \t]?)(?!(?:pass|seed|recovery)[ _-]?phrase)(?<key>[A-Za-z_][\w.-]{0,40})[ \t]*:[ \t]*(?:"(?<v>[^"\n]*)"|'(?<v2>[^'\n]*)'|(?<v3>[^\s,;"'[\]{}]+))/dg,
];

/** A label in ordinary writing ("my CVV is 123", "verification code: 482913") and the value it introduces. */
interface LabelRule {
  kind: RedactionKind;
  label: string;
  value: string;
  /** Whether a value found after the label is the secret; `connected` says a ':'/'='/'is' joined them. */
  accept?: (value: string, connected: boolean) => boolean;
  /** Any quoted text after the label is the value (a password may hold spaces); else it must match `value`. */
  anyQuoted?: boolean;
}

const DIGITS = (min: number, max: number) => String.raw`(?<!\d)\d{${min},${max}}(?!\d|[ -]\d)`;
const OTP_DIGITS = String.raw`(?:\d{3}[ -]\d{3}|\d{4,8})(?!\d|[ -]\d)`;
const WORDLIKE = String.raw`[^\s"'“”[\]()]{1,100}`;
const TOKENLIKE = String.raw`[A-Za-z0-9._~+/=-]{6,}`;
// Words that may stand between a label and its value: "the code I got was 482913".
const GAP = String.raw`(?:[^\S\n]+(?:you|i|we|they|u|sent|texted|emailed|got|received|just|me|number|no\.?|num|now|here|that|which|it's|its|the|code|for|my|account)){0,6}?`;
const JOIN = String.raw`(?<join>[^\S\n]*(?:["'\`]?[^\S\n]*(?::|=>|=|->|-|#|\bis\b|\bwas\b|\bare\b|\bwould be\b|\bshould be\b|\bof\b)[^\S\n]*)?["'“\`]?)`;
// "code" alone labels a one-time code, except in the many everyday phrases where it does not.
const NOT_SECRET_CODE = String.raw`(?<!\b(?:${NOT_SECRET_CODE_WORDS})[\s_:-]{0,3})`;

const textual = (v: string, connected: boolean) => {
  const word = v.replace(/[.,;:!?)]+$/, '');
  if (word === '' || STOP_WORDS.has(word.toLowerCase()) || isRedactionMarker(word)) return false;
  // Without a ':' or 'is', only a value that is plainly not a word: "password Tr0ub4dor&3".
  return connected || (/[a-z]/i.test(word) && /[\d\W_]/.test(word));
};
// After "token:" a value with letters and digits is the token; without a ':' or 'is' only a
// random-looking one is, so that "the token expired" keeps its words.
const secretish = (v: string, connected: boolean) =>
  !STOP_WORDS.has(v.toLowerCase()) &&
  (looksRandom(v) || (connected && ((v.length >= 6 && /\d/.test(v)) || (v.length >= 20 && /[a-z]/.test(v) && /[A-Z0-9]/.test(v)))));

const LABELS: readonly LabelRule[] = [
  {
    kind: 'ssn',
    label: String.raw`\b(?:ssn|ss#|social(?:[ -]security)?(?:[ -](?:number|no\.?|#))?|soc\.?[ -]sec\.?(?:[ -]no\.?)?)`,
    value: String.raw`(?<!\d)\d{3}[ -]?\d{2}[ -]?\d{4}(?!\d)`,
  },
  {
    kind: 'cvv',
    label: String.raw`\b(?:cvv2?|cvc2?|cvn|csc|(?:card[ -])?security[ -]code|card[ -]verification[ -](?:code|value|number)|(?:(?:three|four|[34])[ -]digit[ -](?:security[ -])?)?code on the back(?: of (?:the|my|your) card)?)(?!\w)`,
    value: DIGITS(3, 4),
  },
  {
    kind: 'otp',
    label: String.raw`\b(?:one[- ]?time[- ](?:pass)?(?:code|password|pin)|otp|(?:verification|verify|authentication|auth|2fa|mfa|two[- ]factor|login|sign[- ]?in|sms|text|security|confirmation)[ -]code|passcode|${NOT_SECRET_CODE}code)\b`,
    value: OTP_DIGITS,
  },
  {
    kind: 'otp',
    label: String.raw`\b(?:one[- ]?time[- ](?:pass)?(?:code|password)|otp|verification[ -]code|passcode)\b`,
    value: String.raw`(?=[A-Za-z0-9]*\d)(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{5,10}\b`,
    accept: (v) => !STOP_WORDS.has(v.toLowerCase()),
  },
  { kind: 'password', label: String.raw`\b(?:pin(?:[ -](?:code|number))?)\b`, value: DIGITS(4, 8) },
  {
    kind: 'password',
    label: String.raw`\b(?:pass[ -]?phrase|seed[ -]phrase|recovery[ -]phrase|mnemonic)\b`,
    value: String.raw`[^\n.;!?"'“”[\]]{3,200}`,
    anyQuoted: true,
    // "correct horse battery staple" is a passphrase; "not accepted" is talk about one.
    accept: (v, connected) =>
      connected && !/^(?:not|too|being|required|reset|changed|updated|wrong|incorrect|invalid|expired|missing|locked)\b/i.test(v.trim()),
  },
  {
    kind: 'password',
    label: String.raw`\b(?:password|passwd|pwd|pass[ -]word|security[ -]answer|memorable[ -]word)\b`,
    value: WORDLIKE,
    accept: textual,
    anyQuoted: true,
  },
  {
    kind: 'token',
    label: String.raw`\b(?:(?:access|refresh|auth|bearer|session|id|api|personal[ -]access|security|reset)[ _-]?)?token\b`,
    value: TOKENLIKE,
    accept: secretish,
    anyQuoted: true,
  },
  {
    kind: 'secret',
    label: String.raw`\b(?:api[ _-]?key|apikey|api[ _-]?secret|secret[ _-]?(?:access[ _-]?)?key|client[ _-]?secret|access[ _-]?key(?:[ _-]?id)?|private[ _-]?key|signing[ _-]?key|webhook[ _-]?secret|secret)\b`,
    value: TOKENLIKE,
    accept: secretish,
    anyQuoted: true,
  },
  // "key" alone is an ordinary word ("the key is ready"): only a random-looking value counts.
  { kind: 'secret', label: String.raw`\bkey\b`, value: TOKENLIKE, accept: (v) => looksRandom(v) },
];

const LABEL_PATTERNS = LABELS.map((rule) => ({
  rule,
  pattern: new RegExp(
    String.raw`(?<label>${rule.label})(?:['’]s(?![A-Za-z]))?${GAP}${JOIN}(?:(?<=["'“\`])(?<qv>${rule.anyQuoted ? String.raw`[^"'“”\`\n]{1,200}` : rule.value})(?=["'”\`])|(?<v>${rule.value}))`,
    'dgi',
  ),
}));

const IBAN_RUN = /\b[A-Z]{2}\d{2}(?:[ .-]?[A-Z0-9]){11,40}/dgi;

function redactIbans(text: string, count: Counter): string {
  return substitute(text, IBAN_RUN, (m) => {
    // The run may swallow a following word ("… 3000 AT"); the longest prefix that checks out wins.
    for (let end = m[0].length; end >= 15; end -= 1) {
      const candidate = m[0].slice(0, end);
      if (/[\s.-]$/.test(candidate) || !ibanValid(candidate)) continue;
      count('iban', candidate);
      const compact = candidate.replace(/[\s.-]/g, '').toUpperCase();
      return redactionMarker('iban', compact.slice(-4)) + m[0].slice(end);
    }
    return null;
  });
}

function redactShapes(text: string, count: Counter): string {
  let out = text;
  for (const { kind, pattern, group } of SHAPES) {
    out = substitute(out, pattern, (m) => {
      if (isRedactionMarker(group ? (m.groups?.[group] ?? '') : m[0])) return null;
      count(kind, group ? (m.groups?.[group] ?? '') : m[0]);
      return group ? replaceGroup(m, group, redactionMarker(kind)) : redactionMarker(kind);
    });
  }
  return out;
}

/** True when more digits or number words follow `at`, so that a value cut at a blank is only its first piece. */
function continuesAsNumber(text: string, at: number): boolean {
  const next = /^[^\S\n]*[-–—.·/]?[^\S\n]*(?:(\d)|(\p{L}+))/u.exec(text.slice(at, at + 40));
  return next !== null && (next[1] !== undefined || isNumberWord(next[2] ?? ''));
}

function redactPairs(text: string, count: Counter): string {
  let out = text;
  for (const pattern of PAIRS) {
    out = substitute(out, pattern, (m) => {
      const group = ['v', 'v2', 'v3'].find((g) => m.groups?.[g] !== undefined);
      const key = m.groups?.['key'];
      const value = group ? m.groups?.[group] : undefined;
      if (!group || key === undefined || value === undefined) return null;
      // A one-time code is a string (it may start with 0); a JSON number under `code` is a status
      // or error code (`{"error": {"code": 4001}}`).
      if (group === 'v3' && pattern === JSON_PAIR && /^code$/i.test(key)) return null;
      const found = redactFieldValue(key, value);
      if (!found) return null;
      // An unquoted "SSN: 123 45 6789" or "iban: NL91 ABNA …" continues past the first space;
      // the shape detectors below take those whole.
      if (group === 'v3' && pattern !== JSON_PAIR && ['card', 'iban', 'ssn', 'nino'].includes(found.kind)) return null;
      // "CVV: 7 3 7", "code: 48 29 13", "pin: four two…": the label windows read the whole value.
      if (group === 'v3' && pattern !== JSON_PAIR && continuesAsNumber(out, m.index + m[0].length)) return null;
      count(found.kind, value);
      // A bare JSON number becomes a string, so that the JSON stays JSON.
      return replaceGroup(m, group, group === 'v3' && pattern === JSON_PAIR ? JSON.stringify(found.marker) : found.marker);
    });
  }
  return out;
}

function redactLabelled(text: string, count: Counter): string {
  let out = text;
  for (const { rule, pattern } of LABEL_PATTERNS) {
    out = substitute(out, pattern, (m) => {
      const group = m.groups?.['qv'] !== undefined ? 'qv' : 'v';
      const raw = m.groups?.[group];
      if (raw === undefined || isRedactionMarker(raw)) return null;
      if (isJsonKey(out, m.index, m.index + (m.groups?.['label']?.length ?? 0))) return null;
      const connected = /[:=#-]|\b(?:is|was|are|be|of)\b|["'“`]/.test(m.groups?.['join'] ?? '');
      if (rule.accept && !rule.accept(raw, connected || group === 'qv')) return null;
      // Keep sentence punctuation that the word-like value pattern picked up.
      const trail = group === 'v' ? (/[.,;:!?)]+$/.exec(raw)?.[0] ?? '') : '';
      count(rule.kind, raw.slice(0, raw.length - trail.length));
      return replaceGroup(m, group, redactionMarker(rule.kind) + trail);
    });
  }
  return out;
}

/** Options of {@link redactDetected}. */
export interface DetectOptions {
  /** Whether an unlabelled Luhn-valid number may be taken for a card (false inside an id field). */
  bareCards?: boolean;
}

/**
 * Runs every detector over `text` in order and reports each redaction to `count`. The order
 * matters: issued keys first (whole), then field pairs and labels (which know what a value is),
 * then the label windows (values spelled out or spaced), then the shapes that need no label:
 * IBANs, card numbers, SSNs and National Insurance numbers.
 */
export function redactDetected(text: string, count: Counter, options: DetectOptions = {}): string {
  let out = redactShapes(text, count);
  out = redactPairs(out, count);
  out = redactLabelled(out, count);
  out = redactCodeWindows(out, count);
  out = redactPasswordWindows(out, count);
  out = redactSecretWindows(out, count);
  out = redactIbans(out, count);
  out = redactCards(out, count, { bare: options.bareCards ?? true });
  out = redactSsnShapes(out, count);
  return redactNinos(out, count);
}

/** The counts-object form of a counter. */
export function counterFor(counts: RedactionCounts, also?: RedactionCounter): Counter {
  return (kind, value) => {
    counts[kind] += 1;
    also?.(kind, value);
  };
}
