import {
  checkReview,
  ReviewSchema,
  type ConversationId,
  type Review,
  type ReviewInput,
  type ReviewRejection,
  type StaffRole,
  type StoredEvent,
} from '../../core/index.js';
import type { Gateway } from '../gateway.js';
import type { Redactor } from './redactor.js';

/** What recording a verdict came to: stored (with its log entry), or refused with why (nothing stored). */
export type ReviewOutcome =
  { ok: true; event: StoredEvent } | { ok: false; rejection: ReviewRejection | { code: 'not_found'; message: string } };

/**
 * Records a person's verdict on a conversation's hand-off (or on its being kept): checked against
 * the log and the caller (`checkReview`), its free text (reason, note, what had to be asked
 * again) redacted like every other text the service stores, and appended as `review.recorded`
 * with who gave it. `by` and `as` come from the caller, never from what they sent.
 */
export async function recordReview(
  deps: { gateway: Gateway; redact: Redactor },
  conversationId: ConversationId,
  input: ReviewInput,
  caller: { id: Review['by']; role: StaffRole },
): Promise<ReviewOutcome> {
  const { gateway, redact } = deps;
  if (!(await gateway.store.getConversation(conversationId)))
    return { ok: false, rejection: { code: 'not_found', message: `there is no conversation ${conversationId}` } };
  const log = await gateway.store.listEvents(conversationId);
  const checked = checkReview(log, input, caller);
  if (!checked.ok) return checked;
  const text = (value: string | null) => (value === null ? null : redact.text(value, conversationId));
  const redacted = {
    ...input,
    reason: text(input.reason),
    note: text(input.note),
    ...(input.subject === 'handoff' ? { askedAgain: text(input.askedAgain) } : {}),
    by: caller.id,
    as: checked.as,
  };
  // Redaction can lengthen a text past its limit: refused like any other text that is too long.
  const review = ReviewSchema.safeParse(redacted);
  if (!review.success)
    return {
      ok: false,
      rejection: {
        code: 'invalid_review',
        message: `after redaction: ${review.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      },
    };
  const stored = await gateway.record(conversationId, [{ type: 'review.recorded', data: review.data }]);
  if (!stored) return { ok: false, rejection: { code: 'not_found', message: `there is no conversation ${conversationId}` } };
  return { ok: true, event: stored[0]! };
}
