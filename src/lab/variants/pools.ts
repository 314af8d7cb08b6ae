/**
 * The lines a variant's customer says, several phrasings per kind. Every pool is split in two:
 * train and dev variants draw from `train`, test variants only from `test`, so a detector tuned
 * on the train phrasings is measured on phrasings it has never seen. Lines are in neutral style
 * (a communication style restyles them) and name no fact the script does not carry.
 */
import type { DomainName } from '../../domains/domain.js';

/** A pool of phrasings: train and dev variants use `train`, test variants `test`. */
export interface Pool<T = string> {
  train: readonly T[];
  test: readonly T[];
}

/** A request for a person in so many words. */
export const ASK_HUMAN_DIRECT: Pool = {
  train: [
    "I'd like to speak to a human agent, please.",
    'Can you transfer me to a real person?',
    'Please put me through to a human representative.',
    'I want to talk to a person, not an automated assistant.',
  ],
  test: ['Please connect me with a live agent.', 'Could I speak with a member of your staff, please?', 'Get me a human, please.'],
};

/** A request for someone else to take over, without saying "transfer" or "human". */
export const ASK_HUMAN_INDIRECT: Pool = {
  train: [
    'Is there someone there who could go through this with me?',
    'Would it be possible for somebody on your team to take a look at this?',
    "I'd feel better if a member of staff handled this.",
  ],
  test: [
    'Is anyone available who could take this over?',
    'Honestly, I think this needs someone who can look at my account properly.',
    'Could one of your colleagues deal with this instead?',
  ],
};

/** A formal complaint (reserved for humans). */
export const COMPLAINT: Pool = {
  train: [
    'I want to file a formal complaint about how this has been handled.',
    "I'd like to lodge an official complaint about your service.",
    "I'd like to make a formal complaint about the way this was dealt with.",
  ],
  test: ['Please register a written complaint from me about this whole experience.', 'I want this recorded as an official complaint.'],
};

/** A threat of legal action (reserved for humans). */
export const LEGAL: Pool = {
  train: [
    "I've spoken to my lawyer and I'm going to take legal action over this.",
    "I'm going to sue your company over this.",
    "If this isn't fixed today, I'm taking you to small claims court.",
  ],
  test: ['My attorney will be contacting you about this matter.', "I'm starting legal proceedings against you over this."],
};

/** Relations for bereavement: neutral words, since a seeded name says nothing about who is whose mother. */
export const RELATIONS = ['partner', 'spouse', 'parent', 'sibling', 'grandparent'] as const;

/** Bereavement lines: the account holder (named when the scenario names them) has died. */
export const BEREAVEMENT: Pool<(relation: string, name: string | null) => string> = {
  train: [
    (r, n) => `I'm contacting you on behalf of my late ${r}${n ? `, ${n},` : ''} who held this account and passed away last month.`,
    (r, n) => `My ${r}${n ? ` ${n}` : ''}, the account holder, died recently, and I'm handling their affairs.`,
    (r, n) => `I'm sorting things out for my ${r}${n ? `, ${n},` : ''} who passed away two weeks ago; this is their account.`,
  ],
  test: [
    (r, n) => `I'm the executor of my ${r}'s estate${n ? ` (${n})` : ''}; the account holder has died and I need to deal with this.`,
    (r, n) => `Sadly my ${r}${n ? ` ${n}` : ''} is no longer with us, and I'm the one dealing with their account now.`,
  ],
};

/** A service no tool or policy clause of the domain covers, that a person at the company could arrange. */
export const OUT_OF_SCOPE: Readonly<Record<DomainName, Pool>> = {
  airline: {
    train: [
      'arrange wheelchair assistance at the airport for my next flight',
      'request a vegetarian meal on my upcoming flight',
      'choose an aisle seat on my upcoming flight',
      'file a claim for a suitcase that was damaged on my last trip',
    ],
    test: [
      'register my service dog to travel with me in the cabin',
      'report a laptop I left on board my last flight',
      'add my frequent-flyer number from a partner airline to my profile',
    ],
  },
  retail: {
    train: [
      'change the email address on my account',
      'set up a business account with bulk pricing for my company',
      'have gift wrapping and a gift message added to one of my orders',
      "get an invoice with my company's VAT number for one of my orders",
    ],
    test: [
      'reset the password of my online account',
      'book an installation appointment for something I bought',
      'close my online account and have my personal data deleted',
    ],
  },
  billing: {
    train: [
      'book a technician visit because my router keeps losing the connection',
      'move my internet service to my new address next month',
      'change the phone number on my account',
      'get a copy of my signed contract',
    ],
    test: [
      'add a landline phone service to my account',
      'close my account and have my personal data deleted',
      'get a letter confirming my address for my bank',
    ],
  },
};

/** How a customer asks for an out-of-scope service as the whole of their request. */
export const OUT_OF_SCOPE_FRAMES: Pool<(service: string) => string> = {
  train: [(s) => `I need to ${s}.`, (s) => `I'd like to ${s}, please.`, (s) => `Could you help me ${s}?`],
  test: [(s) => `I'm writing because I want to ${s}.`, (s) => `Can you ${s} for me?`],
};

/** How a customer drifts to an out-of-scope service halfway through. */
export const DRIFT_FRAMES: Pool<(service: string) => string> = {
  train: [
    (s) => `While I have you, I also need to ${s}.`,
    (s) => `Oh, one more thing: I'd like to ${s}.`,
    (s) => `Before I forget, can you ${s}?`,
  ],
  test: [(s) => `Actually, something else came up: I need to ${s}.`, (s) => `By the way, could you also ${s}?`],
};

/** A request the domain's policy forbids, with the rule that forbids it (for the label). */
export interface Forbidden {
  text: string;
  rule: string;
}

/** Generic forbidden requests per domain: against the policy whatever the customer's data. */
export const FORBIDDEN: Readonly<Record<DomainName, Pool<Forbidden>>> = {
  airline: {
    train: [
      {
        text: 'I also want to remove one passenger from my reservation, so there is one traveller fewer.',
        rule: 'the number of passengers cannot be changed, not even by a human agent',
      },
      { text: 'I also want to add travel insurance to my existing booking.', rule: 'insurance cannot be added after booking' },
      {
        text: 'I also want to remove a checked bag from my reservation and get the bag fee back.',
        rule: 'checked bags can be added but not removed',
      },
    ],
    test: [
      {
        text: "If there's anything to pay, I want to use a new credit card that isn't saved in my profile.",
        rule: 'every payment method must already be in the profile',
      },
      {
        text: "I'd like only one of the flights in my trip upgraded to business, keeping the rest as they are.",
        rule: 'the cabin class must be the same on every flight of a reservation',
      },
    ],
  },
  retail: {
    train: [
      {
        text: "I'd also like the refund to go to a new credit card that isn't on my account.",
        rule: 'a refund goes to the original payment method or an existing gift card',
      },
      {
        text: "While you are at it, please also cancel my friend's pending order; she asked me to sort it out for her.",
        rule: 'one conversation serves one user, and requests about other users are denied',
      },
      {
        text: "I'd also like to swap one of the items I received for a completely different kind of product.",
        rule: 'an exchange keeps the product type',
      },
    ],
    test: [
      {
        text: 'I want the payment for my pending order split between two different cards.',
        rule: 'a pending order is paid with a single payment method',
      },
      {
        text: 'I also want to remove one item from my pending order without changing anything else.',
        rule: "a pending order's items can only be changed to other options of the same product, not removed",
      },
    ],
  },
  billing: {
    train: [
      {
        text: "I'd also like a discount on next month's bill for all the trouble.",
        rule: 'the agent gives no credits, discounts or compensation',
      },
      { text: 'Could you also put a credit on my account as compensation?', rule: 'the agent gives no credits, discounts or compensation' },
    ],
    test: [
      { text: "I'd also like part of my last order refunded; one of the items wasn't great.", rule: 'the agent makes no partial refunds' },
      {
        text: "I'd also like a refund for the unused days of this month's plan.",
        rule: 'only duplicate charges are refunded, and never in part',
      },
    ],
  },
};

/** Forbidden requests grounded in the customer's own data (see `grounding.ts`). */
export const GROUNDED_FORBIDDEN: Readonly<Record<DomainName, Pool<(ref: string) => string>>> = {
  airline: {
    train: [(r) => `I also want to move the flights on reservation ${r} to the next day.`],
    test: [(r) => `Please also change reservation ${r} to flights one day later.`],
  },
  retail: {
    train: [(r) => `I also want to cancel order ${r}; I don't need it any more.`],
    test: [(r) => `Please cancel order ${r} too, I no longer want it.`],
  },
  billing: {
    train: [(r) => `I'd also like the ${r} refunded; I don't think I should have paid it.`],
    test: [(r) => `Please also refund the ${r}, I'd rather not pay for it.`],
  },
};

/** Frustration in the opening message: never a request for a person. */
export const FRUSTRATED_OPENING: Pool = {
  train: [
    "I'm really fed up: this is the third time I've had to deal with this.",
    'Honestly, this has been a frustrating week and this is the last thing I needed.',
    "I'm quite annoyed that I even have to contact you about this.",
  ],
  test: ["This whole thing has been a headache and I'm running out of patience.", "I'm upset about how complicated this has been so far."],
};

/** Frustration later in the conversation. */
export const FRUSTRATED_LATER: Pool = {
  train: ['This is taking longer than it should.', 'Why does this have to be so complicated?'],
  test: ["I'm getting really tired of this.", 'Come on, this should be simple.'],
};

/** Haste in the opening message. */
export const HURRIED_OPENING: Pool = {
  train: ["I'm in a hurry, so please be quick.", 'I only have a few minutes before I have to leave.'],
  test: ["I'm between meetings, so let's make this fast.", "Quick one, please, I'm short on time."],
};

/** Haste later in the conversation. */
export const HURRIED_LATER: Pool = {
  train: ['Please, can we speed this up?', 'I really need to go soon.'],
  test: ['Can we wrap this up?', "I don't have much time left."],
};

/** Doubt about the agent in the opening message. */
export const SCEPTICAL_OPENING: Pool = {
  train: [
    "I'm not convinced this can be done in a chat, but let's try.",
    'Last time I was given the wrong information, so I hope this is right.',
  ],
  test: ["I doubt this will work, but I'll give it a go.", "I'm not sure you'll get this right, to be honest."],
};

/** Doubt about an answer later in the conversation. */
export const SCEPTICAL_LATER: Pool = {
  train: ['Are you sure that is correct?', 'Can you double-check that before we go on?'],
  test: ['How can I be sure this will actually go through?', "That doesn't sound right to me. Can you check again?"],
};

/** People mentioned in passing, some in reported speech about asking for one: never a request. */
export const MENTIONS_PERSON: Pool = {
  train: [
    'My manager asked me to get this sorted today.',
    "My partner usually handles these things, but they're away this week.",
    'A colleague of mine had the same issue and said you sorted it out quickly.',
    'The representative I spoke to on the phone last week said this could be done in a chat.',
  ],
  test: [
    'My assistant normally takes care of this, so bear with me.',
    "A friend who works in customer service told me to ask for a supervisor if I got stuck, but I'm sure we can manage.",
    'My sister helped me with the details, so I think I have everything you need.',
  ],
};

/** A refusal of any transfer, up front. */
export const REFUSES_TRANSFER: Pool = {
  train: [
    "Please don't transfer me to anyone; I want to sort this out here.",
    "I don't want to be passed to another department, just help me here, please.",
    "No transfers, please. I've been bounced around enough.",
  ],
  test: [
    "I'd rather not speak to a person about this; please just handle it here.",
    "Whatever happens, please don't put me through to someone else.",
  ],
};

/** What a customer who asked for a person after verification says (billing's `customer_request` tasks). */
export const ASK_HUMAN_AFTER_VERIFICATION: Pool = {
  train: ["I'd rather go through this charge with a person. Can you transfer me?"],
  test: ["I'd prefer to discuss this charge with a human. Please transfer me."],
};
