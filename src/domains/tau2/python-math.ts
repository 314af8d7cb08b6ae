/**
 * Python number semantics the retail tools depend on: `round(x, 2)`, and the `int`/`float`
 * arithmetic behind the `calculate` tool (exact integers, correctly rounded true division and
 * integer powers, CPython's floor division and its error texts).
 */
import { ToolError } from '../domain-tool.js';

/**
 * Python's `round(x, 2)`: rounds the exact binary value to the nearest hundredth, ties to even.
 * `toFixed` rounds the exact value too but breaks ties upwards; a tie needs |x|·8 to be an odd
 * integer, and only then is the choice made here.
 */
export function pythonRound2(x: number): number {
  if (!Number.isFinite(x) || Math.abs(x) >= 2 ** 52) return x;
  const a = Math.abs(x);
  let r: number;
  if (Number.isInteger(a * 8) && (a * 8) % 2 === 1) {
    const lower = Math.floor(a * 100);
    r = (lower % 2 === 0 ? lower : lower + 1) / 100;
  } else r = Number(a.toFixed(2));
  return x < 0 || Object.is(x, -0) ? -r : r;
}

/** A Python number: an exact `int` or a `float`. */
export type PyNum = { int: bigint } | { float: number };

/** `float(n)`. */
export function toFloat(n: PyNum): number {
  if ('float' in n) return n.float;
  const f = Number(n.int);
  if (!Number.isFinite(f)) throw new ToolError('int too large to convert to float');
  return f;
}

function floorDiv(vx: number, wx: number): number {
  // CPython's float_floor_div.
  let mod = vx % wx;
  let div = (vx - mod) / wx;
  if (mod) {
    if (wx < 0 !== mod < 0) {
      mod += wx;
      div -= 1;
    }
  }
  if (!div) return Math.sign(vx / wx) < 0 || Object.is(vx / wx, -0) ? -0 : 0;
  let floored = Math.floor(div);
  if (div - floored > 0.5) floored += 1;
  return floored;
}

const bitLength = (n: bigint) => (n === 0n ? 0 : n.toString(2).length);

/** n / d for n ≥ 0, d > 0, correctly rounded to a double (Infinity when too large). */
function ratioToFloat(n: bigint, d: bigint): number {
  if (n === 0n) return 0;
  // A quotient of at least 55 bits plus a sticky bit rounds correctly through Number().
  const shift = bitLength(n) - bitLength(d) - 55;
  const [num, den] = shift >= 0 ? [n, d << BigInt(shift)] : [n << BigInt(-shift), d];
  const q = num / den;
  return Number(num % den === 0n ? q : q | 1n) * 2 ** shift;
}

/** `x ** k` for a finite non-zero float and a small integer k, correctly rounded (C's pow is, in practice). */
function exactPower(x: number, k: number): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const bits = view.getBigUint64(0);
  const biased = Number(bits >> 52n);
  const fraction = bits & ((1n << 52n) - 1n);
  const mantissa = biased === 0 ? fraction : fraction | (1n << 52n);
  const exponent = (biased === 0 ? 1 : biased) - 1075;
  const negative = x < 0 && k % 2 !== 0;
  const log2 = k * Math.log2(Math.abs(x));
  if (log2 > 1025) return negative ? -Infinity : Infinity;
  if (log2 < -1100) return negative ? -0 : 0;
  const m = mantissa ** BigInt(Math.abs(k));
  const p = exponent * k;
  let [n, d] = k > 0 ? [m, 1n] : [1n, m];
  if (p >= 0) n <<= BigInt(p);
  else d <<= BigInt(-p);
  const r = ratioToFloat(n, d);
  return negative ? -r : r;
}

function power(a: PyNum, b: PyNum): PyNum {
  if ('int' in a && 'int' in b && b.int >= 0n) {
    const bits = Number(b.int) * Math.log2(Math.max(2, Math.abs(Number(a.int))));
    if (a.int === 0n || a.int === 1n || a.int === -1n || bits < 1e6) return { int: a.int ** b.int };
    throw new ToolError('int too large to convert to float');
  }
  const x = toFloat(a);
  const y = toFloat(b);
  if (x === 0 && y < 0) throw new ToolError('0.0 cannot be raised to a negative power');
  if (x < 0 && !Number.isInteger(y)) throw new ToolError("float() argument must be a string or a real number, not 'complex'");
  const exact = Number.isFinite(x) && x !== 0 && Number.isInteger(y) && Math.abs(y) <= 4096;
  const r = y === 0 ? 1 : exact ? exactPower(x, y) : x ** y;
  if (!Number.isFinite(r) && Number.isFinite(x) && Number.isFinite(y)) throw new ToolError("(34, 'Numerical result out of range')");
  return { float: r };
}

/** Python's `int / int`: the exact quotient, correctly rounded. */
function intDivide(a: bigint, b: bigint): number {
  const negative = a < 0n !== b < 0n;
  const r = ratioToFloat(a < 0n ? -a : a, b < 0n ? -b : b);
  if (!Number.isFinite(r)) throw new ToolError('integer division result too large for a float');
  return negative ? -r : r;
}

/** `a <op> b` for `+ - * / // **`. */
export function numberBinary(op: string, a: PyNum, b: PyNum): PyNum {
  if (op === '**') return power(a, b);
  if ('int' in a && 'int' in b) {
    if (op === '+') return { int: a.int + b.int };
    if (op === '-') return { int: a.int - b.int };
    if (op === '*') return { int: a.int * b.int };
    if (b.int === 0n) throw new ToolError(op === '/' ? 'division by zero' : 'integer division or modulo by zero');
    if (op === '/') return { float: intDivide(a.int, b.int) };
    const q = a.int / b.int;
    return { int: a.int % b.int !== 0n && a.int < 0n !== b.int < 0n ? q - 1n : q };
  }
  const x = toFloat(a);
  const y = toFloat(b);
  if (op === '+') return { float: x + y };
  if (op === '-') return { float: x - y };
  if (op === '*') return { float: x * y };
  if (y === 0) throw new ToolError(op === '/' ? 'float division by zero' : 'float floor division by zero');
  return { float: op === '/' ? x / y : floorDiv(x, y) };
}
