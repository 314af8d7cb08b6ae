import type { TranscriptItem } from './transcript.js';

// A customer's explicit yes: short affirmatives, or a clause that confirms or tells the agent to go on.
const AFFIRMATIVE =
  /\b(yes|yeah|yep|yup|sure|ok(ay)?|confirm(ed)?|correct|go ahead|proceed|please do|do it|that'?s right|sounds good|i agree|approved?)\b/i;
// A refusal or hesitation anywhere in the same turn outweighs an affirmative word in it.
const NEGATIVE = /\b(no|nope|not|don'?t|do not|never|cancel that|wait|stop|hold on|hmm|maybe|unsure|not sure)\b/i;

/**
 * Whether the customer's latest turn explicitly confirms what the agent proposed in the turn
 * before it. Writes that a domain marks as needing confirmation run only when this holds: the
 * customer must have said yes after the agent's last message, not before it, and not hesitantly.
 */
export function hasExplicitConfirmation(items: readonly TranscriptItem[]): boolean {
  let lastCustomer = -1;
  let lastAgent = -1;
  items.forEach((item, i) => {
    if (item.role === 'customer') lastCustomer = i;
    if (item.role === 'agent') lastAgent = i;
  });
  if (lastCustomer < 0 || lastAgent < 0 || lastCustomer < lastAgent) return false;
  const text = (items[lastCustomer] as { text: string }).text.replace(/[\u2018\u2019]/g, "'");
  return AFFIRMATIVE.test(text) && !NEGATIVE.test(text);
}
