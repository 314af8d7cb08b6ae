import { pythonFloat } from '../python-json.js';
import { Tau2ToolError } from '../tau2-tool.js';

/**
 * `calculate`'s arithmetic as Python evaluates it: `str(round(float(eval(expression)), 2))` over
 * the characters `0123456789+-*\/(). `. Integers are exact (BigInt) until they meet a float or
 * `/`; `//` floors; `**` binds tighter than unary minus. Error texts are Python 3.11's; rarer
 * ones (huge powers, complex results used further) are approximations.
 */

type Value = { t: 'int'; v: bigint } | { t: 'float'; v: number } | { t: 'tuple' } | { t: 'complex' };

const SYNTAX = 'invalid syntax (<string>, line 1)';
const MAX_INT_BITS = 100_000;

function typeName(x: Value): string {
  return x.t;
}

function toFloat(x: Value): number {
  if (x.t === 'float') return x.v;
  if (x.t === 'int') {
    const f = Number(x.v);
    if (!Number.isFinite(f)) throw new Tau2ToolError('int too large to convert to float');
    return f;
  }
  throw new Tau2ToolError(`float() argument must be a string or a real number, not '${x.t}'`);
}

/** Python's float floor division (`float_floor_div`), which differs from `Math.floor(a / b)` at the edges. */
function floatFloorDiv(a: number, b: number): number {
  if (b === 0) throw new Tau2ToolError('float floor division by zero');
  let mod = a % b;
  let div = (a - mod) / b;
  if (mod) {
    if (b < 0 !== mod < 0) {
      mod += b;
      div -= 1;
    }
  }
  if (div) {
    let floor = Math.floor(div);
    if (div - floor > 0.5) floor += 1;
    return floor;
  }
  return a / b < 0 || Object.is(a / b, -0) ? -0 : 0;
}

function floatPow(a: number, b: number): Value {
  if (a === 0 && b < 0) throw new Tau2ToolError('0.0 cannot be raised to a negative power');
  if (a < 0 && !Number.isInteger(b)) return { t: 'complex' };
  const r = a ** b;
  if (!Number.isFinite(r) && Number.isFinite(a) && Number.isFinite(b)) throw new Tau2ToolError("(34, 'Numerical result out of range')");
  return { t: 'float', v: r };
}

function bitLength(n: bigint): number {
  return (n < 0n ? -n : n).toString(2).length;
}

function binary(op: string, a: Value, b: Value): Value {
  if (a.t === 'tuple' || b.t === 'tuple')
    throw new Tau2ToolError(`unsupported operand type(s) for ${op}: '${typeName(a)}' and '${typeName(b)}'`);
  if (a.t === 'complex' || b.t === 'complex') return { t: 'complex' };
  if (a.t === 'int' && b.t === 'int') {
    const [x, y] = [a.v, b.v];
    if (op === '+') return { t: 'int', v: x + y };
    if (op === '-') return { t: 'int', v: x - y };
    if (op === '*') return { t: 'int', v: x * y };
    if (op === '/') {
      if (y === 0n) throw new Tau2ToolError('division by zero');
      return { t: 'float', v: Number(x) / Number(y) };
    }
    if (op === '//') {
      if (y === 0n) throw new Tau2ToolError('integer division or modulo by zero');
      const q = x / y;
      return { t: 'int', v: x % y !== 0n && x < 0n !== y < 0n ? q - 1n : q };
    }
    if (y < 0n) return floatPow(toFloat(a), toFloat(b));
    if (bitLength(x) * Number(y) > MAX_INT_BITS) throw new Tau2ToolError('int too large to convert to float');
    return { t: 'int', v: x ** y };
  }
  const [x, y] = [toFloat(a), toFloat(b)];
  if (op === '+') return { t: 'float', v: x + y };
  if (op === '-') return { t: 'float', v: x - y };
  if (op === '*') return { t: 'float', v: x * y };
  if (op === '/') {
    if (y === 0) throw new Tau2ToolError('float division by zero');
    return { t: 'float', v: x / y };
  }
  if (op === '//') return { t: 'float', v: floatFloorDiv(x, y) };
  return floatPow(x, y);
}

function tokenize(source: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < source.length) {
    const rest = source.slice(i);
    if (rest[0] === ' ') {
      i++;
      continue;
    }
    const number = /^(\d+\.\d*|\.\d+|\d+)/.exec(rest);
    const op = /^(\*\*|\/\/|[-+*/().])/.exec(rest);
    const token = number?.[0] ?? op?.[0];
    if (token === undefined) throw new Tau2ToolError(SYNTAX);
    if (/^0+[1-9]\d*$/.test(token)) {
      throw new Tau2ToolError(
        'leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers (<string>, line 1)',
      );
    }
    tokens.push(token);
    i += token.length;
  }
  return tokens;
}

type Node =
  | { k: 'value'; value: Value }
  | { k: 'binary'; op: string; left: Node; right: Node }
  | { k: 'unary'; op: string; operand: Node }
  | { k: 'call'; callee: Node; arg: Node | null };

/** Recursive descent over Python's grammar for these tokens. Parsed in full first: syntax errors win. */
function parse(tokens: readonly string[]): Node {
  let pos = 0;
  let depth = 0;
  const peek = (): string | undefined => tokens[pos];
  const fail = (): never => {
    throw new Tau2ToolError(depth > 0 && pos >= tokens.length ? "'(' was never closed (<string>, line 1)" : SYNTAX);
  };
  const close = (): void => {
    if (peek() !== ')') fail();
    pos++;
    depth--;
  };
  const expr = (): Node => {
    let left = term();
    while (peek() === '+' || peek() === '-') {
      const op = tokens[pos++] as string;
      left = { k: 'binary', op, left, right: term() };
    }
    return left;
  };
  const term = (): Node => {
    let left = factor();
    while (peek() === '*' || peek() === '/' || peek() === '//') {
      const op = tokens[pos++] as string;
      left = { k: 'binary', op, left, right: factor() };
    }
    return left;
  };
  const factor = (): Node => {
    const op = peek();
    if (op === '-' || op === '+') {
      pos++;
      return { k: 'unary', op, operand: factor() };
    }
    const base = primary();
    if (peek() !== '**') return base;
    pos++;
    return { k: 'binary', op: '** or pow()', left: base, right: factor() };
  };
  const primary = (): Node => {
    let node = atom();
    while (peek() === '(') {
      pos++;
      depth++;
      const arg = peek() === ')' ? null : expr();
      close();
      node = { k: 'call', callee: node, arg };
    }
    return node;
  };
  const atom = (): Node => {
    const token = peek();
    if (token === undefined) return fail();
    if (token === '(') {
      pos++;
      depth++;
      if (peek() === ')') {
        close();
        return { k: 'value', value: { t: 'tuple' } };
      }
      const inner = expr();
      close();
      return inner;
    }
    if (token === ')') throw new Tau2ToolError("unmatched ')' (<string>, line 1)");
    if (/^\.?\d/.test(token)) {
      pos++;
      return { k: 'value', value: token.includes('.') ? { t: 'float', v: Number(token) } : { t: 'int', v: BigInt(token) } };
    }
    return fail();
  };
  const tree = expr();
  if (pos < tokens.length) {
    if (peek() === ')') throw new Tau2ToolError("unmatched ')' (<string>, line 1)");
    fail();
  }
  return tree;
}

/** Evaluates left to right, as Python does; the first runtime error wins. */
function evaluate(node: Node): Value {
  switch (node.k) {
    case 'value':
      return node.value;
    case 'binary': {
      const left = evaluate(node.left);
      return binary(node.op, left, evaluate(node.right));
    }
    case 'unary': {
      const x = evaluate(node.operand);
      if (x.t === 'tuple') throw new Tau2ToolError(`bad operand type for unary ${node.op}: 'tuple'`);
      if (node.op === '+' || x.t === 'complex') return x;
      return x.t === 'int' ? { t: 'int', v: -x.v } : { t: 'float', v: -x.v };
    }
    case 'call': {
      const callee = evaluate(node.callee);
      if (node.arg) evaluate(node.arg);
      throw new Tau2ToolError(`'${typeName(callee)}' object is not callable`);
    }
  }
}

/** Python's `round(x, 2)`: the exact binary value rounded to 2 decimals, exact ties to even. */
export function pythonRound2(x: number): number {
  if (!Number.isFinite(x)) return x;
  // An exact tie at the third decimal is x = m/8 with m odd; then x * 100 is exact.
  if (Number.isInteger(x * 8) && !Number.isInteger(x * 4)) {
    const scaled = x * 100;
    const low = Math.floor(scaled);
    const even = low % 2 === 0 ? low : low + 1;
    return even / 100;
  }
  return Number(x.toFixed(2));
}

/** Python's `str(float)`. */
export function pythonFloatStr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  return pythonFloat(x);
}

/** `str(round(float(eval(expression)), 2))`; throws `Tau2ToolError` with Python's message. */
export function pythonCalculate(expression: string): string {
  const source = expression.replace(/^[ ]+/, '');
  if (source === '') throw new Tau2ToolError('invalid syntax (<string>, line 0)');
  const value = evaluate(parse(tokenize(source)));
  return pythonFloatStr(pythonRound2(toFloat(value)));
}
