/**
 * JSON as Python's `json.dumps(value, sort_keys=True)` writes it with default separators
 * (`", "`, `": "`) and `ensure_ascii`: the serialisation tau2-bench hashes and prints. Numbers
 * need their declared type, because JavaScript has one number type and Python prints an
 * integral float as `100.0`: `isFloat(path)` says which fields are float-typed.
 */
export type FloatPath = (path: readonly string[]) => boolean;

/** Python's `repr(float)`: the shortest round-trip digits; fixed notation for 1e-4 ≤ |x| < 1e16. */
export function pythonFloat(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const [mantissa = '', exponentText = '0'] = x.toExponential().split('e');
  const exponent = Number(exponentText);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  const sign = negative ? '-' : '';
  if (exponent < -4 || exponent >= 16) {
    const body = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const exp = Math.abs(exponent).toString().padStart(2, '0');
    return `${sign}${body}e${exponent < 0 ? '-' : '+'}${exp}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
  const fraction = digits.slice(exponent + 1);
  return `${sign}${whole}.${fraction || '0'}`;
}

const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** A JSON string as Python writes it with `ensure_ascii`: every non-ASCII code unit as `\uXXXX`. */
export function pythonString(text: string): string {
  // Printable ASCII without quotes or backslashes (nearly every string) needs no escaping.
  if (PLAIN.test(text)) return `"${text}"`;
  return JSON.stringify(text).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const ASTRAL_OR_HIGH = /[\ud800-\uffff]/;

/**
 * Sorts strings in place by code point, as Python sorts `str`. JavaScript's default sort compares
 * UTF-16 code units, which agrees unless a key holds a surrogate pair or a character from U+E000;
 * only then is the slower comparison needed.
 */
export function sortByCodePoint(keys: string[]): string[] {
  keys.sort();
  if (keys.some((k) => ASTRAL_OR_HIGH.test(k))) {
    keys.sort((a, b) => {
      const x = [...a].map((c) => c.codePointAt(0) ?? 0);
      const y = [...b].map((c) => c.codePointAt(0) ?? 0);
      for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
      return x.length - y.length;
    });
  }
  return keys;
}

/** Sorted key lists by the keys in their original order: records of one model share a handful. */
const sortedByShape = new Map<string, readonly string[]>();
const MAX_SHAPES = 10_000;

function sortedKeysOf(value: object): readonly string[] {
  const keys = Object.keys(value);
  if (keys.length < 2) return keys;
  const shape = keys.join('\u0000');
  let sorted = sortedByShape.get(shape);
  // Keys holding the separator could alias another shape: the cached list must be this object's.
  if (sorted !== undefined && (sorted.length !== keys.length || !sorted.every((k) => Object.hasOwn(value, k)))) sorted = undefined;
  if (sorted === undefined) {
    if (sortedByShape.size >= MAX_SHAPES) sortedByShape.clear();
    sorted = sortByCodePoint(keys);
    sortedByShape.set(shape, sorted);
  }
  return sorted;
}

/**
 * Serialises `value` with sorted keys, Python's separators and Python's numbers. `at` is where
 * `value` sits in a larger document (the path `isFloat` sees starts there).
 */
export function pythonJson(value: unknown, isFloat: FloatPath = () => false, sortKeys = true, at: readonly string[] = []): string {
  const path: string[] = [...at];
  const write = (v: unknown): string => {
    if (v === null || v === undefined) return 'null';
    switch (typeof v) {
      case 'boolean':
        return v ? 'true' : 'false';
      case 'number':
        return isFloat(path) || !Number.isInteger(v) ? pythonFloat(v) : String(v);
      case 'string':
        return pythonString(v);
      case 'object':
        break;
      default:
        throw new Error(`cannot serialise a ${typeof v} as JSON`);
    }
    let text: string;
    if (Array.isArray(v)) {
      text = '[';
      path.push('[]');
      for (let i = 0; i < v.length; i++) text += (i > 0 ? ', ' : '') + write(v[i]);
      path.pop();
      return `${text}]`;
    }
    const keys = sortKeys ? sortedKeysOf(v) : Object.keys(v);
    text = '{';
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      path.push(key);
      text += `${i > 0 ? ', ' : ''}${pythonString(key)}: ${write((v as Record<string, unknown>)[key])}`;
      path.pop();
    }
    return `${text}}`;
  };
  return write(value);
}

/** `pythonJson` with sorted keys, of a value found at `at` in a larger document. */
export const pythonJsonAt = (value: unknown, isFloat: FloatPath, at: readonly string[]): string => pythonJson(value, isFloat, true, at);
