import { resolutionCategory } from './resolution-category.js';
import { normalize, phrasePattern, WORD_CHAR } from './text.js';

const WORD = `(?:${WORD_CHAR}|-)+`;

// What a support agent asks a customer for.
const INFO =
  '(?:(?:order|account|booking|reservation|ticket|confirmation|reference|tracking|transaction|invoice|customer|member|membership|card|phone|case|policy) )?(?:id|ids|number|#|e-?mail(?: address)?|name|date|date of birth|birthday|address|phone|code|zip(?: code)?|post ?code|postal code|username|last (?:four|4)(?: digits)?|digits|reference|card|account|order|booking|receipt|invoice|screenshot)';

const ASKS = phrasePattern([
  // "could you provide / confirm / tell me …"
  '(?:could|can|would|will) you (?:please )?(?:provide|confirm|tell me|give me|send(?: me)?|share|let me know|verify|spell)',
  // "please send me your …", and "Provide the …" opening a sentence (not "I can confirm the refund")
  '(?:please|(?<=^|[.!?:;] )) ?(?:provide|send|share|confirm|verify|tell me)(?: me)?(?: with)? (?:your|the)',
  // "may I have your order number"
  `(?:may|can|could) i (?:please )?(?:have|get|ask for|ask you for) (?:your|the) (?:${WORD} ){0,3}?${INFO}`,
  // "what's the e-mail on the account", "what is your order number"
  `(?:what|which)(?:'s| is| was| are)? (?:your|the) (?:${WORD} ){0,3}?${INFO}`,
  `which ${INFO}`,
  `do you have (?:your|the|an?) (?:${WORD} ){0,2}?${INFO}`,
  'when did you',
]);

/**
 * Whether `text` asks the customer for information: a request to provide / confirm / tell / send /
 * share / verify something ("could you confirm…", "please provide your…", "may I have your…"), or a
 * question after an identifier, number, e-mail, name, date, address, code, card, account, order,
 * reference or receipt ("what's your order number", "which card", "do you have the booking
 * reference", "when did you…"). "Is there anything else I can help with?" asks for nothing.
 */
export function asksForInformation(text: string): boolean {
  return ASKS.test(normalize(text));
}

/**
 * Indices of agent messages that ask the customer for information ({@link asksForInformation})
 * after an EARLIER agent message claimed the issue resolved (`resolutionCategory === 'resolved'`):
 * the agent is still gathering what it would have needed to resolve anything. A message that
 * claims resolution and asks in the same breath is not counted; only a later question is.
 */
export function contradiction(messages: readonly string[]): number[] {
  const found: number[] = [];
  let claimed = false;
  messages.forEach((message, i) => {
    if (claimed && asksForInformation(message)) found.push(i);
    if (!claimed && resolutionCategory(message) === 'resolved') claimed = true;
  });
  return found;
}
