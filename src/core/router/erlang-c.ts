/** The inputs of an M/M/c queue: arrivals per unit time, services per unit time per server, servers. */
export interface ErlangCInput {
  /** λ: arrival rate. */
  arrivalRate: number;
  /** μ: service rate of one server (1 / mean service time), in the same time unit as λ. */
  serviceRate: number;
  /** c: servers. */
  servers: number;
}

/** What Erlang C says of a stable M/M/c queue. */
export interface ErlangCResult {
  /** Offered load in Erlangs, A = λ/μ. */
  offeredLoad: number;
  /** Utilisation ρ = A/c. */
  utilisation: number;
  /** The probability an arrival waits at all, C(c, A). */
  probabilityOfWait: number;
  /** Expected wait in the queue, E[Wq] = C(c, A) / (cμ − λ), in the time unit of the rates. */
  meanWait: number;
}

/**
 * Erlang C: the probability of waiting and the expected wait of an M/M/c queue (Poisson arrivals,
 * exponential service, c servers, first come first served, no abandonment). Computed with the
 * Erlang B recursion B(k) = A·B(k−1) / (k + A·B(k−1)), which never forms A^c or c! and so stays
 * accurate for large c; then C = c·B / (c − A·(1 − B)). Throws on an unstable queue (A ≥ c).
 */
export function erlangC(input: ErlangCInput): ErlangCResult {
  const { arrivalRate, serviceRate, servers } = input;
  if (!(arrivalRate >= 0) || !(serviceRate > 0)) throw new Error('erlangC: rates must be λ ≥ 0 and μ > 0');
  if (!Number.isInteger(servers) || servers < 1) throw new Error('erlangC: servers must be a whole number ≥ 1');
  const a = arrivalRate / serviceRate;
  if (a >= servers) throw new Error(`erlangC: unstable queue (offered load ${a} ≥ ${servers} servers)`);
  let b = 1;
  for (let k = 1; k <= servers; k += 1) b = (a * b) / (k + a * b);
  const c = (servers * b) / (servers - a * (1 - b));
  return { offeredLoad: a, utilisation: a / servers, probabilityOfWait: c, meanWait: c / (servers * serviceRate - arrivalRate) };
}
