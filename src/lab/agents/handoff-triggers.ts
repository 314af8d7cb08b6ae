/**
 * The hand-off triggers a rule agent reads in the customer's latest turn. The decider's lexicon
 * (the same signals the harness's decider sees) gives safety, requests for a person and reserved
 * topics; a few patterns of the agent's own add what the lexicon misses (indirect requests for a
 * person, a dead account holder named in a subordinate clause) and draw the policy's line where a
 * lexicon hit alone does not (a lawyer mentioned in passing; a loss mentioned by a customer about
 * their own account). Out of scope is judged clause by clause against what the agent handles.
 */
import { DEFAULT_DECIDER_POLICY, extractSignals, type Signal } from '../../core/index.js';
import type { ConversationView } from './conversation.js';

/** A hand-off trigger in the customer's latest turn. */
export interface Trigger {
  reason: 'safety' | 'customer_request' | 'policy_topic' | 'no_capability';
  /** For `policy_topic`: which topic. */
  topic: 'complaint' | 'bereavement' | 'legal' | null;
  evidence: string;
}

const clausesOf = (text: string): string[] =>
  text
    .split(/(?<=[.?!;])\s+|\n+/)
    .map((c) => c.trim())
    .filter(Boolean);

const REPORTED = /\b(?:told me|said|says|suggested|recommended|advised|asked me|mentioned)\b/i;
const NEGATION = /\b(?:don't|do not|dont|no need|never|not|rather not|won't)\b|n't\b/i;

// Direct and indirect requests for a person the lexicon may not know.
const PERSON =
  '(?:humans?|real person|actual person|live (?:agent|person)|members? of (?:your |the )?staff|staff member|someone real|human being|a person|real people|colleagues?|supervisor|manager)';
const WANTS_PERSON = new RegExp(
  [
    `\\b(?:speak|talk|discuss|chat|deal|go (?:over|through)|trust|want|need|prefer|rather|get me|connect|transfer|put me through)\\b[^.?!;]{0,40}\\b${PERSON}\\b`,
    '\\b(?:is|are) (?:there )?(?:anyone|anybody|someone|somebody|a person|a human)\\b[^.?!;]{0,30}\\b(?:available|there|who (?:can|could)|that (?:can|could))\\b',
    `\\b(?:could|can|would|will) (?:one of )?your (?:colleagues?|team|staff|supervisor|manager)\\b`,
    '\\b(?:somebody|someone|anyone|anybody) (?:on|from|in) your (?:team|staff|side)\\b',
    `\\b(?:feel better|prefer|rather|happier|more comfortable) if (?:a|an|one of|some)\\b[^.?!;]{0,25}\\b(?:${PERSON}|someone|somebody|people)\\b`,
    `\\b${PERSON}\\b[^.?!;]{0,20}\\b(?:handled|handle|take over|took over|took a look|take a look|look at|deal with|dealt with)\\b`,
  ].join('|'),
  'i',
);
const NOT_A_BOT = /\bnot (?:a|an|some|your) (?:bot|robot|machine|automated \w+|ai)\b|\bno (?:more )?(?:bots|robots|machines)\b/i;

/** A request for a person the lexicon may not know: not negated, not reported speech. */
function personAskedFor(text: string): string | null {
  for (const clause of clausesOf(text)) {
    if (NOT_A_BOT.test(clause)) return clause;
    const m = WANTS_PERSON.exec(clause);
    if (!m) continue;
    if (REPORTED.test(clause.slice(0, m.index)) || NEGATION.test(clause.slice(0, m.index + m[0].length))) continue;
    return clause;
  }
  return null;
}

// Action against the company, not a lawyer mentioned in passing ("my sister, who is a lawyer, said …").
const LEGAL_ACTION =
  /\b(?:su(?:e|ing|ed)\b|law ?suits?|legal (?:action|proceedings|steps|claim|case|route)|(?:in|to|into) court|small[\s-]claims|litigat\w*|(?:preparing|prepare|file|filing|bring|bringing|make|making) (?:a )?(?:legal )?(?:claim|case)|claim against|my (?:lawyer|attorney|solicitor)s?\b|our (?:lawyer|attorney|solicitor)s?\b|cease and desist|(?:lawyer|attorney|solicitor) (?:is|will|has|are) (?:\w+ )?(?:contact|writ|handl|draft|prepar|sending|send))/i;
// The death of the account holder, not a loss mentioned by a customer about their own account.
const OWN_ACCOUNT =
  /\bmy own\b|\b(?:cancel|change|stop|close) my (?:account|subscription|internet|plan|service|order|reservation|flight)\b/i;
const THEIR_ACCOUNT =
  /\baccount (?:holder|owner)\b|\b(?:his|her|their)(?: \w+)? (?:account|subscription|internet|service|plan|bills?|reservation|order|affairs)s?\b|\bon (?:his|her|their) behalf\b|\bestate\b|\bin (?:his|her|their) name\b/i;
const HOLDER_DIED =
  /\b(?:account (?:holder|owner))\b[^.?!]{0,40}\b(?:died|passed away|passed on|is deceased|has died)\b|\b(?:died|passed away|passed on)\b[^.?!]{0,60}\b(?:account (?:holder|owner)|(?:his|her|their) affairs|(?:his|her|their) estate)\b/i;

/**
 * The policy's own line around two reserved topics: a legal topic is a threat of action, and
 * bereavement is someone contacting us about a dead account holder's account.
 */
function topicHolds(topic: 'complaint' | 'bereavement' | 'legal', latest: string, everything: string): boolean {
  if (topic === 'legal') return LEGAL_ACTION.test(latest);
  if (topic === 'bereavement') return THEIR_ACCOUNT.test(everything) || !OWN_ACCOUNT.test(everything);
  return true;
}

/**
 * The triggers in the customer's latest turn: safety, a request for a person not taken back in the
 * same turn, and a topic reserved for humans. Out of scope is `outOfScopeIn`'s business.
 */
export function triggersInLatestTurn(view: ConversationView): Trigger[] {
  let from = 0;
  view.transcript.forEach((item, i) => {
    if (item.role === 'agent') from = i + 1;
  });
  // Only the lexicon's reading is wanted here: thresholds and targets are the agent's own business.
  const signals = extractSignals(view.transcript, DEFAULT_DECIDER_POLICY).filter((s) => s.index >= from);
  const of = <K extends Signal['kind']>(kind: K) => signals.filter((s): s is Extract<Signal, { kind: K }> => s.kind === kind);
  const out: Trigger[] = [];
  for (const s of of('safety')) out.push({ reason: 'safety', topic: null, evidence: s.evidence });
  const request = of('human_request').at(-1);
  const refused = of('human_declined').some(
    (d) => !request || d.index > request.index || (d.index === request.index && d.offset > request.offset),
  );
  const own = refused ? null : personAskedFor(view.latest);
  if (request && !refused) out.push({ reason: 'customer_request', topic: null, evidence: request.evidence });
  else if (own) out.push({ reason: 'customer_request', topic: null, evidence: own });
  const everything = view.customerTexts.join('\n');
  for (const s of of('policy_topic')) {
    if (topicHolds(s.topic, view.latest, everything)) out.push({ reason: 'policy_topic', topic: s.topic, evidence: s.evidence });
  }
  const died = HOLDER_DIED.exec(view.latest);
  if (died && !out.some((t) => t.topic === 'bereavement')) out.push({ reason: 'policy_topic', topic: 'bereavement', evidence: died[0] });
  return out;
}

// A clause that asks the agent to do something.
const REQUEST =
  /\b(?:could|can|would|will) you\b|\bi(?: also| really| still| just)? (?:need|want|would like|wanna)\b|\bi'd (?:also )?like\b|\bis it possible\b|\bhelp me (?:with|to)\b|\bplease (?!go ahead|proceed|do\b|continue|hurry|be quick)[a-z]+/i;
// A clause that answers the agent rather than asking: yes/no, thanks, facts.
const ANSWER =
  /^\W*(?:yes|yeah|yep|yup|sure|ok(?:ay)?|no|nope|correct|right|fine|thanks?|thank you|certainly|absolutely|of course|alright|great|perfect)\b/i;
const FILLER = new Set(
  (
    'the and for you your can could would will please just also then that this with what have has not are was were its about from ' +
    'into ahead there here them they me my our yes okay sure whenever ready when now quickly fast hurry soon asap go get done ' +
    'thing things again really very much help like need want way one more time while by too as well additionally another ' +
    'double check checked before sure right correct confirm verify careful make speed wrap quick quicker finish going move along'
  ).split(' '),
);

// A clause that adds a request of its own to the turn ("By the way, could you also …").
const ANOTHER =
  /\b(?:by the way|btw|while i have you|one more thing|another thing|something else|before i forget|on top of that|unrelated)\b/i;

/**
 * The first clause of the latest turn that asks for something the agent does not handle, or null.
 * A turn that names anything in scope (`inScope`) is judged in scope as a whole, as one clause
 * naming a request usually carries its neighbours, except a clause that adds a request of its own
 * ("… By the way, could you also …"), which is judged alone. Answers, thanks and pleas to hurry up
 * ask for nothing.
 */
export function outOfScopeIn(latest: string, inScope: (text: string) => boolean): string | null {
  const whole = inScope(latest);
  for (const clause of clausesOf(latest)) {
    const m = REQUEST.exec(clause);
    if (!m || ANSWER.test(clause) || REPORTED.test(clause.slice(0, m.index))) continue;
    if (whole && !(ANOTHER.test(clause) && !inScope(clause))) continue;
    const content = (clause.toLowerCase().match(/[a-z]{3,}/g) ?? []).filter((w) => !FILLER.has(w));
    if (content.length >= 2) return clause;
  }
  return null;
}
