import { describe, expect, it } from 'vitest';
import {
  AGENT_FALLBACK,
  CORRECTION,
  RESTATEMENT,
  SAME_INTENT,
  answersInKind,
  intentSimilarity,
  intentVector,
} from './intent-similarity.js';

const sim = (a: string, b: string) => intentSimilarity(intentVector(a), intentVector(b));

describe('intent similarity', () => {
  it.each([
    ['where is my refund', 'when will i get my money back'],
    ['i want to cancel my subscription', 'please end my membership'],
    ['my parcel has not arrived', 'the delivery never came'],
    ['why is my bill so high this month', 'the invoice is much more than usual'],
    ['can i change my flight to friday', 'i need to move my booking to a later date'],
    ['my wifi keeps dropping in the evening', 'the broadband cuts out every night'],
    ['what do i need to port out', 'i need the code to keep my number when i switch network'],
    ['put both lines on one bill', 'can our accounts be combined'],
    ['why is my download so slow', 'what speed am i supposed to get'],
  ])('"%s" and "%s" are one intent', (a, b) => {
    expect(sim(a, b)).toBeGreaterThanOrEqual(SAME_INTENT);
  });

  it.each([
    ['cancel my order', 'what is the status of my order'],
    ['where is my refund', 'how do i update my address'],
    ['i want to cancel my subscription', 'can i add my partner to the account'],
    ['my wifi keeps dropping', 'when is my bill due'],
    ['how much data have i used', 'my router light is red'],
  ])('"%s" and "%s" are different intents', (a, b) => {
    expect(sim(a, b)).toBeLessThan(SAME_INTENT);
  });

  it('knows restatement markers and agent fallbacks', () => {
    expect(RESTATEMENT.test('to clarify: can you tell me the status of my refund')).toBe(true);
    expect(RESTATEMENT.test("sorry, maybe i wasn't clear. i need to update my card")).toBe(true);
    expect(RESTATEMENT.test('can you tell me the status of my refund')).toBe(false);
    expect(AGENT_FALLBACK.test("i'm sorry, i'm not able to find that. can you try asking in a different way?")).toBe(true);
    expect(AGENT_FALLBACK.test('your refund was issued yesterday.')).toBe(false);
  });

  it.each([
    'thanks, but i meant the date my contract ends',
    "i'm not asking how to pay, i'm asking why it went up",
    'not the pin, the puk. it says sim blocked',
    "i've looked there. what i need is my own end date",
    'let me ask differently: please post my bills',
    "that's not what i asked",
    'i did top up. it is not on the meter',
    'stop changing the subject. what is the extra charge for',
    "i don't want a discount, cancel it",
    'yes i know, i want it switched off, not on',
    'i understand, so please put the right reading on it',
    'i know what line rental is. the adjustment part',
    "i'm not travelling. i'm calling ireland from home",
    "nothing wrong with the card. it's the date i want moved",
    "right, i don't want it to renew",
    "that's nice, but am i eligible to upgrade early?",
  ])('"%s" corrects the agent', (text) => {
    expect(CORRECTION.test(text)).toBe(true);
  });

  it.each([
    'and can i pay by card as well?',
    'what about the upload speed',
    'i mean it, this is great',
    'thanks! that sorted it',
    'i did not get the email',
    'i know that now, thanks. can i pay it by card?',
    "i don't think so",
  ])('"%s" corrects nothing', (text) => {
    expect(CORRECTION.test(text)).toBe(false);
  });

  it.each([
    ['how much is the sports pack?', '£12 a month.', 'answered'],
    ['when is my bill due', 'on the 14th of march.', 'answered'],
    ['can i keep my number?', 'yes, it moves with you.', 'answered'],
    ['how do i change the wifi password', 'go to settings > wireless and enter a new key.', 'answered'],
    ['is there a charge for paying late?', '£5 if paid more than 7 days late.', 'specific'],
    ['when does my contract end?', 'our plans come with speeds of up to 900mbps.', 'unanswered'],
    ['can i pause my tv subscription?', 'our tv packages include sports and movies.', 'unanswered'],
    ['please refund the charge', 'done.', null],
    // Asked politely, judged by what is asked.
    ['could you please tell me the date of my last payment?', '1 june, £40.', 'answered'],
    // A price is no answer to "when", nor a date to "how much".
    ['can you tell me when the next payment is?', 'our plans start at £10.', 'unanswered'],
    ['how much is the sports pack?', 'it renews on the 14th.', 'unanswered'],
    // A statement asks nothing, whatever its clauses say.
    ["i'd like to keep my number when the new sim arrives.", 'your sim arrives in 2 days.', null],
    ["what's the tracking number?", 'royal mail, rm 3310 2290.', 'answered'],
    ['could you explain if i can pay the first bill in two parts?', 'yes, half now and half later.', 'answered'],
    ['could you tell me the amount of the next payment?', 'payments are taken by direct debit.', 'unanswered'],
  ] as const)('to "%s", "%s" is %s', (ask, reply, verdict) => {
    expect(answersInKind(reply, ask)).toBe(verdict);
  });
});
