/**
 * The `calculate` tool: `str(round(float(eval(expression)), 2))` over the characters
 * `0123456789+-*\/(). `, with Python's order of failures: tokenizer errors anywhere in the text
 * first, then the first syntax error, then runtime errors in evaluation order. Syntax error texts
 * follow CPython 3.11 for the common cases (best effort: they vary between Python versions).
 */
import { pythonFloat } from './python-json.js';
import { ToolError } from '../domain-tool.js';
import { numberBinary, pythonRound2, toFloat, type PyNum } from './python-math.js';

type Token = { text: string; level: number };
type Node =
  | { kind: 'num'; text: string }
  | { kind: 'tuple' }
  | { kind: 'unary'; op: string; operand: Node }
  | { kind: 'binary'; op: string; left: Node; right: Node }
  | { kind: 'call'; callee: Node; arg: Node | undefined; star: '' | '*' | '**' };
type Value = PyNum | 'tuple';

const SYNTAX = 'invalid syntax (<string>, line 1)';
const COMMA = 'invalid syntax. Perhaps you forgot a comma? (<string>, line 1)';
const isNumber = (t: Token | undefined) => t !== undefined && /^[\d.]/.test(t.text) && t.text !== '.';

/** Splits the text into tokens with their parenthesis depth; raises the tokenizer's errors. */
function tokenize(expression: string): Token[] {
  const tokens: Token[] = [];
  const re = / *(\d+\.\d*|\.\d+|\d+|\*\*|\/\/|[-+*/().])/y;
  let level = 0;
  re.lastIndex = 0;
  while (re.lastIndex < expression.trimEnd().length) {
    const text = re.exec(expression)?.[1];
    if (text === undefined) throw new ToolError(SYNTAX);
    if (/^0+[1-9]\d*$/.test(text)) {
      throw new ToolError(
        'leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers (<string>, line 1)',
      );
    }
    if (text === ')' && level === 0) throw new ToolError("unmatched ')' (<string>, line 1)");
    if (text === '(') level++;
    if (text === ')') level--;
    tokens.push({ text, level });
  }
  if (tokens.length === 0) throw new ToolError('invalid syntax (<string>, line 0)');
  return tokens;
}

const NEVER_CLOSED = "'(' was never closed (<string>, line 1)";

/**
 * Parses the tokens (sum, term, factor, power, call, atom as in Python's grammar). Like CPython,
 * reading past the last token while a parenthesis is open fails at once with `'(' was never
 * closed`. A syntax error triggers a second, error-finding pass as in CPython's PEG parser: a
 * number right after a complete expression inside brackets is a missing comma, and `(*x)` or
 * `(**x)` a misplaced starred expression; otherwise the error is `invalid syntax`.
 */
function parse(tokens: Token[]): Node {
  const unclosed = (tokens.at(-1)?.level ?? 0) > 0;
  let pos = 0;
  let errorPass = false;
  /** Whether the error pass's extra rules apply (not inside the expression after a juxtaposition). */
  let rules = true;
  const peek = (): string | undefined => {
    if (pos >= tokens.length && unclosed) throw new ToolError(NEVER_CLOSED);
    return tokens[pos]?.text;
  };
  /** Runs `parseMore`; in the error pass a plain syntax error backtracks to `save` (PEG's choice). */
  const attempt = <T>(save: number, parseMore: () => T): T | undefined => {
    try {
      return parseMore();
    } catch (error) {
      if (!errorPass || !(error instanceof ToolError) || error.message !== SYNTAX) throw error;
      pos = save;
      return undefined;
    }
  };
  /** In the error pass: an expression directly followed by a number. */
  const juxtaposed = () => {
    const token = tokens[pos];
    if (!errorPass || !rules || !token || !isNumber(token)) return;
    rules = false;
    try {
      attempt(pos, sum);
    } finally {
      rules = true;
    }
    if (token.level > 0) throw new ToolError(COMMA);
  };
  const close = () => {
    juxtaposed();
    if (peek() !== ')') throw new ToolError(SYNTAX);
    pos++;
  };
  const atom = (): Node => {
    const token = tokens[pos];
    const text = peek();
    if (token && isNumber(token)) {
      pos++;
      return { kind: 'num', text: token.text };
    }
    if (text !== '(') throw new ToolError(SYNTAX);
    pos++;
    const star = peek();
    // `(*x` can only start a tuple, which needs a comma; the error pass also reads `(**x`.
    if (star === '*' || (star === '**' && errorPass && rules)) {
      pos++;
      const starred = errorPass ? attempt(pos, sum) : sum();
      if (errorPass && rules && starred) {
        juxtaposed();
        if (peek() === ')') throw new ToolError(`cannot use ${star === '**' ? 'double ' : ''}starred expression here (<string>, line 1)`);
      }
      throw new ToolError(SYNTAX);
    }
    if (star === ')') {
      pos++;
      return { kind: 'tuple' };
    }
    const inner = sum();
    close();
    return inner;
  };
  const primary = (): Node => {
    let node = atom();
    for (let save = pos; peek() === '('; save = pos) {
      const callee = node;
      const call = attempt(save, () => {
        pos++;
        const first = peek();
        const star = first === '*' || first === '**' ? first : '';
        if (star) pos++;
        const arg = peek() === ')' && !star ? undefined : sum();
        close();
        return { kind: 'call', callee, arg, star } as const;
      });
      if (!call) break;
      node = call;
    }
    return node;
  };
  const factor = (): Node => {
    const op = peek();
    if (op === '-' || op === '+') {
      pos++;
      return { kind: 'unary', op, operand: factor() };
    }
    const base = primary();
    const save = pos;
    if (peek() !== '**') return base;
    pos++;
    const exponent = attempt(save, factor);
    return exponent ? { kind: 'binary', op: '**', left: base, right: exponent } : base;
  };
  const chain = (operand: () => Node, ops: readonly string[]) => (): Node => {
    let node = operand();
    for (let op = peek(), save = pos; op !== undefined && ops.includes(op); op = peek(), save = pos) {
      pos++;
      const right = attempt(save, operand);
      if (!right) break;
      node = { kind: 'binary', op, left: node, right };
    }
    return node;
  };
  const term = chain(factor, ['*', '/', '//']);
  const sum: () => Node = chain(term, ['+', '-']);
  const whole = (): Node => {
    const tree = sum();
    juxtaposed();
    if (pos !== tokens.length) throw new ToolError(SYNTAX);
    return tree;
  };
  try {
    return whole();
  } catch (error) {
    if (!(error instanceof ToolError) || error.message !== SYNTAX) throw error;
    errorPass = true;
    pos = 0;
    whole();
    throw error;
  }
}

const typeName = (v: Value) => (v === 'tuple' ? 'tuple' : 'int' in v ? 'int' : 'float');

/** `a <op> b` where either side may be the empty tuple `()`. */
function binary(op: string, a: Value, b: Value): Value {
  if (a !== 'tuple' && b !== 'tuple') return numberBinary(op, a, b);
  if (op === '+' && a === 'tuple') {
    if (b === 'tuple') return 'tuple';
    throw new ToolError(`can only concatenate tuple (not "${typeName(b)}") to tuple`);
  }
  if (op === '*') {
    const other = a === 'tuple' ? b : a;
    if (other !== 'tuple' && 'int' in other) return 'tuple';
    throw new ToolError(`can't multiply sequence by non-int of type '${typeName(other)}'`);
  }
  const shown = op === '**' ? '** or pow()' : op;
  throw new ToolError(`unsupported operand type(s) for ${shown}: '${typeName(a)}' and '${typeName(b)}'`);
}

function evaluate(node: Node): Value {
  switch (node.kind) {
    case 'num':
      if (node.text.includes('.')) return { float: Number(node.text) };
      return { int: BigInt(node.text) };
    case 'tuple':
      return 'tuple';
    case 'unary': {
      const v = evaluate(node.operand);
      if (v === 'tuple') throw new ToolError(`bad operand type for unary ${node.op}: 'tuple'`);
      if (node.op === '+') return v;
      return 'int' in v ? { int: -v.int } : { float: -v.float };
    }
    case 'binary': {
      const left = evaluate(node.left);
      return binary(node.op, left, evaluate(node.right));
    }
    case 'call': {
      const callee = evaluate(node.callee);
      const arg = node.arg && evaluate(node.arg);
      if (arg && node.star) {
        const shown = callee === 'tuple' ? '()' : 'int' in callee ? String(callee.int) : pythonFloat(callee.float);
        if (node.star === '**') throw new ToolError(`${shown} argument after ** must be a mapping, not ${typeName(arg)}`);
        if (arg !== 'tuple') throw new ToolError(`${shown} argument after * must be an iterable, not ${typeName(arg)}`);
      }
      throw new ToolError(`'${typeName(callee)}' object is not callable`);
    }
  }
}

/** The `calculate` tool's result text; its errors carry Python's messages. */
export function pythonCalculate(expression: string): string {
  if (![...expression].every((c) => '0123456789+-*/(). '.includes(c))) throw new ToolError('Invalid characters in expression');
  const value = evaluate(parse(tokenize(expression)));
  if (value === 'tuple') throw new ToolError("float() argument must be a string or a real number, not 'tuple'");
  const x = toFloat(value);
  // round(x, 2) keeps inf and nan, and str() prints them bare.
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  return pythonFloat(pythonRound2(x));
}
