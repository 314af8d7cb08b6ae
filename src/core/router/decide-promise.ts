import type { NoCapacityOption } from './routing-config.js';
import type { WaitEstimate } from './wait-estimator.js';

/** The facts the promise is decided from; the runtime computes them (calendars, the board). */
export interface PromiseInput {
  safety: boolean;
  /** Whether the queue's calendar is open now. */
  queueOpen: boolean;
  /** Whether a reservation for the request is held right now. */
  reservationHeld: boolean;
  /** The estimate, backed by eligible units on shift; `null` when nobody eligible is on shift. */
  estimate: WaitEstimate | null;
  /** What the queue offers instead of a person. */
  whenNoCapacity: NoCapacityOption;
  /** The booked callback time: the start of the next slot in the queue's hours with someone eligible on shift, if known. */
  nextCallbackAtMs: number | null;
}

/** The one true thing to tell the customer. */
export type RoutingPromise =
  | { type: 'join'; basis: 'reservation' }
  | { type: 'join'; basis: 'estimate'; estimate: WaitEstimate }
  | { type: 'callback'; atMs: number }
  | { type: 'ticket'; responseWithinMs: number }
  | { type: 'limited_scope' }
  /** A crisis with nobody eligible on shift: crisis resources now and the on-call escalation, never a wait for hours. */
  | { type: 'safety_escalation' };

/**
 * What may be promised. "A person will join" only with a held reservation, or with an estimate
 * that eligible people on shift back — and, unless it is a safety case, only inside the queue's
 * hours. Otherwise the queue's configured honest option: a callback at a booked time inside its
 * hours (limited scope when no such time is known), a ticket with its stated response time, or the agent
 * continuing with limited scope. A safety case never waits for the queue's hours. Pure.
 */
export function decidePromise(input: PromiseInput): RoutingPromise {
  if (input.reservationHeld) return { type: 'join', basis: 'reservation' };
  if ((input.queueOpen || input.safety) && input.estimate !== null) return { type: 'join', basis: 'estimate', estimate: input.estimate };
  if (input.safety) return { type: 'safety_escalation' };
  const option = input.whenNoCapacity;
  switch (option.type) {
    case 'callback':
      return input.nextCallbackAtMs !== null ? { type: 'callback', atMs: input.nextCallbackAtMs } : { type: 'limited_scope' };
    case 'ticket':
      return { type: 'ticket', responseWithinMs: option.responseWithinHours * 3_600_000 };
    case 'limited_scope':
      return { type: 'limited_scope' };
  }
}
