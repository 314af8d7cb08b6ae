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
import { emptyRedactionCounts, type RedactionCounter, type RedactionCounts } from './redact-fields.js';
import { redactAnswer } from './redact-reply.js';

export { cardPrefixValid, luhnValid } from './redact-cards.js';
export { ibanValid } from './redact-detectors.js';
export { ninoValid, ssnValid } from './redact-national-ids.js';
export { redactArguments, redactValue, type RedactedArguments, type RedactedValue } from './redact-value.js';
export {
  REDACTION_KINDS,
  RedactionKindSchema,
  addRedactionCounts,
  emptyRedactionCounts,
  isRedactionMarker,
  redactionMarker,
  sensitiveFieldKind,
  type RedactionCounter,
  type RedactionCounts,
  type RedactionKind,
} from './redact-fields.js';

/** Text with its sensitive values replaced, and how many of each kind were replaced. */
export interface RedactedText {
  text: string;
  counts: RedactionCounts;
}

/** Options of {@link redactText}. */
export interface RedactTextOptions {
  /**
   * The turn this text answers (the agent's question before a customer's reply). A short reply
   * to a question that asked for a code, CVV, PIN, card number, SSN or password ("482913", "7 3
   * 7", "Sunshine2024") is redacted as that, though it has no label of its own.
   */
  answers?: string;
  /**
   * Told of every value replaced, with its kind: how a conversation's redactor remembers what it
   * hid. The values are the secrets themselves; keep them in memory, never store or log them.
   */
  onValue?: RedactionCounter;
}

/**
 * Replaces every sensitive value found in free text (sentences, logs, JSON held as text).
 * Idempotent: a redacted text comes back unchanged, with zero counts.
 */
export function redactText(text: string, options: RedactTextOptions = {}): RedactedText {
  const counts = emptyRedactionCounts();
  const count = counterFor(counts, options.onValue);
  const redacted = redactDetected(text, count);
  return { text: options.answers === undefined ? redacted : redactAnswer(redacted, options.answers, count), counts };
}

