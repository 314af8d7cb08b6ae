/**
 * The billing agent's account requests: changing the e-mail address (exactly as the customer
 * spells it), changing the plan, cancelling the subscription, and saying where the subscription
 * stands. Each change is described with its key figures, and runs only on the customer's yes.
 */
import { proposeWrite, type Step } from './agent-kit.js';
import type { BillingContext, BillingIntent } from './billing-agent.js';
import { alreadySaid, lastCall, type ConversationView } from './conversation.js';
import { emailsIn, norm } from './text-facts.js';

interface Subscription {
  subscription_id: string;
  plan_id: string;
  plan_name: string | null;
  monthly_price: string;
  status: string;
  current_period_end: string;
  cancelled_on: string | null;
}

interface Plan {
  plan_id: string;
  name: string;
  monthly_price: string;
  description: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const say = (text: string): Step => ({ kind: 'say', text });

/** A change proposed, confirmed, declined, done: the next step of one write. */
function write(
  view: ConversationView,
  change: { proposal: string; call: { name: string; args: Record<string, unknown> }; done: string | null; declined: string },
): Step | null {
  if (change.done !== null) return alreadySaid(view, change.done) ? null : say(change.done);
  const failed = view.tools.filter((t) => t.name === change.call.name && !t.ok && t.thisTurn).at(-1);
  if (failed) return say(`That didn't go through: ${failed.output.replace(/^Error:\s*/, '')}`);
  return proposeWrite(view, change.proposal, change.call, change.declined);
}

/** The subscription as last shown (after a change, as the change left it). */
function subscriptionOf(context: BillingContext): Subscription | null {
  const shown = context.view.tools.filter(
    (t) => t.ok && ['get_subscription', 'change_plan', 'cancel_subscription'].includes(t.name) && isRecord(t.json),
  );
  const latest = shown.at(-1)?.json;
  return isRecord(latest) && typeof latest['subscription_id'] === 'string' ? (latest as unknown as Subscription) : null;
}

function email(context: BillingContext): Step | null {
  const { view, customerId } = context;
  const identity = (context.identityEmail ?? '').toLowerCase();
  const wanted = emailsIn(context.allText)
    .filter((e) => e.toLowerCase() !== identity)
    .at(-1);
  const done = view.tools.filter((t) => t.name === 'update_email' && t.ok).at(-1);
  if (done) {
    // As the customer spelled it (the account stores it in lower case).
    const text = `Done: the e-mail address on your account is now ${String(done.args['new_email'])}.`;
    return alreadySaid(view, text) ? null : say(text);
  }
  if (!wanted) return say('What new e-mail address would you like on your account? Please type it exactly.');
  const rejected = view.tools.filter((t) => t.name === 'update_email' && !t.ok && t.args['new_email'] === wanted).at(-1);
  if (rejected) {
    return say(
      `The system did not accept ${wanted}: ${rejected.output.replace(/^Error:\s*/, '')}. Could you check the address and type it again?`,
    );
  }
  const from = context.identityEmail ? ` from ${context.identityEmail}` : '';
  return write(view, {
    proposal: `To confirm: I will change the e-mail address on your account${from} to ${wanted}. Shall I go ahead? Please answer yes or no.`,
    call: { name: 'update_email', args: { customer_id: customerId, new_email: wanted } },
    done: null,
    declined: 'All right, I have not changed your e-mail address.',
  });
}

/** The plan the customer wants: the one named last that is not their current plan. */
function wantedPlan(context: BillingContext, plans: readonly Plan[], current: string): Plan | null {
  const text = norm(context.allText);
  let best: { plan: Plan; at: number } | null = null;
  for (const plan of plans) {
    if (plan.plan_id === current) continue;
    const names = [...new Set([plan.name.toLowerCase(), plan.plan_id.toLowerCase()])];
    for (const name of names) {
      const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      for (const m of text.matchAll(new RegExp(`\\b${escaped}\\b`, 'g'))) {
        if (!best || m.index > best.at) best = { plan, at: m.index };
      }
    }
  }
  return best?.plan ?? null;
}

function plan(context: BillingContext): Step | null {
  const { view, customerId } = context;
  const subscription = subscriptionOf(context);
  if (!subscription) return { kind: 'call', name: 'get_subscription', args: { customer_id: customerId } };
  const listed = lastCall(view, 'list_plans');
  if (!listed || !Array.isArray(listed.json)) return { kind: 'call', name: 'list_plans', args: {} };
  const plans = listed.json.filter((p): p is Plan => isRecord(p) && typeof p['plan_id'] === 'string');
  const changed = view.tools.filter((t) => t.name === 'change_plan' && t.ok).at(-1);
  if (changed) {
    const name = plans.find((x) => x.plan_id === subscription.plan_id)?.name ?? subscription.plan_id;
    const text = `Done: your subscription ${subscription.subscription_id} is now on the ${name} plan. Your new monthly price is ${subscription.monthly_price}, charged from your next renewal on ${subscription.current_period_end}.`;
    return alreadySaid(view, text) ? null : say(text);
  }
  if (subscription.status === 'cancelled') {
    const text = `Your subscription ${subscription.subscription_id} is cancelled, so its plan can't be changed.`;
    return alreadySaid(view, text) ? null : say(text);
  }
  const target = wantedPlan(context, plans, subscription.plan_id);
  const current = plans.find((p) => p.plan_id === subscription.plan_id);
  if (!target) {
    const others = plans.filter((p) => p.plan_id !== subscription.plan_id);
    return say(
      `You are on the ${current?.name ?? subscription.plan_id} plan at ${subscription.monthly_price} a month. Which plan would you like? ` +
        `${others.map((p) => `${p.name}: ${p.monthly_price} a month (${p.description})`).join('; ')}.`,
    );
  }
  return write(view, {
    proposal:
      `I will move your subscription ${subscription.subscription_id} from the ${current?.name ?? subscription.plan_id} plan (${subscription.monthly_price} a month) ` +
      `to the ${target.name} plan (${target.monthly_price} a month). Your new monthly price will be ${target.monthly_price}, from your next renewal on ` +
      `${subscription.current_period_end}; your billing period stays the same. Shall I go ahead? Please answer yes or no.`,
    call: { name: 'change_plan', args: { customer_id: customerId, plan_id: target.plan_id } },
    done: null,
    declined: 'All right, I have not changed your plan.',
  });
}

function cancel(context: BillingContext): Step | null {
  const { view, customerId } = context;
  const subscription = subscriptionOf(context);
  if (!subscription) return { kind: 'call', name: 'get_subscription', args: { customer_id: customerId } };
  const plan = subscription.plan_name ?? subscription.plan_id;
  const cancelledNow = view.tools.some((t) => t.name === 'cancel_subscription' && t.ok);
  if (subscription.status === 'cancelled' && !cancelledNow) {
    const text = `Your subscription ${subscription.subscription_id} is already cancelled (since ${subscription.cancelled_on ?? 'earlier'}); your service runs until ${subscription.current_period_end}.`;
    return alreadySaid(view, text) ? null : say(text);
  }
  return write(view, {
    proposal:
      `I will cancel your subscription ${subscription.subscription_id} (${plan} plan, ${subscription.monthly_price} a month). Your service will keep working until ` +
      `${subscription.current_period_end}, the end of the period you have paid for, and will not renew; nothing is refunded. Shall I go ahead? Please answer yes or no.`,
    call: { name: 'cancel_subscription', args: { customer_id: customerId } },
    done: cancelledNow
      ? `Done: your subscription ${subscription.subscription_id} (${plan} plan) is cancelled. Your service keeps working until ${subscription.current_period_end} and will not renew; nothing is refunded.`
      : null,
    declined: 'All right, I have not cancelled your subscription.',
  });
}

function status(context: BillingContext): Step | null {
  const subscription = subscriptionOf(context);
  if (!subscription) return { kind: 'call', name: 'get_subscription', args: { customer_id: context.customerId } };
  const text =
    `Your subscription ${subscription.subscription_id} is on the ${subscription.plan_name ?? subscription.plan_id} plan at ${subscription.monthly_price} a month. ` +
    `It is ${subscription.status}, and the current period ends on ${subscription.current_period_end}.`;
  return alreadySaid(context.view, text) ? null : say(text);
}

/** The next step for an account request; null when it is done. */
export function accountStep(context: BillingContext, intent: Exclude<BillingIntent, 'refund' | 'explain' | 'forbidden'>): Step | null {
  if (intent === 'email') return email(context);
  if (intent === 'plan') return plan(context);
  if (intent === 'cancel') return cancel(context);
  return status(context);
}
