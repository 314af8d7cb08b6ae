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

/** A JSON string as Python writes it with `ensure_ascii`: every non-ASCII code unit as `\uXXXX`. */
export function pythonString(text: string): string {
  return JSON.stringify(text).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Serialises `value` with sorted keys, Python's separators and Python's numbers. */
export function pythonJson(value: unknown, isFloat: FloatPath = () => false, sortKeys = true): string {
  const out: string[] = [];
  const path: string[] = [];
  const write = (v: unknown): void => {
    if (v === null || v === undefined) out.push('null');
    else if (typeof v === 'boolean') out.push(v ? 'true' : 'false');
    else if (typeof v === 'number') out.push(isFloat(path) ? pythonFloat(v) : Number.isInteger(v) ? String(v) : pythonFloat(v));
    else if (typeof v === 'string') out.push(pythonString(v));
    else if (Array.isArray(v)) {
      out.push('[');
      v.forEach((item, i) => {
        if (i > 0) out.push(', ');
        path.push('[]');
        write(item);
        path.pop();
      });
      out.push(']');
    } else if (typeof v === 'object') {
      const keys = Object.keys(v);
      if (sortKeys) keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      out.push('{');
      keys.forEach((key, i) => {
        if (i > 0) out.push(', ');
        out.push(pythonString(key), ': ');
        path.push(key);
        write((v as Record<string, unknown>)[key]);
        path.pop();
      });
      out.push('}');
    } else throw new Error(`cannot serialise a ${typeof v} as JSON`);
  };
  write(value);
  return out.join('');
}
