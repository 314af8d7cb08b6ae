import { z } from 'zod';
import { readDigitRun } from './redact-number-words.js';

/**
 * The kinds of value redaction hides: payment card numbers, card security codes, one-time codes,
 * passwords (and passphrases and PINs), secrets and API keys, bearer/access tokens, IBANs, US
 * social security numbers and UK National Insurance numbers.
 */
export const REDACTION_KINDS = ['card', 'cvv', 'otp', 'password', 'secret', 'token', 'iban', 'ssn', 'nino'] as const;
/** Schema of one redaction kind. */
export const RedactionKindSchema = z.enum(REDACTION_KINDS);
/** One redaction kind. */
export type RedactionKind = z.infer<typeof RedactionKindSchema>;
/** How many values of each kind were redacted. */
export type RedactionCounts = Record<RedactionKind, number>;

/**
 * Told of every value a detector replaces: its kind and the text it replaced. Redaction counts
 * with it, and a conversation's redactor remembers the values to hide their echoes later.
 */
export type RedactionCounter = (kind: RedactionKind, value: string) => void;

/** A count of zero for every kind. */
export function emptyRedactionCounts(): RedactionCounts {
  return { card: 0, cvv: 0, otp: 0, password: 0, secret: 0, token: 0, iban: 0, ssn: 0, nino: 0 };
}

/** Adds `from` into `into` and returns `into`. */
export function addRedactionCounts(into: RedactionCounts, from: RedactionCounts): RedactionCounts {
  for (const kind of REDACTION_KINDS) into[kind] += from[kind];
  return into;
}

/**
 * The text that stands in for a redacted value: `[card ••••4242]`, `[iban ••••3000]` (the last
 * four are what a human needs to match a card or account with the customer), `[otp]`, `[token]`…
 */
export function redactionMarker(kind: RedactionKind, lastFour?: string): string {
  return lastFour ? `[${kind} ••••${lastFour}]` : `[${kind}]`;
}

const MARKER = /^\[(?:(?:card|iban) ••••[0-9A-Z]{4}|cvv|otp|password|secret|token|ssn|nino)\]$/;

/** True for a value that is already a redaction marker, so that redacting twice changes nothing. */
export function isRedactionMarker(value: string): boolean {
  return MARKER.test(value);
}

// Field names compared without case or separators: `card_number`, `cardNumber` and `Card-Number`
// are one name. A name is sensitive when it is, or ends with, one of these.
const FIELD_SUFFIXES: ReadonlyArray<readonly [string, RedactionKind]> = [
  ['password', 'password'],
  ['passwd', 'password'],
  ['pwd', 'password'],
  ['pswd', 'password'],
  ['passphrase', 'password'],
  ['pincode', 'password'],
  ['pinnumber', 'password'],
  ['securityanswer', 'password'],
  ['cvv', 'cvv'],
  ['cvv2', 'cvv'],
  ['cvc', 'cvv'],
  ['cvc2', 'cvv'],
  ['cvn', 'cvv'],
  ['securitycode', 'cvv'],
  ['cardverificationcode', 'cvv'],
  ['cardverificationvalue', 'cvv'],
  ['otp', 'otp'],
  ['otpcode', 'otp'],
  ['totp', 'otp'],
  ['onetimecode', 'otp'],
  ['onetimepassword', 'otp'],
  ['verificationcode', 'otp'],
  ['passcode', 'otp'],
  ['mfacode', 'otp'],
  ['2facode', 'otp'],
  ['twofactorcode', 'otp'],
  ['authcode', 'otp'],
  ['smscode', 'otp'],
  ['secret', 'secret'],
  ['apikey', 'secret'],
  ['secretkey', 'secret'],
  ['privatekey', 'secret'],
  ['accesskey', 'secret'],
  ['accesskeyid', 'secret'],
  ['signingkey', 'secret'],
  ['encryptionkey', 'secret'],
  ['credential', 'secret'],
  ['credentials', 'secret'],
  ['token', 'token'],
  ['authorization', 'token'],
  ['cookie', 'token'],
  ['sessionid', 'token'],
  ['cardnumber', 'card'],
  ['cardno', 'card'],
  ['ccnumber', 'card'],
  ['ccnum', 'card'],
  ['primaryaccountnumber', 'card'],
  ['iban', 'iban'],
  ['ssn', 'ssn'],
  ['socialsecuritynumber', 'ssn'],
  ['socialsecurity', 'ssn'],
  ['nino', 'nino'],
  ['nationalinsurance', 'nino'],
  ['nationalinsurancenumber', 'nino'],
  ['nationalinsuranceno', 'nino'],
  ['ninumber', 'nino'],
];

// Short or common names that are sensitive only when the value has the shape of the kind:
// `code` is an OTP when it holds 4–8 digits (not `"code": 404` or `"code": "SAVE20"`).
type Shape = (value: string) => boolean;
/** A value that is only digits, however written ("482913", "48 29 13", "four eight two…"), of `min`–`max` digits. */
const digitCount =
  (min: number, max: number): Shape =>
  (value) => {
    // `"code_expires": "2026-05-15"` is a date, not an 8-digit code.
    if (/^\d{4}[-./]\d{1,2}[-./]\d{1,2}$|^\d{1,2}[-./]\d{1,2}[-./]\d{2,4}$/.test(value)) return false;
    const run = readDigitRun(value, 0);
    return run !== null && run.start === 0 && run.end === value.length && run.digits.length >= min && run.digits.length <= max;
  };
const word: Shape = (value) => /^\S{4,}$/.test(value);
const LOOSE_FIELDS: Readonly<Record<string, readonly [RedactionKind, Shape]>> = {
  code: ['otp', digitCount(4, 8)],
  pin: ['password', digitCount(4, 8)],
  pan: ['card', digitCount(13, 19)],
  pass: ['password', word],
  pw: ['password', word],
};

const normalise = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * The kind of a field whose whole value is sensitive (`password`, `cvv`, `otp`, `api_key`,
 * `access_token`, `card_number`, `iban`, `ssn`…), or null. Names like `code` and `pin` are only
 * sensitive for values of the right shape, which {@link redactFieldValue} checks.
 */
export function sensitiveFieldKind(name: string): RedactionKind | null {
  const n = normalise(name);
  if (n === '') return null;
  const loose = LOOSE_FIELDS[n];
  if (loose) return loose[0];
  for (const [suffix, kind] of FIELD_SUFFIXES) if (n === suffix || n.endsWith(suffix)) return kind;
  return null;
}

// Parts of a longer name that make it sensitive when the value has the kind's shape: `otp_sent`,
// `last_cvv`, `sms_code`, `pin_entered`, `codeSent`. Not next to a word that makes `code` an
// everyday one (`zip_code`, `error_code`, `sort_code`).
const DIGIT_CODE = digitCount(4, 8);
const SHAPED_PARTS: Readonly<Record<string, readonly [RedactionKind, Shape]>> = {
  otp: ['otp', DIGIT_CODE],
  totp: ['otp', DIGIT_CODE],
  passcode: ['otp', DIGIT_CODE],
  code: ['otp', DIGIT_CODE],
  cvv: ['cvv', digitCount(3, 4)],
  cvc: ['cvv', digitCount(3, 4)],
  pin: ['password', digitCount(4, 8)],
  ssn: ['ssn', digitCount(9, 9)],
  card: ['card', digitCount(13, 19)],
  cc: ['card', digitCount(13, 19)],
  pan: ['card', digitCount(13, 19)],
  iban: ['iban', (v) => /^[A-Z]{2}\d{2}(?:[ -]?[A-Z0-9]){11,30}$/i.test(v)],
  nino: ['nino', (v) => /^[A-Z]{2}[ ]?\d{2}[ ]?\d{2}[ ]?\d{2}[ ]?[A-D]?$/i.test(v)],
};
const EVERYDAY_CODE = new Set(
  'zip postal post area country airport promo discount coupon voucher gift referral reservation booking confirmation product item tracking error status response exit sort swift bic bank routing dial iata icao fare class tax hs sku color colour qr bar source region language currency reason event offer campaign store branch station locker door gate seat'.split(
    ' ',
  ),
);

/** The words of a field name: `otpSent`, `otp_sent` and `OTP-Sent` are all [otp, sent]. */
const nameParts = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((p) => p !== '');

function shapedPartKind(name: string, value: string): RedactionKind | null {
  const parts = nameParts(name);
  if (parts.length < 2) return null;
  for (const part of parts) {
    const shaped = SHAPED_PARTS[part];
    if (!shaped || !shaped[1](value)) continue;
    if (part === 'code' && parts.some((p) => EVERYDAY_CODE.has(p))) continue;
    return shaped[0];
  }
  return null;
}

// A value that is already masked (`****4242`, `••••`) hides nothing more when masked again.
const ALREADY_MASKED = /^(?=.*[*•#xX]{2})[*•xX#.\s-]+\d{0,4}$/;

/**
 * What replaces the value of field `name`, or null when the field is not sensitive, the value is
 * empty or already masked, or a shape-checked name (`code`, `pin`) holds something else. Cards
 * and IBANs keep their last four characters.
 */
export function redactFieldValue(name: string, value: string): { kind: RedactionKind; marker: string } | null {
  const v = value.trim();
  const kind = sensitiveFieldKind(name) ?? shapedPartKind(name, v);
  if (!kind) return null;
  if (v === '' || isRedactionMarker(v) || ALREADY_MASKED.test(v)) return null;
  const loose = LOOSE_FIELDS[normalise(name)];
  if (loose && !loose[1](v)) return null;
  // `Authorization: Bearer abc`: the scheme word is not the secret; the token after it is.
  if (kind === 'token' && /^(?:bearer|basic|token)$/i.test(v)) return null;
  if (kind === 'card') {
    const digits = v.replace(/\D/g, '');
    return { kind, marker: redactionMarker(kind, digits.length > 4 ? digits.slice(-4) : undefined) };
  }
  if (kind === 'iban') {
    const chars = v.replace(/[^0-9A-Za-z]/g, '').toUpperCase();
    return { kind, marker: redactionMarker(kind, chars.length > 8 ? chars.slice(-4) : undefined) };
  }
  return { kind, marker: redactionMarker(kind) };
}
