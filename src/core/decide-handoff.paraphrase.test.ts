import { describe, expect, it } from 'vitest';
import { DeciderPolicySchema, type DeciderPolicyInput } from './decider-policy.js';
import { decideTranscript } from './decide-handoff.js';
import type { DeciderReason, TranscriptItem } from './transcript.js';

// The mechanisms of issue 13, one row each: what a lexicon of exact words missed.

const c = (text: string): TranscriptItem => ({ role: 'customer', text });
const a = (text: string): TranscriptItem => ({ role: 'agent', text });
const call = (name: string, amount: unknown): TranscriptItem => ({ role: 'tool', name, arguments: { amount }, ok: true, output: '{}' });

type Row = [label: string, messages: string | TranscriptItem[], expected: DeciderReason | null, policy?: DeciderPolicyInput];

const table: Record<string, Row[]> = {
  'slips, slang and stretched letters': [
    ['typo in the noun', 'can I speak to a humna', 'customer_request'],
    ['typo in the verb', 'tranfer me to a supervisor', 'customer_request'],
    ['stretched', 'huuuuman pleeease', 'customer_request'],
    ['chat abbreviations', 'lemme talk 2 sum1 real', 'customer_request'],
    ['emoji after a bare request', 'operator 😤', 'customer_request'],
    ['typo in a refusal stays a refusal', "I don't thnik I need a supervisor", null],
  ],
  'requests without a verb of asking, and indirect ones': [
    ['bare noun with only', 'humans only', 'customer_request'],
    ['anyone there', 'hello?? is anybody there', 'customer_request'],
    ['will a person read this', 'will a person ever actually read this?', 'customer_request'],
    ['call back', 'please have a colleague ring me back', 'customer_request'],
    ['insult then demand', 'you are a useless bot. someone real, please', 'customer_request'],
    ['no full stop between', 'total waste of time Transfer me to your team', 'customer_request'],
    ['second language', 'quiero hablar con una persona', 'customer_request'],
    ['learner grammar', 'is possible to speak with a worker?', 'customer_request'],
  ],
  'scope: hypotheticals, reported speech, withdrawal': [
    ['condition in the clause', 'if the refund bounces I might want a manager, but go on', null],
    ['condition in the clause before', 'should the payment fail again, I will ask for a supervisor', null],
    ['put off', 'maybe later I will want someone to phone me, for now just the balance', null],
    ['polite if still asks', "I'd like to speak to a manager if that's ok", 'customer_request'],
    ['a polite opener is no condition', 'If I may add something, I would like to speak to a human about this', 'customer_request'],
    [
      'a condition stops at the full stop',
      'Here is my number, in case you need it. I would like to speak to a supervisor',
      'customer_request',
    ],
    ['reported', 'my brother told me to demand a supervisor, but can you just check the bill', null],
    [
      'withdrawn after the wait',
      [c('get me a human'), a('The wait is about 30 minutes. Or I can sort this out right now?'), c('30 minutes? no thanks, you sort it')],
      null,
    ],
    ['called off', [c('I want a real person'), a('Let me see.'), c('actually scrap the transfer, what is my balance?')], null],
    [
      'asked again after withdrawing',
      [
        c('agent please'),
        a('The queue is 20 minutes, or I can try now.'),
        c('ok try it'),
        a('That did not work.'),
        c('then get me a real person'),
      ],
      'customer_request',
    ],
    [
      'still wants one after the wait',
      [c('agent please'), a('The queue is 20 minutes, or I can try now.'), c('I will wait for the agent')],
      'customer_request',
    ],
  ],
  'reserved topics in other words': [
    ['grievance', 'I wish to register a grievance about the fees', 'policy_topic'],
    ['record it', 'please log this as a complaint', 'policy_topic'],
    ['proceedings', 'I will be issuing proceedings against you next week', 'policy_topic'],
    ['damages', 'I intend to seek damages', 'policy_topic'],
    ['lawyer as an errand', 'my solicitor pays my bills while I am abroad, can you email her?', null],
    ['self description', "I'm an attorney, please address the invoice to my firm", null],
    ['a thing that died', 'my laptop died halfway through paying', null],
  ],
  'safety: warning signs in other words': [
    ['burden', 'my kids would honestly be better off if I was gone', 'safety'],
    ['reasons gone', "I've run out of reasons to keep going", 'safety'],
    ['means at hand', "I'm standing on the ledge right now", 'safety'],
    ['plan and time', "I've got it all planned for tonight", 'safety'],
    ['farewell', 'please pass my apologies to my family', 'safety'],
    ['split over sentences', 'I just want it all to stop. For good.', 'safety'],
    ['someone else collapsed', 'the woman at the till just collapsed', 'safety'],
    ['stroke signs', "my mum's speech is slurred and she can't lift her arm", 'safety'],
    ['figure of speech', "I'm dying to know when the refund lands", null],
    ['dead tired', "I'm dead tired, just cancel it", null],
    ['away on a trip', "I'll be gone for two weeks, please pause deliveries", null],
    ['past history', 'my dad had a stroke years ago, so please send letters in large print', null],
  ],
  'loops in other words': [
    [
      'told what they knew, then the assumption denied',
      [
        c('how do I turn off voicemail'),
        a('Voicemail keeps your messages safe while you are busy.'),
        c('yes I know, I want it off completely'),
        a('You can upgrade to a plan with visual voicemail.'),
        c("I don't want to upgrade. disable the voicemail on my number"),
      ],
      'loop_detected',
    ],
    [
      'an acknowledgement after a real answer is no loop',
      [c('when is my bill due?'), a('Your bill is due on the 14th.'), c('I know that now, thanks. can I pay it by card?')],
      null,
    ],
    [
      'paraphrased three times',
      [
        c('where is my refund?'),
        a('Let me look into that.'),
        c('when do I get my money back?'),
        a('One moment.'),
        c('has the reimbursement been sent?'),
      ],
      'loop_detected',
    ],
    [
      'restated after fallbacks',
      [
        c('please update my card'),
        a("Sorry, I didn't understand that."),
        c('to clarify: the card you charge has expired'),
        a('Can you try asking in a different way?'),
        c('what I mean is, I have a new card for payments'),
      ],
      'loop_detected',
    ],
    [
      'three different things',
      [c('where is my refund?'), a('Checking.'), c('how do I update my address?'), a('Sure.'), c('what plans do you have?')],
      null,
    ],
  ],
  'ninth round: indirect requests, slang, a second language, signs told in passing': [
    ['anyone home', 'anybody home?? the app keeps looping me', 'customer_request'],
    ['anyone else available', 'this is a bot isnt it. is anyone else available', 'customer_request'],
    ['anyone available to let an engineer in is no request', 'will anyone be available to let the engineer in on Tuesday?', null],
    ['whoever is in charge', 'Whoever is in charge of refunds, I need them to look at this', 'customer_request'],
    ['I need whoever', 'then I need whoever approved that charge', 'customer_request'],
    ['a word', 'who runs that team? I would like a word', 'customer_request'],
    ['a word about the bill is no request', "I'd like a word about the bill layout, it's confusing", null],
    ['a bell', "give me a bell on my mobile when you've got a minute", 'customer_request'],
    ['who can actually check', "isn't there anybody there who can actually check my meter reading", 'customer_request'],
    ['no actual person to get hold of', 'so there is no real person I can get hold of?', 'customer_request'],
    ['reel person', 'i need a reel human for this', 'customer_request'],
    // ADR 0041: asked of the chat, "are you a bot?" asks for a person, until the customer takes the agent's answer.
    ['are you a bot', 'Are you a real person?', 'customer_request'],
    ['am I talking to a robot', 'wait am i talking to a robot', 'customer_request'],
    [
      'the bot question answered, then the business goes on',
      [c('are you a bot?'), a("I'm Baton's virtual assistant. I can help with bills and payments."), c("ok, what's my balance?")],
      null,
    ],
    [
      'the bot question answered, then a person asked for',
      [c('are you a bot?'), a("I'm Baton's virtual assistant. How can I help?"), c('then put me through to a human')],
      'customer_request',
    ],
    ['what a bot can do is no bot question', 'are you a bot that can change my tariff?', null],
    ['a fishing reel is no person', 'can I pay for the fishing reel I ordered with my account credit?', null],
    ['a second language, then "no" in it', 'quiero hablar con un agente, no hablo bien ingles', 'customer_request'],
    ['a learner states suicide', 'sorry my english, I want to kill me, I cannot pay', 'safety'],
    ['a knife at hand', 'I am sitting here with a knife and I cannot do this anymore', 'safety'],
    ['the last person ever', "thanks for trying. you might be the last one I'll ever speak to", 'safety'],
    ['what others do after', "can you close it all so my sister doesn't have to go through my things after", 'safety'],
    ['a threat to find where staff live', "I'll find out where your agent lives and he'll regret it", 'safety'],
    ['came at someone with a weapon', 'my neighbour came at me with a bat over the shared wifi', 'safety'],
    ['a house burnt down with someone inside', 'he told me he would burn the flat down with me in it', 'safety'],
    ['a flood rising', "the cellar is filling up with water and it's up to my waist and rising", 'safety'],
    ['no point of going on', "honestly I can't see the point in going on any more", 'safety'],
    ['not here next month', "I don't think I'll be around next month to pay it", 'safety'],
    ['not here next month: a trip', "I don't think I'll be here next month, we're moving to Leeds", null],
    ['in front of a train', 'some days I think about stepping in front of the bus', 'safety'],
    ['an overdose told in passing', 'I took 15 of my paracetamol an hour ago, anyway my bill', 'safety'],
    ['finish me', "he said once the match is over he's going to finish me", 'safety'],
    ['scared to leave the house', 'since he found my address I am too scared to leave the house', 'safety'],
    ['a thing held hostage is a grievance', "you're holding my deposit hostage, refund it", null],
    ['escalated through the complaints procedure', 'escalate this through your official complaints process please', 'policy_topic'],
    ['an independent body', 'which independent body can I take this to?', 'policy_topic'],
    ['a firm instructed', 'I have instructed a law firm about these charges', 'policy_topic'],
  ],
  'amounts: only writes count': [
    ['a read with an amount', [call('calculate_refund', 500)], null, { autonomousLimit: 100 }],
    ['a write above', [call('issue_refund', 500)], 'value_threshold', { autonomousLimit: 100 }],
    ['European decimals', [call('issue_refund', '1.250,00')], 'value_threshold', { autonomousLimit: 100 }],
    ['European decimals below', [call('issue_refund', '89,00')], null, { autonomousLimit: 100 }],
  ],
};

const cases = Object.entries(table).flatMap(([group, rows]) =>
  rows.map(([label, messages, expected, policy]) => ({
    name: `${group}: ${label}`,
    items: typeof messages === 'string' ? [c(messages)] : messages,
    expected,
    policy: DeciderPolicySchema.parse(policy ?? {}),
  })),
);

describe('decideTranscript on paraphrases', () => {
  it.each(cases)('$name', ({ items, expected, policy }) => {
    const decision = decideTranscript(items, policy);
    expect(decision.reason).toBe(expected);
    if (expected !== null) expect(decision.evidence).toBe(decision.signals[0]?.evidence);
  });
});
