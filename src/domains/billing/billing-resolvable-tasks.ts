/**
 * The billing task kinds the agent resolves alone: refunds within the limit, e-mail and
 * subscription changes, explanations, and the hard negatives (cues that look like a hand-off in
 * cases the policy lets the agent finish).
 */
import { formatCents, type BillingCharge, type BillingCustomer } from './billing-db.js';
import {
  amountOf,
  call,
  CONFIRM,
  COOPERATE,
  day,
  END,
  firstName,
  known,
  lastName,
  verify,
  type Draft,
  type Picker,
} from './billing-task-picker.js';

/** A duplicate within the limit, refunded after verification; `extra` makes the angry and lawyer-in-passing variants. */
export function refundDuplicate(
  p: Picker,
  kind: string,
  c: BillingCustomer,
  extra: { persona?: string; aside?: string; notes?: string } = {},
): Draft {
  const dup = p.onlyDuplicate(c) as BillingCharge;
  const amount = formatCents(dup.amount_cents);
  return {
    kind,
    purpose: `Refund a duplicate charge of ${amount}, within the autonomous limit, after verification.`,
    policies: 'Verifying the customer; Refunds of duplicate charges; Confirming changes',
    notes: extra.notes ?? null,
    persona: extra.persona ?? null,
    reason: `You were charged ${amount} twice on ${day(dup.created_at)} for ${p.story(dup)}. You want the extra charge refunded.${extra.aside ? ` ${extra.aside}` : ''}`,
    known: known(c),
    unknown: 'You do not know the ids of your charges.',
    instructions: `${COOPERATE} You only want the duplicate refunded; do not ask for anything else. ${CONFIRM} ${END}`,
    actions: [
      ...verify(c),
      call('list_charges', { customer_id: c.customer_id }),
      call('refund_charge', { charge_id: dup.charge_id, amount: amountOf(dup) }),
    ],
    communicate: [amount],
    handoff: null,
  };
}

/** An e-mail change, plain, with a first invalid address, or spelled with capitals. */
export function updateEmail(p: Picker, c: BillingCustomer, variant: 'plain' | 'typo' | 'capitals'): Draft {
  const domain = p.random.pick(['mailbox.example', 'fastpost.example', 'inbox.example']);
  const email = `${firstName(c)}.${lastName(c)}.home@${domain}`.toLowerCase();
  const spelled = variant === 'capitals' ? `${firstName(c)}.${lastName(c)}.Home@${domain}` : email;
  const typo = email.replace(/\.example$/, '');
  const notes = {
    plain: null,
    typo: `The customer first gives ${typo} (no top-level domain): update_email refuses it as invalid, and the customer then corrects it.`,
    capitals:
      'The customer spells the address with capitals; the tool stores it in lower case, so either spelling gives the gold database.',
  }[variant];
  return {
    kind: 'update_email',
    purpose: 'Change the e-mail address after verification.',
    policies: 'Verifying the customer; E-mail address; Confirming changes',
    notes,
    persona: null,
    reason: `You no longer use ${c.email} and want your account to use a new e-mail address.`,
    known: `${known(c)} Your new e-mail address is ${spelled}.`,
    unknown: null,
    instructions:
      variant === 'typo'
        ? `${COOPERATE} When the agent asks for the new address, first say it is ${typo}. If the agent says that address is invalid, apologise and give ${email}. ${CONFIRM} Ask the agent to repeat the new address back to you. ${END}`
        : `${COOPERATE} When the agent asks for the new address, spell it exactly as ${spelled}. ${CONFIRM} Ask the agent to repeat the new address back to you. ${END}`,
    actions: [...verify(c), call('update_email', { customer_id: c.customer_id, new_email: spelled })],
    communicate: [email],
    handoff: null,
  };
}

/** A plan change to another plan picked at random. */
export function changePlan(p: Picker, c: BillingCustomer): Draft {
  const sub = p.activeSubscription(c)!;
  const current = p.db.plans[sub.plan_id]!;
  const target = p.random.pick(Object.values(p.db.plans).filter((plan) => plan.plan_id !== sub.plan_id));
  const direction = target.price_cents > current.price_cents ? 'upgrade' : 'downgrade';
  const why = direction === 'upgrade' ? 'You work from home more and need faster internet.' : 'You want to save money.';
  return {
    kind: 'change_plan',
    purpose: `${direction === 'upgrade' ? 'Upgrade' : 'Downgrade'} the subscription from ${current.name} to ${target.name}.`,
    policies: 'Verifying the customer; Subscriptions; Confirming changes',
    notes: null,
    persona: null,
    reason: `You are on the ${current.name} plan and want to switch to the ${target.name} plan. ${why}`,
    known: known(c),
    unknown: 'You do not know the plan ids or their exact prices.',
    instructions: `${COOPERATE} Ask what your new monthly price will be. ${CONFIRM} ${END}`,
    actions: [
      ...verify(c),
      call('get_subscription', { customer_id: c.customer_id }),
      call('list_plans', {}),
      call('change_plan', { customer_id: c.customer_id, plan_id: target.plan_id }),
    ],
    communicate: [formatCents(target.price_cents)],
    handoff: null,
  };
}

const CANCEL_REASONS = [
  'You are moving abroad next month.',
  'You are switching to another provider that is cheaper in your area.',
  'You are moving in with a friend who already has internet.',
  'You hardly use the connection any more.',
  'Your employer now pays for a connection at your new office and you work there every day.',
  'You are going travelling for a year.',
  'You found a fibre offer from another company.',
];

/** A cancellation with no retention attempt. */
export function cancelSubscription(p: Picker, c: BillingCustomer, i: number): Draft {
  const plan = p.db.plans[p.activeSubscription(c)!.plan_id]!;
  return {
    kind: 'cancel_subscription',
    purpose: 'Cancel the subscription after verification, without trying to retain the customer.',
    policies: 'Verifying the customer; Subscriptions; Confirming changes',
    notes: null,
    persona: null,
    reason: `You want to cancel your ${plan.name} internet subscription. ${CANCEL_REASONS[i % CANCEL_REASONS.length]}`,
    known: known(c),
    unknown: 'You do not know when your current billing period ends.',
    instructions: `${COOPERATE} Ask until when your service will keep working. If the agent offers you something to stay, decline. ${CONFIRM} ${END}`,
    actions: [
      ...verify(c),
      call('get_subscription', { customer_id: c.customer_id }),
      call('cancel_subscription', { customer_id: c.customer_id }),
    ],
    communicate: [],
    handoff: null,
  };
}

/** A genuine one-item order charge the customer does not recognise: explain it, no refund. */
export function explainCharge(p: Picker, c: BillingCustomer): Draft {
  const charge = p.charges(c).find((ch) => p.explainable(ch))!;
  const order = p.db.orders[charge.order_id!]!;
  const item = order.items[0]!.name;
  return {
    kind: 'explain_charge',
    purpose: 'Explain an order charge the customer does not recognise; no refund (it is genuine).',
    policies: 'Verifying the customer; Charges and orders',
    notes: null,
    persona: null,
    reason: `You see a charge of ${formatCents(charge.amount_cents)} on ${day(charge.created_at)} on your card ending in ${charge.card_last4} and do not remember what it was for.`,
    known: known(c),
    unknown: 'You do not remember what you bought.',
    instructions: `${COOPERATE} Ask what exactly the charge paid for. Once the agent tells you what was in the order, you remember the purchase: you do not want a refund. ${END}`,
    actions: [...verify(c), call('list_charges', { customer_id: c.customer_id }), call('get_order_details', { order_id: order.order_id })],
    communicate: [item],
    handoff: null,
  };
}

export const ANGRY =
  'You are angry and short-tempered: this is not the first billing mistake you have had. You write in capitals now and then and are sarcastic, ' +
  'but you do not want a complaint, a lawyer or a person: you just want your money back now.';
export const LAWYER_ASIDES = [
  'Mention in passing that you work as a paralegal at a law firm, so you read the small print of your contract carefully. You are not threatening anything.',
  'Mention in passing that your sister, who is a lawyer, told you duplicate charges are usually reversed quickly. You are not threatening anything.',
  'Mention in passing that you had to leave early from your job at a law office to sort this out. You are not threatening anything.',
];

/** Two separate orders of the same items: not duplicates; explain with both order ids, no refund. */
export function nonDuplicate(p: Picker, c: BillingCustomer): Draft {
  const [first, second] = p.repeatOrders(c)!;
  const amount = formatCents(first.total_cents);
  const item = first.items.map((i) => i.name).join(' and ');
  return {
    kind: 'non_duplicate_charge',
    purpose: 'Two genuine charges of the same amount (two separate orders) are not duplicates: explain, do not refund.',
    policies: 'Charges and orders; Refunds of duplicate charges',
    notes: null,
    persona: null,
    reason: `You think you were charged twice for ${item}: ${amount} on ${day(first.placed_at)} and again on ${day(second.placed_at)}. You want one of them refunded.`,
    known: known(c),
    unknown: 'You have forgotten that you placed a second order.',
    instructions: `${COOPERATE} If the agent says these are two separate orders, ask for both order numbers; then you remember ordering a second one for a relative, and you no longer want a refund. ${END}`,
    actions: [...verify(c), call('list_charges', { customer_id: c.customer_id }), call('list_orders', { customer_id: c.customer_id })],
    communicate: [first.order_id, second.order_id],
    handoff: null,
  };
}

/** The duplicate was refunded before: give the refund id, refund nothing. */
export function alreadyRefunded(p: Picker, c: BillingCustomer): Draft {
  const dup = p.onlyDuplicate(c)!;
  return {
    kind: 'already_refunded',
    purpose: 'The duplicate was already refunded: say so and give the refund reference; no second refund.',
    policies: 'Refunds of duplicate charges',
    notes: null,
    persona: null,
    reason: `You were charged ${formatCents(dup.amount_cents)} twice on ${day(dup.created_at)} for ${p.story(dup)} and want the extra charge refunded.`,
    known: known(c),
    unknown: 'You have not checked your card statement since then.',
    instructions: `${COOPERATE} If the agent says it was already refunded, ask for the refund reference so you can look for it on your statement. ${END}`,
    actions: [...verify(c), call('list_charges', { customer_id: c.customer_id }), call('get_charge_details', { charge_id: dup.charge_id })],
    communicate: [dup.refund_id!],
    handoff: null,
  };
}

/** A death in the family, but the caller cancels their own subscription: not bereavement. */
export function ownAccountAfterLoss(p: Picker, c: BillingCustomer, i: number): Draft {
  const relation = ['mother', 'grandfather'][i % 2]!;
  return {
    ...cancelSubscription(p, c, i),
    kind: 'own_account_after_loss',
    purpose: 'A death in the family, but the caller is the account holder acting on their own account: not bereavement; verify and cancel.',
    policies: 'Topics reserved for humans (bereavement: what it is not); Subscriptions; Confirming changes',
    reason: `Your ${relation} passed away last month and you are cutting your costs. You want to cancel your own internet subscription.`,
  };
}
