import { pythonFloat } from '../python-json.js';
import { ToolError } from '../../domain-tool.js';

/**
 * Python behaviour that leaks into the airline tools' outputs: `str()`/`repr()` of argument
 * values, type names in `TypeError`s, dict membership, and an approximation of pydantic's
 * validation errors. Pydantic's real text cannot be matched exactly (it embeds the pydantic
 * version in a URL and truncates long inputs); ours keeps its shape — count line, location
 * line, `  <message> [type=…, input_value=…, input_type=…]` — and drops the URL line.
 */

/** Python's type name of a JSON value (an integral number is taken to be an `int`). */
export function pyTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'string') return 'str';
  if (Array.isArray(value)) return 'list';
  return 'dict';
}

function reprString(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${quote}${out}${quote}`;
}

/** Python's `repr()` of a JSON value. */
export function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : pythonFloat(value);
  if (typeof value === 'string') return reprString(value);
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  const entries = Object.entries(value as Record<string, unknown>);
  return `{${entries.map(([k, v]) => `${reprString(k)}: ${pythonRepr(v)}`).join(', ')}}`;
}

/** Python's `str()` of a JSON value, as an f-string substitutes it. */
export function pythonStr(value: unknown): string {
  return typeof value === 'string' ? value : pythonRepr(value);
}

/** True for a JSON object (Python `dict`). */
export function isDict(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Python's `key in mapping` for a str-keyed dict: unhashable keys raise `TypeError`. */
export function hasKey(mapping: Record<string, unknown>, key: unknown): key is string {
  if (Array.isArray(key) || isDict(key)) throw new ToolError(`unhashable type: '${pyTypeName(key)}'`);
  return typeof key === 'string' && Object.hasOwn(mapping, key);
}

/** Python's `mapping[key]` for a str-keyed dict: a miss raises `KeyError` (`Error: 'first'`). */
export function getKey<T>(mapping: Record<string, T>, key: unknown): T {
  if (!hasKey(mapping, key)) throw new ToolError(pythonRepr(key));
  return mapping[key] as T;
}

/** The items Python iterates over in `for x in value` (a dict yields its keys). */
export function pythonItems(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return [...value];
  if (isDict(value)) return Object.keys(value);
  throw new ToolError(`'${pyTypeName(value)}' object is not iterable`);
}

/** A number as Python arithmetic sees it (`True` is 1), or a `TypeError` naming the operator. */
export function pythonNumber(value: unknown, op: string, other: unknown, left: boolean): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  const [a, b] = left ? [value, other] : [other, value];
  throw new ToolError(`unsupported operand type(s) for ${op}: '${pyTypeName(a)}' and '${pyTypeName(b)}'`);
}

/** A field of a pydantic model: a string, an integer, a float, or one of some literals. */
export type FieldKind = 'str' | 'int' | 'float' | readonly string[];

/** One pydantic error entry. */
export interface ValidationIssue {
  loc: string;
  msg: string;
  type: string;
  input: unknown;
}

/** Checks and coerces one field value as pydantic's lax mode does; returns the value or an issue. */
export function coerceField(kind: FieldKind, input: unknown, loc: string): { value: unknown } | ValidationIssue {
  if (input === undefined) return { loc, msg: 'Field required', type: 'missing', input };
  if (kind === 'str') {
    return typeof input === 'string' ? { value: input } : { loc, msg: 'Input should be a valid string', type: 'string_type', input };
  }
  if (kind === 'int' || kind === 'float') {
    if (typeof input === 'boolean') return { value: input ? 1 : 0 };
    let n = input;
    if (typeof input === 'string') {
      const text = input.trim();
      const ok = kind === 'int' ? /^[+-]?\d+$/.test(text) : text !== '' && !Number.isNaN(Number(text));
      if (!ok) {
        const msg =
          kind === 'int'
            ? 'Input should be a valid integer, unable to parse string as an integer'
            : 'Input should be a valid number, unable to parse string as a number';
        return { loc, msg, type: kind === 'int' ? 'int_parsing' : 'float_parsing', input };
      }
      n = Number(text);
    }
    if (typeof n !== 'number') {
      return kind === 'int'
        ? { loc, msg: 'Input should be a valid integer', type: 'int_type', input }
        : { loc, msg: 'Input should be a valid number', type: 'float_type', input };
    }
    if (kind === 'int' && !Number.isInteger(n)) {
      return { loc, msg: 'Input should be a valid integer, got a number with a fractional part', type: 'int_from_float', input };
    }
    return { value: n };
  }
  if (typeof input === 'string' && kind.includes(input)) return { value: input };
  const options = kind.map((k) => `'${k}'`);
  const list = options.length > 1 ? `${options.slice(0, -1).join(', ')} or ${options.at(-1)}` : (options[0] ?? '');
  return { loc, msg: `Input should be ${list}`, type: 'literal_error', input };
}

/** The approximate text of a pydantic `ValidationError` (see the module comment). */
export function validationError(model: string, issues: readonly ValidationIssue[]): ToolError {
  const head = `${issues.length} validation error${issues.length === 1 ? '' : 's'} for ${model}`;
  const lines = issues.map(
    (i) => `${i.loc}\n  ${i.msg} [type=${i.type}, input_value=${pythonRepr(i.input)}, input_type=${pyTypeName(i.input)}]`,
  );
  return new ToolError([head, ...lines].join('\n'));
}

/**
 * Builds a pydantic model from a dict (`Model(**data)`): fields in model order, coerced; unknown
 * keys ignored; every problem reported at once. `prefix` nests the locations (`passengers.0.`).
 */
export function buildModel(
  fields: ReadonlyArray<readonly [string, FieldKind]>,
  data: Record<string, unknown>,
  issues: ValidationIssue[],
  prefix = '',
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, kind] of fields) {
    const result = coerceField(kind, Object.hasOwn(data, name) ? data[name] : undefined, `${prefix}${name}`);
    if ('value' in result) out[name] = result.value;
    // A missing field reports the whole input, as pydantic does.
    else issues.push(result.type === 'missing' ? { ...result, input: data } : result);
  }
  return out;
}

/** `Model(**data)` that raises the validation error itself. */
export function validateModel(
  model: string,
  fields: ReadonlyArray<readonly [string, FieldKind]>,
  data: Record<string, unknown>,
): Record<string, unknown> {
  const issues: ValidationIssue[] = [];
  const out = buildModel(fields, data, issues);
  if (issues.length > 0) throw validationError(model, issues);
  return out;
}
