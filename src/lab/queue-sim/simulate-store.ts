import { seededRandom } from '../../core/random.js';
import type { ConversationId, StaffId } from '../../core/index.js';
import { decidePromise, itemsThatFit, type Channel, type RoutingEvent, type WaitEstimate } from '../../core/router/index.js';
import { calendarChanges, isOpenAt } from '../../runtime/router/availability-calendar.js';
import { servedEstimate } from '../../runtime/router/runtime-router.js';
import { MemoryStore } from '../../store/memory-store.js';
import { routingStoreFor } from '../../store/open-store.js';
import type { RoutingFact } from '../../store/routing-store.js';
import { errorFigures, type EstimatedWait } from './estimate-figures.js';
import { EventHeap } from './event-heap.js';
import { SimLedger } from './sim-ledger.js';
import { RESERVATION_PROMISE_MS } from './simulate-segment.js';
import type { SimScenario } from './sim-scenario.js';

/** What a run of the production router's tables showed. */
export interface StoreSimOutcome {
  conversations: number;
  served: number;
  /** Waits that outlasted their queue's timeout and became callbacks (served later, counted in `served`). */
  movedToCallback: number;
  counts: SimLedger['counts'] & {
    /** Offers never resolved (accepted, declined, timed out or withdrawn) by the end of the run. */
    unresolvedReservations: number;
    /** Offers resolved more than once. */
    reservationsResolvedTwice: number;
  };
  startMs: number;
  endMs: number;
  /**
   * The estimates `baton serve` would have told (`servedEstimate`: the queue's history in these
   * tables, the people at work now) to the customers not offered to someone at once, and what
   * followed: the same figures as the board simulator's `wait_estimate`.
   */
  waitEstimate: ReturnType<typeof errorFigures> & { promise_kept_rate: number; moved_to_callback: number };
  /** Promises of a person kept ("joining now" within a minute, an estimate's within its promise) ÷ promises made, as the board's `promise_kept_rate`. */
  promiseKeptRate: number;
}

type Event =
  | { kind: 'arrival'; gen: number }
  | { kind: 'answer'; reservation: string; staff: StaffId; accept: boolean }
  | { kind: 'end'; conversationId: ConversationId }
  | { kind: 'shift'; staffId: string; on: boolean }
  | { kind: 'queue'; open: boolean }
  | { kind: 'sweep' };

const HORIZON_MS = 60 * 86_400_000;

/**
 * The queue simulator over the router's durable tables — `RoutingStore` on an in-memory SQLite
 * (`routingStoreFor` of a memory store), the production code `baton serve` runs — on a virtual
 * clock: every store method is given the simulated `now`, and the sweep that fires offer and
 * target deadlines runs at the store's own `nextDeadline()`, as the serve loop's timer would.
 * Shifts from the calendars (across the DST change and the holiday), Poisson arrivals at the load,
 * exponential service, declines and unanswered offers; the same independent `SimLedger` counts
 * capacity, idle slots, re-offers and offers off shift from the store's facts, and every offer is
 * checked to be resolved exactly once. A customer not offered to someone at once is told the
 * estimate `baton serve` would tell (`servedEstimate`, on these tables' history), scored when a
 * person joins.
 */
export async function simulateStore(
  scenario: SimScenario,
  options: { seed: number; load: number; conversations: number },
): Promise<StoreSimOutcome> {
  const rng = seededRandom((options.seed * 2654435761 + 3) >>> 0);
  const exp = (mean: number) => -Math.log(1 - rng.next()) * mean;
  const uniform = ([lo, hi]: [number, number]) => lo + (hi - lo) * rng.next();
  const { weights } = scenario;
  const queues = [scenario.queues.chat, scenario.queues.callback];
  let ids = 0;
  const store = routingStoreFor(
    new MemoryStore(),
    { queues: new Map(queues.map((q) => [q.id, q])), weights },
    (kind) => `${kind}_${++ids}`,
  );
  const onShift = new Map(scenario.staff.map((s) => [s.staff.id, s.shift === null || isOpenAt(s.shift, scenario.startMs)]));
  let queueOpen = scenario.queueCalendar === null || isOpenAt(scenario.queueCalendar, scenario.startMs);
  const ledger = new SimLedger(scenario.staff, weights, (id) => onShift.get(id) === true);
  const heap = new EventHeap<Event>();
  const channelOf = new Map<string, Channel>();
  const resolved = new Map<string, number>();
  let served = 0;
  let movedToCallback = 0;
  let outstanding = 0;
  // The customers told an estimate, by request: what they were told and when they arrived.
  const told = new Map<string, { channel: Channel; estimate: WaitEstimate; at: number }>();
  const estimatedWaits: EstimatedWait[] = [];
  let kept = 0;
  let toldMovedToCallback = 0;
  // The customers told "joining now" (an offer held at once), by request: when; and how many of them were joined within the minute.
  const joinNow = new Map<string, number>();
  let toldJoinNow = 0;
  let keptJoinNow = 0;

  const apply = (facts: readonly RoutingFact[], now: number) => {
    for (const f of facts) {
      const event = toEvent(f, channelOf, now);
      if (event !== null) ledger.apply(event);
      if (f.kind === 'offered') {
        resolved.set(f.reservation, 0);
        const u = rng.next();
        const at = now + uniform(scenario.answerSeconds) * 1000;
        if (u < scenario.declineRate) heap.push(at, { kind: 'answer', reservation: f.reservation, staff: f.staff, accept: false });
        else if (u >= scenario.declineRate + scenario.noShowRate)
          heap.push(at, { kind: 'answer', reservation: f.reservation, staff: f.staff, accept: true });
      } else if (f.kind === 'accepted' || f.kind === 'declined' || f.kind === 'timed_out') {
        resolved.set(f.reservation, (resolved.get(f.reservation) ?? 0) + 1);
        const wait = told.get(f.request);
        if (f.kind === 'accepted' && wait !== undefined) {
          told.delete(f.request);
          estimatedWaits.push({ channel: wait.channel, estimate: wait.estimate, actualMs: now - wait.at });
          if (now - wait.at <= wait.estimate.promiseMs) kept += 1;
        }
        const since = joinNow.get(f.request);
        if (f.kind === 'accepted' && since !== undefined) {
          joinNow.delete(f.request);
          if (now - since <= RESERVATION_PROMISE_MS) keptJoinNow += 1;
        }
        if (f.kind === 'accepted') {
          served += 1;
          heap.push(now + exp(scenario.meanServiceMs[channelOf.get(f.request) ?? 'chat']), {
            kind: 'end',
            conversationId: f.conversationId,
          });
        }
      } else if (f.kind === 'moved' && f.to === 'callback') {
        // Out of queues to try: it stays, as a callback (weight 2), until someone with room takes it.
        movedToCallback += 1;
        // A customer told an estimate who is moved to a callback waited past the promise: a miss, and outside the bound.
        if (told.delete(f.request)) toldMovedToCallback += 1;
        joinNow.delete(f.request);
        channelOf.set(f.request, 'callback');
        ledger.rechanneled(f.request, 'callback');
      } else if (f.kind === 'left') {
        // Every request leaves the router exactly once: done, or withdrawn.
        outstanding -= 1;
      }
    }
  };

  for (const s of scenario.staff) {
    if (s.shift !== null)
      for (const c of calendarChanges(s.shift, scenario.startMs, scenario.startMs + HORIZON_MS))
        heap.push(c.atMs, { kind: 'shift', staffId: s.staff.id, on: c.open });
    if (onShift.get(s.staff.id) === true)
      apply(
        await store.setPresence({ ...s.staff, staff: s.staff.id as StaffId, presence: 'available' }, scenario.startMs),
        scenario.startMs,
      );
  }
  if (scenario.queueCalendar !== null)
    for (const c of calendarChanges(scenario.queueCalendar, scenario.startMs, scenario.startMs + HORIZON_MS))
      heap.push(c.atMs, { kind: 'queue', open: c.open });

  // Arrivals while the queues are open: load × the capacity on shift ÷ the capacity-time of one conversation.
  const rate = (channel: Channel) => {
    if (!queueOpen) return 0;
    const queue = scenario.queues[channel];
    let units = 0;
    for (const s of scenario.staff)
      if (
        onShift.get(s.staff.id) === true &&
        queue.skills.every((k) => s.staff.skills.includes(k)) &&
        itemsThatFit(s.staff.capacity, channel, weights) > 0
      )
        units += s.staff.capacity;
    return (options.load * units) / (weights[channel] * scenario.meanServiceMs[channel]);
  };
  let arrivals = 0;
  let gen = 0;
  const scheduleArrival = (now: number) => {
    gen += 1;
    const total = rate('chat') + rate('callback');
    if (arrivals < options.conversations && total > 0) heap.push(now + exp(1 / total), { kind: 'arrival', gen });
  };
  scheduleArrival(scenario.startMs);

  let sweepAt = Infinity;
  let now = scenario.startMs;
  for (;;) {
    if (arrivals >= options.conversations && outstanding === 0) break;
    const item = heap.pop();
    if (item === undefined) break;
    now = item.at;
    const e = item.value;
    switch (e.kind) {
      case 'arrival': {
        if (e.gen !== gen) continue;
        const chat = rate('chat');
        const channel: Channel = rng.next() * (chat + rate('callback')) < chat ? 'chat' : 'callback';
        const conversationId = `conv_${arrivals++}` as ConversationId;
        const queue = scenario.queues[channel];
        const submitted = await store.submit(
          conversationId,
          {
            skills: [],
            channel,
            priority: 0,
            safety: false,
            targets: [{ type: 'queue', queue: queue.id, timeoutSeconds: 1800 }, { type: 'callback' }],
          },
          now,
        );
        channelOf.set(submitted.request, channel);
        ledger.submitted(submitted.request, queue.skills, channel);
        outstanding += 1;
        apply(submitted.facts, now);
        // Offered to someone at once: told "joining now". Otherwise: told what the router of `baton serve` would tell them.
        if (submitted.facts.some((x) => x.kind === 'offered' && x.request === submitted.request)) {
          joinNow.set(submitted.request, now);
          toldJoinNow += 1;
        } else {
          const standing = await store.standing(conversationId);
          const estimate = await servedEstimate(store, {
            queue: queue.id,
            queueSkills: queue.skills,
            skills: [],
            ahead: standing?.ahead ?? 0,
            anyOf: [],
            weight: weights[channel],
          });
          const promise = decidePromise({
            safety: false,
            queueOpen,
            reservationHeld: false,
            estimate,
            whenNoCapacity: queue.whenNoCapacity,
            nextCallbackAtMs: null,
          });
          if (promise.type === 'join' && promise.basis === 'estimate') {
            await store.noteEstimate(submitted.request, queue.id, promise.estimate, now);
            told.set(submitted.request, { channel, estimate: promise.estimate, at: now });
          }
        }
        scheduleArrival(now);
        break;
      }
      case 'answer': {
        const answer = e.accept
          ? await store.accept(e.reservation, e.staff, now)
          : await store.decline(e.reservation, e.staff, 'busy', now);
        apply(answer.facts, now);
        break;
      }
      case 'end':
        apply(await store.complete(e.conversationId, now), now);
        break;
      case 'shift': {
        onShift.set(e.staffId, e.on);
        const s = scenario.staff.find((x) => x.staff.id === e.staffId);
        if (s !== undefined)
          apply(await store.setPresence({ ...s.staff, staff: s.staff.id as StaffId, presence: e.on ? 'available' : 'offline' }, now), now);
        scheduleArrival(now);
        break;
      }
      case 'queue':
        queueOpen = e.open;
        scheduleArrival(now);
        break;
      case 'sweep':
        if (now >= sweepAt) sweepAt = Infinity;
        apply(await store.sweep(now), now);
        break;
    }
    ledger.checkIdle();
    const deadline = await store.nextDeadline();
    if (deadline !== null && deadline < sweepAt) {
      sweepAt = deadline;
      heap.push(deadline, { kind: 'sweep' });
    }
  }
  let unresolved = 0;
  let twice = 0;
  for (const n of resolved.values()) {
    if (n === 0) unresolved += 1;
    if (n > 1) twice += 1;
  }
  return {
    conversations: arrivals,
    served,
    movedToCallback,
    counts: { ...ledger.counts, unresolvedReservations: unresolved, reservationsResolvedTwice: twice },
    startMs: scenario.startMs,
    endMs: now,
    waitEstimate: servedFigures(estimatedWaits, kept, toldMovedToCallback),
    promiseKeptRate: Number(((kept + keptJoinNow) / Math.max(1, estimatedWaits.length + toldMovedToCallback + toldJoinNow)).toFixed(4)),
  };
}

/** A store fact as the board's event, for the ledger (`queued`, `moved` and `age_alert` change nothing it counts). */
function toEvent(f: RoutingFact, channelOf: ReadonlyMap<string, Channel>, at: number): RoutingEvent | null {
  switch (f.kind) {
    case 'offered':
      return {
        type: 'reservation.created',
        reservationId: f.reservation,
        requestId: f.request,
        staffId: f.staff,
        channel: channelOf.get(f.request) ?? 'chat',
        expiresAt: f.expiresAt,
        at,
      };
    case 'accepted':
      return { type: 'reservation.accepted', reservationId: f.reservation, requestId: f.request, staffId: f.staff, at };
    case 'declined':
      return { type: 'reservation.declined', reservationId: f.reservation, requestId: f.request, staffId: f.staff, reason: f.why, at };
    case 'timed_out':
      return { type: 'reservation.timed_out', reservationId: f.reservation, requestId: f.request, staffId: f.staff, at };
    case 'left':
      return f.to === 'done' && f.staff !== null
        ? { type: 'assignment.completed', requestId: f.request, staffId: f.staff, at }
        : { type: 'request.left', requestId: f.request, to: f.to === 'done' ? 'canceled' : f.to, at };
    default:
      return null;
  }
}

/** The served estimates' figures: those moved to a callback count as told, outside their bound and their promise. */
function servedFigures(waits: readonly EstimatedWait[], kept: number, movedToCallback: number): StoreSimOutcome['waitEstimate'] {
  const told = waits.length + movedToCallback;
  return {
    ...errorFigures(waits, told),
    promise_kept_rate: Number((kept / Math.max(1, told)).toFixed(4)),
    moved_to_callback: movedToCallback,
  };
}
