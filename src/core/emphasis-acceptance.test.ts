import { describe, expect, it } from 'vitest';
import { isAcceptance, isEmphatic } from './handoff-topics-lexicon.js';

describe('isEmphatic: a voice raised in a message otherwise in lower case', () => {
  it.each([
    "THEY DIDN'T COME. I took a day off work.",
    'the phone IS unlocked, the SIM is NOT the problem',
    'where. is. my. router.',
    'I AM the account holder, I HAVE passed security',
  ])('raised: %s', (text) => {
    expect(isEmphatic(text)).toBe(true);
  });
  it.each([
    // One stressed word is often for clarity, not anger.
    'is MY phone unlocked?',
    'I DID top up. £30 at the post office.',
    // Names, codes and acronyms are not a raised voice.
    'my SIM and PUK are both blocked',
    'please update my address to 14 Orchard Way, Leeds LS6 2QT',
    'apply code WELCOME10 to invoice INV-55102',
    'my IBAN and IMEI are on the form',
    // Someone else's words in quotes.
    'it shows as "EXAMPLE TELECOM REFUND" on my statement',
    // All capitals is judged elsewhere (isShouting), not here.
    'I NEED MY BILL SENT BY POST',
    'I want a refund. Please. Now please.',
    'the engineer comes at 9 AM on Monday',
  ])('not raised: %s', (text) => {
    expect(isEmphatic(text)).toBe(false);
  });
});

describe('isAcceptance: a reply that takes the answer and asks nothing more', () => {
  it.each(['ok monthly is fine then', "fair enough, i'll try it tonight", 'ah ok, makes sense', "ok i'll wait and see"])(
    'accepts: %s',
    (text) => {
      expect(isAcceptance(text)).toBe(true);
    },
  );
  it.each([
    'fair enough, but is that fine for my contract?',
    'yes it works. the problem is the paper bill still goes to my old flat and i would like it sent to the new one please',
    'the app is fine then crashes when i open billing',
    'can i pay monthly instead',
  ])('does not accept: %s', (text) => {
    expect(isAcceptance(text)).toBe(false);
  });
});
