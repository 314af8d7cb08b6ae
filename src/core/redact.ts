/**
 * Redaction of secrets from free text, JSON values and tool arguments. Pure and idempotent:
 * redacting a redacted text changes nothing and counts nothing, because markers are never
 * redacted again.
 *
 * Where it applies, as of this module (see docs/redaction.md): the context packet
 * (`buildContextPacket` redacts everything it is built from, and hides a value seen anywhere in
 * the log wherever else it appears); tool outputs that the agent runner writes to the event log.
 * Customer messages, agent replies, tool arguments, approval requests and decider evidence are
 * stored as typed until the runtime service calls {@link redactText}, {@link redactArguments} or a
 * conversation's redactor (`createConversationRedactor`, `redactTranscript`) on them before they
 * are stored; those are the functions meant for it.
 *
 * What it hides: payment card numbers however grouped (13–19 digits, Luhn and issuer-prefix
 * checked; the last four stay), CVV/CVC, one-time codes and PINs (digits spaced, grouped or
 * spelled in seven languages, after their label or before it, or as the reply to a question that
 * asked for them), passwords after any label (`password`, `pw`, `pwd`, `passw0rd`, `passcode`,
 * `Passwort`, `contraseña`…), secrets, API keys and tokens, IBANs (mod-97 checked; the last four
 * stay), US SSNs and UK National Insurance numbers (by their format rules). What it keeps on
 * purpose: order and customer ids, amounts, dates, phone numbers and e-mail addresses (a human
 * taking over needs them to call the customer back or find the account), tracking numbers, IMEIs,
 * flight numbers, reservation codes, zip codes, and long numbers that fail the Luhn check or do
 * not start like a card.
 *
 * Known limits: an unlabelled random string (a bare AWS secret key, a hash) is kept, because ids
 * and hashes look the same; a bare number that nothing names ("it just came through, 587102") is
 * kept until a later turn names it, which only the packet, built from the whole log, can use.
 */

import { counterFor, redactDetected } from './redact-detectors.js';
import { emptyRedactionCounts, type RedactionCounter, type RedactionCounts } from './redact-fields.js';
import { redactAnswer } from './redact-reply.js';

export { cardPrefixValid, luhnValid } from './redact-cards.js';
export { ibanValid } from './redact-detectors.js';
export { ninoValid, ssnValid } from './redact-national-ids.js';
export { questionFor } from './redact-reply.js';
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
