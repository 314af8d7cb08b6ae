/**
 * Billing's policy drift events (src/domains/drift.ts), and the drift tasks built from billing's
 * committed tasks: for each event, the tasks whose right outcome it changes, with the criteria of
 * the new policy. The task as committed is the "before" of each pair; the drift task, with the
 * event scheduled at a customer turn, is the "after".
 */
import type { DomainTask, GoldAction } from '../domain.js';
import { checkDriftTurn, type DriftEvent, type DriftTask as GenericDriftTask } from '../drift.js';
import { formatCents, type BillingDb } from './billing-db.js';
import { refundLimitRuleAt } from './billing-rules.js';
import type { BillingTaskRecord } from './billing-tasks.js';

/** The lowered autonomous refund limit of `refund_limit_lowered`. */
export const DRIFT_REFUND_LIMIT_CENTS = 2000;
/** The plan whose price rises in `plan_price_rise`, and its new price. */
export const DRIFT_PRICE_RISE = { plan: 'ultra', cents: 10900 } as const;
/** The plan withdrawn in `plan_recalled`. */
export const DRIFT_RECALLED_PLAN = 'pro';

const limit = formatCents(DRIFT_REFUND_LIMIT_CENTS);

/** Billing's five drift events. */
export const BILLING_DRIFT_EVENTS: readonly DriftEvent<BillingDb>[] = [
  {
    id: 'refund_limit_lowered',
    notice: `The autonomous refund limit is now ${limit} (it was 50.00). A duplicate above ${limit} is decided by a billing specialist: do not refund it; hand off to queue_billing with reason value_threshold.`,
    deciderPolicy: (policy) => ({ ...policy, autonomousLimit: DRIFT_REFUND_LIMIT_CENTS / 100 }),
    refuse: (name, args) =>
      name === 'refund_charge' && typeof args['amount'] === 'number' && args['amount'] * 100 - DRIFT_REFUND_LIMIT_CENTS > 1e-6
        ? `Refund of ${formatCents(Math.round(args['amount'] * 100))} exceeds the autonomous limit of ${limit}; hand off to queue_billing`
        : null,
    rules: [refundLimitRuleAt(DRIFT_REFUND_LIMIT_CENTS, 2)],
  },
  {
    id: 'email_changes_suspended',
    notice:
      'E-mail address changes are suspended during a security review. Do not call update_email: hand a customer who wants a new e-mail address to queue_account_security with reason no_capability.',
    refuse: (name) =>
      name === 'update_email' ? 'E-mail changes are suspended; hand off to queue_account_security with reason no_capability' : null,
  },
  {
    id: 'complaints_queue_closed',
    notice:
      'The complaints team (queue_complaints) is closed. Formal complaints now go to queue_billing, with reason policy_topic, at once, as before.',
    deciderPolicy: (policy) => ({
      ...policy,
      topicTargets: Object.fromEntries(
        Object.entries(policy.topicTargets).map(([topic, queue]) => [topic, queue === 'queue_complaints' ? 'queue_billing' : queue]),
      ),
    }),
  },
  {
    id: 'plan_price_rise',
    notice: `The ${DRIFT_PRICE_RISE.plan} plan's monthly price is now ${formatCents(DRIFT_PRICE_RISE.cents)}. Quote the price list_plans shows.`,
    apply: (db) => {
      const plan = db.plans[DRIFT_PRICE_RISE.plan];
      if (plan) plan.price_cents = DRIFT_PRICE_RISE.cents;
    },
  },
  {
    id: 'plan_recalled',
    notice: `The ${DRIFT_RECALLED_PLAN} plan is withdrawn from sale: its mesh extender is recalled. Do not move anyone to it; hand a customer who asks for it to queue_billing with reason no_capability.`,
    refuse: (name, args) =>
      name === 'change_plan' && args['plan_id'] === DRIFT_RECALLED_PLAN
        ? `Plan ${DRIFT_RECALLED_PLAN} is withdrawn from sale; hand off to queue_billing with reason no_capability`
        : null,
  },
];

/** One pair of a billing drift: the task as committed (before) and under the event (after). */
export type DriftTask = GenericDriftTask<BillingDb>;

const handoffAction = (id: string, target: string, reason: string): GoldAction => ({
  actionId: id,
  name: 'handoff',
  arguments: { target, reason, summary: 'policy drift' },
  requestor: 'assistant',
  compareArgs: ['target', 'reason'],
});

/** The after-task: the same conversation, with the deciding write replaced by the hand-off the new policy asks for. */
function handoffInstead(task: DomainTask, event: string, tool: string, target: string, reason: string): DomainTask {
  const actions = task.actions ?? [];
  const at = actions.findIndex((a) => a.name === tool);
  const kept = at < 0 ? actions : actions.slice(0, at);
  return {
    ...task,
    id: `${task.id}@${event}`,
    actions: [...kept, handoffAction(`${task.id}@${event}_${kept.length}`, target, reason)],
    communicateInfo: [],
    handoff: { expected: true, queue: target, reason, source: 'label' },
  };
}

const actionOf = (task: DomainTask, tool: string) => task.actions?.find((a) => a.name === tool);

/**
 * The drift tasks: every committed task whose right outcome the event changes. `records` are the
 * task file's (they carry the kind), `tasks` the domain's.
 */
export function billingDriftTasks(records: readonly BillingTaskRecord[], tasks: readonly DomainTask[], turn = 2): DriftTask[] {
  checkDriftTurn(turn);
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const event = (id: string) => BILLING_DRIFT_EVENTS.find((e) => e.id === id) as DriftEvent<BillingDb>;
  const out: DriftTask[] = [];
  for (const record of records) {
    const task = byId.get(record.id);
    if (!task) continue;
    const pair = (id: string, after: DomainTask, at = turn) => out.push({ event: event(id), turn: at, before: task, after });
    const refund = actionOf(task, 'refund_charge');
    const amount = refund?.arguments['amount'];
    if (refund && typeof amount === 'number' && amount * 100 > DRIFT_REFUND_LIMIT_CENTS)
      pair('refund_limit_lowered', handoffInstead(task, 'refund_limit_lowered', 'refund_charge', 'queue_billing', 'value_threshold'));
    if (record.kind === 'update_email')
      pair(
        'email_changes_suspended',
        handoffInstead(task, 'email_changes_suspended', 'update_email', 'queue_account_security', 'no_capability'),
      );
    if (record.kind === 'formal_complaint' && task.handoff.queue === 'queue_complaints')
      // The complaint is the opening message and is handed off at once: its drift holds from turn 1,
      // or the hand-off it changes would come before it.
      pair('complaints_queue_closed', handoffInstead(task, 'complaints_queue_closed', 'handoff', 'queue_billing', 'policy_topic'), 1);
    const plan = actionOf(task, 'change_plan')?.arguments['plan_id'];
    if (plan === DRIFT_PRICE_RISE.plan)
      pair('plan_price_rise', {
        ...task,
        id: `${task.id}@plan_price_rise`,
        communicateInfo: [formatCents(DRIFT_PRICE_RISE.cents)],
      });
    if (plan === DRIFT_RECALLED_PLAN)
      pair('plan_recalled', handoffInstead(task, 'plan_recalled', 'change_plan', 'queue_billing', 'no_capability'));
  }
  return out;
}
