/**
 * Bounds on what an error message repeats of a caller's input. An error that quotes a field in
 * full lets a caller make the server write (and log, and send back) as much as it was sent; so a
 * quoted value is cut to {@link MAX_ECHO_CHARS} characters with a note of its real length.
 */

/** The most characters of one caller-sent value an error message repeats. */
export const MAX_ECHO_CHARS = 200;
/** The most items of one list (issues, unrecognised keys) an error repeats. */
export const MAX_ECHO_ITEMS = 20;

/** `text` cut to `max` characters (never inside a surrogate pair), with its length noted when cut. */
export function clipEcho(text: string, max: number = MAX_ECHO_CHARS): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? max - 1 : max;
  return `${text.slice(0, end)}… (${text.length} characters)`;
}

/**
 * A copy of `value` (issues, error details) in which every string — object keys too — is clipped
 * with {@link clipEcho} and every list keeps at most {@link MAX_ECHO_ITEMS} items.
 */
export function clipEchoes<T>(value: T, max: number = MAX_ECHO_CHARS): T {
  return clipValue(value, max, 0) as T;
}

function clipValue(value: unknown, max: number, depth: number): unknown {
  if (typeof value === 'string') return clipEcho(value, max);
  if (value === null || typeof value !== 'object') return value;
  // Caller data nested this deep is not worth repeating.
  if (depth > 8) return '…';
  if (Array.isArray(value)) {
    const kept = value.slice(0, MAX_ECHO_ITEMS).map((v) => clipValue(v, max, depth + 1));
    return value.length > MAX_ECHO_ITEMS ? [...kept, `… (${value.length - MAX_ECHO_ITEMS} more)`] : kept;
  }
  const out: Record<string, unknown> = {};
  const entries = Object.entries(value);
  for (const [key, v] of entries.slice(0, MAX_ECHO_ITEMS)) out[clipEcho(key, max)] = clipValue(v, max, depth + 1);
  return out;
}
