import { redactText } from '../../core/index.js';

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

/** The default: core's `redactText` on every text and on every string inside tool arguments. */
export const defaultRedactor: Redactor = {
  text: (text) => redactText(text).text,
  args: (args) => redactDeep(args, (s) => redactText(s).text) as Record<string, unknown>,
};

/** Stores everything as given: for tests of the service's own logic, never for serving customers. */
export const noRedaction: Redactor = { text: (t) => t, args: (a) => a };
