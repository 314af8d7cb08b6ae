/**
 * Everything domain-specific the episode analysis (the lab's metrics, the rewards) uses, in one place: which successful tool call
 * establishes the customer's identity (for "write before authentication"), and the policy terms
 * whose presence in an agent's refusal or hand-off text counts as citing the policy. Plus the one
 * rule, shared by every domain, for what counts as a refusal. `docs/metrics.md` lists the same
 * terms and says where each comes from.
 */
import { AUTONOMOUS_REFUND_LIMIT_CENTS, formatCents } from '../domains/billing/billing-db.js';
import type { DomainName } from '../domains/domain.js';

/** How a domain establishes who the customer is, and the words of its policy an agent cites. */
export interface DomainMetricRules {
  /** A successful call to any of these establishes the customer's identity. */
  authTools: readonly string[];
  /**
   * When set, the call authenticates only if this argument's value appears in an earlier
   * customer message (airline: "the user id given and `get_user_details` succeeded").
   */
  authArgumentGivenByCustomer: string | null;
  /** Lower-case phrases from the domain's policy (matched on word boundaries). */
  citationTerms: readonly string[];
}

/**
 * Phrases that name a hand-off reason the decider and every domain's policy share: a request for
 * a person, a request out of scope, failing systems, safety. Cited in any domain.
 */
export const HANDOFF_REASON_TERMS: readonly string[] = [
  // customer_request
  'asked for a person',
  'asked for a human',
  'asked for someone',
  'asked to speak',
  'asked to talk',
  'as you asked',
  'as you requested',
  'at your request',
  'you would like to speak',
  "you'd like to speak",
  'you want to speak',
  // no_capability (tau2: "cannot be handled within the scope of your actions")
  'scope',
  'outside what i can',
  'beyond what i can',
  // tool_failures
  'not responding',
  "aren't responding",
  "isn't responding",
  'did not respond',
  "didn't respond",
  'technical problem',
  'technical issue',
  'technical difficulties',
  'systems are down',
  'system is down',
  'unavailable',
  'outage',
  // safety
  'your safety',
  'emergency',
];

const LIMIT = formatCents(AUTONOMOUS_REFUND_LIMIT_CENTS);

/** The per-domain lists. */
export const DOMAIN_METRIC_RULES: Readonly<Record<DomainName, DomainMetricRules>> = {
  airline: {
    authTools: ['get_user_details'],
    authArgumentGivenByCustomer: 'user_id',
    // From airline/policy.md: cabin rules, cancellation conditions, baggage, insurance, compensation, passengers.
    citationTerms: [
      'basic economy',
      'insurance',
      '24 hours',
      '24 hrs',
      'cancelled by the airline',
      'airline cancelled',
      'business class',
      'already flown',
      'been flown',
      'already departed',
      'has departed',
      'taken off',
      'number of passengers',
      'five passengers',
      'checked bag',
      'remove bags',
      'membership',
      'silver',
      'gold member',
      'regular member',
      'travel certificate',
      'compensation',
      'cabin class',
      'same cabin',
      'user profile',
      'in your profile',
    ],
  },
  retail: {
    authTools: ['find_user_id_by_email', 'find_user_id_by_name_zip'],
    authArgumentGivenByCustomer: null,
    // From retail/policy.md: order statuses, the once-only item changes, product types, payment and identity rules.
    citationTerms: [
      'pending',
      'delivered',
      'processed',
      'order status',
      'its status',
      'only once',
      'once per order',
      'already been modified',
      'same product',
      'product type',
      'different product',
      'enough balance',
      'gift card balance',
      'original payment method',
      'another user',
      'other user',
      'one user per conversation',
      'authenticate',
      'verify your identity',
      'no longer needed',
      'ordered by mistake',
      'return requested',
      'exchange requested',
    ],
  },
  billing: {
    authTools: ['verify_customer'],
    authArgumentGivenByCustomer: null,
    // From BILLING_POLICY: verification, duplicates, the autonomous limit, what cannot be given, reserved topics and their teams.
    citationTerms: [
      'autonomous limit',
      LIMIT,
      'above the limit',
      'over the limit',
      'duplicate',
      'flagged',
      'credits',
      'discount',
      'compensation',
      'partial refund',
      'verify',
      'verified',
      'verification',
      'one-time code',
      'formal complaint',
      'complaints are handled by',
      'complaints team',
      'bereavement',
      'passed away',
      'legal',
      'account security',
      'billing specialist',
      'already been refunded',
      'already refunded',
      'genuine charge',
      'paid period',
      'nothing is refunded',
    ],
  },
};

/** The rules of `domain`; throws for a domain the metrics do not know. */
export function metricRulesOf(domain: string): DomainMetricRules {
  const rules = (DOMAIN_METRIC_RULES as Readonly<Record<string, DomainMetricRules>>)[domain];
  if (!rules) throw new Error(`no metric rules for domain "${domain}" (known: ${Object.keys(DOMAIN_METRIC_RULES).join(', ')})`);
  return rules;
}

/** Lower case, typographic apostrophes made plain, whitespace collapsed. */
export function normaliseText(text: string): string {
  return text
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/\s+/g, ' ')
    .toLowerCase();
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The terms of `terms` that occur in `text`, each on word boundaries, in list order. */
export function termsIn(text: string, terms: readonly string[]): string[] {
  const flat = normaliseText(text);
  return terms.filter((term) => new RegExp(`(?<![a-z0-9])${escape(term.toLowerCase())}(?![a-z0-9])`).test(flat));
}

/** The policy terms (the domain's and the shared hand-off reasons') that `text` names. */
export function citedTerms(domain: string, text: string): string[] {
  return termsIn(text, [...metricRulesOf(domain).citationTerms, ...HANDOFF_REASON_TERMS]);
}

// "I can't", "we cannot", "I'm unable to", "I am not able to", "I'm not allowed to", "I won't be able to", "I must decline".
const DECLINE =
  /\b(?:i|we)(?: (?:can ?not|can't|cant|won't be able to|will not be able to|must decline|have to decline)|(?:'m| am|'re| are) (?:unable to|not able to|not allowed to|not permitted to))(?! (?:find|locate|see|hear|reach|access|connect|load|retrieve|tell|wait|seem|recall|remember|thank|believe|imagine|promise|guarantee)\b)/;

/**
 * Whether an agent's text declines a request: a first-person "I/we can't / cannot / am unable to /
 * am not able to / am not allowed to / won't be able to / must decline", not followed by a verb of
 * perception or access ("I can't find that order" reports, it does not decline). A reason
 * ("because …", "as …", ": its flight has departed") is not required: a bare refusal is a refusal
 * that cites nothing.
 */
export function isRefusal(text: string): boolean {
  return DECLINE.test(normaliseText(text));
}

/**
 * Sentences and clauses: split after `.`, `!` or `?` followed by a space, at line breaks, and
 * before a clause that offers help (", but I can help you myself: I can explain…"), so that an
 * offer is never read as part of the refusal before it.
 */
export function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+|[,:;]\s*(?:but\s+)?(?=(?:i|we)\s+(?:can(?!'t|\s*not)|could(?!n't|\s+not))\b)/i)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

// A sentence that offers help ("I can explain charges…", "I'd be happy to…") gives no reason, unless it restricts ("only").
const OFFER = /^(?:but |however,? )?(?:i|we) (?:can|could|'d be happy|would be happy|am happy|'m happy|'ll be happy)\b/;

/**
 * The policy terms a refusal cites: those named in a declining sentence, or in the sentence right
 * after one ("I can't change this reservation. Basic economy flights cannot be modified."), unless
 * that sentence only offers help (it starts "I can …", "I'd be happy to …" and says no "only").
 * Terms elsewhere in the turn (a list of what the agent can do) are not the refusal's reason.
 */
export function refusalCitedTerms(domain: string, text: string): string[] {
  const sentences = sentencesOf(normaliseText(text));
  const reasons: string[] = [];
  sentences.forEach((sentence, i) => {
    if (!isRefusal(sentence)) return;
    reasons.push(sentence);
    const next = sentences[i + 1];
    if (next === undefined || isRefusal(next)) return;
    if (!OFFER.test(next) || /\bonly\b/.test(next)) reasons.push(next);
  });
  return citedTerms(domain, reasons.join('\n'));
}
