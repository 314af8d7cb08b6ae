/**
 * The billing rule agent: hand-offs the policy prescribes at once (a person asked for, a reserved
 * topic, safety, a request out of scope), then the customer identified by e-mail and verified with
 * the one-time code, then each request the customer made, in the order they made it: refunds of
 * duplicates, explanations of charges, e-mail, plan and subscription changes, and refusals of what
 * the policy forbids. Every write is described first and runs only on the customer's yes.
 */
import type { Domain } from '../../domains/domain.js';
import { beforeRequests, closingStep, identityQueue, type Step } from './agent-kit.js';
import { accountStep } from './billing-account.js';
import { moneyStep } from './billing-money.js';
import { agentTextsAfter, alreadySaid, customerTextsAfter, lastCall, type ConversationView, type ToolRecord } from './conversation.js';
import { codesIn, emailsIn, firstMention, idsIn } from './text-facts.js';

/** What the billing agent can help with, as it tells the customer. */
export const BILLING_HELP =
  'I can explain charges and orders, refund duplicate charges, change the e-mail address on your account, and change or cancel your subscription.';

/** The customer's requests the billing agent knows, in the order it weighs them when one message holds several. */
export const BILLING_INTENTS = ['forbidden', 'refund', 'explain', 'email', 'plan', 'cancel', 'subscription'] as const;
export type BillingIntent = (typeof BILLING_INTENTS)[number];

const INTENT_PATTERNS: Record<BillingIntent, RegExp> = {
  forbidden:
    /\b(?:credits?(?! card)|account credit|discount\w*|compensat\w*|partial(?:ly)? refund\w*|refund\w* (?:for )?(?:part|some) of|part of\b[^.?!]{0,40}\brefund\w*|unused (?:days|time|part|period)|pro-?rat\w*|goodwill|waive\w*|money off|vouchers?|free months?|price match\w*)\b/,
  refund:
    /\b(?:refund\w*|reimburs\w*|money back|charged (?:me )?(?:twice|double|two times)|double[- ]?charg\w*|duplicate\w*|twice|two times|two charges|charged again|reverse (?:the|that|this) charge)\b/,
  explain:
    /(?:\bwhat (?:is|was|'s) (?:this|that|the) (?:charge|payment)\b|\b(?:don't|do not|dont|can't|cannot) (?:recogni[sz]e|remember)\b|\bnot sure what\b|\bwhat (?:it|this|that) (?:was|is) for\b|\bexplain\w*|\bhigher than usual\b|\bmore than usual\b|\bwhy (?:is|was|did|am)\b.{0,30}\b(?:bill|charge|charged|pay)|\bgo (?:over|through) (?:a|the|my|this)\b.{0,15}\b(?:charge|bill)|\bwhat did i (?:buy|pay|order)\b|\b(?:question|query|questions|ask) about\b.{0,25}\b(?:charge|bill|invoice|payment)s?\b|\bconfus\w*\b.{0,30}\b(?:charge|bill|invoice)s?\b|\b(?:charge|bill|invoice)s? (?:is|are|was|were|look|looks|seem|seems) (?:confusing|wrong|strange|odd|weird|off|high))/,
  email:
    /\b(?:change|update|new|replace|switch|different|another)\b(?: [\w'-]+){0,4} e-?mail\b|\be-?mail(?: address)? (?:change|update)\b|\b(?:change|update) (?:my |the )?(?:e-?mail|address) (?:on|of|for)\b/,
  plan: /\b(?:switch|change|upgrade|downgrade|move|moving|go|going)\b(?: [\w'-]+){0,4} (?:plan|package|tier)\b|\b(?:upgrade|downgrade)\b/,
  cancel:
    /\bcancel\w*\b(?: [\w'-]+){0,4} (?:subscription|service|internet|plan|account|contract|membership|broadband)\b|\b(?:stop|end|terminate|close|discontinue)\b(?: [\w'-]+){0,3} (?:subscription|service|internet|contract)\b/,
  subscription:
    /\b(?:renew\w*|subscription|my (?:current )?plan|billing period|next bill|current period|until when|when (?:does|will) (?:it|my|the) (?:end|expire|stop))\b/,
};

/** The requests a text makes, in the order it makes them. */
export function billingIntentsIn(texts: readonly string[]): BillingIntent[] {
  const found: Array<{ intent: BillingIntent; at: number }> = [];
  texts.forEach((text, message) => {
    for (const intent of BILLING_INTENTS) {
      if (found.some((f) => f.intent === intent)) continue;
      const at = firstMention(text, INTENT_PATTERNS[intent]);
      if (at >= 0) found.push({ intent, at: message * 100_000 + at });
    }
  });
  found.sort((a, b) => a.at - b.at || BILLING_INTENTS.indexOf(a.intent) - BILLING_INTENTS.indexOf(b.intent));
  const intents = found.map((f) => f.intent);
  // A general question about the subscription is its own request only when nothing more specific was asked.
  return intents.length > 1 ? intents.filter((i) => i !== 'subscription') : intents;
}

/** Words of what billing handles: a turn naming one is in scope. */
const BILLING_WORDS =
  /\b(?:charge|bill|invoice|refund|plan|subscri|cancel|e-?mail|code|verif|order|price|payment|paid|pay|duplicate|twice|double|credit|discount|compensat|amount|money|renew|upgrade|downgrade|faster|speed|cheaper|dollar|card|statement|receipt)/i;

/** What the billing agent knows for every request handler. */
export interface BillingContext {
  view: ConversationView;
  domain: Domain;
  customerId: string;
  /** The address the customer was found by (null when they gave their customer id). */
  identityEmail: string | null;
  /** Every customer message joined. */
  allText: string;
}

const found = (view: ConversationView): ToolRecord | undefined => lastCall(view, 'find_customer_by_email');

/** The customer's id: found by e-mail, or as the customer gave it. */
function customerIdOf(view: ConversationView): string | null {
  const byEmail = found(view)?.output.trim();
  if (byEmail) return byEmail;
  return idsIn(view.customerTexts.join('\n'), /\bcus_\d+\b/).at(-1) ?? null;
}

function identify(view: ConversationView, intentsKnown: boolean): Step {
  const lookups = view.tools.filter((t) => t.name === 'find_customer_by_email' && !t.outage && !t.refused);
  const tried = new Set(lookups.map((t) => String(t.args['email']).toLowerCase()));
  const next = emailsIn(view.customerTexts.join('\n')).find((e) => !tried.has(e.toLowerCase()));
  if (next) return { kind: 'call', name: 'find_customer_by_email', args: { email: next } };
  const failed = lookups.at(-1);
  if (failed) {
    return {
      kind: 'say',
      text: `I couldn't find an account with the e-mail address ${String(failed.args['email'])}. Could you check the e-mail address on your account and type it again?`,
    };
  }
  return {
    kind: 'say',
    text: intentsKnown
      ? 'I can help with that. First I need to find your account: what is the e-mail address on it?'
      : `Hello! ${BILLING_HELP} To start, what is the e-mail address on your account, and what can I do for you?`,
  };
}

// The customer cannot give a code: no phone, a changed number, no code at all.
const CANNOT_GET_CODE = new RegExp(
  [
    '\\bno longer (?:have|own|use)\\b',
    "\\b(?:don't|do not|dont|doesn't|haven't|have not) (?:have|got|get|receive|received)\\b(?! to\\b)",
    "\\b(?:didn't|did not|never) (?:get|got|receive)\\b",
    '\\b(?:lost|changed|new|old|different) (?:my |the |that |a )?(?:phone|number|mobile|cell|sim)\\b',
    '\\bonly code\\b',
    '\\bno (?:other )?code\\b',
    "\\b(?:can't|cannot|can not|unable to|not able to) (?:receive|get|find|access|see|read)\\b",
    "\\b(?:don't|do not|dont) know\\b|\\bno idea\\b",
  ].join('|'),
  'i',
);

/** Verification with the one-time code; null once the customer is verified. */
function verify(view: ConversationView, domain: Domain, customerId: string): Step | null {
  const verifyCalls = view.tools.filter(
    (t) => t.name === 'verify_customer' && t.args['customer_id'] === customerId && !t.refused && !t.outage,
  );
  const alreadyVerified = view.tools.some((t) => !t.ok && t.output.includes(`${customerId} is already verified`));
  if (alreadyVerified || verifyCalls.some((t) => t.ok)) return null;
  const sent = lastCall(view, 'send_verification_code', { customer_id: customerId });
  if (!sent) {
    const failedSend = view.tools.some(
      (t) => t.name === 'send_verification_code' && t.args['customer_id'] === customerId && !t.ok && !t.outage,
    );
    if (!failedSend) return { kind: 'call', name: 'send_verification_code', args: { customer_id: customerId } };
    return { kind: 'say', text: "I couldn't find that account. What is the e-mail address on your account?" };
  }
  const tried = new Set(verifyCalls.map((t) => String(t.args['code'])));
  const replies = customerTextsAfter(view, sent.at);
  const code = replies
    .flatMap(codesIn)
    .filter((c) => !tried.has(c))
    .at(-1);
  if (code) return { kind: 'call', name: 'verify_customer', args: { customer_id: customerId, code } };
  const wrongCalls = verifyCalls.filter((t) => /incorrect/i.test(t.output));
  const wrong = wrongCalls.length;
  // Told the code was wrong, the customer answered without a new one: they have no other.
  const noOtherCode = wrong >= 1 && customerTextsAfter(view, wrongCalls.at(-1)?.at ?? Infinity).length > 0;
  const asks = agentTextsAfter(view, sent.at).length;
  if (wrong >= 2 || noOtherCode || CANNOT_GET_CODE.test(replies.at(-1) ?? '') || asks >= 2) {
    const wants = view.customerTexts[0]?.slice(0, 200) ?? '';
    return {
      kind: 'handoff',
      target: identityQueue(domain),
      reason: 'no_capability',
      summary: `Customer ${customerId} cannot verify with the one-time code (${wrong} wrong code${wrong === 1 ? '' : 's'}); not verified. They wrote: "${wants}"`,
      text: 'Since we could not verify you with the code, I am passing you to our account security colleagues, who can verify you another way.',
      instead: "I'm sorry, without the right code I can't verify you, so I can't look at or change anything on the account.",
    };
  }
  const phone = /ending in (\d{4})/.exec(sent.output)?.[1];
  return {
    kind: 'say',
    text:
      wrong > 0
        ? "That code doesn't match. Please check the latest text message from us and read me the six-digit code."
        : `I've sent a verification code by text message to the phone number ending in ${phone ?? 'the one on file'}. Please read me the code.`,
  };
}

/** The billing agent's next step. */
export function billingStep(view: ConversationView, domain: Domain, canHandoff: boolean): Step {
  const customerId = customerIdOf(view);
  const who = customerId
    ? `Customer ${customerId}`
    : `Customer${emailsIn(view.customerTexts.join(' ')).map((e) => ` with e-mail ${e}`)[0] ?? ''}`;
  const intents = billingIntentsIn(view.customerTexts);
  const inScope = (text: string) => billingIntentsIn([text]).length > 0 || BILLING_WORDS.test(text);
  const first = beforeRequests(view, domain, { canHandoff, who, help: BILLING_HELP, inScope });
  if (first) return first;

  if (intents[0] === 'forbidden' && !alreadySaid(view, FORBIDDEN_REFUSAL)) return { kind: 'say', text: FORBIDDEN_REFUSAL };
  if (!customerId) return identify(view, intents.length > 0);
  const verification = verify(view, domain, customerId);
  if (verification) return verification;

  const verifiedAt = view.tools.find((t) => t.name === 'verify_customer' && t.ok)?.at ?? -1;
  const greet = (step: Step): Step =>
    step.kind === 'say' && verifiedAt >= 0 && agentTextsAfter(view, verifiedAt).length === 0
      ? { kind: 'say', text: `Thank you, you're verified. ${step.text}` }
      : step;
  const context: BillingContext = {
    view,
    domain,
    customerId,
    identityEmail: found(view) ? String(found(view)?.args['email']) : null,
    allText: view.customerTexts.join('\n'),
  };
  for (const intent of intents) {
    // Refused where it comes in the customer's requests (first, it is refused before identification).
    const step =
      intent === 'forbidden'
        ? alreadySaid(view, FORBIDDEN_REFUSAL)
          ? null
          : { kind: 'say' as const, text: FORBIDDEN_REFUSAL }
        : intent === 'refund' || intent === 'explain'
          ? moneyStep(context, intent)
          : accountStep(context, intent);
    if (step) return greet(step);
  }
  return greet(closingStep(view, intents.length, BILLING_HELP));
}

/** What the agent says to a request for credits, discounts, compensation or partial refunds. */
export const FORBIDDEN_REFUSAL =
  "I'm sorry, I can't give credits, discounts, compensation or partial refunds: our policy doesn't allow them. I can refund a charge only when our billing system flags it as a duplicate.";
