import { isTransitionEvent, type Review, type StoredEvent } from './events.js';
import { towardsPeople } from './review-units.js';
import { roleAtLeast, type StaffRole } from './staff.js';

/** A verdict as a person sends it: the server adds who gave it (`by`) and in what capacity (`as`). */
export type ReviewInput = Review extends infer R ? (R extends Review ? Omit<R, 'by' | 'as'> : never) : never;

/** Why a verdict was refused: the caller may not give it (`forbidden`), or it does not fit the log. */
export type ReviewRejection = { code: 'forbidden' | 'invalid_review' | 'has_handoff'; message: string };

/** The checked verdict, with the capacity the caller gives it in. */
export type ReviewCheck = { ok: true; as: Review['as'] } | { ok: false; rejection: ReviewRejection };

const refuse = (code: ReviewRejection['code'], message: string): ReviewCheck => ({ ok: false, rejection: { code, message } });

/**
 * Whether `staff` owned the conversation at some point of the log between `from` and `to` (seqs,
 * `to` exclusive): a transition left it with them (a claim, a transfer to them, assisted mode).
 */
function owned(log: readonly StoredEvent[], staff: string, from: number, to: number): boolean {
  return log.some((e) => e.seq > from && e.seq < to && isTransitionEvent(e) && e.data.owner.type === 'human' && e.data.owner.id === staff);
}

/**
 * In what capacity `caller` may review a hand-off (its seq) or, with null, the conversation as
 * kept: `owner` when they took it (for a hand-off: after it and before the next one towards
 * people), `supervisor` when their role is supervisor or admin, null when they may not.
 */
export function reviewerCapacity(
  log: readonly StoredEvent[],
  handoff: number | null,
  caller: { id: string; role: StaffRole },
): Review['as'] | null {
  let took: boolean;
  if (handoff === null) took = owned(log, caller.id, 0, Number.POSITIVE_INFINITY);
  else {
    const next = log.find((e) => towardsPeople(e) && e.seq > handoff)?.seq ?? Number.POSITIVE_INFINITY;
    took = owned(log, caller.id, handoff, next);
  }
  if (took) return 'owner';
  return roleAtLeast(caller.role, 'supervisor') ? 'supervisor' : null;
}

/**
 * Checks a verdict against the conversation's log and its caller, before anything is stored.
 * Who: the person who took the conversation (for a hand-off: after that hand-off and before the
 * next one towards people) gives it as `owner`; a supervisor or an admin may review any
 * conversation, as `supervisor`; anyone else is refused. What: a hand-off review names a
 * `handoff.requested` towards people; a `kept` review is only for a conversation that never went
 * to a person; `dueAt` is a customer message (`message.received`), and for a late hand-off one
 * before the message the hand-off answered (the last one before it: due there, it was on time); `timing` is given exactly when the hand-off was needed; the fields of a "not needed"
 * verdict (`dueAt`, `reason`) and of an enough packet (`askedAgain`) stay empty.
 */
export function checkReview(log: readonly StoredEvent[], review: ReviewInput, caller: { id: string; role: StaffRole }): ReviewCheck {
  const handoffs = log.filter(towardsPeople);
  const messages = new Set(log.filter((e) => e.type === 'message.received').map((e) => e.seq));
  if (review.subject === 'handoff' && !handoffs.some((e) => e.seq === review.handoff)) {
    const what = log.find((e) => e.seq === review.handoff);
    const is = what ? `a ${what.type}${what.type === 'handoff.requested' ? ' to another agent' : ''}` : 'not there';
    return refuse('invalid_review', `handoff: entry ${review.handoff} of this log is ${is}; name the seq of a hand-off towards people`);
  }
  // Who may give it comes first: a refusal says nothing about what the verdict would have been.
  const as = reviewerCapacity(log, review.subject === 'handoff' ? review.handoff : null, caller);
  if (as === null)
    return refuse(
      'forbidden',
      review.subject === 'handoff'
        ? 'only the person who took this hand-off, or a supervisor, may review it'
        : 'only a person who had this conversation, or a supervisor, may review it',
    );
  // A hand-off answers the last customer message before it: due at that one, it came on time.
  const answered = review.subject === 'handoff' ? Math.max(0, ...[...messages].filter((seq) => seq < review.handoff)) : 0;
  const wrong = review.subject === 'handoff' ? handoffProblem(review, answered) : keptProblem(review, handoffs);
  if (wrong) return wrong;
  if (review.dueAt !== null && !messages.has(review.dueAt))
    return refuse('invalid_review', `dueAt: entry ${review.dueAt} of this log is not a customer message`);
  if (!review.needed && review.reason !== null)
    return refuse('invalid_review', 'reason: a verdict that no person was needed has no reason');
  return { ok: true, as };
}

/** What is wrong with a hand-off verdict's fields, if anything (`answered`: the customer message the hand-off answered). */
function handoffProblem(review: Extract<ReviewInput, { subject: 'handoff' }>, answered: number): ReviewCheck | null {
  if (review.needed && review.timing === null)
    return refuse('invalid_review', 'timing: say whether a needed hand-off came on time or late');
  if (!review.needed && review.timing !== null) return refuse('invalid_review', 'timing: only a needed hand-off is on time or late');
  if (review.timing === 'late' && review.dueAt === null)
    return refuse('invalid_review', 'dueAt: a late hand-off names the customer message by which it was due');
  if (review.timing !== 'late' && review.dueAt !== null)
    return refuse('invalid_review', 'dueAt: only a late hand-off (or a kept conversation that needed a person) names when it was due');
  if (review.dueAt !== null && review.dueAt >= answered)
    return refuse(
      'invalid_review',
      `dueAt: a late hand-off was due at a customer message before the one it answered (entry ${answered}); due at that one, it came on time`,
    );
  if (review.packetEnough && review.askedAgain !== null)
    return refuse('invalid_review', 'askedAgain: only a packet that was not enough leaves something to ask again');
  return null;
}

/** What is wrong with a kept verdict, if anything. */
function keptProblem(review: Extract<ReviewInput, { subject: 'kept' }>, handoffs: readonly StoredEvent[]): ReviewCheck | null {
  if (handoffs.length > 0)
    return refuse('has_handoff', `this conversation was handed to a person (entry ${handoffs[0]!.seq}): review that hand-off instead`);
  if (review.needed && review.dueAt === null)
    return refuse(
      'invalid_review',
      'dueAt: a conversation that should have gone to a person names the customer message by which it should',
    );
  if (!review.needed && review.dueAt !== null)
    return refuse('invalid_review', 'dueAt: a conversation rightly kept has no message by which a person was due');
  return null;
}
