import type { Conversation, HandoffReason, QueueId, StaffId } from '../../core/index.js';

/** What the router is asked when an agent's hand-off to a human queue has been applied. */
export interface RoutingRequest {
  conversation: Conversation;
  /** The queue the agent (or the decider) asked for. */
  queue: QueueId;
  reason: HandoffReason;
  /** People not to offer it to (a person who just passed it on cold). */
  exclude?: readonly StaffId[];
}

/** Where the router put the conversation, and the one true thing to tell the customer. */
export interface RoutingDecision {
  queue: QueueId;
  /** What the system tells the customer; only what is true (no promise nobody backs). */
  notice: string;
}

/** What the customer may be told while they wait: only what is known, null where nothing is. */
export interface WaitInfo {
  /** The estimate of the wait from now (ms), backed by someone on shift; null when unknown. */
  estimateMs: number | null;
  /** Their place in the queue (1 = next), when known. */
  position: number | null;
  /** The queue's opening hours in words ("Monday to Friday, 9:00 to 17:00 London time"), when known. */
  hours: string | null;
}

/**
 * The router port: the service hands every applied hand-off to it. The default puts the
 * conversation in the queue asked for and says no more than it knows; the routing issue's router
 * (skills, capacity, reservations, wait estimates) implements the same port.
 */
export interface HandoffRouter {
  route(request: RoutingRequest): Promise<RoutingDecision>;
  /** What is known about a waiting conversation's wait, for the holding agent to say. */
  waitInfo?(conversation: Conversation): Promise<WaitInfo>;
  /**
   * A person's action changed who owns the conversation (claimed, handed back, transferred,
   * closed): the router's count of what each person holds follows it.
   */
  conversationChanged?(conversation: Conversation): Promise<void>;
  /**
   * Whether a person could take a conversation back now (signed in and on shift: available or
   * busy). Past the ping-pong cap a hand-off goes back to the person who had it only if so, else
   * to the queue asked for. Without it, they are taken to be on shift.
   */
  onShift?(staff: StaffId): Promise<boolean>;
}

/** Nothing known about a wait: the honest default. */
export const UNKNOWN_WAIT: WaitInfo = { estimateMs: null, position: null, hours: null };

/**
 * What the customer is told when nothing is known about the wait: the conversation is passed on
 * and nothing is said about when a person replies, which is true whether or not anyone is on shift.
 */
export const TRANSFER_NOTICE =
  "I'm passing you to a colleague now. They will see our whole conversation, so you won't need to repeat anything.";

/** The router with no routing state: the queue asked for, and the honest notice. */
export const queueRouter: HandoffRouter = {
  route: async ({ queue }) => ({ queue, notice: TRANSFER_NOTICE }),
};
