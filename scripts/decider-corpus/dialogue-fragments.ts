/**
 * Hand-written pieces of multi-turn cases for Baton's own decider corpus: one request said in
 * other words (loops), a request for a person withdrawn when the agent helps or states the wait,
 * and the agent turns between them.
 */

/** Each group: ways of stating one request. A loop case picks three different ones. */
export const PARAPHRASE_GROUPS: readonly (readonly string[])[] = [
  [
    'where is my refund?',
    'when will I get my money back?',
    'has the reimbursement gone through yet?',
    'I still have not received the refund',
    'is my money coming back or not',
    'what is happening with the refund I was promised?',
  ],
  [
    'I want to cancel my subscription',
    'please end my plan',
    'stop my membership',
    'I no longer want the service, terminate it',
    'how do I get out of this contract?',
    'close my subscription please',
  ],
  [
    'my parcel has not arrived',
    'where is my package?',
    'the delivery never came',
    'I am still waiting for my order to show up',
    'has my shipment been sent?',
    'nothing was delivered to me',
  ],
  [
    'I was charged twice',
    'there is a duplicate payment on my card',
    'you took the money two times',
    'why do I see two identical charges?',
    'the same amount was billed again',
  ],
  [
    'I need to change my email address',
    'please update the e-mail on my account',
    'my contact email is wrong, can you fix it',
    'I want a different address for your emails',
    'swap my login email to the new one',
  ],
  [
    'I cannot log in',
    'my password is not working',
    'I am locked out of my account',
    'the sign in page keeps rejecting me',
    'I cannot access my account at all',
  ],
  [
    'can I change my flight to Friday?',
    'I need to move my booking to a later date',
    'please rebook me on another day',
    'is it possible to switch the reservation to the weekend?',
    'I want a different departure date',
  ],
  [
    'why is my bill so high this month?',
    'the invoice is much more than usual',
    'I am being overcharged',
    'explain this large amount on my statement',
    'my latest bill is way too expensive',
  ],
];

/** Agent turns that do not resolve anything, between restatements. */
export const NON_ANSWERS = [
  'Let me look into that for you.',
  'I understand. Could you tell me a bit more?',
  'Thanks for your patience, I am checking.',
  'I see. Is there anything else you can share?',
  'One moment please.',
  'I am sorry for the trouble. Let me see what I can find.',
];

/** What the customer asks for, different each time: not a loop. */
export const DIFFERENT_REQUESTS = [
  'can you check my last invoice?',
  'also, how do I update my address?',
  'and what plans do you have?',
  'can I add my partner to the account?',
  'when does my contract end?',
  'do you deliver on Sundays?',
  'how do I download a receipt?',
  'what is your returns policy?',
];

/** The customer's first ask for a person, in a withdrawn-request case. */
export const FIRST_ASKS = [
  'can I talk to a human?',
  'I want a real person',
  'transfer me to an agent please',
  'get me a manager',
  'is there someone I can speak to?',
  'I would like to speak to a representative',
];

/** Agent turns that state the wait or offer to help instead. */
export const AGENT_ALTERNATIVES = [
  'I can connect you, the current wait is about 40 minutes. Or I can try to fix it for you right now?',
  'Our team is busy, the wait is around 25 minutes. I can also process this myself if you like.',
  'Sure, I can transfer you. Before that, I could try to sort it out now, would you like that?',
  'The next available agent is in about an hour. Would you like me to try first?',
  'I can do that refund for you here, no need to wait. Shall I go ahead?',
  "I'm able to help with that directly. Want me to give it a go?",
];

/** The customer taking the agent's help instead. */
export const TAKE_AGENT_HELP = [
  'ok, go ahead and try',
  'fine, you do it then',
  'never mind, you can handle it',
  "an hour? no thanks, let's do it here",
  'ok try it yourself',
  "sure, if you can fix it that's better",
  'alright, please do it now',
  "no need to transfer then, let's try",
  "that's too long, you sort it",
  'okay you can process it',
  'yes please try first',
  "in that case forget the human, let's fix it here",
];

/** The customer still wanting a person after the wait is stated: a request, not a withdrawal. */
export const STILL_WANTS_PERSON = [
  "I'll wait for the person",
  'no, I still want a human',
  'please just transfer me',
  "I don't care about the wait, get me an agent",
  'transfer me anyway',
  "I'd rather wait for someone",
];
