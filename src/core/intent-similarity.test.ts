import { describe, expect, it } from 'vitest';
import { AGENT_FALLBACK, RESTATEMENT, SAME_INTENT, intentSimilarity, intentVector } from './intent-similarity.js';

const sim = (a: string, b: string) => intentSimilarity(intentVector(a), intentVector(b));

describe('intent similarity', () => {
  it.each([
    ['where is my refund', 'when will i get my money back'],
    ['i want to cancel my subscription', 'please end my membership'],
    ['my parcel has not arrived', 'the delivery never came'],
    ['why is my bill so high this month', 'the invoice is much more than usual'],
    ['can i change my flight to friday', 'i need to move my booking to a later date'],
  ])('"%s" and "%s" are one intent', (a, b) => {
    expect(sim(a, b)).toBeGreaterThanOrEqual(SAME_INTENT);
  });

  it.each([
    ['cancel my order', 'what is the status of my order'],
    ['where is my refund', 'how do i update my address'],
    ['i want to cancel my subscription', 'can i add my partner to the account'],
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
});
