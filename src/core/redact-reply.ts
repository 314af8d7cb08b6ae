/**
 * A bare reply has no label of its own: "482913", "7 3 7", "seven three seven" or "Sunshine2024"
 * after the agent asked "What is the code we texted you?", "…the CVV?" or "…your password?". The
 * question is its label. Only short replies are read this way, so that a long message that happens
 * to follow a question keeps its numbers.
 */

import { cardPrefixValid } from './redact-cards.js';
import { isNumberWord, readDigitRun } from './redact-number-words.js';
import type { TranscriptItem } from './transcript.js';
import { redactionMarker, type RedactionKind, type RedactionCounter } from './redact-fields.js';

type Counter = RedactionCounter;

// A turn that asks: a question mark, or a request ("please read me…", "enter the code").
const ASKS =
  /\?|\b(?:please|read|tell|give|confirm|enter|type|send|provide|share|need|what|which)\b|\b(?:por favor|s'il vous pla[iî]t|bitte|per favore|indique|dites|geben sie)\b/i;

/** Replies longer than this are messages in their own right, read by the labels alone. */
const MAX_REPLY = 100;

interface Asked {
  kind: RedactionKind;
  question: RegExp;
  min: number;
  max: number;
}

const ASKED: readonly Asked[] = [
  {
    kind: 'card',
    question:
      /\b(?:card number|(?:credit|debit) card|long number on (?:the|your) card|n[uú]mero de (?:la )?tarjeta|num[eé]ro de (?:la )?carte|kartennummer)\b/i,
    min: 13,
    max: 19,
  },
  {
    kind: 'cvv',
    question:
      /\b(?:cvv2?|cvc2?|security code|(?:digits|numbers?|code) on the back|c[oó]digo de seguridad|cryptogramme|pr[uü]fnummer|sicherheitscode|codice di sicurezza)\b/i,
    min: 3,
    max: 4,
  },
  {
    kind: 'ssn',
    question: /\b(?:ssn|social security)\b/i,
    min: 9,
    max: 9,
  },
  // Not "what is your zip code?": the answer to that is an ordinary number.
  {
    kind: 'otp',
    question:
      /\b(?:otp|passcode|one[- ]time|verification|2fa|c[oó]digo|codice)\b|(?<!\b(?:zip|postal|post|area|promo|discount|coupon|reservation|confirmation|booking|country|error|tracking|sort|gift|voucher)[\s_-]?)\bcode\b/i,
    min: 4,
    max: 8,
  },
  { kind: 'password', question: /\bpin\b/i, min: 4, max: 8 },
];
const ASKED_PASSWORD = /\b(?:password|passw0rd|passwd|pwd|contrase[nñ]a|mot de passe|passwort|kennwort|senha|wachtwoord)\b/i;
// What may come before a bare password in a reply: "sure, it's Sunshine2024", "ok: Sunshine2024".
const PASSWORD_REPLY =
  /^(?:(?:sure|ok(?:ay)?|yes|yeah|yep|right|fine|it's|it is|its|here|here it is|that's|that is|this|=|:|-)[\s,.:!-]*)*(?<pw>[^\s"'“”]{4,64}?)[.!]?$/i;

/**
 * `text` with the value it answers to replaced, when `question` (the agent's turn before it)
 * asked for a code, CVV, PIN, card number, SSN or password and `text` is a short reply. Reports
 * each replacement to `count`.
 */
export function redactAnswer(text: string, question: string, count: Counter): string {
  // "Thanks, CVV 557 noted." names a CVV but asks for nothing: what follows is a new subject.
  if (text.length > MAX_REPLY || !ASKS.test(question)) return text;
  if (ASKED_PASSWORD.test(question)) {
    const pw = PASSWORD_REPLY.exec(text.trim());
    const value = pw?.groups?.['pw'];
    if (value && /\p{L}/u.test(value) && !value.startsWith('[')) {
      count('password', value);
      return text.replace(value, redactionMarker('password'));
    }
  }
  const asked = ASKED.find((a) => a.question.test(question));
  if (!asked) return text;
  let out = '';
  let last = 0;
  for (let at = 0; at < text.length; at += 1) {
    if (at < last || (at > 0 && /[\p{L}\p{N}]/u.test(text.charAt(at - 1))) || !/[\p{L}\p{N}]/u.test(text.charAt(at))) continue;
    const run = readDigitRun(text, at);
    if (!run) continue;
    // A number too long or too short for what was asked is another number, and none of its parts is the answer.
    if (run.digits.length < asked.min || run.digits.length > asked.max) {
      at = run.end - 1;
      continue;
    }
    // A 15-digit IMEI is no answer to "what is the card number?"; a mistyped card still starts like one.
    if (asked.kind === 'card' && !cardPrefixValid(run.digits)) {
      at = run.end - 1;
      continue;
    }
    out += text.slice(last, run.start) + redactionMarker(asked.kind, asked.kind === 'card' ? run.digits.slice(-4) : undefined);
    last = run.end;
    count(asked.kind, text.slice(run.start, run.end));
  }
  return out + text.slice(last);
}

// A tool that has just sent the customer a code: their next short message is likely that code.
const SENDS_CODE =
  /(?:send|resend|text|sms|email|issue|request)_?(?:\w+_)?(?:otp|code|passcode|verification|2fa|token)|(?:otp|verification|code)_?(?:send|sent|request)/i;

/** True when `text` holds a digit or three number words ("one sec" holds none). */
function readsNumber(text: string): boolean {
  return /\d/.test(text) || text.split(/[^\p{L}]+/u).filter((w) => w !== '' && isNumberWord(w)).length >= 3;
}

/**
 * The question a customer's turn at `i` answers, if any: the agent's last turn when at most one
 * other customer turn came after it ("What is the code?" / "one sec" / "482913"), or, when the last
 * thing before it was a successful tool call that sent a code (`send_verification_code`), that code.
 */
export function questionFor(items: readonly TranscriptItem[], i: number): string | undefined {
  if (items[i]?.role !== 'customer') return undefined;
  let customerTurns = 0;
  for (let j = i - 1; j >= 0 && j >= i - 4; j -= 1) {
    const item = items[j];
    if (!item) return undefined;
    if (item.role === 'agent' || item.role === 'human') return item.text;
    if (item.role === 'tool') return item.ok && SENDS_CODE.test(item.name) ? 'What is the one-time code we just sent you?' : undefined;
    // Only a turn with no number in it ("one sec") stands between a question and its answer.
    customerTurns += 1;
    if (customerTurns > 1 || readsNumber(item.text)) return undefined;
  }
  return undefined;
}
