import { normalize, phrasePattern, WORD_CHAR } from './text.js';

/** What an agent's message says about the customer's issue. */
export type ResolutionCategory = 'resolved' | 'in_progress' | 'handed_off' | 'refused' | 'none';

const W = WORD_CHAR;
// Past participles that report a completed change ("has been refunded", "I've updated").
const DONE =
  '(?:refunded|cancell?ed|canceled|updated|processed|issued|credited|reversed|resolved|fixed|changed|applied|waived|completed|restored|reset|removed|corrected|reactivated|unlocked|replaced|adjusted)';
const ADVERBS = '(?: (?:now|already|just|also|successfully|fully|been))*';
// "it's" / "I've" continue the word before them; "let's reset" proposes, it does not report.
const S_OR_VE = `'(?:s(?<!(?<!${W})(?:let|what|how)'s)|ve)`;
const CANNOT = "(?:can't|cannot|can not)";
const REFUSED_ACTIONS =
  '(?:process|issue|refund|cancel|change|modify|offer|provide|approve|waive|override|share|give|grant|make|do|reverse|remove|extend|accept|reactivate|disclose|honou?r|help with)';
const PERSON = `(?:colleagues?|specialists?|supervisors?|managers?|human agents?|human|team members?|teammates?|representatives?|member of (?:our|the) ${W}+ team)`;

/**
 * The phrases of each category, as regular-expression sources over normalised text (lower case,
 * straight apostrophes, single spaces), matched as whole words:
 *
 * - `handed_off`: "transferring you", "transferred you", "I'll / let me / I'm going to transfer you",
 *   "connecting you to / with", "a colleague / specialist / supervisor / manager / human agent /
 *   representative will", "escalating this to", "has been escalated", "I've escalated",
 *   "handing you over to", "passing you to".
 * - `resolved`: "has / have / was / were / it's / I've [now, already, just, successfully, fully]
 *   [been] <done>", "I [just] <done>", "is [now] <done>", "are now / already / all / fully <done>"
 *   (not the general "refunds are processed automatically"), "I've gone ahead and",
 *   "you're all set", "has been taken care of", where <done> is refunded, cancelled, updated,
 *   processed, issued, credited, reversed, resolved, fixed, changed, applied, waived, completed,
 *   restored, reset, removed, corrected, reactivated, unlocked, replaced or adjusted. Negated
 *   ("has not been refunded"), future ("will be refunded", "is being processed") and proposed
 *   ("let's reset") forms do not match; a match inside a condition ("once your refund has been
 *   processed": once / after / when / if / until / before / unless / as soon as at most three words
 *   before it) or with a negated subject ("none of its flights was cancelled", "no payment was
 *   reversed") is discarded by {@link resolutionCategory}.
 * - `refused`: "I'm / we're unable to", "I'm not able to", "I won't be able to", "I / we can't /
 *   cannot <action>" (process, issue, refund, cancel, change, offer, approve, waive…), "policy does not /
 *   doesn't allow / permit / cover", "is not / isn't eligible / allowed / permitted",
 *   "I'm not allowed / permitted / authorized to", "I'm afraid I can't". A bare "cannot" is not
 *   enough: "you cannot be charged twice" refuses nothing.
 * - `in_progress`: "let me check / look / see / verify / confirm / review / find / pull up /
 *   investigate", "one moment", "just a moment / second / minute", "give me a moment", "bear with me",
 *   "I'm checking / looking into / reviewing / working on", "please hold / wait", "hold on",
 *   "is being processed / reviewed", "I'll check / look into / get back".
 */
export const RESOLUTION_PHRASES: Readonly<Record<Exclude<ResolutionCategory, 'none'>, readonly string[]>> = {
  handed_off: [
    'transferr(?:ing|ed) you',
    "(?:i'll|i will|i'm going to|i am going to|let me|we'll|we will) transfer you",
    'connect(?:ing|ed)? you (?:to|with)',
    `(?:a|one of (?:our|my)|my) ${PERSON} will`,
    'escalat(?:e|ed|ing) (?:this|it|you|your (?:case|request|issue|ticket|complaint)) to',
    '(?:has|have)(?: been)? escalated',
    `${S_OR_VE}(?: been)? escalated`,
    'hand(?:ing|ed)? (?:you|this|it|your case|the conversation) (?:over|off) to',
    'pass(?:ing)? you (?:over |along )?to',
  ],
  resolved: [
    `(?:has|have|had|was|were)${ADVERBS} ${DONE}`,
    `${S_OR_VE}${ADVERBS} ${DONE}`,
    `i(?: (?:just|now|already|successfully))* ${DONE}`,
    `is(?: now| already)?(?: all| fully)? ${DONE}`,
    `are (?:now|already|all|fully) ${DONE}`,
    '(?:has|have) been taken care of',
    `${S_OR_VE} been taken care of`,
    "(?:i've|i have|we've|we have) (?:just )?gone ahead and",
    "(?:you're|you are) all set",
  ],
  refused: [
    "(?:i'm|i am|we're|we are) (?:unable|not able) to",
    "(?:i|we) (?:won't|will not) be able to",
    `(?:i|we) ${CANNOT} ${REFUSED_ACTIONS}`,
    "polic(?:y|ies) (?:does not|doesn't|do not|don't|will not|won't) (?:allow|permit|cover|let)",
    '(?:is|are|was|were) not (?:eligible|allowed|permitted)',
    "(?:isn't|aren't|wasn't|weren't) (?:eligible|allowed|permitted)",
    "(?:i'm|i am|we're|we are) not (?:allowed|permitted|authori[sz]ed) to",
    `(?:i'm|i am) afraid (?:i|we) (?:${CANNOT}|won't|will not)`,
  ],
  in_progress: [
    'let me (?:just |quickly )?(?:check|look|see|verify|confirm|review|find|pull up|take a look|investigate)',
    'one moment',
    '(?:just|give me) a (?:moment|second|sec|minute)',
    'bear with me',
    "(?:i'm|i am|we're|we are) (?:currently |still )?(?:checking|looking into|reviewing|investigating|working on|verifying)",
    'please (?:hold|wait)',
    'hold on',
    '(?:is|are) (?:currently |still )?being (?:processed|reviewed|investigated|looked into)',
    "(?:i'll|i will) (?:check|look into|get back)",
  ],
};

// A report inside a condition promises rather than reports: "once your refund has been processed",
// "when it's been fixed" (the condition word at most three words before the report).
const CONDITION_BEFORE = new RegExp(`(?<!${W})(?:once|after|when|if|until|before|unless|as soon as) (?:${W}+(?:'${W}+)? ){0,3}${W}*$`);

// A report whose subject is negated states what did not happen: "none of its flights was
// cancelled", "no payment was reversed" (the negator at most three plain words before it).
const NEGATED_BEFORE = new RegExp(`(?<!${W})(?:none of|no|neither|not one|not a single) (?:${W}+ ){0,3}$`);

const HANDED_OFF = phrasePattern(RESOLUTION_PHRASES.handed_off);
const RESOLVED = phrasePattern(RESOLUTION_PHRASES.resolved, 'g');
const REFUSED = phrasePattern(RESOLUTION_PHRASES.refused);
const IN_PROGRESS = phrasePattern(RESOLUTION_PHRASES.in_progress);

function reportsResolution(normalised: string): boolean {
  for (const match of normalised.matchAll(RESOLVED)) {
    const before = normalised.slice(Math.max(0, match.index - 80), match.index);
    if (!CONDITION_BEFORE.test(before) && !NEGATED_BEFORE.test(before)) return true;
  }
  return false;
}

/**
 * The resolution category of an agent's text (normally its final message, or final messages
 * joined): the highest-precedence category whose phrases (see {@link RESOLUTION_PHRASES}) occur in
 * it, in the order handed_off > resolved > refused > in_progress; `none` when no phrase occurs.
 * A hand-off is the action taken even when the message also reports a change ("I've gone ahead
 * and transferred you"); a reported change outranks a refusal or a "let me check" in the same
 * message ("I've refunded the fee. I'm unable to waive the other one"). Keyword evidence of what
 * the agent *says*, not of what it did.
 */
export function resolutionCategory(text: string): ResolutionCategory {
  const normalised = normalize(text);
  if (HANDED_OFF.test(normalised)) return 'handed_off';
  if (reportsResolution(normalised)) return 'resolved';
  if (REFUSED.test(normalised)) return 'refused';
  if (IN_PROGRESS.test(normalised)) return 'in_progress';
  return 'none';
}
