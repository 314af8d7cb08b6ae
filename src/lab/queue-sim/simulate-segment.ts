import { seededRandom } from '../../core/random.js';
import {
  QueueWaitEstimator,
  RoutingBoard,
  decidePromise,
  routingPriority,
  type Channel,
  type RouterRequest,
  type RoutingEvent,
  type RoutingPromise,
} from '../../core/router/index.js';
import { calendarChanges, isOpenAt } from '../../runtime/router/availability-calendar.js';
import { EventHeap } from './event-heap.js';
import { SimLedger } from './sim-ledger.js';
import type { SimScenario } from './sim-scenario.js';

/** What became of one simulated conversation. */
export interface SimConversation {
  arrivalMs: number;
  safety: boolean;
  measured: boolean;
  promise: RoutingPromise;
  /** The time the customer was told a person joins within (ms after arrival), for a `join` promise. */
  promisedWithinMs: number | null;
  joinedAtMs: number | null;
  /** Moved to a callback by the queue target's timeout. */
  movedToCallback: boolean;
}

/** A segment's raw outcome: every conversation and the ledger's independent counts. */
export interface SegmentOutcome {
  scenario: SimScenario['name'];
  conversations: SimConversation[];
  counts: SimLedger['counts'] & { promisesWithoutCapacity: number; callbacksOutsideHours: number };
  startMs: number;
  endMs: number;
  /** The nominal mean holding per capacity unit and the total units (for Erlang C on the stationary segment). */
  nominal: { meanServiceMs: number; servers: number };
}

type SimEvent =
  | { kind: 'arrival'; gen: number }
  | { kind: 'answer'; reservationId: string; accept: boolean }
  | { kind: 'end'; requestId: string }
  | { kind: 'shift'; staffId: string; on: boolean }
  | { kind: 'queue'; open: boolean }
  | { kind: 'burst'; on: boolean }
  | { kind: 'timer' };

const HORIZON_MS = 60 * 86_400_000;
const RESERVATION_PROMISE_MS = 60_000;

/**
 * Runs one segment as a discrete-event simulation on a virtual clock: Poisson arrivals whose rate
 * follows the staffed capacity times the load (with bursts), exponential service, shifts from the
 * calendars, declines and unanswered offers; the pure router decides, and an independent ledger
 * checks capacity, idle slots and promises. Deterministic for a seed.
 */
export function simulateSegment(scenario: SimScenario, options: { seed: number; load: number; conversations: number }): SegmentOutcome {
  const rng = seededRandom((options.seed * 2654435761 + (scenario.name === 'mixed' ? 1 : 2)) >>> 0);
  const exp = (mean: number) => -Math.log(1 - rng.next()) * mean;
  const uniform = ([lo, hi]: [number, number]) => lo + (hi - lo) * rng.next();
  const { queue, weights } = scenario;
  const onShift = new Map(scenario.staff.map((s) => [s.staff.id, s.shift === null || isOpenAt(s.shift, scenario.startMs)]));
  let queueOpen = scenario.queueCalendar === null || isOpenAt(scenario.queueCalendar, scenario.startMs);
  let burst = false;

  const board = new RoutingBoard({ queues: [queue], staff: scenario.staff.map((s) => s.staff), weights });
  const estimator = new QueueWaitEstimator();
  const ledger = new SimLedger(scenario.staff, weights, (id) => onShift.get(id) === true);
  const heap = new EventHeap<SimEvent>();
  const promisesCount = { promisesWithoutCapacity: 0, callbacksOutsideHours: 0 };

  for (const s of scenario.staff) {
    if (onShift.get(s.staff.id) === true) board.setPresence(s.staff.id, 'available', scenario.startMs);
    if (s.shift === null) continue;
    for (const c of calendarChanges(s.shift, scenario.startMs, scenario.startMs + HORIZON_MS)) {
      heap.push(c.atMs, { kind: 'shift', staffId: s.staff.id, on: c.open });
    }
  }
  if (scenario.queueCalendar !== null) {
    for (const c of calendarChanges(scenario.queueCalendar, scenario.startMs, scenario.startMs + HORIZON_MS)) {
      heap.push(c.atMs, { kind: 'queue', open: c.open });
    }
  }
  // The instants at which a callback may be booked: the queue open and someone eligible on shift.
  const bookable = bookableStarts(scenario);

  const meanUnitMs =
    scenario.chatShare * weights.chat * scenario.meanServiceMs.chat +
    (1 - scenario.chatShare) * weights.callback * scenario.meanServiceMs.callback;
  const unitsOnShift = () => {
    let units = 0;
    for (const s of scenario.staff)
      if (onShift.get(s.staff.id) === true && queue.skills.every((k) => s.staff.skills.includes(k))) units += s.staff.capacity;
    return units;
  };
  const ratePerMs = () => {
    const units = queueOpen ? unitsOnShift() : 0;
    if (units === 0) return scenario.offHoursArrivalsPerHour / 3_600_000;
    return ((options.load * units) / meanUnitMs) * (burst && scenario.bursts !== null ? scenario.bursts.factor : 1);
  };

  let arrivals = 0;
  let gen = 0;
  let outstanding = 0;
  const scheduleArrival = (now: number) => {
    gen += 1;
    if (arrivals >= options.conversations) return;
    const rate = ratePerMs();
    if (rate > 0) heap.push(now + exp(1 / rate), { kind: 'arrival', gen });
  };
  scheduleArrival(scenario.startMs);
  if (scenario.bursts !== null) heap.push(scenario.startMs + exp(scenario.bursts.everyHours * 3_600_000), { kind: 'burst', on: true });

  const conversations: SimConversation[] = [];
  const byRequest = new Map<string, SimConversation>();
  const reservedAt = new Map<string, { at: number; units: number }>();
  const channels = new Map<string, Channel>();
  let timerAt = Infinity;

  const feed = (events: RoutingEvent[], now: number) => {
    for (const e of events) {
      ledger.apply(e);
      if (e.type === 'reservation.created') {
        reservedAt.set(e.requestId, { at: now, units: weights[e.channel] });
        const u = rng.next();
        if (u < scenario.declineRate)
          heap.push(now + uniform(scenario.answerSeconds) * 1000, { kind: 'answer', reservationId: e.reservationId, accept: false });
        else if (u >= scenario.declineRate + scenario.noShowRate) {
          heap.push(now + uniform(scenario.answerSeconds) * 1000, { kind: 'answer', reservationId: e.reservationId, accept: true });
        }
      } else if (e.type === 'reservation.declined' || e.type === 'reservation.timed_out') {
        const r = reservedAt.get(e.requestId);
        if (r !== undefined) estimator.recordLost((now - r.at) * r.units);
      } else if (e.type === 'reservation.accepted') {
        const c = byRequest.get(e.requestId);
        if (c !== undefined) c.joinedAtMs = now;
        const channel = channels.get(e.requestId) ?? 'chat';
        heap.push(now + exp(scenario.meanServiceMs[channel]), { kind: 'end', requestId: e.requestId });
      } else if (e.type === 'request.left') {
        const c = byRequest.get(e.requestId);
        if (c !== undefined) c.movedToCallback = e.to === 'callback';
        outstanding -= 1;
      } else if (e.type === 'assignment.completed') {
        const r = reservedAt.get(e.requestId);
        if (r !== undefined) estimator.recordServed(now - r.at, r.units);
        reservedAt.delete(e.requestId);
        outstanding -= 1;
      }
    }
  };

  const arrive = (now: number) => {
    const index = arrivals++;
    const id = `conv_${index}`;
    const channel: Channel = rng.next() < scenario.chatShare ? 'chat' : 'callback';
    const gold = rng.next() < scenario.goldShare;
    const safety = rng.next() < scenario.safetyShare;
    const priority = routingPriority({ tier: gold ? 'gold' : 'standard', valueAtStake: 0, channel, safety });
    const units = unitsOnShift();
    const { unitsAhead } = board.positionFor(queue.id, priority);
    const routable = (queueOpen || safety) && units > 0;
    const estimate = routable ? estimator.estimate({ unitsAhead, units: weights[channel], unitsOnShift: units }) : null;
    let held = false;
    if (routable && estimate !== null) {
      const promiseMs = Math.max(estimate.promiseMs, RESERVATION_PROMISE_MS);
      const request: RouterRequest = {
        id,
        skills: [],
        channel,
        priority,
        safety,
        targets:
          scenario.name === 'stationary'
            ? [{ type: 'queue', queue: queue.id, timeoutSeconds: 1e9 }]
            : [{ type: 'queue', queue: queue.id, timeoutSeconds: promiseMs / 1000 }, { type: 'callback' }],
      };
      ledger.submitted(id, queue.skills, channel);
      channels.set(id, channel);
      outstanding += 1;
      const events = board.submit(request, now);
      feed(events, now);
      held = ledger.isHeld(id);
    }
    const next = bookable.find((at) => at >= now) ?? null;
    const promise = decidePromise({
      safety,
      queueOpen,
      reservationHeld: held,
      estimate,
      whenNoCapacity: queue.whenNoCapacity,
      nextCallbackAtMs: next,
    });
    // The promise checked against the simulator's own view: a held reservation in the ledger, or
    // someone eligible on shift by the calendars (and the queue's hours, unless it is a safety case).
    if (promise.type === 'join') {
      const backed =
        promise.basis === 'reservation' ? ledger.isHeld(id) : staffedByCalendar(scenario, now) && (safety || openByCalendar(scenario, now));
      if (!backed) promisesCount.promisesWithoutCapacity += 1;
    }
    if (promise.type === 'callback' && !(openByCalendar(scenario, promise.atMs) && staffedByCalendar(scenario, promise.atMs))) {
      promisesCount.callbacksOutsideHours += 1;
    }
    const c: SimConversation = {
      arrivalMs: now,
      safety,
      measured: index >= scenario.warmupShare * options.conversations,
      promise,
      promisedWithinMs:
        promise.type !== 'join'
          ? null
          : promise.basis === 'reservation'
            ? RESERVATION_PROMISE_MS
            : Math.max(promise.estimate.promiseMs, RESERVATION_PROMISE_MS),
      joinedAtMs: null,
      movedToCallback: false,
    };
    conversations.push(c);
    byRequest.set(id, c);
  };

  let now = scenario.startMs;
  for (;;) {
    if (arrivals >= options.conversations && outstanding === 0) break;
    const item = heap.pop();
    if (item === undefined) break;
    now = item.at;
    const e = item.value;
    switch (e.kind) {
      case 'arrival':
        if (e.gen !== gen) continue;
        arrive(now);
        scheduleArrival(now);
        break;
      case 'answer': {
        // The reservation may have ended already (its timeout, or the target's).
        try {
          feed(e.accept ? board.accept(e.reservationId, now) : board.decline(e.reservationId, 'busy', now), now);
        } catch (error) {
          if (!(error instanceof Error && /unknown or finished reservation/.test(error.message))) throw error;
        }
        break;
      }
      case 'end':
        feed(board.complete(e.requestId, now), now);
        break;
      case 'shift':
        onShift.set(e.staffId, e.on);
        feed(board.setPresence(e.staffId, e.on ? 'available' : 'offline', now), now);
        scheduleArrival(now);
        break;
      case 'queue':
        queueOpen = e.open;
        scheduleArrival(now);
        break;
      case 'burst':
        burst = e.on;
        if (scenario.bursts !== null && arrivals < options.conversations) {
          const b = scenario.bursts;
          heap.push(now + (e.on ? b.minutes * 60_000 : exp(b.everyHours * 3_600_000)), { kind: 'burst', on: !e.on });
        }
        scheduleArrival(now);
        break;
      case 'timer':
        if (now >= timerAt) timerAt = Infinity;
        feed(board.expire(now), now);
        break;
    }
    ledger.checkIdle();
    const deadline = board.nextDeadline();
    if (deadline !== undefined && deadline < timerAt) {
      timerAt = deadline;
      heap.push(deadline, { kind: 'timer' });
    }
  }
  return {
    scenario: scenario.name,
    conversations,
    counts: { ...ledger.counts, ...promisesCount },
    startMs: scenario.startMs,
    endMs: now,
    nominal: { meanServiceMs: meanUnitMs, servers: scenario.staff.reduce((n, s) => n + s.staff.capacity, 0) },
  };
}

function openByCalendar(scenario: SimScenario, atMs: number): boolean {
  return scenario.queueCalendar === null || isOpenAt(scenario.queueCalendar, atMs);
}

function staffedByCalendar(scenario: SimScenario, atMs: number): boolean {
  return scenario.staff.some(
    (s) => (s.shift === null || isOpenAt(s.shift, atMs)) && scenario.queue.skills.every((k) => s.staff.skills.includes(k)),
  );
}

/** Every instant in the horizon at which the queue opens or staff come on, where both hold. */
function bookableStarts(scenario: SimScenario): number[] {
  const { startMs } = scenario;
  const points = new Set<number>([startMs]);
  for (const s of scenario.staff)
    if (s.shift !== null) for (const c of calendarChanges(s.shift, startMs, startMs + HORIZON_MS)) points.add(c.atMs);
  if (scenario.queueCalendar !== null)
    for (const c of calendarChanges(scenario.queueCalendar, startMs, startMs + HORIZON_MS)) points.add(c.atMs);
  return [...points].sort((a, b) => a - b).filter((at) => openByCalendar(scenario, at) && staffedByCalendar(scenario, at));
}
