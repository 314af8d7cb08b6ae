/**
 * Billing's tools. Personal data and every write need a customer verified with their one-time
 * code; refunds are for duplicate charges only, up to the autonomous limit. Every failure is a
 * `ToolError` with one of the exact messages in `BILLING_ERRORS`; checks run before the first
 * change, so a failed write changes nothing.
 */
import { ToolError, type DomainTool } from '../domain-tool.js';
import {
  AUTONOMOUS_REFUND_LIMIT_CENTS,
  BILLING_TODAY,
  formatCents,
  type BillingCharge,
  type BillingCustomer,
  type BillingDb,
  type BillingSubscription,
} from './billing-db.js';
import { BILLING_HANDOFF_REASONS, BILLING_QUEUE_IDS } from './billing-queues.js';
import { chargeView, customerView, orderView, planView, printView, refundView, subscriptionView } from './billing-views.js';

/** Every error a billing tool raises, verbatim (the caller sees `Error: <message>`). */
export const BILLING_ERRORS = {
  notString: (param: string) => `${param} must be a string`,
  notNumber: (param: string) => `${param} must be a number`,
  customerNotFound: (id: string) => `Customer ${id} not found`,
  emailNotFound: (email: string) => `No customer found with email ${email}`,
  notVerified: (id: string) => `Customer ${id} is not verified; send a verification code and verify the customer first`,
  alreadyVerified: (id: string) => `Customer ${id} is already verified`,
  wrongCode: 'Verification code is incorrect',
  chargeNotFound: (id: string) => `Charge ${id} not found`,
  orderNotFound: (id: string) => `Order ${id} not found`,
  alreadyRefunded: (id: string) => `Charge ${id} is already refunded`,
  notDuplicate: (id: string) => `Charge ${id} is not a duplicate charge; only duplicate charges can be refunded`,
  badAmount: 'amount must be a positive number with at most two decimal places',
  amountMismatch: (amount: string, id: string, actual: string) => `Amount ${amount} does not match charge ${id} (${actual})`,
  overLimit: (amount: string) =>
    `Refund of ${amount} exceeds the autonomous limit of ${formatCents(AUTONOMOUS_REFUND_LIMIT_CENTS)}; hand off to queue_billing`,
  invalidEmail: (email: string) => `Invalid email address: ${email}`,
  sameEmail: 'The new email is the same as the current email',
  emailInUse: (email: string) => `Email ${email} is already used by another customer`,
  noSubscription: (id: string) => `Customer ${id} has no subscription`,
  subscriptionCancelled: (id: string) => `Subscription ${id} is cancelled; a cancelled subscription cannot change plan`,
  planNotFound: (id: string) => `Plan ${id} not found`,
  samePlan: (id: string, plan: string) => `Subscription ${id} is already on plan ${plan}`,
  alreadyCancelled: (id: string) => `Subscription ${id} is already cancelled`,
  unknownTarget: (target: string) => `Unknown hand-off target ${target}; valid targets: ${BILLING_QUEUE_IDS.join(', ')}`,
  unknownReason: (reason: string) => `Unknown hand-off reason ${reason}; valid reasons: ${BILLING_HANDOFF_REASONS.join(', ')}`,
  emptySummary: 'summary must not be empty',
} as const;
const E = BILLING_ERRORS;

// A pragmatic address check: one @, a dotted domain, a letter TLD; no spaces.
const EMAIL = /^[a-z0-9._%+-]+@[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/;

function text(args: Record<string, unknown>, param: string): string {
  const value = args[param];
  if (typeof value !== 'string') throw new ToolError(E.notString(param));
  return value;
}

/**
 * The record of `id` in one of the database's maps, if it has one of its own: plain indexing
 * would find `constructor`, `toString` or `__proto__` on the prototype of every map.
 */
function own<T>(records: Readonly<Record<string, T>>, id: string): T | undefined {
  return Object.hasOwn(records, id) ? records[id] : undefined;
}

function customerOf(db: BillingDb, id: string): BillingCustomer {
  const customer = own(db.customers, id);
  if (!customer) throw new ToolError(E.customerNotFound(id));
  return customer;
}

/** The customer, who must have passed the one-time-code check. */
function verified(db: BillingDb, id: string): BillingCustomer {
  const customer = customerOf(db, id);
  if (!customer.verified) throw new ToolError(E.notVerified(id));
  return customer;
}

function chargeOf(db: BillingDb, id: string): BillingCharge {
  const charge = own(db.charges, id);
  if (!charge) throw new ToolError(E.chargeNotFound(id));
  verified(db, charge.customer_id);
  return charge;
}

function subscriptionOf(db: BillingDb, customer: BillingCustomer): BillingSubscription {
  const subscription = customer.subscription_id === null ? undefined : db.subscriptions[customer.subscription_id];
  if (!subscription) throw new ToolError(E.noSubscription(customer.customer_id));
  return subscription;
}

/** An amount argument in cents: a positive number of whole cents (floats like 29.99 are accepted to 1e-6). */
function cents(args: Record<string, unknown>, param: string): number {
  const value = args[param];
  if (typeof value !== 'number') throw new ToolError(E.notNumber(param));
  const scaled = value * 100;
  if (!Number.isFinite(value) || value <= 0 || Math.abs(scaled - Math.round(scaled)) > 1e-6) throw new ToolError(E.badAmount);
  return Math.round(scaled);
}

const byTimeThenId =
  <T>(time: (t: T) => string, id: (t: T) => string) =>
  (a: T, b: T) =>
    time(a) < time(b) ? -1 : time(a) > time(b) ? 1 : id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : 0;

/** `find_customer_by_email(email)`: case-insensitive; the bare customer id. Needs no verification (it reveals nothing). */
export const findCustomerByEmail: DomainTool<BillingDb> = {
  name: 'find_customer_by_email',
  kind: 'read',
  description: "Find a customer's id by their e-mail address (case-insensitive). Returns the customer id only.",
  params: ['email'],
  run: (db, args) => {
    const email = text(args, 'email');
    const wanted = email.trim().toLowerCase();
    const found = Object.values(db.customers).find((c) => c.email === wanted);
    if (!found) throw new ToolError(E.emailNotFound(email));
    return found.customer_id;
  },
};

/** `send_verification_code(customer_id)`: texts the customer's fixed one-time code; changes nothing. */
export const sendVerificationCode: DomainTool<BillingDb> = {
  name: 'send_verification_code',
  kind: 'read',
  description: "Text the customer's one-time verification code to the phone number on file. Ask the customer to read it back.",
  params: ['customer_id'],
  run: (db, args) => {
    const customer = customerOf(db, text(args, 'customer_id'));
    if (customer.verified) throw new ToolError(E.alreadyVerified(customer.customer_id));
    return `Verification code sent by text message to the phone number ending in ${customer.phone.slice(-4)}.`;
  },
};

/** `verify_customer(customer_id, code)`: records the verification. A wrong code changes nothing (no attempt counter). */
export const verifyCustomer: DomainTool<BillingDb> = {
  name: 'verify_customer',
  kind: 'write',
  description: 'Check the one-time code the customer read back. On success the customer is verified for the rest of the conversation.',
  params: ['customer_id', 'code'],
  run: (db, args) => {
    const customerId = text(args, 'customer_id');
    const code = text(args, 'code');
    const customer = customerOf(db, customerId);
    if (customer.verified) throw new ToolError(E.alreadyVerified(customer.customer_id));
    if (code.trim() !== customer.verification_code) throw new ToolError(E.wrongCode);
    customer.verified = true;
    return printView({ customer_id: customer.customer_id, verified: true });
  },
};

/** `get_customer_details(customer_id)`. */
export const getCustomerDetails: DomainTool<BillingDb> = {
  name: 'get_customer_details',
  kind: 'read',
  description: "Get a verified customer's profile: name, e-mail, phone, subscription id.",
  params: ['customer_id'],
  run: (db, args) => printView(customerView(verified(db, text(args, 'customer_id')))),
};

/** `list_charges(customer_id)`: every charge, oldest first. */
export const listCharges: DomainTool<BillingDb> = {
  name: 'list_charges',
  kind: 'read',
  description:
    "List a verified customer's charges, oldest first. A charge with `duplicate_of` set repeats that charge by mistake; `refund_id` is set once refunded.",
  params: ['customer_id'],
  run: (db, args) => {
    const customer = verified(db, text(args, 'customer_id'));
    const charges = Object.values(db.charges).filter((c) => c.customer_id === customer.customer_id);
    charges.sort(
      byTimeThenId(
        (c) => c.created_at,
        (c) => c.charge_id,
      ),
    );
    return printView(charges.map(chargeView));
  },
};

/** `get_charge_details(charge_id)`: the charge, and its refund if it has one. */
export const getChargeDetails: DomainTool<BillingDb> = {
  name: 'get_charge_details',
  kind: 'read',
  description: 'Get one charge of a verified customer, with its refund if it has been refunded.',
  params: ['charge_id'],
  run: (db, args) => {
    const charge = chargeOf(db, text(args, 'charge_id'));
    const refund = charge.refund_id === null ? undefined : db.refunds[charge.refund_id];
    return printView({ ...chargeView(charge), refund: refund ? refundView(refund) : null });
  },
};

/** `refund_charge(charge_id, amount)`: full refund of an unrefunded duplicate, at most the autonomous limit. */
export const refundCharge: DomainTool<BillingDb> = {
  name: 'refund_charge',
  kind: 'write',
  description:
    `Refund a duplicate charge in full to the card it was taken from. Only charges with \`duplicate_of\` set can be refunded, once, ` +
    `and only up to the autonomous limit of ${formatCents(AUTONOMOUS_REFUND_LIMIT_CENTS)}; amount must equal the charge's amount.`,
  params: ['charge_id', 'amount'],
  run: (db, args) => {
    const chargeId = text(args, 'charge_id');
    const amount = cents(args, 'amount');
    const charge = chargeOf(db, chargeId);
    if (charge.status === 'refunded') throw new ToolError(E.alreadyRefunded(chargeId));
    if (charge.duplicate_of === null) throw new ToolError(E.notDuplicate(chargeId));
    if (amount !== charge.amount_cents)
      throw new ToolError(E.amountMismatch(formatCents(amount), chargeId, formatCents(charge.amount_cents)));
    if (amount > AUTONOMOUS_REFUND_LIMIT_CENTS) throw new ToolError(E.overLimit(formatCents(amount)));
    // One refund per charge, so the refund id can be derived from the charge id (no id generator needed).
    const refundId = `re_${chargeId.slice(3)}`;
    db.refunds[refundId] = {
      refund_id: refundId,
      charge_id: chargeId,
      customer_id: charge.customer_id,
      amount_cents: amount,
      reason: 'duplicate_charge',
      refunded_on: BILLING_TODAY,
    };
    charge.status = 'refunded';
    charge.refund_id = refundId;
    return printView(refundView(db.refunds[refundId]));
  },
};

/** `list_orders(customer_id)`: every device order, oldest first. */
export const listOrders: DomainTool<BillingDb> = {
  name: 'list_orders',
  kind: 'read',
  description: "List a verified customer's device orders, oldest first, each with its items and the charge that paid for it.",
  params: ['customer_id'],
  run: (db, args) => {
    const customer = verified(db, text(args, 'customer_id'));
    const orders = Object.values(db.orders).filter((o) => o.customer_id === customer.customer_id);
    orders.sort(
      byTimeThenId(
        (o) => o.placed_at,
        (o) => o.order_id,
      ),
    );
    return printView(orders.map(orderView));
  },
};

/** `get_order_details(order_id)`. */
export const getOrderDetails: DomainTool<BillingDb> = {
  name: 'get_order_details',
  kind: 'read',
  description: 'Get one order of a verified customer: items, shipping, total, status and the charge that paid for it.',
  params: ['order_id'],
  run: (db, args) => {
    const orderId = text(args, 'order_id');
    const order = own(db.orders, orderId);
    if (!order) throw new ToolError(E.orderNotFound(orderId));
    verified(db, order.customer_id);
    return printView(orderView(order));
  },
};

/** `update_email(customer_id, new_email)`: stored trimmed and lower-cased. */
export const updateEmail: DomainTool<BillingDb> = {
  name: 'update_email',
  kind: 'write',
  description: "Change a verified customer's e-mail address. The address is stored in lower case.",
  params: ['customer_id', 'new_email'],
  run: (db, args) => {
    const customerId = text(args, 'customer_id');
    const raw = text(args, 'new_email');
    const customer = verified(db, customerId);
    const email = raw.trim().toLowerCase();
    if (!EMAIL.test(email)) throw new ToolError(E.invalidEmail(raw));
    if (email === customer.email) throw new ToolError(E.sameEmail);
    if (Object.values(db.customers).some((c) => c.email === email)) throw new ToolError(E.emailInUse(email));
    customer.email = email;
    return printView(customerView(customer));
  },
};

/** `get_subscription(customer_id)`. */
export const getSubscription: DomainTool<BillingDb> = {
  name: 'get_subscription',
  kind: 'read',
  description: "Get a verified customer's subscription: plan, monthly price, status and the end of the current period.",
  params: ['customer_id'],
  run: (db, args) => {
    const subscription = subscriptionOf(db, verified(db, text(args, 'customer_id')));
    return printView(subscriptionView(subscription, db.plans[subscription.plan_id]));
  },
};

/** `list_plans()`: the plans on sale (public: no verification). */
export const listPlans: DomainTool<BillingDb> = {
  name: 'list_plans',
  kind: 'read',
  description: 'List the internet plans on sale with their monthly prices.',
  params: [],
  run: (db) => printView(Object.values(db.plans).map(planView)),
};

/**
 * `change_plan(customer_id, plan_id)`: the subscription moves to the new plan now, and its monthly
 * price is charged from the next renewal (the billing period does not change); no charge is made here.
 */
export const changePlan: DomainTool<BillingDb> = {
  name: 'change_plan',
  kind: 'write',
  description:
    "Move a verified customer's active subscription to another plan. The new monthly price applies from the next renewal; the billing period does not change.",
  params: ['customer_id', 'plan_id'],
  run: (db, args) => {
    const customerId = text(args, 'customer_id');
    const planId = text(args, 'plan_id');
    const subscription = subscriptionOf(db, verified(db, customerId));
    if (subscription.status === 'cancelled') throw new ToolError(E.subscriptionCancelled(subscription.subscription_id));
    const plan = own(db.plans, planId);
    if (!plan) throw new ToolError(E.planNotFound(planId));
    if (subscription.plan_id === planId) throw new ToolError(E.samePlan(subscription.subscription_id, planId));
    subscription.plan_id = planId;
    subscription.price_cents = plan.price_cents;
    return printView(subscriptionView(subscription, plan));
  },
};

/** `cancel_subscription(customer_id)`: service continues to the end of the paid period, then stops. */
export const cancelSubscription: DomainTool<BillingDb> = {
  name: 'cancel_subscription',
  kind: 'write',
  description:
    "Cancel a verified customer's subscription. Service continues until current_period_end and does not renew; nothing is refunded.",
  params: ['customer_id'],
  run: (db, args) => {
    const subscription = subscriptionOf(db, verified(db, text(args, 'customer_id')));
    if (subscription.status === 'cancelled') throw new ToolError(E.alreadyCancelled(subscription.subscription_id));
    subscription.status = 'cancelled';
    subscription.cancelled_on = BILLING_TODAY;
    return printView(subscriptionView(subscription, db.plans[subscription.plan_id]));
  },
};

/**
 * `handoff(target, reason, summary)`: the harness's typed hand-off as a domain tool, so episodes
 * and replays see it like tau2-bench's transfer. It changes nothing.
 */
export const handoff: DomainTool<BillingDb> = {
  name: 'handoff',
  kind: 'generic',
  description:
    'Hand the conversation to a human queue, with the reason and a summary for the person who takes over. Ends your part in the conversation.',
  params: ['target', 'reason', 'summary'],
  run: (_db, args) => {
    const target = text(args, 'target');
    const reason = text(args, 'reason');
    const summary = text(args, 'summary');
    if (!BILLING_QUEUE_IDS.includes(target)) throw new ToolError(E.unknownTarget(target));
    if (!(BILLING_HANDOFF_REASONS as readonly string[]).includes(reason)) throw new ToolError(E.unknownReason(reason));
    if (summary.trim() === '') throw new ToolError(E.emptySummary);
    return 'Transfer successful';
  },
};

const ALL: readonly DomainTool<BillingDb>[] = [
  findCustomerByEmail,
  sendVerificationCode,
  verifyCustomer,
  getCustomerDetails,
  listCharges,
  getChargeDetails,
  refundCharge,
  listOrders,
  getOrderDetails,
  updateEmail,
  getSubscription,
  listPlans,
  changePlan,
  cancelSubscription,
  handoff,
];

/** Billing's 15 tools by name. */
export const BILLING_TOOLS: ReadonlyMap<string, DomainTool<BillingDb>> = new Map(ALL.map((tool) => [tool.name, tool]));

/** The toolset for `callDomainTool` and `createEpisode` (`BillingTools` names the class in argument errors). */
export const BILLING_TOOLSET = { className: 'BillingTools', tools: BILLING_TOOLS } as const;
