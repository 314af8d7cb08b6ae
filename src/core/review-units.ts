import type { Review, StoredEvent } from './events.js';
import type { MetricsWindow } from './runtime-metrics.js';

/**
 * What production review samples and counts (issue 19, docs/reviews.md): every hand-off towards
 * people (`handoff.requested` whose route is not `agent`) requested in the window, and every
 * conversation the agent served in the window (a `turn.completed` in it) that never went to a
 * person. A conversation handed off twice gives two hand-off units.
 */
export type ReviewUnit =
  | {
      subject: 'handoff';
      conversationId: string;
      /** The seq of the hand-off's `handoff.requested`. */
      handoff: number;
      reason: string;
      /** Where it waited: the queue it was asked for, or the one the router placed it in. */
      queue: string;
      at: string;
    }
  | { subject: 'kept'; conversationId: string; at: string };

/** The stratum a unit belongs to: hand-offs by reason and queue, kept conversations together. */
export function stratumOf(unit: ReviewUnit): string {
  return unit.subject === 'kept' ? 'kept' : `handoff:${unit.reason}:${unit.queue}`;
}

/** A unit's own id: its conversation, and for a hand-off the seq reviewed. */
export function unitId(unit: { subject: 'handoff' | 'kept'; conversationId: string; handoff?: number }): string {
  return unit.subject === 'kept' ? `${unit.conversationId}` : `${unit.conversationId}#${unit.handoff}`;
}

/** Whether a `handoff.requested` sent the conversation towards people (not to another agent). */
export const towardsPeople = (event: StoredEvent): event is Extract<StoredEvent, { type: 'handoff.requested' }> =>
  event.type === 'handoff.requested' && event.data.route !== 'agent';

/** The review units of one conversation's log in the window. */
export function reviewUnitsOf(log: readonly StoredEvent[], window: MetricsWindow): ReviewUnit[] {
  const inWindow = (at: string) => at >= window.since && at < window.until;
  const units: ReviewUnit[] = [];
  let open: Extract<ReviewUnit, { subject: 'handoff' }> | null = null;
  let handedOff = false;
  let servedAt: string | null = null;
  for (const event of log) {
    if (event.type === 'turn.completed' && servedAt === null && inWindow(event.at)) servedAt = event.at;
    if (event.type === 'handoff.requested' && event.data.route === 'agent') open = null;
    else if (event.type === 'handoff.requested') {
      handedOff = true;
      const owner = event.data.owner;
      open = {
        subject: 'handoff',
        conversationId: event.conversationId,
        handoff: event.seq,
        reason: event.data.reason,
        queue: owner.type === 'queue' || owner.type === 'human' ? owner.id : 'unknown',
        at: event.at,
      };
      if (inWindow(event.at)) units.push(open);
      else open = null;
    } else if (event.type === 'conversation.queued' && open !== null) {
      // The router may place it in another queue than the one asked for: that is where it waited.
      open.queue = event.data.queue;
    } else if (event.type === 'conversation.claimed') {
      open = null;
    }
  }
  if (!handedOff && servedAt !== null) units.push({ subject: 'kept', conversationId: log[0]?.conversationId ?? '', at: servedAt });
  return units;
}

/** A verdict in the log, with where it is. */
export type RecordedReview = Review & { seq: number; at: string };

/** The `review.recorded` entries of a log, oldest first. */
export function reviewsOf(log: readonly StoredEvent[]): RecordedReview[] {
  return log.flatMap((e) => (e.type === 'review.recorded' ? [{ ...e.data, seq: e.seq, at: e.at }] : []));
}

/**
 * The verdict that counts for a unit: a supervisor's latest when there is one (the sample's
 * reviewer), otherwise the owner's latest; null when nobody has reviewed it.
 */
export function verdictFor(unit: ReviewUnit, reviews: readonly RecordedReview[]): RecordedReview | null {
  const about = reviews.filter((r) =>
    unit.subject === 'kept' ? r.subject === 'kept' : r.subject === 'handoff' && r.handoff === unit.handoff,
  );
  return about.findLast((r) => r.as === 'supervisor') ?? about.at(-1) ?? null;
}
