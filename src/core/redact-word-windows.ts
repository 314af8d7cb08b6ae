/**
 * Label-anchored windows for values that are words: a password after any label people use for
 * it ("password", "pw", "passw0rd", "Kennwort"; "my password, it is Sunshine2024"), and a key or
 * secret that looks generated a few words after its label ("I regenerated the key, new one is
 * 9f2c…"). The first word that is not talk about the password is the password.
 */

import { isRedactionMarker, redactionMarker, type RedactionCounter } from './redact-fields.js';
import { applyHits, B, E, insideMarker, skipAside, type Hit } from './redact-label-windows.js';

type Counter = RedactionCounter;

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
const JOINS = new Set("is was are be it's its = : => -> - — – → es era est c'est ist war lautet è é e equals reads".split(' '));
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
    "requirements rules strength doesn't don't didn't isn't won't can't cannot never always what how where when why who " +
    'no_es pas nicht falsch incorrecta incorrecto incorrect'
  ).split(' '),
);
// Verbs after which "to" introduces the new value: "changed it to Summer2024!".
const SET_VERBS = new Set('changed set reset updated switched change'.split(' '));

const SET_BEFORE =
  /\b(?:changed|set|reset|updated|switched|change|update)\b(?:[^\S\n]+(?:my|the|your|our|it|account|login|new))*[^\S\n]+$/i;

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
    } else if (label === 'needs-join' || (skipped += 1) > 2) {
      // "pass" needs its join at once: "cannot pass the one-time-code check: hand off" is a sentence.
      return null;
    }
    if (!PASSWORD_FILLERS.has(lower)) previous = lower;
    if (endsSentence || /[;)]$/.test(trail)) return null;
    // "password, it is X": a comma pauses; "password: X" connects.
    if (trail.endsWith(':')) connected = true;
  }
  return null;
}

// "Sunshine2024 is my password", "hunter2 - that's the new pw".
const PASSWORD_BEFORE =
  /(?<![^\s"'(])(?<v>[^\s"'“”()[\]]{3,63}[^\s"'“”()[\],.;:])(?:[^\S\n]*[:=\-–—][^\S\n]*(?:(?:that's|that is|it's|which is|is|was)[^\S\n]+)?|[^\S\n]+(?:is|was|that's|that is|it's|es|est|ist|è|é)[^\S\n]+)(?:(?:my|your|the|our|mi|mon|ma|mein|meine|il|mio|o|a|meu|minha|mijn)[^\S\n]+)?(?:(?:new|current|old|temporary|temp|account|login)[^\S\n]+)?$/iu;

/** A password written just before its label, when it looks made up (letters with digits or symbols). */
function passwordBefore(text: string, labelStart: number): Hit | null {
  const windowStart = Math.max(0, labelStart - 90);
  const m = PASSWORD_BEFORE.exec(text.slice(windowStart, labelStart));
  const value = m?.groups?.['v'];
  if (!m || value === undefined || !passwordLike(value) || isRedactionMarker(value)) return null;
  const start = windowStart + m.index;
  return { start, end: start + value.length, marker: redactionMarker('password'), kind: 'password' };
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
    const hit = passwordAfter(text, m.index + m[0].length, label, m.index) ?? passwordBefore(text, m.index);
    const last = hits.at(-1);
    if (hit && (!last || hit.start >= last.end)) {
      hits.push(hit);
      PASSWORD_LABEL.lastIndex = Math.max(PASSWORD_LABEL.lastIndex, hit.end);
    }
  }
  return applyHits(text, hits, count);
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
  "new one is was it it's its this that the my our your here here's use please now i we you just regenerated generated rotated created got have has sent : = - → ->".split(
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
  return applyHits(text, hits, count);
}
