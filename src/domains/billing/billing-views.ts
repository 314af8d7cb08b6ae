/**
 * What the billing tools show: records as JSON in a fixed field order (Python's separators, via
 * `pythonJson`, like every tau2-bench tool output), money as decimal strings. The one-time code
 * is never shown.
 */
import { pythonJson } from '../tau2/python-json.js';
import {
  formatCents,
  type BillingCharge,
  type BillingCustomer,
  type BillingOrder,
  type BillingPlan,
  type BillingRefund,
  type BillingSubscription,
} from './billing-db.js';

/** Serialises a view in its own field order. */
export const printView = (value: unknown): string => pythonJson(value, () => false, false);

export const customerView = (c: BillingCustomer) => ({
  customer_id: c.customer_id,
  name: c.name,
  email: c.email,
  phone: c.phone,
  verified: c.verified,
  member_since: c.member_since,
  subscription_id: c.subscription_id,
});

export const chargeView = (c: BillingCharge) => ({
  charge_id: c.charge_id,
  customer_id: c.customer_id,
  amount: formatCents(c.amount_cents),
  currency: 'USD',
  description: c.description,
  created_at: c.created_at,
  status: c.status,
  card_last4: c.card_last4,
  order_id: c.order_id,
  subscription_id: c.subscription_id,
  duplicate_of: c.duplicate_of,
  refund_id: c.refund_id,
});

export const orderView = (o: BillingOrder) => ({
  order_id: o.order_id,
  customer_id: o.customer_id,
  items: o.items.map((i) => ({ name: i.name, quantity: i.quantity, unit_price: formatCents(i.unit_price_cents) })),
  shipping: formatCents(o.shipping_cents),
  total: formatCents(o.total_cents),
  status: o.status,
  placed_at: o.placed_at,
  charge_id: o.charge_id,
});

export const planView = (p: BillingPlan) => ({
  plan_id: p.plan_id,
  name: p.name,
  monthly_price: formatCents(p.price_cents),
  description: p.description,
});

export const subscriptionView = (s: BillingSubscription, plan: BillingPlan | undefined) => ({
  subscription_id: s.subscription_id,
  customer_id: s.customer_id,
  plan_id: s.plan_id,
  plan_name: plan?.name ?? null,
  monthly_price: formatCents(s.price_cents),
  status: s.status,
  started_on: s.started_on,
  current_period_end: s.current_period_end,
  cancelled_on: s.cancelled_on,
});

export const refundView = (r: BillingRefund) => ({
  refund_id: r.refund_id,
  charge_id: r.charge_id,
  customer_id: r.customer_id,
  amount: formatCents(r.amount_cents),
  reason: r.reason,
  refunded_on: r.refunded_on,
});
