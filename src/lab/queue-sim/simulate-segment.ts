import { seededRandom } from '../../core/random.js';
import {
  QueueWaitEstimator,
  RoutingBoard,
  decidePromise,
  routingPriority,
  type Channel,
  type RouterRequest,
  type RoutingQueue,
  itemsThatFit,
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
  channel: Channel;
  safety: boolean;
  measured: boolean;
  promise: RoutingPromise;
  /** The time the customer was told a person joins within (ms after arrival), for a `join` promise. */
  promisedWithinMs: number | null;
  joinedAtMs: number | null;
  /** Moved to a callback by the queue target's timeout. */
  movedToCallback: boolean;
  /** The service time drawn for it once a person accepted it (ms), for the rates the run realised. */
  serviceMs: number | null;
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

/** Options of {@link simulateSegment}. */
export interface SegmentOptions {
  seed: number;
  load: number;
  /** Conversations to simulate (the warm-up share is of this number). */
  conversations: number;
  /**
   * Keep going past `conversations`, `every` at a time up to `max`, while `precise` says the
   * conversations so far do not yet measure what they are for precisely enough (a sequential
   * relative-precision rule; `precise` is asked only at those checkpoints).
   */
  extend?: { every: number; max: number; precise: (conversations: readonly SimConversation[]) => boolean };
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
/** How soon a customer told "joining now" (a held offer) must be joined for the promise to count as kept. */
export const RESERVATION_PROMISE_MS = 60_000;

/**
 * Runs one segment as a discrete-event simulation on a virtual clock: Poisson arrivals whose rate
 * follows the staffed capacity times the load (with bursts), exponential service, shifts from the
 * calendars, declines and unanswered offers; the pure router decides, and an independent ledger
 * checks capacity, idle slots and promises. Deterministic for a seed.
 */
export function simulateSegment(scenario: SimScenario, options: SegmentOptions): SegmentOutcome {
  const rng = seededRandom((options.seed * 2654435761 + (scenario.name === 'mixed' ? 1 : 2)) >>> 0);
  const exp = (mean: number) => -Math.log(1 - rng.next()) * mean;
  const uniform = ([lo, hi]: [number, number]) => lo + (hi - lo) * rng.next();
  const { weights } = scenario;
  const queues = [scenario.queues.chat, scenario.queues.callback];
  const channelOf = (queue: RoutingQueue): Channel => (queue.id === scenario.queues.callback.id ? 'callback' : 'chat');
  const eligible = (staff: { skills: readonly string[] }, queue: RoutingQueue) => queue.skills.every((k) => staff.skills.includes(k));
  const onShift = new Map(scenario.staff.map((s) => [s.staff.id, s.shift === null || isOpenAt(s.shift, scenario.startMs)]));
  let queueOpen = scenario.queueCalendar === null || isOpenAt(scenario.queueCalendar, scenario.startMs);
  let burst = false;

  const board = new RoutingBoard({ queues, staff: scenario.staff.map((s) => s.staff), weights });
  const estimators = new Map(queues.map((q) => [q.id, new QueueWaitEstimator()]));
  const estimatorOf = (channel: Channel) => estimators.get(scenario.queues[channel].id) as QueueWaitEstimator;
  const ledger = new SimLedger(scenario.staff, weights, (id) => onShift.get(id) === true);
  const heap = new EventHeap<SimEvent>();
  const promisesCount = { promisesWithoutCapacity: 0, callbacksOutsideHours: 0 };

  // When each person's current shift ends (Infinity: always on), so an estimate counts only the
  // capacity that stays on shift while the customer waits.
  const offTimes = new Map<string, number[]>();
  // Each queue's eligible units coming on (+) and going off (−) shift, in time order.
  const timeline = new Map<string, Array<{ atMs: number; delta: number }>>(queues.map((q) => [q.id, []]));
  const shiftEnds = new Map<string, number>();
  const nextOff = (staffId: string, after: number) => offTimes.get(staffId)?.find((t) => t > after) ?? Infinity;
  for (const s of scenario.staff) {
    if (onShift.get(s.staff.id) === true) board.setPresence(s.staff.id, 'available', scenario.startMs);
    if (s.shift === null) continue;
    const changes = calendarChanges(s.shift, scenario.startMs, scenario.startMs + HORIZON_MS);
    offTimes.set(
      s.staff.id,
      changes.filter((c) => !c.open).map((c) => c.atMs),
    );
    for (const c of changes) heap.push(c.atMs, { kind: 'shift', staffId: s.staff.id, on: c.open });
    for (const q of queues) {
      if (!eligible(s.staff, q)) continue;
      const slots = itemsThatFit(s.staff.capacity, channelOf(q), weights);
      for (const c of changes) timeline.get(q.id)?.push({ atMs: c.atMs, delta: c.open ? slots : -slots });
    }
  }
  for (const t of timeline.values()) t.sort((a, b) => a.atMs - b.atMs);
  for (const s of scenario.staff) shiftEnds.set(s.staff.id, nextOff(s.staff.id, scenario.startMs));
  if (scenario.queueCalendar !== null) {
    for (const c of calendarChanges(scenario.queueCalendar, scenario.startMs, scenario.startMs + HORIZON_MS)) {
      heap.push(c.atMs, { kind: 'queue', open: c.open });
    }
  }
  // The instants at which a callback may be booked: the queue open and someone eligible on shift.
  const bookable = new Map(queues.map((q) => [q.id, bookableStarts(scenario, q)]));

  const unitsOnShift = (queue: RoutingQueue) => {
    let units = 0;
    for (const s of scenario.staff) if (onShift.get(s.staff.id) === true && eligible(s.staff, queue)) units += s.staff.capacity;
    return units;
  };
  // Items of the queue's channel that fit at once in the capacity on shift: its servers.
  const serversOnShift = (queue: RoutingQueue) => {
    let servers = 0;
    for (const s of scenario.staff) {
      if (onShift.get(s.staff.id) === true && eligible(s.staff, queue))
        servers += itemsThatFit(s.staff.capacity, channelOf(queue), weights);
    }
    return servers;
  };
  // Each queue's arrivals: load × its units on shift ÷ the capacity-time one conversation holds.
  const channelRate = (channel: Channel) => {
    const units = queueOpen ? unitsOnShift(scenario.queues[channel]) : 0;
    const burstFactor = burst && scenario.bursts !== null ? scenario.bursts.factor : 1;
    return ((options.load * units) / (weights[channel] * scenario.meanServiceMs[channel])) * burstFactor;
  };
  const rates = () => {
    const chat = channelRate('chat');
    const callback = channelRate('callback');
    if (chat + callback > 0) return { chat, callback };
    const off = scenario.offHoursArrivalsPerHour / 3_600_000;
    return { chat: off * scenario.chatShare, callback: off * (1 - scenario.chatShare) };
  };

  const conversations: SimConversation[] = [];
  let arrivals = 0;
  let limit = options.conversations;
  const more = () => {
    if (arrivals < limit) return true;
    const x = options.extend;
    if (x === undefined || limit >= x.max || x.precise(conversations)) return false;
    limit = Math.min(x.max, limit + x.every);
    return true;
  };
  let gen = 0;
  let outstanding = 0;
  const scheduleArrival = (now: number) => {
    gen += 1;
    if (!more()) return;
    const r = rates();
    const rate = r.chat + r.callback;
    if (rate > 0) heap.push(now + exp(1 / rate), { kind: 'arrival', gen });
  };
  scheduleArrival(scenario.startMs);
  if (scenario.bursts !== null) heap.push(scenario.startMs + exp(scenario.bursts.everyHours * 3_600_000), { kind: 'burst', on: true });

  const byRequest = new Map<string, SimConversation>();
  // When each request's latest offer was made: a served item holds its slot from the offer it accepted.
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
      } else if (e.type === 'reservation.accepted') {
        const c = byRequest.get(e.requestId);
        if (c !== undefined) {
          c.joinedAtMs = now;
          if (c.promise.type === 'join' && c.promise.basis === 'estimate')
            estimatorOf(c.channel).recordWait(c.promise.estimate, now - c.arrivalMs);
        }
        const channel = channels.get(e.requestId) ?? 'chat';
        const serviceMs = exp(scenario.meanServiceMs[channel]);
        if (c !== undefined) c.serviceMs = serviceMs;
        heap.push(now + serviceMs, { kind: 'end', requestId: e.requestId });
      } else if (e.type === 'request.left') {
        const c = byRequest.get(e.requestId);
        if (c !== undefined) {
          c.movedToCallback = e.to === 'callback';
          // Cut short: the wait was at least this long.
          if (c.promise.type === 'join' && c.promise.basis === 'estimate')
            estimatorOf(c.channel).recordWait(c.promise.estimate, now - c.arrivalMs);
        }
        outstanding -= 1;
      } else if (e.type === 'assignment.completed') {
        const r = reservedAt.get(e.requestId);
        if (r !== undefined) estimatorOf(channels.get(e.requestId) ?? 'chat').recordServed(now - r.at);
        reservedAt.delete(e.requestId);
        outstanding -= 1;
      }
    }
  };

  const arrive = (now: number) => {
    const index = arrivals++;
    const id = `conv_${index}`;
    const r = rates();
    const channel: Channel = rng.next() * (r.chat + r.callback) < r.chat ? 'chat' : 'callback';
    const queue = scenario.queues[channel];
    const estimator = estimatorOf(channel);
    const gold = rng.next() < scenario.goldShare;
    const safety = rng.next() < scenario.safetyShare;
    const priority = routingPriority({ tier: gold ? 'gold' : 'standard', valueAtStake: 0, channel, safety });
    const servers = serversOnShift(queue);
    const { ahead } = board.positionFor(queue.id, priority);
    const routable = (queueOpen || safety) && servers > 0;
    // The staffing the wait will see, from the shift schedule: the mean servers on shift over the
    // time the model needs to free the slots this request waits for.
    const effective = routable ? scheduledServers(timeline.get(queue.id) ?? [], now, servers, (ahead + 1) * estimator.meanHoldingMs()) : 0;
    const estimate = routable && effective > 0 ? estimator.estimate({ ahead, servers: effective }) : null;
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
    const next = bookable.get(queue.id)?.find((at) => at >= now) ?? null;
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
        promise.basis === 'reservation'
          ? ledger.isHeld(id)
          : staffedByCalendar(scenario, now, queue) && (safety || openByCalendar(scenario, now));
      if (!backed) promisesCount.promisesWithoutCapacity += 1;
    }
    if (promise.type === 'callback' && !(openByCalendar(scenario, promise.atMs) && staffedByCalendar(scenario, promise.atMs, queue))) {
      promisesCount.callbacksOutsideHours += 1;
    }
    const c: SimConversation = {
      arrivalMs: now,
      channel,
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
      serviceMs: null,
    };
    conversations.push(c);
    byRequest.set(id, c);
  };

  let now = scenario.startMs;
  for (;;) {
    if (arrivals >= limit && outstanding === 0) break;
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
        if (e.on) shiftEnds.set(e.staffId, nextOff(e.staffId, now));
        feed(board.setPresence(e.staffId, e.on ? 'available' : 'offline', now), now);
        scheduleArrival(now);
        break;
      case 'queue':
        queueOpen = e.open;
        scheduleArrival(now);
        break;
      case 'burst':
        burst = e.on;
        if (scenario.bursts !== null && arrivals < limit) {
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
    nominal: { meanServiceMs: scenario.meanServiceMs.chat, servers: scenario.staff.reduce((n, s) => n + s.staff.capacity, 0) },
  };
}

/**
 * The mean servers on shift over the time it takes them to supply `unitMs` of work, starting with
 * `units` at `fromMs` and following the scheduled changes; 0 when the schedule never supplies it
 * within a day (then nobody backs a promise).
 */
function scheduledServers(changes: ReadonlyArray<{ atMs: number; delta: number }>, fromMs: number, units: number, unitMs: number): number {
  let lo = 0;
  let hi = changes.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((changes[mid]?.atMs ?? Infinity) <= fromMs) lo = mid + 1;
    else hi = mid;
  }
  let t = fromMs;
  let current = units;
  let remaining = unitMs;
  for (let i = lo; ; i += 1) {
    const next = changes[i];
    const until = Math.min(next?.atMs ?? Infinity, fromMs + 86_400_000);
    if (current > 0 && current * (until - t) >= remaining) return unitMs / (t + remaining / current - fromMs);
    if (next === undefined || until < next.atMs) return 0;
    if (current > 0) remaining -= current * (until - t);
    t = until;
    current += next.delta;
  }
}

function openByCalendar(scenario: SimScenario, atMs: number): boolean {
  return scenario.queueCalendar === null || isOpenAt(scenario.queueCalendar, atMs);
}

function staffedByCalendar(scenario: SimScenario, atMs: number, queue: RoutingQueue): boolean {
  return scenario.staff.some((s) => (s.shift === null || isOpenAt(s.shift, atMs)) && queue.skills.every((k) => s.staff.skills.includes(k)));
}

/** Every instant in the horizon at which the queue opens or staff come on, where both hold. */
function bookableStarts(scenario: SimScenario, queue: RoutingQueue): number[] {
  const { startMs } = scenario;
  const points = new Set<number>([startMs]);
  for (const s of scenario.staff)
    if (s.shift !== null) for (const c of calendarChanges(s.shift, startMs, startMs + HORIZON_MS)) points.add(c.atMs);
  if (scenario.queueCalendar !== null)
    for (const c of calendarChanges(scenario.queueCalendar, startMs, startMs + HORIZON_MS)) points.add(c.atMs);
  return [...points].sort((a, b) => a - b).filter((at) => openByCalendar(scenario, at) && staffedByCalendar(scenario, at, queue));
}
