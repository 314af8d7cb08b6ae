/**
 * Redaction by field type, applied before anything is stored (the context packet, event
 * payloads, exported trajectories). What it hides: payment card numbers (13–19 digits, Luhn
 * checked; the last four stay), CVV/CVC, one-time codes, passwords and PINs, secrets and API
 * keys, bearer/access tokens, IBANs (mod-97 checked) and US SSNs. What it keeps on purpose:
 * order ids, amounts, dates, phone numbers and e-mail addresses (a human taking over needs them
 * to call the customer back or find the account), flight numbers, reservation codes, zip codes,
 * and long numbers that fail the Luhn check. Redaction is idempotent: its markers are never
 * redacted again.
 *
 * Known limits, by design: an unlabelled random string (a bare AWS secret key, a hash) is kept,
 * because ids and hashes look the same; a label that comes after its value ("482913 is my code")
 * is not seen here, though the packet builder hides such a value when the agent's question or a
 * tool argument said what it was.
 */

import { counterFor, redactDetected } from './redact-detectors.js';
import { emptyRedactionCounts, redactFieldValue, type RedactionCounts } from './redact-fields.js';

export { ibanValid, luhnValid } from './redact-detectors.js';
export {
  REDACTION_KINDS,
  RedactionKindSchema,
  addRedactionCounts,
  emptyRedactionCounts,
  isRedactionMarker,
  redactionMarker,
  sensitiveFieldKind,
  type RedactionCounts,
  type RedactionKind,
} from './redact-fields.js';

/** Text with its sensitive values replaced, and how many of each kind were replaced. */
export interface RedactedText {
  text: string;
  counts: RedactionCounts;
}

/** A JSON value with its sensitive values replaced, and how many of each kind were replaced. */
export interface RedactedValue {
  value: unknown;
  counts: RedactionCounts;
}

/** Replaces every sensitive value found in free text (sentences, logs, JSON held as text). */
export function redactText(text: string): RedactedText {
  const counts = emptyRedactionCounts();
  return { text: redactDetected(text, counterFor(counts)), counts };
}

/**
 * Walks a JSON value: the whole value of a sensitive field (`password`, `cvv`, `otp`, `api_key`,
 * `access_token`, `card_number`, `iban`, `ssn`…) is replaced, and every other string is redacted
 * as text. `fieldName` is the name the value was found under, when it has one. Numbers under a
 * sensitive name become marker strings; a number that is itself a card number does too.
 */
export function redactValue(value: unknown, fieldName?: string): RedactedValue {
  const counts = emptyRedactionCounts();
  return { value: walk(value, fieldName, counts), counts };
}

function walk(value: unknown, fieldName: string | undefined, counts: RedactionCounts): unknown {
  if (typeof value === 'string' || typeof value === 'number') {
    const text = String(value);
    const field = fieldName === undefined ? null : redactFieldValue(fieldName, text);
    if (field) {
      counts[field.kind] += 1;
      return field.marker;
    }
    if (typeof value === 'number' && !Number.isInteger(value)) return value;
    const redacted = redactDetected(text, counterFor(counts));
    return redacted === text ? value : redacted;
  }
  // An array under a sensitive name (`"otp": ["…", "…"]`) is sensitive item by item.
  if (Array.isArray(value)) return value.map((item) => walk(item, fieldName, counts));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, walk(item, key, counts)]));
  }
  return value;
}
