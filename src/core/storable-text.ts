import type { z } from 'zod';

/**
 * What text Baton stores (docs/decisions/0010-storable-text.md): any well-formed Unicode string
 * without NUL. A lone surrogate (half of a UTF-16 pair) has no UTF-8 form, so SQLite and
 * PostgreSQL would each store U+FFFD instead, and two distinct idempotency keys would become one;
 * PostgreSQL refuses NUL in `text` and `\u0000` in `jsonb`. Rather than let each store change or
 * refuse text its own way, text that callers send is refused at the edge (`checkStorableText`,
 * `storableText`), and text Baton itself generates (model output) is repaired
 * (`sanitizeGeneratedText`). Everything else — RTL marks, ZWJ sequences, combining marks, BOM,
 * noncharacters such as U+FFFF — is stored and read back unchanged.
 */

/** Why a text cannot be stored. */
export type UnstorableReason = 'lone_surrogate' | 'nul';

/** The answer of {@link checkStorableText}: `index` is the UTF-16 offset of the first offence. */
export type StorableTextCheck = { ok: true } | { ok: false; reason: UnstorableReason; index: number; message: string };

// With the `u` flag a well-formed pair is one code point, so `\p{Cs}` matches only a lone half.
const LONE_SURROGATE = /\p{Cs}/u;
const LONE_SURROGATES = /\p{Cs}/gu;
const NUL = '\u0000';

// `String.prototype.isWellFormed` (ES2024, in Node 20) is native and several times faster than the
// regex; the regex only runs to find where the offence is. The lib this compiles against is ES2023.
const isWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;
const wellFormed = (text: string): boolean => (isWellFormed ? isWellFormed.call(text) : !LONE_SURROGATE.test(text));

/** The UTF-16 offset of the first lone surrogate or NUL, or -1. */
function firstUnstorable(text: string): number {
  const nul = text.indexOf(NUL);
  const lone = wellFormed(text) ? -1 : (LONE_SURROGATE.exec(text)?.index ?? -1);
  return nul === -1 ? lone : lone === -1 ? nul : Math.min(nul, lone);
}

/** Whether `text` can be stored as it is: well-formed UTF-16 and free of NUL (U+0000). */
export function checkStorableText(text: string): StorableTextCheck {
  const index = firstUnstorable(text);
  if (index === -1) return { ok: true };
  const unit = text.charCodeAt(index);
  if (unit === 0) {
    return { ok: false, reason: 'nul', index, message: `contains NUL (U+0000) at offset ${index}; Baton does not store NUL characters` };
  }
  const hex = unit.toString(16).toUpperCase();
  return {
    ok: false,
    reason: 'lone_surrogate',
    index,
    message: `contains a lone surrogate (U+${hex}) at offset ${index}; text must be well-formed Unicode (UTF-16 pairs complete)`,
  };
}

/** `checkStorableText(text).ok`. */
export const isStorableText = (text: string): boolean => firstUnstorable(text) === -1;

/**
 * Adds Baton's storable-text rule to a string schema, for HTTP bodies and other caller input:
 * `storableText(z.string().max(200))`. The issue's message says what is wrong and where.
 */
export function storableText<T extends z.ZodString>(schema: T): T {
  return schema.superRefine((text, ctx) => {
    const check = checkStorableText(text);
    if (!check.ok) ctx.addIssue({ code: 'custom', message: check.message, params: { reason: check.reason, index: check.index } });
  }) as T;
}

/** Where inside a value the first unstorable string is: a JSON path (`$.data.output`) and why. */
export interface UnstorableTextFinding {
  path: string;
  reason: UnstorableReason;
  message: string;
}

/**
 * The first string inside `value` (strings, arrays and plain objects, keys included) that Baton
 * cannot store, or null. Used by the store adapters on every write, so that what cannot be
 * stored is refused identically by every adapter instead of being changed by one of them.
 */
export function findUnstorableText(value: unknown): UnstorableTextFinding | null {
  const stack: [unknown, string][] = [[value, '$']];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [item, path] = next;
    if (typeof item === 'string') {
      const check = checkStorableText(item);
      if (!check.ok) return { path, reason: check.reason, message: check.message };
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) stack.push([item[i], `${path}[${i}]`]);
    } else if (item !== null && typeof item === 'object') {
      const keys = Object.keys(item);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        const check = checkStorableText(key);
        if (!check.ok) return { path: `${path} (a key)`, reason: check.reason, message: check.message };
        stack.push([(item as Record<string, unknown>)[key], `${path}.${key.length > 40 ? `${key.slice(0, 40)}…` : key}`]);
      }
    }
  }
  return null;
}

/**
 * Makes text that Baton itself produced (a model's reply, a tool's output) storable: each lone
 * surrogate becomes U+FFFD and NUL characters are removed. Never for caller input, which is
 * refused instead, so that a caller's text is stored exactly as sent or not at all.
 */
export function sanitizeGeneratedText(text: string): string {
  if (isStorableText(text)) return text;
  return text.replace(LONE_SURROGATES, '\uFFFD').replaceAll(NUL, '');
}

/**
 * {@link sanitizeGeneratedText} applied to every string (and key) inside a generated value — a
 * turn's result, tool arguments a model wrote. Returns `value` itself when nothing needed repair,
 * so the common case copies nothing; only plain objects and arrays are entered.
 */
export function sanitizeGenerated<T>(value: T): T {
  if (typeof value === 'string') return sanitizeGeneratedText(value) as T;
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((item: unknown) => {
      const repaired = sanitizeGenerated(item);
      if (repaired !== item) changed = true;
      return repaired;
    });
    return (changed ? out : value) as T;
  }
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return value;
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const repairedKey = sanitizeGeneratedText(key);
    const repaired = sanitizeGenerated(item);
    if (repairedKey !== key || repaired !== item) changed = true;
    out[repairedKey] = repaired;
  }
  return (changed ? out : value) as T;
}
