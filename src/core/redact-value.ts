/**
 * Redaction of JSON values (tool arguments, tool outputs, event payloads) by field name and by
 * value: what a field is called says what its value is (`cvv`, `otp_sent`, `card_number`), a
 * sibling can say it too (`{"type": "otp", "value": "482913"}`), and every other string is read
 * as text. Ids, amounts, dates and booleans are kept.
 */

import { counterFor, redactDetected } from './redact-detectors.js';
import {
  emptyRedactionCounts,
  redactFieldValue,
  sensitiveFieldKind,
  type RedactionCounter,
  type RedactionCounts,
} from './redact-fields.js';

/** A JSON value with its sensitive values replaced, and how many of each kind were replaced. */
export interface RedactedValue {
  value: unknown;
  counts: RedactionCounts;
}

/** A tool call's arguments with their sensitive values replaced, how many of each kind, and in all. */
export interface RedactedArguments {
  arguments: Record<string, unknown>;
  counts: RedactionCounts;
  /** How many values were replaced, of every kind. */
  total: number;
}

/**
 * Walks a JSON value: the whole value of a sensitive field (`password`, `cvv`, `otp`, `api_key`,
 * `access_token`, `card_number`, `iban`, `ssn`, `nino`…) is replaced, and every other string is
 * redacted as text. `fieldName` is the name the value was found under, when it has one. Numbers
 * under a sensitive name become marker strings; a number that is itself a card number does too.
 */
export function redactValue(value: unknown, fieldName?: string): RedactedValue {
  const counts = emptyRedactionCounts();
  return { value: walkValue(value, fieldName, counterFor(counts)), counts };
}

/**
 * Redacts a tool call's arguments before they are stored or shown: by field name (`code`, `otp`,
 * `cvv`, `card_number`, `password`, `pin`… are replaced by their marker; a card keeps its last
 * four) and by value (a card number, IBAN, key or labelled code in any field). Ids, amounts,
 * dates and other fields are kept as they are. Idempotent: redacted arguments come back the same.
 */
export function redactArguments(args: Readonly<Record<string, unknown>>): RedactedArguments {
  const counts = emptyRedactionCounts();
  const value = walkValue(args, undefined, counterFor(counts)) as Record<string, unknown>;
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  return { arguments: value, counts, total };
}

// Fields that hold ids: a long number there is an order, tracking or serial number, not a card
// (a card under such a name still shows itself by its label or its field name).
const ID_PARTS = new Set([
  'id',
  'ids',
  'tracking',
  'reference',
  'ref',
  'serial',
  'barcode',
  'imei',
  'ean',
  'upc',
  'isbn',
  'sku',
  'order',
  'invoice',
]);
const isIdField = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .some((part) => ID_PARTS.has(part));
// Keys that name what a sibling value is: `{"type": "cvv", "value": "123"}`, `{"field": "password", "input": "…"}`.
const DESCRIPTOR_KEYS = ['type', 'kind', 'name', 'field', 'label', 'key', 'factor', 'credential_type', 'method'];
const VALUE_KEYS = new Set(['value', 'val', 'data', 'input', 'text', 'answer', 'response', 'content', 'secret', 'entered', 'provided']);

/**
 * The walk behind {@link redactValue}: `fieldName` is the name `value` was found under, and
 * `count` is told of every value replaced.
 */
export function walkValue(value: unknown, fieldName: string | undefined, count: RedactionCounter): unknown {
  if (typeof value === 'string' || typeof value === 'number') {
    const text = String(value);
    // A one-time code is a string (it may start with 0); a number under `code` is a status or error code.
    const numericCode = typeof value === 'number' && fieldName !== undefined && /^code$/i.test(fieldName);
    const field = fieldName === undefined || numericCode ? null : redactFieldValue(fieldName, text);
    if (field) {
      count(field.kind, text.trim());
      return field.marker;
    }
    if (typeof value === 'number' && !Number.isInteger(value)) return value;
    const bareCards = fieldName === undefined || !isIdField(fieldName);
    const redacted = redactDetected(text, count, { bareCards });
    return redacted === text ? value : redacted;
  }
  // An array under a sensitive name (`"otp": ["…", "…"]`) is sensitive item by item.
  if (Array.isArray(value)) return value.map((item) => walkValue(item, fieldName, count));
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    const described = describedAs(entries);
    return Object.fromEntries(
      entries.map(([key, item]) => [key, walkValue(item, described && VALUE_KEYS.has(key.toLowerCase()) ? described : key, count)]),
    );
  }
  return value;
}

/** The sensitive name a descriptor sibling gives the object's value fields, if any. */
function describedAs(entries: ReadonlyArray<readonly [string, unknown]>): string | null {
  for (const [key, item] of entries) {
    if (typeof item !== 'string' || !DESCRIPTOR_KEYS.includes(key.toLowerCase())) continue;
    if (sensitiveFieldKind(item) !== null) return item;
  }
  return null;
}
