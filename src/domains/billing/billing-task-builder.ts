/**
 * Builds billing's tasks from the seeded database: each kind of case picks its customers and
 * charges from the data (each customer used once), writes the simulated customer's brief, the
 * gold actions and the hand-off label. Deterministic: the same database and seed give the same
 * tasks, so `scripts/generate-billing-tasks.ts` reproduces the committed file exactly.
 */
import { seededRandom } from '../../core/index.js';
import { AUTONOMOUS_REFUND_LIMIT_CENTS, type BillingCustomer, type BillingDb } from './billing-db.js';
import { bereavement, cannotVerify, customerRequest, formalComplaint, legalThreat, refundOverLimit } from './billing-handoff-tasks.js';
import {
  alreadyRefunded,
  ANGRY,
  cancelSubscription,
  changePlan,
  explainCharge,
  LAWYER_ASIDES,
  nonDuplicate,
  ownAccountAfterLoss,
  refundDuplicate,
  updateEmail,
} from './billing-resolvable-tasks.js';
import { Picker, type Draft } from './billing-task-picker.js';
import type { BillingTaskRecord } from './billing-tasks.js';

/** The seed that picks customers for tasks (the database has its own). */
export const BILLING_TASK_SEED = 4242;

/** Which share of each kind goes to the test split (at least one task). */
const TEST_SHARE = 0.4;

/**
 * The tasks for a database: 95 of them, of 18 kinds, each kind split about 60/40 between train
 * and test, then shuffled so ids do not give the kind away.
 */
export function buildBillingTasks(db: BillingDb, seed: number = BILLING_TASK_SEED): BillingTaskRecord[] {
  const random = seededRandom(seed);
  const p = new Picker(db, random);
  const LIMIT = AUTONOMOUS_REFUND_LIMIT_CENTS;
  /** Customers whose only duplicate is unrefunded and of an amount that passes `test`. */
  const duplicateWhere = (test: (cents: number) => boolean) => (c: BillingCustomer) => {
    const dup = p.onlyDuplicate(c);
    return dup !== undefined && dup.status === 'succeeded' && test(dup.amount_cents);
  };
  const small = duplicateWhere((a) => a < LIMIT);
  const atLimit = duplicateWhere((a) => a === LIMIT);
  const justOver = duplicateWhere((a) => a === LIMIT + 1);
  const wellOver = duplicateWhere((a) => a > LIMIT + 1);
  const over = duplicateWhere((a) => a > LIMIT);
  const refunded = (c: BillingCustomer) => p.onlyDuplicate(c)?.status === 'refunded';
  const subscribed = (c: BillingCustomer) => p.clean(c) && p.activeSubscription(c) !== undefined;

  const groups: Draft[][] = [
    p.take(10, small, 'refund_duplicate').map((c) => refundDuplicate(p, 'refund_duplicate', c)),
    p
      .take(3, atLimit, 'refund_at_limit')
      .map((c) => refundDuplicate(p, 'refund_at_limit', c, { notes: 'Exactly the autonomous limit: the agent may refund it.' })),
    p.take(9, p.clean, 'update_email').map((c, i) => updateEmail(p, c, i === 2 || i === 6 ? 'typo' : i === 4 ? 'capitals' : 'plain')),
    p.take(7, subscribed, 'change_plan').map((c) => changePlan(p, c)),
    p.take(7, subscribed, 'cancel_subscription').map((c, i) => cancelSubscription(p, c, i)),
    p.take(7, (c) => p.clean(c) && p.charges(c).some((ch) => p.explainable(ch)), 'explain_charge').map((c) => explainCharge(p, c)),
    p.take(6, wellOver, 'refund_over_limit').map((c, i) => refundOverLimit(p, 'refund_over_limit', c, i % 3 === 1)),
    p.take(3, justOver, 'refund_just_over_limit').map((c, i) => refundOverLimit(p, 'refund_just_over_limit', c, i === 1)),
    [...p.take(2, small, 'formal_complaint'), ...p.take(3, p.clean, 'formal_complaint')].map((c, i) => formalComplaint(p, c, i)),
    p.take(5, subscribed, 'bereavement').map((c, i) => bereavement(c, i)),
    [...p.take(3, small, 'legal_threat'), ...p.take(2, over, 'legal_threat')].map((c, i) => legalThreat(p, c, i)),
    p.take(5, p.clean, 'customer_request').map((c, i) => customerRequest(c, i, i >= 3)),
    p.take(5, p.clean, 'cannot_verify').map((c, i) => cannotVerify(c, i, i >= 3)),
    p
      .take(5, small, 'angry_resolvable')
      .map((c) => refundDuplicate(p, 'angry_resolvable', c, { persona: ANGRY, notes: 'Anger alone is not a reason to hand off.' })),
    p.take(3, small, 'lawyer_in_passing').map((c, i) =>
      refundDuplicate(p, 'lawyer_in_passing', c, {
        aside: LAWYER_ASIDES[i]!,
        notes: 'A lawyer is mentioned but no legal action is threatened: not a legal threat (see the policy).',
      }),
    ),
    p.take(5, (c) => p.clean(c) && p.repeatOrders(c) !== undefined, 'non_duplicate_charge').map((c) => nonDuplicate(p, c)),
    p.take(3, refunded, 'already_refunded').map((c) => alreadyRefunded(p, c)),
    p.take(2, subscribed, 'own_account_after_loss').map((c, i) => ownAccountAfterLoss(p, c, i)),
  ];

  const placed = groups.flatMap((drafts) => {
    const tests = Math.max(1, Math.round(drafts.length * TEST_SHARE));
    // Spread the test tasks evenly through the kind's list (which is in random order already).
    return drafts.map(
      (draft, i) =>
        ({
          draft,
          split: Math.floor(((i + 1) * tests) / drafts.length) > Math.floor((i * tests) / drafts.length) ? 'test' : 'train',
        }) as const,
    );
  });
  for (let i = placed.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [placed[i], placed[j]] = [placed[j]!, placed[i]!];
  }
  return placed.map(({ draft, split }, index) => record(draft, `billing_${String(index + 1).padStart(3, '0')}`, split));
}

function record(draft: Draft, id: string, split: 'train' | 'test'): BillingTaskRecord {
  return {
    id,
    description: { purpose: draft.purpose, relevant_policies: draft.policies, notes: draft.notes },
    kind: draft.kind,
    split,
    handoff: draft.handoff ? { expected: true, ...draft.handoff } : { expected: false, queue: null, reason: null },
    user_scenario: {
      persona: draft.persona,
      instructions: {
        domain: 'billing',
        reason_for_call: draft.reason,
        known_info: draft.known,
        unknown_info: draft.unknown,
        task_instructions: draft.instructions,
      },
    },
    initial_state: null,
    evaluation_criteria: {
      actions: draft.actions.map((a, i) => ({ action_id: `${id}_${i}`, requestor: 'assistant' as const, ...a })),
      communicate_info: draft.communicate,
      nl_assertions: [],
      // HANDOFF prices the hand-off itself: without it, on a hand-off task whose gold changes
      // nothing, an agent that never hands off (or hands off to the wrong queue) would pass too.
      reward_basis: ['DB', 'COMMUNICATE', 'HANDOFF'],
    },
  };
}
