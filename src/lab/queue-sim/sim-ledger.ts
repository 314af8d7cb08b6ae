import type { Channel, ChannelWeights, RoutingEvent } from '../../core/router/index.js';
import type { SimStaff } from './sim-scenario.js';

interface LedgerRequest {
  skills: readonly string[];
  channel: Channel;
  state: 'waiting' | 'reserved' | 'assigned';
  declinedBy: Set<string>;
}

/**
 * The simulator's own account of who holds what, kept from the router's events and the scenario's
 * configuration — never from the router's counters — so that a bookkeeping bug in the router shows
 * up here as a violation instead of hiding. It counts capacity from held items with the scenario's
 * weights, and after every simulated step checks that no free, eligible slot sits beside a waiting
 * conversation.
 */
export class SimLedger {
  /** Items each person holds (reserved or assigned), by request id. */
  private readonly held = new Map<string, Map<string, Channel>>();
  private readonly requests = new Map<string, LedgerRequest>();
  private readonly byId: Map<string, SimStaff>;
  readonly counts = { capacityViolations: 0, idleSlotWhileWaiting: 0, reofferedAfterDecline: 0, offersToOffShift: 0, reservations: 0 };

  constructor(
    staff: readonly SimStaff[],
    private readonly weights: ChannelWeights,
    /** Whether a person is on shift and available now, by the simulator's own calendars. */
    private readonly onShift: (staffId: string) => boolean,
  ) {
    this.byId = new Map(staff.map((s) => [s.staff.id, s]));
    for (const s of staff) this.held.set(s.staff.id, new Map());
  }

  /**
   * A waiting request changed channel (a wait past its queue's timeout became a callback, which
   * weighs what a callback weighs): who declined it stays excluded.
   */
  rechanneled(requestId: string, channel: Channel): void {
    const r = this.requests.get(requestId);
    if (r !== undefined) r.channel = channel;
  }

  /** A request was submitted to the router with these needs. */
  submitted(requestId: string, skills: readonly string[], channel: Channel): void {
    this.requests.set(requestId, { skills, channel, state: 'waiting', declinedBy: new Set() });
  }

  /** Whether the ledger has a reservation or assignment for the request. */
  isHeld(requestId: string): boolean {
    const r = this.requests.get(requestId);
    return r !== undefined && r.state !== 'waiting';
  }

  /** Units a person holds, summed from their items. */
  used(staffId: string): number {
    let used = 0;
    for (const channel of this.held.get(staffId)?.values() ?? []) used += this.weights[channel];
    return used;
  }

  /** Applies one router event to the ledger, checking capacity when a reservation is made. */
  apply(event: RoutingEvent): void {
    switch (event.type) {
      case 'request.queued':
      case 'request.target_moved':
        return;
      case 'reservation.created': {
        const r = this.must(event.requestId);
        const person = this.byId.get(event.staffId);
        const items = this.held.get(event.staffId);
        if (person === undefined || items === undefined) throw new Error(`ledger: unknown staff ${event.staffId}`);
        this.counts.reservations += 1;
        if (r.declinedBy.has(event.staffId)) this.counts.reofferedAfterDecline += 1;
        if (!this.onShift(event.staffId)) this.counts.offersToOffShift += 1;
        items.set(event.requestId, r.channel);
        if (this.used(event.staffId) > person.staff.capacity) this.counts.capacityViolations += 1;
        r.state = 'reserved';
        return;
      }
      case 'reservation.accepted':
        this.must(event.requestId).state = 'assigned';
        return;
      case 'reservation.declined':
      case 'reservation.timed_out': {
        const r = this.must(event.requestId);
        this.held.get(event.staffId)?.delete(event.requestId);
        r.declinedBy.add(event.staffId);
        r.state = 'waiting';
        return;
      }
      case 'assignment.completed':
        this.held.get(event.staffId)?.delete(event.requestId);
        this.requests.delete(event.requestId);
        return;
      case 'request.left':
        for (const items of this.held.values()) items.delete(event.requestId);
        this.requests.delete(event.requestId);
        return;
    }
  }

  /**
   * After a simulated step: is there a person on shift with room for a waiting conversation they
   * are eligible for (skills, never declined it)? Counts one per waiting conversation so placed.
   */
  checkIdle(): void {
    for (const [staffId, person] of this.byId) {
      if (!this.onShift(staffId)) continue;
      const free = person.staff.capacity - this.used(staffId);
      if (free < Math.min(this.weights.chat, this.weights.callback)) continue;
      for (const r of this.requests.values()) {
        if (r.state !== 'waiting' || r.declinedBy.has(staffId) || this.weights[r.channel] > free) continue;
        if (r.skills.every((s) => person.staff.skills.includes(s))) this.counts.idleSlotWhileWaiting += 1;
      }
    }
  }

  private must(requestId: string): LedgerRequest {
    const r = this.requests.get(requestId);
    if (r === undefined) throw new Error(`ledger: event for unknown request ${requestId}`);
    return r;
  }
}
