import { REDACTED_VALUE, redactText } from '../../core/index.js';

/**
 * How the service keeps secrets from being stored: every text and every tool argument goes
 * through it on the way to the log. The raw value lives only in memory, for the one turn whose
 * tool call needs it.
 */
export interface Redactor {
  text(text: string): string;
  args(args: Record<string, unknown>): Record<string, unknown>;
}

/** Redacts every string inside a JSON-like value with `text`. */
export function redactDeep(value: unknown, text: (s: string) => string): unknown {
  if (typeof value === 'string') return text(value);
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, text));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactDeep(v, text)]));
  }
  return value;
}

/**
 * Argument names whose value is a secret whatever it looks like: a one-time code is six plain
 * digits, which no text rule can tell from an amount without its label.
 */
const SECRET_ARGUMENT =
  /^(?:.*_)?(?:code|otp|passcode|pin|cvv|cvc|csc|security_code|password|passwd|pwd|secret|token|api_key|card_number|pan|iban|ssn|nino)$/i;

/** Redacts tool arguments: values under secret names wholly, every other string by core's text rules. */
export function redactArguments(args: Record<string, unknown>, text: (s: string) => string): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(args).map(([key, value]) => [key, SECRET_ARGUMENT.test(key) && value !== null ? REDACTED_VALUE : redactDeep(value, text)]),
  );
}

const textRule = (text: string) => redactText(text).text;

/** The default: core's `redactText` on every text, and secret-named tool arguments removed. */
export const defaultRedactor: Redactor = {
  text: textRule,
  args: (args) => redactArguments(args, textRule),
};

/** Stores everything as given: for tests of the service's own logic, never for serving customers. */
export const noRedaction: Redactor = { text: (t) => t, args: (a) => a };
