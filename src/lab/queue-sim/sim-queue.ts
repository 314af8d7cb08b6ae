import { batchMeansInterval, erlangCheck } from './erlang-check.js';
import { errorFigures, estimatedWaits, modelFloorS } from './estimate-figures.js';
import { mixedScenario, stationaryScenario } from './sim-scenario.js';
import { simulateSegment, type SegmentOutcome, type SimConversation } from './simulate-segment.js';
import { simulateStore } from './simulate-store.js';

/** Options of {@link simQueue}. */
export interface SimQueueOptions {
  seed: number;
  /** Offered load: arrivals × mean holding ÷ staffed capacity, while the queue is open and staffed. */
  load: number;
  /** Conversations in the mixed segment (shifts, DST, holiday, bursts, declines). */
  conversations: number;
  /** Conversations in the stationary M/M/c segment that Erlang C checks. */
  stationaryConversations: number;
  /**
   * The stationary segment runs on past `stationaryConversations`, 100 000 at a time up to
   * `stationaryMaxConversations`, until the 95 % confidence interval of its mean wait is within
   * ± this share of the mean (batch means): near ρ = 1 the queue needs far more conversations.
   */
  stationaryPrecision: number;
  stationaryMaxConversations: number;
  /** Servers (people of capacity 1) in the stationary segment. */
  servers: number;
}

/** The defaults of `baton sim queue`. */
export const SIM_QUEUE_DEFAULTS: Omit<SimQueueOptions, 'seed' | 'load'> = {
  conversations: 10_000,
  stationaryConversations: 200_000,
  stationaryPrecision: 0.07,
  stationaryMaxConversations: 1_000_000,
  servers: 4,
};

const median = (xs: number[]): number => {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};
const round = (x: number, digits = 4) => Number(x.toFixed(digits));

/**
 * Runs both segments and reports the acceptance figures. Invariant counts add up over both
 * segments; the promise and wait-estimate figures come from the mixed segment; the Erlang-C
 * check from the stationary one. Same options, same JSON.
 */
export function simQueue(options: SimQueueOptions) {
  const mixed = simulateSegment(mixedScenario(), { seed: options.seed, load: options.load, conversations: options.conversations });
  const stationary = simulateSegment(stationaryScenario(options.servers), {
    seed: options.seed,
    load: options.load,
    conversations: options.stationaryConversations,
    extend: {
      every: 100_000,
      max: Math.max(options.stationaryConversations, options.stationaryMaxConversations),
      precise: (conversations) => {
        const { meanMs, halfMs } = batchMeansInterval(conversations);
        return halfMs <= options.stationaryPrecision * meanMs;
      },
    },
  });

  const joins = mixed.conversations.filter((c) => c.promise.type === 'join');
  const kept = joins.filter(
    (c) => c.joinedAtMs !== null && c.promisedWithinMs !== null && c.joinedAtMs - c.arrivalMs <= c.promisedWithinMs,
  );
  const estimated = mixed.conversations.filter(
    (c): c is SimConversation & { promise: { type: 'join'; basis: 'estimate' } } =>
      c.promise.type === 'join' && c.promise.basis === 'estimate',
  );
  const served = estimated.filter((c) => c.joinedAtMs !== null);
  const errors = served.map((c) => Math.abs(c.promise.estimate.pointMs - ((c.joinedAtMs as number) - c.arrivalMs)) / 1000);
  const actual = served.map((c) => ((c.joinedAtMs as number) - c.arrivalMs) / 1000);
  // A conversation moved to a callback waited past its promise, so past its bound: a miss.
  const covered = served.filter((c) => (c.joinedAtMs as number) - c.arrivalMs <= c.promise.estimate.boundMs).length;
  const medianError = median(errors);
  const waits = estimatedWaits(mixed.conversations);
  const medianActual = median(actual);

  const { meanServiceMs, servers } = stationary.nominal;
  const erlang = erlangCheck({
    conversations: stationary.conversations,
    servers,
    nominalArrivalPerMs: (options.load * servers) / meanServiceMs,
    nominalServiceMs: meanServiceMs,
  });

  const sum = (k: keyof SegmentOutcome['counts']) => mixed.counts[k] + stationary.counts[k];
  return {
    seed: options.seed,
    load: options.load,
    capacity_violations: sum('capacityViolations'),
    idle_slot_while_waiting: sum('idleSlotWhileWaiting'),
    promises_without_capacity: sum('promisesWithoutCapacity'),
    promise_kept_rate: round(kept.length / Math.max(1, joins.length)),
    wait_estimate: {
      median_abs_error_s: round(medianError, 2),
      median_actual_wait_s: round(medianActual, 2),
      within_goal: medianError <= Math.max(30, 0.25 * medianActual),
      stated_bound_coverage: round(covered / Math.max(1, estimated.length)),
      p90_abs_error_s: round(quantile(errors, 0.9), 2),
      estimates: estimated.length,
      // What an estimate exactly right about its Gamma model would reach on the same conversations.
      model_floor_s: round(modelFloorS(waits), 2),
      by_channel: {
        chat: errorFigures(
          waits.filter((w) => w.channel === 'chat'),
          estimated.filter((c) => c.channel === 'chat').length,
        ),
        callback: errorFigures(
          waits.filter((w) => w.channel === 'callback'),
          estimated.filter((c) => c.channel === 'callback').length,
        ),
      },
    },
    erlang_c: erlang,
    sources: {
      capacity_violations: 'mixed + stationary',
      idle_slot_while_waiting: 'mixed + stationary',
      promises_without_capacity: 'mixed + stationary',
      promise_kept_rate: 'mixed',
      wait_estimate: 'mixed',
      erlang_c: 'stationary',
    },
    segments: {
      mixed: describeSegment(mixed),
      stationary: {
        ...describeSegment(stationary),
        servers,
        mean_service_s: meanServiceMs / 1000,
        measured: stationary.conversations.filter((c) => c.measured).length,
      },
    },
  };
}

/**
 * The mixed scenario over the router's tables (`simulateStore`: `RoutingStore` on an in-memory
 * SQLite, as `baton serve` runs it), with the estimates `baton serve` would tell: the invariants
 * again, and the wait-estimate figures of the served estimate. Its scenario is plainer than the
 * board's (no bursts, priorities or safety cases; the queue timeout `baton serve` defaults to).
 */
export async function servedSegment(options: Pick<SimQueueOptions, 'seed' | 'load' | 'conversations'>) {
  const r = await simulateStore(mixedScenario(), { seed: options.seed, load: options.load, conversations: options.conversations });
  const { waitEstimate: w } = r;
  return {
    conversations: r.conversations,
    from: new Date(r.startMs).toISOString(),
    to: new Date(r.endMs).toISOString(),
    capacity_violations: r.counts.capacityViolations,
    idle_slot_while_waiting: r.counts.idleSlotWhileWaiting,
    reoffered_after_decline: r.counts.reofferedAfterDecline,
    offers_to_off_shift: r.counts.offersToOffShift,
    unresolved_reservations: r.counts.unresolvedReservations,
    reservations_resolved_twice: r.counts.reservationsResolvedTwice,
    moved_to_callback: r.movedToCallback,
    // Over every "a person will join" (as the mixed segment's), and over the estimates alone (as /v1/metrics counts it).
    promise_kept_rate: r.promiseKeptRate,
    estimate_promise_kept_rate: w.promise_kept_rate,
    wait_estimate: {
      median_abs_error_s: w.median_abs_error_s,
      median_actual_wait_s: w.median_actual_wait_s,
      within_goal: w.median_abs_error_s <= Math.max(30, 0.25 * w.median_actual_wait_s),
      stated_bound_coverage: w.stated_bound_coverage,
      estimates: w.estimates,
      model_floor_s: w.model_floor_s,
    },
  };
}

function quantile(xs: number[], q: number): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] as number;
}

function describeSegment(outcome: SegmentOutcome) {
  const byType: Record<string, number> = {};
  for (const c of outcome.conversations) {
    const key = c.promise.type === 'join' ? `join_${c.promise.basis}` : c.promise.type;
    byType[key] = (byType[key] ?? 0) + 1;
  }
  const dst = Date.parse('2026-10-25T01:00:00Z');
  const holiday = Date.parse('2026-10-26T00:00:00Z');
  return {
    conversations: outcome.conversations.length,
    from: new Date(outcome.startMs).toISOString(),
    to: new Date(outcome.endMs).toISOString(),
    spans_dublin_dst_change: outcome.startMs < dst && outcome.endMs > dst,
    spans_dublin_holiday: outcome.startMs < holiday && outcome.endMs > holiday + 86_400_000,
    promises: byType,
    moved_to_callback: outcome.conversations.filter((c) => c.movedToCallback).length,
    safety_cases: outcome.conversations.filter((c) => c.safety).length,
    reservations: outcome.counts.reservations,
    reoffered_after_decline: outcome.counts.reofferedAfterDecline,
    offers_to_off_shift: outcome.counts.offersToOffShift,
    callbacks_outside_hours: outcome.counts.callbacksOutsideHours,
    capacity_violations: outcome.counts.capacityViolations,
    idle_slot_while_waiting: outcome.counts.idleSlotWhileWaiting,
    promises_without_capacity: outcome.counts.promisesWithoutCapacity,
  };
}
