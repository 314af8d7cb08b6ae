import { erlangC } from '../../core/router/index.js';
import type { SimConversation } from './simulate-segment.js';

/** Batches the measured conversations are cut into, in arrival order, for the batch-means interval. */
export const ERLANG_BATCHES = 20;
/** Student's t at 0.975 with ERLANG_BATCHES − 1 = 19 degrees of freedom. */
const T_975_19 = 2.093;

/**
 * The 95 % batch-means confidence interval of the mean wait of the measured conversations that
 * have been served: the mean and the half-width, in ms (half-width Infinity with too few).
 */
export function batchMeansInterval(conversations: readonly SimConversation[]): { meanMs: number; halfMs: number; batches: number } {
  const waits = conversations.filter((c) => c.measured && c.joinedAtMs !== null).map((c) => (c.joinedAtMs as number) - c.arrivalMs);
  // The waits of neighbouring conversations are correlated, so the interval is built from the
  // means of ERLANG_BATCHES consecutive batches, nearly independent when each spans many
  // relaxation times of the queue.
  const size = Math.floor(waits.length / ERLANG_BATCHES);
  const batchMeans = size === 0 ? [] : Array.from({ length: ERLANG_BATCHES }, (_, i) => mean(waits.slice(i * size, (i + 1) * size)));
  const m = mean(batchMeans);
  const sd = Math.sqrt(batchMeans.reduce((s, x) => s + (x - m) ** 2, 0) / Math.max(1, batchMeans.length - 1));
  const halfMs = batchMeans.length > 1 ? (T_975_19 * sd) / Math.sqrt(batchMeans.length) : Infinity;
  return { meanMs: mean(waits), halfMs, batches: batchMeans.length };
}

/** What {@link erlangCheck} is given: the stationary segment's conversations and its nominal rates. */
export interface ErlangCheckInput {
  conversations: readonly SimConversation[];
  servers: number;
  /** Nominal arrival rate (per ms) and mean service (ms): what the scenario asked for. */
  nominalArrivalPerMs: number;
  nominalServiceMs: number;
}

/**
 * The Erlang-C check of the stationary M/M/c segment. The simulated mean wait (over the measured,
 * post-warm-up conversations) is compared with Erlang C at the rates the run realised — arrivals
 * per unit time over the measured span and the mean of the service times actually drawn — and,
 * beside it, at the nominal rates. At ρ = 0.95 the predicted wait moves by about 1/(1 − ρ) = 20 %
 * per 1 % of ρ, so the sampling error of the drawn arrivals and services alone (≈ 0.3 % in ρ over
 * 200 000 conversations) moves the nominal prediction by ≈ 6 %: noise about the generators, not
 * about the router. The realised comparison takes it out; the realised rates are checked against
 * the nominal ones by their z-scores (a biased generator would show there, not hide), and the
 * simulated mean gets a 95 % batch-means confidence interval.
 */
export function erlangCheck(input: ErlangCheckInput) {
  const measured = input.conversations.filter((c) => c.measured && c.joinedAtMs !== null);
  const waits = measured.map((c) => (c.joinedAtMs as number) - c.arrivalMs);
  const simulatedMs = mean(waits);

  const arrivals = input.conversations.filter((c) => c.measured).map((c) => c.arrivalMs);
  const spanMs = arrivals.length > 1 ? (arrivals[arrivals.length - 1] as number) - (arrivals[0] as number) : 0;
  const realisedArrivalPerMs = spanMs > 0 ? (arrivals.length - 1) / spanMs : input.nominalArrivalPerMs;
  const services = measured.map((c) => c.serviceMs).filter((s): s is number => s !== null);
  const realisedServiceMs = services.length > 0 ? mean(services) : input.nominalServiceMs;

  const predict = (arrivalPerMs: number, serviceMs: number) =>
    erlangC({ arrivalRate: arrivalPerMs, serviceRate: 1 / serviceMs, servers: input.servers }).meanWait;
  const nominalMs = predict(input.nominalArrivalPerMs, input.nominalServiceMs);
  const realisedMs = predict(realisedArrivalPerMs, realisedServiceMs);

  const { halfMs, batches } = batchMeansInterval(input.conversations);

  const s = (ms: number) => round(ms / 1000, 2);
  return {
    predicted_mean_wait_s: s(realisedMs),
    simulated_mean_wait_s: s(simulatedMs),
    relative_error: round(Math.abs(simulatedMs - realisedMs) / realisedMs),
    ci95_s: [s(simulatedMs - halfMs), s(simulatedMs + halfMs)],
    predicted_inside_ci95: Math.abs(simulatedMs - realisedMs) <= halfMs,
    batches,
    realised: {
      arrivals_per_hour: round(realisedArrivalPerMs * 3_600_000, 3),
      mean_service_s: s(realisedServiceMs),
      utilisation: round((realisedArrivalPerMs * realisedServiceMs) / input.servers),
      // (realised − nominal) in standard errors of an n-sample estimate: |z| > 4 would be a biased generator.
      arrival_rate_z: round((realisedArrivalPerMs / input.nominalArrivalPerMs - 1) * Math.sqrt(Math.max(1, arrivals.length - 1)), 2),
      service_mean_z: round((realisedServiceMs / input.nominalServiceMs - 1) * Math.sqrt(Math.max(1, services.length)), 2),
    },
    nominal: {
      predicted_mean_wait_s: s(nominalMs),
      relative_error: round(Math.abs(simulatedMs - nominalMs) / nominalMs),
    },
  };
}

const mean = (xs: readonly number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
const round = (x: number, digits = 4) => Number(x.toFixed(digits));
