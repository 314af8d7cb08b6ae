/**
 * The q-quantile of a Gamma(k, 1) distribution with whole shape k: the time by which k events of a
 * unit-rate Poisson process have happened with probability q. Exact (bisection on the Poisson
 * tail P(N(t) ≥ k)) for k ≤ 40; the Wilson–Hilferty cube-root approximation above that, whose
 * relative error there is well under 0.5%.
 */
export function gammaQuantile(k: number, q: number): number {
  if (!Number.isInteger(k) || k < 1) throw new Error('gammaQuantile: k must be a whole number ≥ 1');
  if (!(q > 0 && q < 1)) throw new Error('gammaQuantile: q must be in (0, 1)');
  if (k > 40) {
    const z = normalQuantile(q);
    return k * (1 - 1 / (9 * k) + z / (3 * Math.sqrt(k))) ** 3;
  }
  let lo = 0;
  let hi = k + 20 * Math.sqrt(k) + 40;
  for (let i = 0; i < 48; i += 1) {
    const mid = (lo + hi) / 2;
    if (gammaCdf(k, mid) < q) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** P(Gamma(k, 1) ≤ t) = 1 − Σ_{i<k} e^{−t} t^i / i!. */
export function gammaCdf(k: number, t: number): number {
  if (t <= 0) return 0;
  let term = Math.exp(-t);
  let sum = term;
  for (let i = 1; i < k; i += 1) {
    term *= t / i;
    sum += term;
  }
  return Math.max(0, 1 - sum);
}

/** The standard normal quantile (Acklam's rational approximation, relative error < 1.2e-9). */
export function normalQuantile(p: number): number {
  const a = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239];
  const b = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1];
  const c = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
  const [a0, a1, a2, a3, a4, a5] = a as [number, number, number, number, number, number];
  const [b0, b1, b2, b3, b4] = b as [number, number, number, number, number];
  const [c0, c1, c2, c3, c4, c5] = c as [number, number, number, number, number, number];
  const [d0, d1, d2, d3] = d as [number, number, number, number];
  const low = 0.02425;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (((((c0 * q + c1) * q + c2) * q + c3) * q + c4) * q + c5) / ((((d0 * q + d1) * q + d2) * q + d3) * q + 1);
  }
  if (p > 1 - low) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return ((((((a0 * r + a1) * r + a2) * r + a3) * r + a4) * r + a5) * q) / (((((b0 * r + b1) * r + b2) * r + b3) * r + b4) * r + 1);
}
