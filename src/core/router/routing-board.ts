import { chooseAssignee, type AssigneeCandidate } from './choose-assignee.js';
import type { ChannelWeights, Presence, RoutingQueue, RoutingStaff } from './routing-config.js';
import type { DeclineReason, RouterRequest, RoutingEvent } from './routing-request.js';

interface StaffState {
  staff: RoutingStaff;
  presence: Presence;
  idleSinceMs: number;
  /** Capacity units held by reservations and assignments. */
  used: number;
}

interface Waiting {
  request: RouterRequest;
  targetIndex: number;
  targetSinceMs: number;
  enqueuedAtMs: number;
  seq: number;
  excluded: Set<string>;
  reservationId: string | null;
}

interface Reservation {
  id: string;
  requestId: string;
  staffId: string;
  expiresAt: number;
}

/** Options of a {@link RoutingBoard}. */
export interface RoutingBoardOptions {
  queues: readonly RoutingQueue[];
  staff: readonly RoutingStaff[];
  weights: ChannelWeights;
}

/** A waiting request's place in its queue: requests ahead and the capacity units they need. */
export interface QueuePosition {
  ahead: number;
  unitsAhead: number;
}

/**
 * The router's state and its transitions, with no I/O and no clock of its own (every transition is
 * given `now`). Every transition returns the events it produced and ends by dispatching, so no free
 * slot stays idle while an eligible request waits. A reservation takes its capacity in the same
 * transition that creates it, and gives it back only when declined, timed out or completed, so two
 * reservations can never fill one slot.
 */
export class RoutingBoard {
  private readonly queues: Map<string, RoutingQueue>;
  private readonly staff = new Map<string, StaffState>();
  private readonly weights: ChannelWeights;
  /** Requests not held by anyone, in dispatch order: priority first, then arrival. */
  private waiting: Waiting[] = [];
  private readonly requests = new Map<string, Waiting>();
  private readonly reservations = new Map<string, Reservation>();
  private readonly assignments = new Map<string, { staffId: string; weight: number }>();
  private seq = 0;
  private reservationSeq = 0;

  constructor(options: RoutingBoardOptions) {
    this.queues = new Map(options.queues.map((q) => [q.id, q]));
    this.weights = options.weights;
    for (const staff of options.staff) this.staff.set(staff.id, { staff, presence: 'offline', idleSinceMs: 0, used: 0 });
  }

  /** A new request enters its first target. */
  submit(request: RouterRequest, now: number): RoutingEvent[] {
    const first = request.targets[0];
    if (first?.type !== 'queue') throw new Error(`request ${request.id}: the first target must be a queue`);
    if (!this.queues.has(first.queue)) throw new Error(`request ${request.id}: unknown queue ${first.queue}`);
    if (this.requests.has(request.id)) throw new Error(`request ${request.id} was submitted twice`);
    const entry: Waiting = {
      request,
      targetIndex: 0,
      targetSinceMs: now,
      enqueuedAtMs: now,
      seq: this.seq++,
      excluded: new Set(),
      reservationId: null,
    };
    this.requests.set(request.id, entry);
    this.insert(entry);
    return [{ type: 'request.queued', requestId: request.id, queue: first.queue, at: now }, ...this.dispatch(now)];
  }

  /** A person's presence changed (shift start or end, a break). */
  setPresence(staffId: string, presence: Presence, now: number): RoutingEvent[] {
    const s = this.mustStaff(staffId);
    if (s.presence !== 'available' && presence === 'available') s.idleSinceMs = now;
    s.presence = presence;
    return this.dispatch(now);
  }

  /** The person accepted the offer: the request is theirs (the capacity stays taken). */
  accept(reservationId: string, now: number): RoutingEvent[] {
    const r = this.mustReservation(reservationId);
    const entry = this.mustRequest(r.requestId);
    this.reservations.delete(r.id);
    this.requests.delete(r.requestId);
    this.assignments.set(r.requestId, { staffId: r.staffId, weight: this.weights[entry.request.channel] });
    return [{ type: 'reservation.accepted', reservationId: r.id, requestId: r.requestId, staffId: r.staffId, at: now }];
  }

  /** The person declined: they are never offered this request again, and it is routed on. */
  decline(reservationId: string, reason: DeclineReason, now: number): RoutingEvent[] {
    const r = this.mustReservation(reservationId);
    const base = { reservationId: r.id, requestId: r.requestId, staffId: r.staffId, at: now };
    return [{ type: 'reservation.declined', ...base, reason }, ...this.release(r, now), ...this.dispatch(now)];
  }

  /** The assigned person finished: the capacity is free again. */
  complete(requestId: string, now: number): RoutingEvent[] {
    const a = this.assignments.get(requestId);
    if (a === undefined) throw new Error(`request ${requestId} is not assigned`);
    this.assignments.delete(requestId);
    const s = this.mustStaff(a.staffId);
    s.used -= a.weight;
    return [{ type: 'assignment.completed', requestId, staffId: a.staffId, at: now }, ...this.dispatch(now)];
  }

  /** The customer left (or took a callback) while waiting or reserved. */
  cancel(requestId: string, now: number): RoutingEvent[] {
    const entry = this.mustRequest(requestId);
    const out: RoutingEvent[] = [];
    if (entry.reservationId !== null) {
      const r = this.mustReservation(entry.reservationId);
      this.reservations.delete(r.id);
      this.mustStaff(r.staffId).used -= this.weights[entry.request.channel];
    } else this.remove(entry);
    this.requests.delete(requestId);
    out.push({ type: 'request.left', requestId, to: 'canceled', at: now });
    return [...out, ...this.dispatch(now)];
  }

  /** Fires every reservation and target timeout due at `now`. */
  expire(now: number): RoutingEvent[] {
    const out: RoutingEvent[] = [];
    for (const r of [...this.reservations.values()]) {
      if (r.expiresAt > now) continue;
      out.push({ type: 'reservation.timed_out', reservationId: r.id, requestId: r.requestId, staffId: r.staffId, at: now });
      out.push(...this.release(r, now));
    }
    for (const entry of [...this.waiting]) {
      const target = entry.request.targets[entry.targetIndex];
      if (target?.type !== 'queue' || entry.targetSinceMs + target.timeoutSeconds * 1000 > now) continue;
      out.push(...this.moveOn(entry, now));
    }
    return [...out, ...this.dispatch(now)];
  }

  /** The earliest time a reservation or a target times out, if any. */
  nextDeadline(): number | undefined {
    let next: number | undefined;
    for (const r of this.reservations.values()) next = next === undefined ? r.expiresAt : Math.min(next, r.expiresAt);
    for (const entry of this.waiting) {
      const target = entry.request.targets[entry.targetIndex];
      if (target?.type === 'queue') {
        const at = entry.targetSinceMs + target.timeoutSeconds * 1000;
        next = next === undefined ? at : Math.min(next, at);
      }
    }
    return next;
  }

  /** Where a waiting request stands in its current queue (requests ahead of it in dispatch order). */
  positionOf(requestId: string): QueuePosition {
    const entry = this.mustRequest(requestId);
    const queue = this.queueOf(entry);
    let ahead = 0;
    let unitsAhead = 0;
    for (const other of this.waiting) {
      if (other === entry) break;
      if (this.queueOf(other) !== queue) continue;
      ahead += 1;
      unitsAhead += this.weights[other.request.channel];
    }
    return { ahead, unitsAhead };
  }

  /** Where a new request of `priority` would stand in `queue` if it were submitted now (behind its equals). */
  positionFor(queue: string, priority: number): QueuePosition {
    let ahead = 0;
    let unitsAhead = 0;
    for (const other of this.waiting) {
      if (other.request.priority < priority) break;
      if (this.queueOf(other) !== queue) continue;
      ahead += 1;
      unitsAhead += this.weights[other.request.channel];
    }
    return { ahead, unitsAhead };
  }

  /** Requests waiting for a person (not reserved, not assigned). */
  waitingCount(): number {
    return this.waiting.length;
  }

  private queueOf(entry: Waiting): string | undefined {
    const target = entry.request.targets[entry.targetIndex];
    return target?.type === 'queue' ? target.queue : undefined;
  }

  /** Offers waiting requests, in order, to whoever has room; returns the reservations made. */
  private dispatch(now: number): RoutingEvent[] {
    const out: RoutingEvent[] = [];
    let open = this.openCandidates();
    if (open.length === 0) return out;
    for (const entry of [...this.waiting]) {
      const queue = this.queues.get(this.queueOf(entry) ?? '');
      if (queue === undefined) continue;
      const skills = queue.skills.length === 0 ? entry.request.skills : [...new Set([...queue.skills, ...entry.request.skills])];
      const load = new Map(open.map((c) => [c.staff.id, this.mustStaff(c.staff.id).used]));
      const choice = chooseAssignee({ skills, channel: entry.request.channel, excluded: entry.excluded }, open, load, {
        weights: this.weights,
        order: queue.order,
      });
      if (choice.type !== 'chosen') continue;
      const s = this.mustStaff(choice.staffId);
      const r: Reservation = {
        id: `res_${++this.reservationSeq}`,
        requestId: entry.request.id,
        staffId: choice.staffId,
        expiresAt: now + queue.reservationTimeoutSeconds * 1000,
      };
      // The capacity is taken here, in the same transition as the reservation.
      s.used += this.weights[entry.request.channel];
      s.idleSinceMs = now;
      this.reservations.set(r.id, r);
      entry.reservationId = r.id;
      this.remove(entry);
      const base = { reservationId: r.id, requestId: r.requestId, staffId: r.staffId, channel: entry.request.channel };
      out.push({ type: 'reservation.created', ...base, expiresAt: r.expiresAt, at: now });
      open = this.openCandidates();
      if (open.length === 0) break;
    }
    return out;
  }

  private openCandidates(): AssigneeCandidate[] {
    const open: AssigneeCandidate[] = [];
    const minWeight = Math.min(this.weights.chat, this.weights.callback);
    for (const s of this.staff.values()) {
      if (s.presence === 'available' && s.used + minWeight <= s.staff.capacity) open.push(s);
    }
    return open;
  }

  /** A reservation ends without acceptance: capacity back, the person excluded, the request waits again. */
  private release(r: Reservation, now: number): RoutingEvent[] {
    const entry = this.mustRequest(r.requestId);
    this.reservations.delete(r.id);
    const s = this.mustStaff(r.staffId);
    s.used -= this.weights[entry.request.channel];
    entry.excluded.add(r.staffId);
    entry.reservationId = null;
    this.insert(entry);
    const target = entry.request.targets[entry.targetIndex];
    if (target?.type === 'queue' && entry.targetSinceMs + target.timeoutSeconds * 1000 <= now) return this.moveOn(entry, now);
    return [];
  }

  private moveOn(entry: Waiting, now: number): RoutingEvent[] {
    entry.targetIndex += 1;
    entry.targetSinceMs = now;
    const next = entry.request.targets[entry.targetIndex];
    if (next?.type === 'queue' && this.queues.has(next.queue)) {
      return [{ type: 'request.target_moved', requestId: entry.request.id, to: next, at: now }];
    }
    this.remove(entry);
    this.requests.delete(entry.request.id);
    return [
      { type: 'request.target_moved', requestId: entry.request.id, to: { type: 'callback' }, at: now },
      { type: 'request.left', requestId: entry.request.id, to: 'callback', at: now },
    ];
  }

  private insert(entry: Waiting): void {
    let lo = 0;
    let hi = this.waiting.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (before(this.waiting[mid] as Waiting, entry)) lo = mid + 1;
      else hi = mid;
    }
    this.waiting.splice(lo, 0, entry);
  }

  private remove(entry: Waiting): void {
    const i = this.waiting.indexOf(entry);
    if (i >= 0) this.waiting.splice(i, 1);
  }

  private mustStaff(id: string): StaffState {
    const s = this.staff.get(id);
    if (s === undefined) throw new Error(`unknown staff member ${id}`);
    return s;
  }

  private mustRequest(id: string): Waiting {
    const r = this.requests.get(id);
    if (r === undefined) throw new Error(`unknown or finished request ${id}`);
    return r;
  }

  private mustReservation(id: string): Reservation {
    const r = this.reservations.get(id);
    if (r === undefined) throw new Error(`unknown or finished reservation ${id}`);
    return r;
  }
}

/** Dispatch order: higher priority first, then earlier arrival. */
function before(a: Waiting, b: Waiting): boolean {
  if (a.request.priority !== b.request.priority) return a.request.priority > b.request.priority;
  if (a.enqueuedAtMs !== b.enqueuedAtMs) return a.enqueuedAtMs < b.enqueuedAtMs;
  return a.seq < b.seq;
}
