/**
 * The billing agent's money requests: refunding a duplicate charge (within the autonomous limit and
 * the domain's `refund_charge` rules, else a hand-off to the refunds queue), saying when a duplicate
 * was already refunded, refusing a genuine charge with the policy's reason, and explaining what a
 * charge paid for.
 */
import { blockingConstraint, findingsFrom } from '../../core/index.js';
import { AUTONOMOUS_REFUND_LIMIT_CENTS } from '../../domains/billing/billing-db.js';
import { proposeWrite, targetFor, type Step } from './agent-kit.js';
import type { BillingContext } from './billing-agent.js';
import { alreadySaid, lastCall } from './conversation.js';
import { amountsIn, cardEndingsIn, centsOf, datesIn, idsIn, money } from './text-facts.js';

/** A charge as `list_charges` shows it. */
export interface Charge {
  charge_id: string;
  amount: string;
  description: string;
  created_at: string;
  status: string;
  card_last4: string;
  order_id: string | null;
  subscription_id: string | null;
  duplicate_of: string | null;
  refund_id: string | null;
}

interface Order {
  order_id: string;
  items: Array<{ name: string; quantity: number; unit_price: string }>;
  shipping: string;
  total: string;
  status: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const day = (c: Charge) => c.created_at.slice(0, 10);
// Words between an id and an amount: "ch_1 (24.00" would read as a phone number to the output guardrail.
const describe = (c: Charge) => `${c.charge_id} of ${c.amount} on ${day(c)}`;

/** The customer's charges from the latest successful `list_charges`, or null before the first. */
function chargesOf(context: BillingContext): Charge[] | null {
  const listed = lastCall(context.view, 'list_charges', { customer_id: context.customerId });
  if (!listed || !Array.isArray(listed.json)) return null;
  return listed.json.filter((c): c is Charge => isRecord(c) && typeof c['charge_id'] === 'string');
}

/** Orders seen so far, from `list_orders` and `get_order_details`, by id. */
function ordersSeen(context: BillingContext): Map<string, Order> {
  const out = new Map<string, Order>();
  for (const t of context.view.tools) {
    if (!t.ok) continue;
    const values = t.name === 'list_orders' && Array.isArray(t.json) ? t.json : t.name === 'get_order_details' ? [t.json] : [];
    for (const o of values) if (isRecord(o) && typeof o['order_id'] === 'string') out.set(o['order_id'], o as unknown as Order);
  }
  return out;
}

/** Narrows by each test in turn, skipping a test that would leave nothing. */
function narrow<T>(items: readonly T[], tests: ReadonlyArray<((item: T) => boolean) | null>): T[] {
  let out = [...items];
  for (const test of tests) {
    if (!test) continue;
    const kept = out.filter(test);
    if (kept.length > 0) out = kept;
  }
  return out;
}

/** What the customer said about the charge they mean: ids, amounts, dates, card endings. */
function criteria(context: BillingContext) {
  const ids = idsIn(context.allText, /\bch_\d+\b/);
  const amounts = amountsIn(context.allText);
  const dates = datesIn(context.allText);
  const cards = cardEndingsIn(context.allText);
  return {
    amounts,
    byId: ids.length ? (c: Charge) => ids.includes(c.charge_id) : null,
    byAmount: amounts.length ? (c: Charge) => amounts.includes(centsOf(c.amount)) : null,
    byDate: dates.length ? (c: Charge) => dates.includes(c.created_at.slice(5, 10)) : null,
    byCard: cards.length ? (c: Charge) => cards.includes(c.card_last4) : null,
  };
}

/** A charge in words: what it paid for. */
function chargeInWords(c: Charge, orders: Map<string, Order>): string {
  const order = c.order_id ? orders.get(c.order_id) : undefined;
  let what = `${c.description}`;
  if (order) {
    const items = order.items.map((i) => `${i.quantity} x ${i.name} at ${i.unit_price}`).join(', ');
    what = `order ${order.order_id}: ${items}, shipping ${order.shipping}, total ${order.total} (order status: ${order.status})`;
  } else if (c.order_id) {
    what = `order ${c.order_id}`;
  }
  const flags = [
    c.duplicate_of ? `it is flagged as a duplicate of charge ${c.duplicate_of}` : null,
    c.refund_id ? `a refund for it, ${c.refund_id}, was already made` : null,
  ].filter(Boolean);
  return `Charge ${c.charge_id} of ${c.amount} on ${day(c)} (card ending ${c.card_last4}) is for ${what}${flags.length ? `; ${flags.join('; ')}` : ''}.`;
}

/** Orders a set of charges needs looked up before they can be explained. */
function missingOrder(context: BillingContext, charges: readonly Charge[]): Step | null {
  const orders = ordersSeen(context);
  const missing = charges.find((c) => c.order_id && !orders.has(c.order_id));
  if (!missing?.order_id) return null;
  if (charges.filter((c) => c.order_id).length > 1) return { kind: 'call', name: 'list_orders', args: { customer_id: context.customerId } };
  return { kind: 'call', name: 'get_order_details', args: { order_id: missing.order_id } };
}

function explain(context: BillingContext, charges: readonly Charge[]): Step | null {
  const c = criteria(context);
  const tests = [c.byId, c.byAmount, c.byDate, c.byCard];
  let chosen: Charge[];
  if (tests.every((t) => t === null)) {
    chosen = [...charges].sort((a, b) => (a.created_at < b.created_at ? 1 : -1)).slice(0, 1);
  } else {
    const score = (ch: Charge) => tests.filter((t) => t?.(ch)).length;
    const best = Math.max(0, ...charges.map(score));
    chosen = best === 0 ? [] : charges.filter((ch) => score(ch) === best).slice(0, 3);
  }
  if (chosen.length === 0) {
    const text = `I can't find a charge like that on your account. Could you tell me its amount and date as they appear on your statement?`;
    return alreadySaid(context.view, text) ? null : { kind: 'say', text };
  }
  const lookup = missingOrder(context, chosen);
  if (lookup) return lookup;
  const orders = ordersSeen(context);
  const text = chosen.map((ch) => chargeInWords(ch, orders)).join(' ');
  return alreadySaid(context.view, text) ? null : { kind: 'say', text };
}

/** A genuine charge the customer wants refunded: what it is, and why the policy does not allow it. */
function refuseGenuine(context: BillingContext, matching: readonly Charge[]): Step | null {
  if (matching.length === 0) {
    const text = `I checked your charges and none of them is flagged as a duplicate. I can only refund charges our billing system flags as duplicates, so there is nothing I can refund. If you tell me the amount and date of the charge you mean, I can explain what it was.`;
    return alreadySaid(context.view, text) ? null : { kind: 'say', text };
  }
  const lookup = missingOrder(context, matching);
  if (lookup) return lookup;
  const orders = ordersSeen(context);
  const each = matching.slice(0, 4).map((ch) => chargeInWords(ch, orders));
  const text =
    `${each.join(' ')} ${matching.length > 1 ? 'These are separate, genuine charges, not duplicates' : 'It is a genuine charge, not a duplicate'}: ` +
    `I can only refund a charge our billing system flags as a duplicate, so I can't refund ${matching.length > 1 ? 'either of them' : 'it'}.`;
  return alreadySaid(context.view, text) ? null : { kind: 'say', text };
}

function refund(context: BillingContext, charges: readonly Charge[]): Step | null {
  const { view, domain, customerId } = context;
  const c = criteria(context);
  const duplicates = charges.filter((ch) => ch.duplicate_of !== null);
  const inQuestion = c.byAmount ? duplicates.filter(c.byAmount) : duplicates;
  if (inQuestion.length === 0) {
    const genuine = narrow(
      charges.filter((ch) => !c.byAmount || c.byAmount(ch)),
      [c.byId, c.byDate],
    );
    return refuseGenuine(context, c.byAmount ? genuine : []);
  }
  let candidates = narrow(inQuestion, [c.byId, c.byDate]);
  const open = candidates.filter((ch) => ch.refund_id === null);
  if (open.length > 1) {
    const text = `I see ${open.length} duplicate charges: ${open.map(describe).join(', ')}. Which one do you mean? Please tell me its date or amount.`;
    return { kind: 'say', text };
  }
  candidates = open.length === 1 ? open : candidates;
  const charge = candidates[0];
  if (!charge) return null;
  const done = lastCall(view, 'refund_charge', { charge_id: charge.charge_id });
  if (done && typeof done.json === 'object' && done.json !== null) {
    const r = done.json as Record<string, unknown>;
    const text = `Done: I refunded ${String(r['amount'])} for duplicate charge ${charge.charge_id} (a repeat of ${charge.duplicate_of}). The refund ${String(r['refund_id'])} goes back to the card ending ${charge.card_last4}.`;
    return alreadySaid(view, text) ? null : { kind: 'say', text };
  }
  if (charge.refund_id !== null) {
    const details = lastCall(view, 'get_charge_details', { charge_id: charge.charge_id });
    if (!details) return { kind: 'call', name: 'get_charge_details', args: { charge_id: charge.charge_id } };
    const r = (details.json as Record<string, unknown> | null)?.['refund'] as Record<string, unknown> | null | undefined;
    const when = r ? ` on ${String(r['refunded_on'])}` : '';
    const text = `Charge ${describe(charge)} was a duplicate of ${charge.duplicate_of}, and a refund for it was already made${when}: refund ${charge.refund_id} of ${r ? String(r['amount']) : charge.amount} to the card ending ${charge.card_last4}. There is nothing more to refund.`;
    return alreadySaid(view, text) ? null : { kind: 'say', text };
  }
  const cents = centsOf(charge.amount);
  const args = { charge_id: charge.charge_id, amount: cents / 100 };
  const findings = findingsFrom(view.transcript);
  const verdicts = domain.rules.filter((r) => r.tool === 'refund_charge').map((r) => r.evaluate(args, findings));
  const failed = view.tools.filter((t) => t.name === 'refund_charge' && !t.ok && t.args['charge_id'] === charge.charge_id).at(-1);
  // A person who handed the conversation back ruled this refund out: that is the answer, not a hand-off.
  const ruledOut = blockingConstraint(view.constraints, 'refund_charge', args);
  if (ruledOut) {
    const text = `I can't refund charge ${charge.charge_id}: a colleague who handled your conversation noted that ${ruledOut.note.replace(/[.\s]+$/, '')}. I have not made any refund.`;
    return alreadySaid(view, text) ? null : { kind: 'say', text };
  }
  if (cents > AUTONOMOUS_REFUND_LIMIT_CENTS || verdicts.some((v) => v.decision === 'deny') || /limit/i.test(failed?.output ?? '')) {
    return {
      kind: 'handoff',
      target: targetFor(domain, 'value_threshold'),
      reason: 'value_threshold',
      summary: `Verified customer ${customerId} asks for a refund of duplicate charge ${charge.charge_id} (${charge.amount}, a duplicate of ${charge.duplicate_of}); above the autonomous limit of ${money(AUTONOMOUS_REFUND_LIMIT_CENTS)}. No refund made.`,
      text: `Charge ${describe(charge)} is a duplicate, but a refund of ${charge.amount} is above the ${money(AUTONOMOUS_REFUND_LIMIT_CENTS)} I may refund myself, so I'm passing you to a billing specialist, who will decide it.`,
      instead: `Charge ${describe(charge)} is a duplicate, but a refund of ${charge.amount} is above the ${money(AUTONOMOUS_REFUND_LIMIT_CENTS)} I may refund myself, so I can't refund it here. I have not made any refund.`,
    };
  }
  if (failed) {
    const text = `I couldn't refund charge ${charge.charge_id}: ${failed.output.replace(/^Error:\s*/, '')}`;
    return alreadySaid(view, text) ? null : { kind: 'say', text };
  }
  if (verdicts.some((v) => v.decision === 'need_more_info')) {
    return { kind: 'call', name: 'get_charge_details', args: { charge_id: charge.charge_id } };
  }
  const proposal = `I found the duplicate: charge ${describe(charge)} repeats charge ${charge.duplicate_of}. I will refund ${charge.amount} for charge ${charge.charge_id}, in full, to the card ending ${charge.card_last4}. Shall I go ahead? Please answer yes or no.`;
  return proposeWrite(view, proposal, { name: 'refund_charge', args }, `All right, I have not refunded charge ${charge.charge_id}.`);
}

/** The next step for a refund or an explanation of a charge; null when it is done. */
export function moneyStep(context: BillingContext, intent: 'refund' | 'explain'): Step | null {
  const charges = chargesOf(context);
  if (!charges) return { kind: 'call', name: 'list_charges', args: { customer_id: context.customerId } };
  return intent === 'refund' ? refund(context, charges) : explain(context, charges);
}
