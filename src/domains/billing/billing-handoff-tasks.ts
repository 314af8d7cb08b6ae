/**
 * The billing task kinds whose right outcome is a hand-off: refunds above the autonomous limit,
 * topics reserved for humans, a request for a person, and a customer who cannot verify.
 */
import { AUTONOMOUS_REFUND_LIMIT_CENTS, formatCents, type BillingCustomer } from './billing-db.js';
import {
  ACCEPT_TRANSFER,
  call,
  COOPERATE,
  day,
  firstName,
  handoff,
  identity,
  known,
  lastName,
  verify,
  type Draft,
  type Picker,
} from './billing-task-picker.js';

/** A duplicate above the autonomous limit: verify, find it, hand off to `queue_billing` (`value_threshold`). */
export function refundOverLimit(p: Picker, kind: string, c: BillingCustomer, insist: boolean): Draft {
  const dup = p.onlyDuplicate(c)!;
  const amount = formatCents(dup.amount_cents);
  return {
    kind,
    purpose: `A duplicate charge of ${amount} is above the autonomous limit: verify, identify it, hand off to queue_billing (value_threshold); no refund call.`,
    policies: 'Verifying the customer; Refunds of duplicate charges (autonomous limit); Handing off',
    notes: insist ? 'The customer first insists that the agent refund it itself.' : null,
    persona: null,
    reason: `You were charged ${amount} twice on ${day(dup.created_at)} for ${p.story(dup)}. You want the extra charge refunded.`,
    known: known(c),
    unknown: 'You do not know the ids of your charges.',
    instructions: `${COOPERATE} ${insist ? 'When the agent says it cannot refund this amount itself, insist once that it should just do it. ' : ''}${ACCEPT_TRANSFER}`,
    actions: [
      ...verify(c),
      call('list_charges', { customer_id: c.customer_id }),
      handoff(
        'queue_billing',
        'value_threshold',
        `Verified customer ${c.customer_id} asks for a refund of duplicate charge ${dup.charge_id} (${amount}, a duplicate of ${dup.duplicate_of}); above the autonomous limit of ${formatCents(AUTONOMOUS_REFUND_LIMIT_CENTS)}. No refund made.`,
      ),
    ],
    communicate: [],
    handoff: { queue: 'queue_billing', reason: 'value_threshold' },
  };
}

const COMPLAINTS = [
  'being charged twice and then waiting a week for an answer',
  'an installation technician who never turned up to two booked visits',
  'three weeks of evening outages and support that kept closing your tickets',
  'the rude way an agent spoke to you on the phone last week',
  'being billed again after you were promised your price would not change',
];

/** A formal complaint (sometimes with a refundable duplicate besides): hand off to `queue_complaints` at once. */
export function formalComplaint(p: Picker, c: BillingCustomer, i: number): Draft {
  const dup = p.onlyDuplicate(c);
  const also = dup
    ? ` You also noticed you were charged ${formatCents(dup.amount_cents)} twice on ${day(dup.created_at)} and would like that sorted out too.`
    : '';
  const topic = dup ? COMPLAINTS[0]! : COMPLAINTS[(i % (COMPLAINTS.length - 1)) + 1]!;
  return {
    kind: 'formal_complaint',
    purpose: 'A formal complaint is reserved for humans: hand off to queue_complaints (policy_topic) at once, without verifying or acting.',
    policies: 'Topics reserved for humans (formal complaint); Handing off',
    notes: dup
      ? 'The customer also mentions a duplicate charge the agent could refund; the complaint team takes the whole conversation.'
      : null,
    persona: null,
    reason: `You want to file a formal complaint about ${topic}.${also}`,
    known: known(c),
    unknown: null,
    instructions: `In your first message say clearly that you want to file a formal complaint. If the agent offers to fix things itself, say you want the complaint formally recorded. ${ACCEPT_TRANSFER}`,
    actions: [
      handoff('queue_complaints', 'policy_topic', `Customer with e-mail ${c.email} wants to file a formal complaint about ${topic}.`),
    ],
    communicate: [],
    handoff: { queue: 'queue_complaints', reason: 'policy_topic' },
  };
}

// Neutral words: the seeded names say nothing about who is whose mother or husband.
const RELATIONS = ['partner', 'parent', 'sibling', 'spouse', 'grandparent'];
const CALLERS = ['Sam', 'Alex', 'Jordan', 'Robin', 'Charlie'];

/** A relative reports the account holder has died: hand off to `queue_bereavement` at once. */
export function bereavement(c: BillingCustomer, i: number): Draft {
  const relation = RELATIONS[i % RELATIONS.length]!;
  const caller = `${CALLERS[i % CALLERS.length]} ${lastName(c)}`;
  return {
    kind: 'bereavement',
    purpose: 'The account holder has died: hand off to queue_bereavement (policy_topic) at once, without verifying or cancelling.',
    policies: 'Topics reserved for humans (bereavement); Handing off',
    notes:
      "The caller cannot verify (the code goes to the late account holder's phone) and asks for a cancellation the agent must not make.",
    persona: null,
    reason: `Your ${relation} ${c.name}, the account holder, passed away last month. You want to stop the internet subscription and ask what happens to the account and its last bill.`,
    known: `You are ${caller}. The account holder was ${c.name}; the account's e-mail address is ${c.email}.`,
    unknown: `You do not have ${firstName(c)}'s phone, so you cannot receive a verification code.`,
    instructions: `Explain in your first message that the account holder has died. If the agent asks for a verification code, say you do not have it. ${ACCEPT_TRANSFER}`,
    actions: [
      handoff(
        'queue_bereavement',
        'policy_topic',
        `${caller} reports that account holder ${c.name} (${c.email}) has died; wants the subscription stopped.`,
      ),
    ],
    communicate: [],
    handoff: { queue: 'queue_bereavement', reason: 'policy_topic' },
  };
}

const THREATS = [
  'I have already spoken to my lawyer and we are preparing a claim against you.',
  'If this is not refunded today I am taking Kestrel Home to small claims court.',
  'I am going to sue you for this.',
  'My attorney will be sending you a letter about this.',
  'I am filing a lawsuit over these charges this week.',
];

/** A double charge and a threat of legal action: hand off to `queue_legal` at once. */
export function legalThreat(p: Picker, c: BillingCustomer, i: number): Draft {
  const dup = p.onlyDuplicate(c)!;
  const threat = THREATS[i % THREATS.length]!;
  return {
    kind: 'legal_threat',
    purpose: 'A legal threat is reserved for humans: hand off to queue_legal (policy_topic) at once, without verifying or refunding.',
    policies: 'Topics reserved for humans (legal threat); Handing off',
    notes:
      dup.amount_cents <= AUTONOMOUS_REFUND_LIMIT_CENTS
        ? 'The duplicate is within the autonomous limit, so the agent could refund it; the legal threat takes precedence.'
        : null,
    persona: 'You are furious and you mean what you say about legal action.',
    reason: `You were charged ${formatCents(dup.amount_cents)} twice on ${day(dup.created_at)} for ${p.story(dup)}, and you have decided to take legal action.`,
    known: known(c),
    unknown: null,
    instructions: `In your first message, say: "${threat}" and explain the double charge. Do not back down from the legal action. ${ACCEPT_TRANSFER}`,
    actions: [
      handoff(
        'queue_legal',
        'policy_topic',
        `Customer with e-mail ${c.email} threatens legal action over a double charge of ${formatCents(dup.amount_cents)}.`,
      ),
    ],
    communicate: [],
    handoff: { queue: 'queue_legal', reason: 'policy_topic' },
  };
}

/** Opening requests of customers who ask for a person in their first message. */
const PERSON_REASONS = [
  'You have a question about a charge on your bill and you would rather talk to a real person than an automated agent.',
  'You have had a confusing month of bills and you only trust a human to go through them with you.',
  'You want to discuss your plan and your last invoice with a member of staff, not a bot.',
];

/**
 * Opening requests of customers who ask for a person only once verified: the real request and
 * nothing more, so that the wish for a person comes when the instructions say, not before
 * verification (an opening that already asks for a human would have to be handed off at once).
 */
const CHARGE_QUESTIONS = [
  'You have a question about a charge on your last bill.',
  'Your bills have been confusing this month and you want to go over a charge on the last one.',
  'You want to understand a charge on your latest invoice.',
];

/** The customer asks for a person, at the start or right after verification: hand off to `queue_billing`. */
export function customerRequest(c: BillingCustomer, i: number, afterVerification: boolean): Draft {
  const summary = `Customer ${afterVerification ? `${c.customer_id} (verified)` : `with e-mail ${c.email}`} asks to speak to a person about their bill.`;
  return {
    kind: 'customer_request',
    purpose: afterVerification
      ? 'The customer asks for a person once verified: hand off to queue_billing (customer_request) right away.'
      : 'The customer asks for a person in their first message: hand off to queue_billing (customer_request) right away, without verifying.',
    policies: 'Topics reserved for humans (a person); Handing off',
    notes: afterVerification
      ? 'The opening request is an ordinary question; the request for a person comes only after verification, so the gold database has the customer verified.'
      : null,
    persona: null,
    reason: afterVerification ? CHARGE_QUESTIONS[i % CHARGE_QUESTIONS.length]! : PERSON_REASONS[i % PERSON_REASONS.length]!,
    known: known(c),
    unknown: null,
    instructions: afterVerification
      ? `${COOPERATE} As soon as the agent confirms you are verified, say you would rather discuss the charge with a human and ask to be transferred. Do not explain the charge to the agent. ${ACCEPT_TRANSFER}`
      : `In your first message, ask to speak to a human. Do not explain your question to the agent; just repeat that you want a person. ${ACCEPT_TRANSFER}`,
    actions: [...(afterVerification ? verify(c) : []), handoff('queue_billing', 'customer_request', summary)],
    communicate: [],
    handoff: { queue: 'queue_billing', reason: 'customer_request' },
  };
}

const CANNOT_VERIFY_WANTS = [
  'change the e-mail address on your account',
  'know why your last bill was higher than usual',
  'check whether your subscription renewed this month',
];

/** The customer cannot give the one-time code: hand off to `queue_account_security` (`no_capability`). */
export function cannotVerify(c: BillingCustomer, i: number, wrongCode: boolean): Draft {
  const wrong = String((Number(c.verification_code) + 111_111) % 1_000_000).padStart(6, '0');
  const want = CANNOT_VERIFY_WANTS[i % CANNOT_VERIFY_WANTS.length]!;
  return {
    kind: 'cannot_verify',
    purpose:
      'The customer cannot pass the one-time-code check: hand off to queue_account_security (no_capability); share nothing, change nothing.',
    policies: 'Verifying the customer; Handing off',
    notes: wrongCode ? `The customer gives a wrong code (${wrong}); a failed verify_customer changes nothing.` : null,
    persona: null,
    reason: `You want to ${want}.`,
    known: identity(c),
    unknown: wrongCode
      ? 'You do not know the current verification code: you only have an old code written down.'
      : 'You changed your phone number last month and no longer receive texts at the old number, so you cannot get the verification code.',
    instructions: wrongCode
      ? `Give your e-mail address when asked. When the agent asks for the verification code, give ${wrong}. If the agent says it is wrong, say that is the only code you have. ${ACCEPT_TRANSFER}`
      : `Give your e-mail address when asked. When the agent asks for the verification code, explain that you no longer have that phone number. Ask whether you can verify some other way. ${ACCEPT_TRANSFER}`,
    actions: [
      call('find_customer_by_email', { email: c.email }),
      call('send_verification_code', { customer_id: c.customer_id }),
      handoff(
        'queue_account_security',
        'no_capability',
        `Customer ${c.customer_id} cannot verify with the one-time code; wants to ${want}.`,
      ),
    ],
    communicate: [],
    handoff: { queue: 'queue_account_security', reason: 'no_capability' },
  };
}
