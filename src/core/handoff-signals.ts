import { z } from 'zod';
import type { DeciderPolicy } from './decider-policy.js';
import { ACCEPT, AGENT_OFFER, DECLINE, isNegatedBefore, normalizeText, splitClauses, words, type Clause } from './handoff-lexicon.js';
import {
  BEREAVED_SUBJECT,
  DEATH_WITHOUT_SUBJECT,
  OWN_MATTER,
  THEIR_MATTER,
  FRUSTRATION,
  isAcceptance,
  GRATITUDE,
  POLICY_TOPIC_PATTERNS,
  type TopicPattern,
  PROBLEM_FRAME,
  REQUEST_FRAME,
  STILL_A_PROBLEM,
  THING_DIED,
  isIntentWord,
  isRequestWord,
  isEmphatic,
  isShouting,
  stem,
} from './handoff-topics-lexicon.js';
import { personRequest } from './person-request.js';
import { ASKS_IF_BOT, isHypothetical } from './person-request-frames.js';
import { classifierSignals } from './classifier-signals.js';
import { defaultHandoffModel } from './handoff-model.js';
import type { HandoffModel } from './handoff-classifier.js';
import { toolSignals } from './tool-signals.js';
import { AGENT_ALTERNATIVE, KEEP_WAITING, SELF_WITHDRAW, STILL_WANTED, TAKE_HELP, UNREALISED_REQUEST, WITHDRAW } from './withdrawal.js';
import {
  AGENT_FALLBACK,
  MENU_PATH,
  STEP_VERBS,
  answersInKind,
  createIntentLog,
  intentSimilarity,
  intentVector,
  type IntentVector,
} from './intent-similarity.js';
/** An agent reply this far from what the customer asked (intent cosine) answered nothing. */
const NON_ANSWER = 0.15;
// An apology, an acknowledgement or an announced action engages with the customer, whatever its words.
const ENGAGES =
  /\b(?:sorry|apologi[sz]e|understand|let me|i'll|i will|i'm going to|one moment|checking|looking into|i can see|i see|i've|i have|done|updated|sent|cancelled|canceled|refunded|applied|booked)\b/;
import { MEDICAL_HISTORY, MEDICAL_HYPERBOLE, RESOLVED_HAZARD, SAFETY_FAMILIES, SAFETY_IDIOM } from './safety-lexicon.js';
import { canonicalize } from './text-canon.js';
import { memoByText } from './memo.js';
import { allMatches } from './all-matches.js';
import type { TranscriptItem } from './transcript.js';

/** Where a signal fired: the exact text, the transcript item, and the offset of the text in it. */
const At = { evidence: z.string(), index: z.number().int().nonnegative(), offset: z.number().int().nonnegative() };
/** A signal the trained classifier added (`classifier-signals.ts`): its name, the head that fired, and its score. */
const ByClassifier = { classifier: z.object({ model: z.string(), head: z.string(), score: z.number() }).optional() };

/**
 * One observation about a conversation, with the text it fired on. Signals are facts, not
 * decisions: thresholds (the autonomous limit, the failure and loop limits) are applied by
 * `decideHandoff`, so an LLM classifier only has to produce the same facts.
 */
export const SignalSchema = z.discriminatedUnion('kind', [
  /** The customer asks for a person, or accepts the agent's offer of one. */
  z.object({ kind: z.literal('human_request'), ...At, ...ByClassifier }),
  /** The customer refuses a person ("don't transfer me"); it cancels an earlier request. */
  z.object({ kind: z.literal('human_declined'), ...At }),
  z.object({ kind: z.literal('safety'), topic: z.enum(['self_harm', 'danger', 'medical']), ...At, ...ByClassifier }),
  z.object({ kind: z.literal('policy_topic'), topic: z.enum(['complaint', 'bereavement', 'legal']), ...At, ...ByClassifier }),
  z.object({ kind: z.literal('no_capability'), cause: z.enum(['tool_disabled', 'tool_unavailable', 'out_of_scope']), ...At }),
  /** A write tool call and its amount, whatever the limit. */
  z.object({ kind: z.literal('write_amount'), tool: z.string(), amount: z.number(), ...At }),
  z.object({ kind: z.literal('tool_result'), tool: z.string(), ok: z.boolean(), ...At }),
  /** The customer states an intent; restatements of one intent carry the same `intent` key. */
  z.object({ kind: z.literal('intent'), intent: z.string(), ...At }),
  /** Frustration: a modifier that never hands off alone. */
  z.object({ kind: z.literal('frustration'), ...At }),
]);
export type Signal = z.infer<typeof SignalSchema>;
/** The kinds of signal, for code that switches on them. */
export type SignalKind = Signal['kind'];

/**
 * The signal extraction port. The default is `extractSignals`, a deterministic lexicon and
 * pattern detector that works offline; an LLM classifier can implement the same port.
 */
export interface SignalExtractor {
  extract(items: readonly TranscriptItem[], policy: DeciderPolicy): Signal[] | Promise<Signal[]>;
}

function frustration(clauses: readonly Clause[], text: string, whole: string): Clause | { text: string; start: number } | undefined {
  for (const clause of clauses) {
    const m = FRUSTRATION.exec(clause.norm);
    if (m && !isNegatedBefore(clause.norm.slice(0, m.index))) return clause;
  }
  // Clause splitting drops punctuation, so "!!!" and shouting are judged on the whole message.
  // "OK THANKS" in capitals closes the conversation; it is not shouting at anyone.
  const closing = GRATITUDE.test(whole) && !STILL_A_PROBLEM.test(whole) && !TOLD_TO_DO.test(whole);
  if (/[!?]{3,}|!{2,}/.test(text) || ((isShouting(text) || isEmphatic(text)) && !closing)) return { text, start: 0 };
  return undefined;
}

/** A speaker's name before a colon and a quote or a line, as in a pasted chat: "Agent: \"Connecting you now.\"". */
const SPEAKER_LABELS = /(?:^|[\s"”.!?])[A-Za-z]+(?: [A-Za-z]+)?:\s*["“]/g;
const isSpeakerLabel = (text: string, clause: Clause): boolean =>
  clause.norm.split(' ').length <= 2 && /^\s*:\s*["“]/.test(text.slice(clause.start + clause.text.length));
const ESCALATE = /\bescalat/;
/** A move or a trip stated in the message (see the guard that uses it). */
const AWAY_FOR_A_REASON =
  /\b(?:moving|we're moving|i'm moving|move (?:to|abroad|house|out)|moved|relocat\w*|emigrat\w*|on holiday|going on holiday|travell?ing|abroad|a trip|away for|new job|new house|new flat|going back to|flying (?:to|out))\b/;
/** A statement of being absent, and nothing more: "I won't be here next month", "not planning on being around". */
const ABSENCE = /\b(?:be|being) (?:here|around)\b/;
/** Words that make an absence a sign whatever the trip: "kill", "end it", "die". */
const SELF_HARM_WORDS = /\b(?:kill|suicid\w*|die|dying|dead|end it|end my life|overdose|pills|tablets|goodbye|bridge|jump)\b/;
const COMPLAINT_ESCALATION =
  /\bescalat\w* (?:this|it|that|my \w+) (?:as|to|into) (?:a |an |my |your |the )?(?:formal |official )?complaints?\b/;

type Topic = 'complaint' | 'bereavement' | 'legal';
interface ClauseTopics {
  risk: 'self_harm' | 'danger' | 'medical' | null;
  topics: readonly Topic[];
}
// Like the person-request verdicts: a clause's topics depend on its text alone, and the decider
// reads a conversation's clauses again at every turn.
const clauseFacts = new Map<string, ClauseTopics>();

/** The safety topic and the reserved topics of one canonical clause. */
/** The reserved topics a canonical text raises, each once per pattern that matched it. */
function topicsOf(norm: string, patterns: readonly TopicPattern[] = POLICY_TOPIC_PATTERNS): Topic[] {
  const topics: Topic[] = [];
  for (const p of patterns) {
    if (p.pre !== undefined && !p.pre.test(norm)) continue;
    const m = p.re.exec(norm);
    if (p.topic === 'bereavement' && THING_DIED.test(norm)) continue;
    if (m && !(p.negatable && isNegatedBefore(norm.slice(0, m.index)))) topics.push(p.topic);
  }
  return topics;
}
function clauseTopics(norm: string): ClauseTopics {
  const known = clauseFacts.get(norm);
  if (known !== undefined) return known;
  const facts = { risk: safetyTopic(norm), topics: topicsOf(norm) };
  if (clauseFacts.size >= 20_000) clauseFacts.clear();
  clauseFacts.set(norm, facts);
  return facts;
}

/** Takes back the signals of message `index` that a reading of the whole message does not bear out. */
function dropSignals(found: Signal[], index: number, taken: (f: Signal) => boolean): void {
  for (let i = found.length - 1; i >= 0; i--) if (found[i]!.index === index && taken(found[i]!)) found.splice(i, 1);
}

/** A reserved-topic signal, of one topic or any. */
const isTopic = (f: Signal, topic?: Topic): boolean => f.kind === 'policy_topic' && (topic === undefined || f.topic === topic);

/**
 * A sentence that tells the agent to do something ("Remove the 10 late fee.", "put my discount back
 * on"): a message with one asks, however thankful it sounds ("Oh great, another late fee … Remove it").
 */
const TOLD_TO_DO =
  /(?:^|[.!?]\s*|,\s*(?:so |now |just )?)(?:please |pls |just |now )?(?:remove|take (?:off|it off|the|them off)|cancel|refund|fix|correct|put (?:it|my|the|them) back|give (?:me )?(?:back|my)|send|email|apply|close|stop (?:billing|charging|sending)|lower|reduce|restore|mark|wipe|return|credit|update)\b/;

/** A person asked for again in few words, once one has been asked for in the conversation. */
const ASKED_AGAIN = new RegExp(
  [
    '\\b(?:connect|transfer|queue|pass) (?:me|us)\\b(?! (?:to|through to|on to|onto) (?:the |your |a )?(?:app|website|site|page|link|faq|menu|bot|wifi|wi-fi|internet|network)\\b)',
    '\\bput (?:me|us) (?:to|through|through to|on to|onto) (?:the|an?|your|one)\\b',
    '\\bget me one\\b|\\bget (?:me )?(?:one|them) (?:please|pls|plz|now|then)\\b',
    '\\b(?:the|an?|that|my) (?:human|person|agent|advis[oe]r|supervisor|manager|rep|representative|specialist|real one|human one|callback|call back)\\b[^.?!]{0,20}\\b(?:please|pls|plz|now|after all|anyway|then)\\b',
    '\\bafter all\\b[^.?!]{0,20}\\b(?:human|person|agent|supervisor|manager|advis[oe]r|callback)\\b',
    '\\bback to (?:wanting|needing|asking for) (?:the|a|an|one)\\b',
    '\\bget (?:one of them|them|someone|somebody|one) to (?:message|call|ring|contact|email|text|phone) (?:me|us)\\b',
  ].join('|'),
);
/** An agent reply that offers a person's call or note: "A manager can call you back … Shall I book that?" */
const PERSON_CALL_OFFERED =
  /\b(?:manager|supervisor|advis[oe]r|agent|person|human|colleague|someone|somebody|team|specialist)\b[^.?!]{0,60}\b(?:call|ring|phone|contact|message|get back to) you\b|\b(?:leave|pass on|take) (?:a|the) (?:note|message)\b[^.?!]{0,40}\b(?:someone|team|colleague|manager|they)\b|\b(?:book|arrange|schedule) (?:a|the) (?:call ?back|call)\b/;
/** Taking up that offer: "book it", "leave a note please", "yes do that". */
const TAKE_UP =
  /^(?:(?:yes|yeah|yep|ok|okay|sure|fine|please)[,.!]*\s+)?(?:please\s+)?(?:book (?:it|that|one|me in|the call|a call|the callback)|leave (?:a|the) note|(?:yes |ok )?do that|arrange (?:it|that|one)|schedule (?:it|that|one))\b/;

/** The clause after `clause`, with the "but" that split them kept in front ("… but it's 3am"). */
function nextClause(text: string, clause: Clause, next: Clause | undefined): string | undefined {
  if (next === undefined) return undefined;
  const gap = text.slice(clause.start + clause.text.length, next.start);
  return /^[\s,]*but\s/i.test(gap) ? `but ${next.norm}` : next.norm;
}

/** The clause before, when no full stop separates it from this one (a condition reaches only that far). */
function sameSentence(text: string, prev: Clause | undefined, clause: Clause): string | undefined {
  if (prev === undefined) return undefined;
  return /[.!?;\n]/.test(text.slice(prev.start + prev.text.length, clause.start)) ? undefined : prev.norm;
}

// Each run of clauses read once (see `acrossClauses`).
const runRisk = memoByText((run: string) => safetyTopic(run));
const SPACE_RUN = /\s\s|[\t\n]/;

/** The safety topic of a sign spread over two or three neighbouring clauses, if any. */
function acrossClauses(clauses: readonly Clause[]): ClauseTopics['risk'] {
  return firstOverRuns(clauses, runRisk);
}
// Each run of clauses read once for the reserved topics too (see `topicAcrossClauses`).
// (The told-a-death pattern is not read on runs: on long runs it cost a sixth of a decision.)
const RUN_TOPIC_PATTERNS = POLICY_TOPIC_PATTERNS.filter((p) => !p.clausesOnly);
const runTopic = memoByText((run) => topicsOf(run, RUN_TOPIC_PATTERNS)[0] ?? null);
/** A reserved topic told over two neighbouring clauses: "my son, who is a barrister, will be writing to you". */
function topicAcrossClauses(clauses: readonly Clause[]): Topic | null {
  return firstOverRuns(clauses, runTopic, 2);
}
/** The first reading of a run of two, then (up to `widest`) three, neighbouring clauses that finds something. */
function firstOverRuns<T>(clauses: readonly Clause[], read: (run: string) => T | null, widest = 3): T | null {
  for (let width = 2; width <= widest; width++) {
    for (let k = 0; k + width <= clauses.length; k++) {
      // Clauses hold no stops or commas (they were split there), so the run is their words joined.
      let run = clauses[k]!.norm;
      for (let j = k + 1; j < k + width; j++) run += ` ${clauses[j]!.norm}`;
      if (SPACE_RUN.test(run)) run = run.replace(/\s+/g, ' ');
      const found = read(run);
      if (found) return found;
    }
  }
  return null;
}

/** The safety topic a text raises, if any: the first family that matches, figures of speech aside. */
function safetyTopic(norm: string): 'self_harm' | 'danger' | 'medical' | null {
  // The figures of speech are looked for only once a sign matched (most texts match none).
  let idioms: ReadonlyArray<readonly [number, number]> | null = null;
  const inIdiom = (m: RegExpExecArray) => {
    idioms ??= allMatches(SAFETY_IDIOM, norm).map((i) => [i.index, i.index + i[0].length] as const);
    return idioms.some(([from, to]) => m.index < to && m.index + m[0].length > from);
  };
  for (const family of SAFETY_FAMILIES) {
    const m = family.re.exec(norm);
    if (!m || inIdiom(m)) continue;
    if (!(family.topic === 'medical' && (MEDICAL_HYPERBOLE.test(norm.slice(0, m.index)) || MEDICAL_HISTORY.test(norm))))
      return family.topic;
  }
  return null;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Each capability's keywords (and its intent's own words) as one pattern, built once per list of capabilities. */
const capabilityPatterns = new WeakMap<DeciderPolicy['capabilities'], Array<{ intent: string; pattern: RegExp }>>();

function patternsOf(capabilities: DeciderPolicy['capabilities']): Array<{ intent: string; pattern: RegExp }> {
  let patterns = capabilityPatterns.get(capabilities);
  if (!patterns) {
    patterns = capabilities.map((c) => ({
      intent: c.intent,
      pattern: new RegExp(
        [...c.keywords, c.intent.replace(/[_-]+/g, ' ')].map((k) => `\\b${escapeRegExp(normalizeText(k.trim()))}`).join('|'),
      ),
    }));
    capabilityPatterns.set(capabilities, patterns);
  }
  return patterns;
}

/** The capability intents a text names, by keyword at the start of a word. */
function capabilityIntents(norm: string, policy: DeciderPolicy): string[] {
  if (policy.capabilities.length === 0) return [];
  return patternsOf(policy.capabilities)
    .filter((c) => c.pattern.test(norm))
    .map((c) => c.intent);
}

/** A clause that asks for something in particular (the caller checks it against the capabilities). */
function asksForSomething(clause: Clause, policy: DeciderPolicy): boolean {
  if (policy.capabilities.length === 0) return false;
  const request = REQUEST_FRAME.exec(clause.norm);
  const problem = request ? null : PROBLEM_FRAME.exec(clause.norm);
  const m = request ?? problem;
  if (!m) return false;
  if (request && isNegatedBefore(clause.norm.slice(0, m.index))) return false;
  const rest = `${clause.norm.slice(0, m.index)} ${clause.norm.slice(m.index + m[0].length)}`;
  // "Can you hurry up?" asks for nothing in particular: only a clause with content is judged.
  return words(rest).some(isRequestWord);
}

const stemsOf = (norm: string) => new Set(words(norm).filter(isIntentWord).map(stem));

/** The words of a reserved topic not meant as one (see where it is used). */
const TOPIC_NOT_MEANT = new RegExp(
  [
    "(?<!\\bnot |\\bno |n't |\\byou |\\bu )\\b(?:just |only )?(?:kidding|joking)\\b(?! me\\b)|\\bjk\\b",
    // A trade, unless the same sentence tells of a death: "I'm a funeral director notifying you of her passing" is one.
    "\\bi(?:'m| am) an? (?:funeral|probate|bereavement|law|legal)\\s+\\w+\\b(?![^.?!]*\\b(?:late|passing|passed|died|death|deceased|estate|account|behalf)\\b)",
    '\\bprobate office\\b|\\bbereavement leave\\b',
    '\\bcondolences to (?:your|the) (?:it|tech|app|team|department|servers?|website)\\b',
    '\\bdeceased[\\s-]estates? (?:section|page|link|form)\\b',
    '\\b(?:is|as|works as) an? ombuds(?:man|person)\\b',
    '\\bdied (?:laughing|of (?:laughter|embarrassment|boredom|shame))\\b|\\bdied (?:her|his|my|their) hair\\b',
    '\\b(?:was|i was|we were) (?:going|gonna|about) to (?:complain|sue|take (?:you|u|this) to court|report (?:you|u)|go to the ombudsman)\\b',
    // Asked for someone else or for a piece of work, not as the customer's own case: "asking for my
    // school project", "for a leaflet", "my neighbour asked me to find it", "nothing to do with you".
    "\\bfor (?:my|a|our) (?:school|uni|university|college|class|course|law) (?:project|assignment|essay|coursework|dissertation)\\b|\\bfor (?:a|our|the) (?:leaflet|article|survey|newsletter|presentation)\\b|\\b(?:my|a) (?:school|uni|college|law) (?:project|assignment|essay)\\b|\\bnothing to do with (?:you|u|your company|my account)\\b|\\b(?:i'm|i am) not having (?:a|any) (?:problem|issue)\\b|\\basking for a friend\\b|\\b(?:my|a) (?:neighbou?r|friend|colleague|mum|mom|dad|gran|nan) asked me (?:to find|to ask|how|what|where|if|whether)\\b",
    // A funeral as the reason for a trip or a stream, a pension: "off to a funeral in Dublin, is roaming
    // included", "the memorial service is being streamed", "weddings, christenings, funerals", "a widow's pension".
    "\\b(?:off|going|travell?ing|away|flying|fly out|driving|back|home|leave) (?:to|for|from) (?:(?:a|an|the) |(?:my|his|her|our|their) (?:\\w+(?:'s)? )?|(?:an? )?(?:old )?\\w+'s )funerals?\\b",
    '\\b(?:weddings|christenings|baptisms),? (?:and |or )?(?:\\w+, )?funerals\\b|\\b(?:memorial|funeral)(?: service)?(?: for [^.?!]{1,20})? (?:is |will be )?(?:being )?(?:live-?)?stream(?:ed|ing)\\b',
    "\\bwidow'?s (?:pension|allowance|benefit)\\b",
    // A case in the news or on TV, a workplace: "watched a court case on the news", "the receptionist at a solicitor's office".
    '\\b(?:watched|saw|seen|read|heard|reading|watching) (?:about )?(?:a|an|the|this|that) (?:\\w+ )?(?:court case|lawsuit|legal case|trial|class action)\\b',
    "\\b(?:at|for|in) (?:a|an|the|my|our) (?:local )?(?:solicitor's|solicitors'?|lawyer's|law|legal) (?:office|firm|practice|chambers)\\b(?![^.?!]*\\b(?:letter|act(?:ing)? for|behalf|proceedings|court|claim|sue|action)\\b)",
    '\\b(?:won|lost|had|have|got) (?:my|a|the) (?:small claims? )?case against (?:my|the) (?:old |former |ex[- ]?)?(?:landlord|builder|employer|neighbou?r|tenant|garage|insurer)\\b',
  ].join('|'),
);

/**
 * A legal matter that is not the customer's against the company: their own lawyer on an errand
 * ("my solicitor needs a copy of my bills", "for my mortgage"), a case against someone else ("my
 * small claims case against my builder", "a court summons for a parking ticket", "my employment
 * tribunal"), a power of attorney. Read only where nothing in the message turns it on the company
 * (`AGAINST_THE_COMPANY`).
 */
const LEGAL_ELSEWHERE = new RegExp(
  [
    "\\b(?:my|our|the|his|her) (?:\\w+ )?(?:solicitors?|lawyers?|attorneys?|barristers?|conveyancers?|legal team)(?:'s? (?:office|letter|firm))? (?:both |also |just )?(?:needs?|wants?|asked(?: me)?(?: for)?|has asked|have asked|is asking|are asking|requires?|requested|would like|keeps? (?:calling|ringing|emailing|phoning)|says? (?:the|my|our) (?:house|sale|purchase|flat|move)|said i should (?:check|ask|get|confirm)|told me to (?:check|ask|get|confirm))\\b",
    // A lawyer as a trade or a trait, law as study, a court as a witness or juror.
    '\\b(?:barrister|lawyer|solicitor|attorney) (?:husband|wife|partner|friend|mum|mom|dad|brother|sister|son|daughter|colleague|boss|flatmate)\\b|\\blaw (?:exams?|school|degree|student|course|lecturer|lectures?|library)\\b|\\bwitness (?:at|in|for) (?:a|the) (?:court|trial|case)\\b|\\bjury (?:service|duty)\\b',
    '\\b(?:house|flat|property|home) (?:sale|purchase|move)\\b|\\b(?:buying|selling) (?:a|the|our|my) (?:house|flat|home|property)\\b',
    '\\bdo (?:i|we) (?:need|have to (?:get|have)) (?:a|an) (?:lawyer|solicitor|attorney)\\b',
    '\\bfor (?:my|our|a) (?:mortgage|remortgage|house (?:sale|purchase|move)|conveyancing|divorce|separation|tenancy|lease|will|probate|visa|immigration|custody|citizenship|adoption)(?: application| case| paperwork| check)?\\b',
    '\\b(?:case|claim|dispute|proceedings|hearing|tribunal|court (?:case|date|order|summons|hearing)) (?:against|with|for|about) (?:my|a|the|our) (?:old |former |ex[- ]?)?(?:landlord|letting agent|builder|employer|boss|neighbou?r|tenant|garage|insurer|ex|husband|wife|partner|parking ticket|speeding ticket|fine|council|airline|bank)\\b',
    '\\b(?:employment|immigration|benefits|property|tax) tribunal\\b',
    '\\b(?:lasting )?power of attorney\\b|\\blpa\\b|\\b(?:registered|appointed) attorney\\b',
    // Law as the customer's own trade, a lawyer who only used the line, a witness, a court date for something else.
    "\\bi(?:'m| am) an? (?:trainee |junior |newly qualified |qualified |practising |practicing )?(?:solicitor|lawyer|barrister|attorney|paralegal)\\b|\\bthe (?:lawyer|solicitor|barrister|attorney) who (?:rented|lived|had|used|was)\\b",
    "\\b(?:he|she|they|i)(?:'s| is| are|'m| am) a witness\\b|\\bcourt date\\b[^.?!]{0,30}\\b(?:speeding|parking|traffic|jury|divorce|custody|nothing (?:dramatic|serious|to do with you))\\b",
  ].join('|'),
);
const AGAINST_THE_COMPANY =
  /\b(?:(?<!\bnot )against (?:you|u|your company|your firm|this company)|writ(?:e|es|ing) to (?:you|u)\b|on my behalf|take this on|(?:you'll|you will) be served|unlawful|illegal|in breach|letter of claim|sue (?:you|u|your)|suing (?:you|u)|take (?:you|u|this|your company) to|(?:hear|hearing) from (?:my|our) (?:solicitor|lawyer|attorney)|in touch with (?:you|u)|letter before (?:action|claim)|see (?:you|u) in court|legal action|unless you|or else|if you don't|if you do not|damages|compensation|(?:all |any )?(?:further |future )?correspondence|through (?:their|his|her|my|our) (?:office|firm|chambers)|claim form|draft(?:ing|ed|s)? (?:the |a |my )?(?:claim|letter|papers)|court papers|last chance|(?:going|go|take this) to court over)\b/;

/** A message that speaks of people, or of the agent not being one. */
const SPEAKS_OF_PEOPLE = /\b(?:human|humans|person|people|bot|robot|chatbot|computer|machine|script|scripted|automated|ai)\b/;
/** A person asked for as "one": "I want a real 1", "can I have one?", "pass me to one", "sort me someone who is". */
const ONE_OF_THEM =
  /\b(?:want|need|have|get|give me|pass me(?: on)? to|put me (?:through )?to|connect me (?:to|with)|speak to|talk to|speak with|talk with|find me|sort me(?: out)?(?: with)?) (?:a |an )?(?:real |actual |proper |live |human )?(?:one|1)\b(?! (?:of|more|thing|sec|second|minute|moment|day|month|year|time|bill|line|number|question)\b)|\bsort me (?:some|any)(?:one|body) who is\b/;

/** The clause that asks for a person as "one", in a message that spoke of people or bots, if any. */
function askedForAsOne(clauses: readonly Clause[], whole: string): Clause | undefined {
  if (!SPEAKS_OF_PEOPLE.test(whole)) return undefined;
  return clauses.find((clause) => {
    const m = ONE_OF_THEM.exec(clause.norm);
    if (m === null) return false;
    const before = clause.norm.slice(0, m.index);
    // "do I actually need one?" asks whether, not for one.
    if (/\b(?:do|does|did|would|will|should|must) (?:i|we|you)(?: \w+)?\s*$/.test(before)) return false;
    return !isNegatedBefore(before) && !isHypothetical(clause.norm, m.index, m.index + m[0].length);
  });
}

/** What an agent's message says, as far as the customer's next turn is read against it: a pure function of its text. */
interface AgentSays {
  norm: string;
  /** Lower-cased only: amounts keep their currency signs. */
  lower: string;
  /** It offers a person ("Shall I transfer you?"). */
  offer: boolean;
  /** It states the wait or offers its own help instead. */
  alternative: boolean;
  /** It says it did not understand, or points elsewhere. */
  fallback: boolean;
  /** It asks nothing and engages with nothing, so it may have answered nothing (judged against what was asked). */
  mayAnswerNothing: boolean;
  /** It neither acts, nor gives steps, a finding or a refusal, nor asks anything (see {@link movesNothing}). */
  movesNothing: boolean;
  /** It reports the request done: "I've sent a reset link", "It has been cancelled". */
  done: boolean;
  /** It asks a question. */
  asks: boolean;
  stems: ReadonlySet<string>;
}

/** The last question of a message: the sentence before its last question mark. */
function lastQuestion(norm: string): string {
  const end = norm.lastIndexOf('?');
  if (end < 0) return '';
  const start = Math.max(norm.lastIndexOf('.', end - 1), norm.lastIndexOf('!', end - 1), norm.lastIndexOf('?', end - 1));
  return norm.slice(start + 1, end + 1);
}
/** A question about the agent's own help, naming no person. */
const OWN_HELP_QUESTION =
  /^(?!.*\b(?:transfer|connect|put you through|pass you|queue|human|person|specialist|supervisor|manager|colleague|agent|representative|someone)\b).*\b(?:(?:shall|should|can|could|may) i (?:try|help|have a (?:quick )?look|look|check|do|sort|fix|show)|(?:would|do) you (?:like|want) me to|(?:help|try|look) first|anything i can do|is (?:it|there) something (?:urgent )?i can)\b/;

// The decider reads the whole conversation again at every turn, so each agent message is read once.
const agentSays = memoByText((text: string): AgentSays => {
  const lower = normalizeText(text);
  const norm = canonicalize(lower);
  const asks = norm.includes('?');
  return {
    norm,
    lower,
    // "I can connect you, about 20 minutes. SIM issues I can usually fix here. Shall I try?": a yes
    // answers the last question, about the agent's own help, not the offer of a person before it.
    offer: AGENT_OFFER.test(norm) && !OWN_HELP_QUESTION.test(lastQuestion(norm)),
    alternative: AGENT_ALTERNATIVE.test(norm),
    fallback: AGENT_FALLBACK.test(norm),
    mayAnswerNothing: !asks && !ENGAGES.test(norm),
    movesNothing: movesNothing(norm),
    done: DONE.test(norm),
    asks,
    stems: stemsOf(norm),
  };
});

/** What the agent's last question asked about. */
interface Asked {
  stems: ReadonlySet<string>;
  intents: readonly string[];
  vector: IntentVector;
}
const NOTHING_ASKED: Asked = { stems: new Set(), intents: [], vector: new Map() };

/** Options of the default extractor. */
export interface ExtractOptions {
  /** The trained classifier behind the lexicon (`classifier-signals.ts`); `null` reads with the lexicon alone. */
  model?: HandoffModel | null;
}

/**
 * The default signal extractor: lexicons and patterns over the customer's words (clause by
 * clause, with negation and reported speech in scope), the trained classifier where the lexicon
 * found nothing, the agent's offers, and the tool log. Deterministic and offline.
 */
export function extractSignals(items: readonly TranscriptItem[], policy: DeciderPolicy, options: ExtractOptions = {}): Signal[] {
  const model = options.model === undefined ? defaultHandoffModel() : options.model;
  const signals: Signal[] = [];
  const intents = createIntentLog();
  // The agent's last turn failed to understand: the next turn likely says the same in other words.
  let fallbackPending = false;
  let offerPending = false;
  // The agent just stated the wait or offered its own help: the next reply may take that help.
  let alternativePending = false;
  let requestOpen = false;
  // The open request was only a question whether the chat is a bot ("are you a bot?"): whatever the
  // agent answers, a reply that goes on with the business takes its help.
  let onlyAskedIfBot = false;
  // Whether the customer has asked for a person before in this conversation (then "connect me" asks again).
  let askedBefore = false;
  // The agent's last reply, for "book it" after it offered a person's call.
  let lastAgentNorm = '';
  // What the agent just asked about: a reply that echoes the question answers it, it does not restate.
  let asked: Asked = NOTHING_ASKED;
  // What the customer last asked for, until a tool runs: an agent reply that shares nothing with it answered nothing.
  let lastAsk: string | null = null;
  // The customer's last message, whatever ran since, and whether an agent reply since answered it in kind.
  let lastCustomer: string | null = null;
  let answeredPending = false;
  let unansweredPending = false;
  // The agent's reply since the customer's last request neither answered, acted, asked nor engaged.
  let ignoredPending = false;
  items.forEach((item, index) => {
    if (item.role === 'tool') {
      signals.push(...toolSignals(item, index, policy));
      lastAsk = null;
      return;
    }
    if (item.role !== 'customer') {
      if (item.role === 'agent') {
        const said = agentSays(item.text);
        lastAgentNorm = said.norm;
        offerPending = said.offer;
        alternativePending = said.alternative || (requestOpen && onlyAskedIfBot);
        const inKind = lastCustomer === null ? null : answersInKind(said.lower, lastCustomer);
        const answered = inKind === 'answered';
        // A reply that states something unrelated to what was asked ("Cloud storage keeps your photos safe!") is a fallback too,
        // unless it answers in kind ("£2 per extra GB" shares few words with "how much is extra data").
        fallbackPending = said.fallback || (!answered && lastAsk !== null && said.mayAnswerNothing && answersNothing(said.norm, lastAsk));
        if ((answered || said.done) && !said.fallback) answeredPending = true;
        // A question answered with nothing of its kind: the customer will likely ask it again in other words.
        if (inKind === 'unanswered' && !answeredPending) unansweredPending = true;
        // A reply that moved nothing (no answer in kind, no action, no question): the customer's next
        // turn, unless it says it asks something new, goes on with the same request, whatever its words.
        ignoredPending =
          !said.fallback && lastAsk !== null && !answered && inKind !== 'specific' && !said.offer && !said.alternative && said.movesNothing;
        // A fallback ("can you try asking in a different way?") asks about nothing in particular.
        asked =
          said.asks && !fallbackPending
            ? { stems: said.stems, intents: capabilityIntents(said.norm, policy), vector: intentVector(said.norm) }
            : NOTHING_ASKED;
      }
      return;
    }
    // A control the customer pressed ("Talk to a person") is a request in itself: its text is the
    // channel's, not the customer's words, so it is not read for anything else.
    if (item.request === 'person') {
      signals.push(requestedSignal(item, index));
      requestOpen = true;
      askedBefore = true;
      offerPending = false;
      alternativePending = false;
      asked = NOTHING_ASKED;
      fallbackPending = false;
      return;
    }
    const found: Signal[] = [];
    const clauses = splitClauses(item.text);
    const whole = canonicalize(normalizeText(item.text)).trim();
    // A withdrawal: an open request called off, or the agent's help taken after it offered it.
    // Taking the help counts unless the reply keeps the request in so many words, or accepts the
    // agent's offer of a person ("Shall I go ahead?" "yes go ahead").
    const tookHelp = alternativePending && TAKE_HELP.test(whole) && !STILL_WANTED.test(whole) && !(offerPending && ACCEPT.test(whole));
    // A reply that keeps the request in so many words ("ok i wait for the person", "go ahead and connect me") withdraws nothing.
    const withdrawn = requestOpen && !STILL_WANTED.test(whole) && (WITHDRAW.test(whole) || tookHelp);
    if (withdrawn) found.push({ kind: 'human_declined', evidence: item.text.trim(), index, offset: 0 });
    else if (offerPending) {
      if (ACCEPT.test(whole)) found.push({ kind: 'human_request', evidence: item.text.trim(), index, offset: 0 });
      else if (DECLINE.test(whole)) found.push({ kind: 'human_declined', evidence: item.text.trim(), index, offset: 0 });
    }
    offerPending = false;
    const afterAlternative = alternativePending;
    alternativePending = false;
    // Judged per message: one clause naming a capability ("refund W123, the duplicate one") covers
    // its neighbours, which are usually details of the same request.
    const namedIntents = capabilityIntents(whole, policy);
    const inScope = namedIntents.length > 0;
    // A pasted chat ("Customer: \"…\" Agent: \"…\""): its speakers' names are labels, not requests.
    const transcript = item.text.includes(':') && (item.text.match(SPEAKER_LABELS) ?? []).length >= 2;
    clauses.forEach((clause, k) => {
      const at = { evidence: clause.text, index, offset: clause.start };
      const facts = clauseTopics(clause.norm);
      if (facts.risk) found.push({ kind: 'safety', topic: facts.risk, ...at });
      for (const topic of facts.topics) found.push({ kind: 'policy_topic', topic, ...at });
      // A verb of dying with its subject in one of the two clauses before (the verb first: it is the rarer).
      if (
        DEATH_WITHOUT_SUBJECT.test(clause.norm) &&
        clauses.slice(Math.max(0, k - 2), k).some((c) => BEREAVED_SUBJECT.test(c.norm)) &&
        !found.some((f) => f.kind === 'policy_topic' && f.index === index && f.offset === clause.start)
      )
        found.push({ kind: 'policy_topic', topic: 'bereavement', ...at });
      // "Escalate this as a formal complaint" asks for the complaints process, not for a person.
      // So does any escalation the clause itself calls formal ("escalate this formally", "through your disputes procedure").
      const asComplaint = COMPLAINT_ESCALATION.test(clause.norm) || (facts.topics.includes('complaint') && ESCALATE.test(clause.norm));
      const verdict =
        asComplaint || (transcript && isSpeakerLabel(item.text, clause))
          ? null
          : personRequest(clause.norm, nextClause(item.text, clause, clauses[k + 1]), sameSentence(item.text, clauses[k - 1], clause));
      if (verdict === 'request') found.push({ kind: 'human_request', ...at });
      else if (verdict === 'declined') found.push({ kind: 'human_declined', ...at });
      // A clause already read as a request for (or refusal of) a person, or a topic, asks the agent for nothing.
      const judged = found.some((s) => s.index === index && s.offset === clause.start);
      if (!judged && !inScope && asksForSomething(clause, policy)) found.push({ kind: 'no_capability', cause: 'out_of_scope', ...at });
    });
    // "Are you a real person? If not, can I have one?": a person asked for by "one", after the
    // message spoke of people or bots.
    if (!found.some((f) => f.index === index && (f.kind === 'human_request' || f.kind === 'human_declined'))) {
      const asked = askedForAsOne(clauses, whole);
      if (asked) found.push({ kind: 'human_request', evidence: asked.text, index, offset: asked.start });
    }
    // A person asked for again in few words, after an earlier request this conversation ("now the
    // human please", "please get me one", "connect me", "I'll have the supervisor after all"), or a
    // person's call taken up when the agent offered one ("book it").
    if (askedBefore && !found.some((f) => f.index === index && (f.kind === 'human_request' || f.kind === 'human_declined'))) {
      const again = ASKED_AGAIN.test(whole) || (PERSON_CALL_OFFERED.test(lastAgentNorm) && TAKE_UP.test(whole));
      if (again && !WITHDRAW.test(whole)) found.push({ kind: 'human_request', evidence: item.text.trim(), index, offset: 0 });
    }
    // A warning sign split over two or three clauses ("I just want it all to stop. Permanently.")
    // is read on each run of neighbouring clauses (each run's reading kept by its text, as a
    // clause's is: the decider rereads the conversation at every turn).
    if (clauses.length > 1 && !found.some((f) => f.kind === 'safety')) {
      // Quoted words are blanked in clauses (somebody else's), so a message that quotes is read whole:
      // a threat quoted ("he wrote 'I'm coming for you tonight'") is still one.
      const risk = whole.includes('"') ? safetyTopic(whole.replace(/[.!?;:,\n]+/g, ' ').replace(/\s+/g, ' ')) : acrossClauses(clauses);
      if (risk) found.push({ kind: 'safety', topic: risk, evidence: item.text.trim(), index, offset: 0 });
    }
    // Likewise a reserved topic whose words a comma or a full stop split: "my son, who is a
    // barrister, will be writing to you", "I'm complaining. Officially."
    if (clauses.length > 1 && !found.some((f) => f.kind === 'policy_topic' && f.index === index)) {
      const topic = topicAcrossClauses(clauses);
      if (topic) found.push({ kind: 'policy_topic', topic, evidence: item.text.trim(), index, offset: 0 });
    }
    if (model !== null) {
      const inContext = clauses
        .map((clause, k) => ({
          clause,
          next: clauses[k + 1]?.norm,
          prev: sameSentence(item.text, clauses[k - 1], clause),
        }))
        .filter(({ clause }) => !(transcript && isSpeakerLabel(item.text, clause)));
      found.push(...classifierSignals(model, inContext, index, found, { text: item.text.trim(), canonical: whole }));
    }
    // A death mentioned about the customer's own account is not a bereavement case.
    // (Each guard below only takes signals back: it is read only where there is one to take.)
    const topical = found.some((f) => f.index === index && isTopic(f));
    if (topical && OWN_MATTER.test(whole) && !THEIR_MATTER.test(whole)) dropSignals(found, index, (f) => isTopic(f, 'bereavement'));
    // A reserved topic's words not meant as one: a joke taken back, a trade ("I'm a funeral
    // director"), a place ("the probate office down the road"), an idiom ("died laughing").
    if (topical && TOPIC_NOT_MEANT.test(whole)) dropSignals(found, index, (f) => isTopic(f));
    // A hazard told as over ("a gas leak in October, all fixed"): its sign is not read, others still are.
    const resolved = found.some((f) => f.kind === 'safety' && f.index === index) ? RESOLVED_HAZARD.exec(whole) : null;
    if (resolved) dropSignals(found, index, (f) => f.kind === 'safety' && normalizeText(f.evidence).includes(resolved[1]!));
    // "I won't be here next month, we're moving to Leeds": an absence beside a move or a trip is the trip.
    if (found.some((f) => f.kind === 'safety' && f.index === index) && AWAY_FOR_A_REASON.test(whole))
      dropSignals(
        found,
        index,
        (f) => f.kind === 'safety' && f.topic === 'self_harm' && ABSENCE.test(normalizeText(f.evidence)) && !SELF_HARM_WORDS.test(whole),
      );
    const legal = found.some((f) => isTopic(f, 'legal') && f.index === index);
    if (legal && LEGAL_ELSEWHERE.test(whole) && !AGAINST_THE_COMPANY.test(whole)) dropSignals(found, index, (f) => isTopic(f, 'legal'));
    const upset = frustration(clauses, item.text, whole);
    if (upset) found.push({ kind: 'frustration', evidence: upset.text, index, offset: upset.start });
    withdrawWithin(found, clauses, whole, index);
    // After the agent stated the wait or offered its own help, a reply that goes on with the
    // customer's business — no new request, no wish to wait, nothing upset — takes the help.
    if (
      afterAlternative &&
      requestOpen &&
      !withdrawn &&
      !upset &&
      !found.some((f) => f.kind === 'human_request' || f.kind === 'human_declined' || f.kind === 'safety') &&
      !KEEP_WAITING.test(whole) &&
      words(whole).length >= 2
    )
      found.push({ kind: 'human_declined', evidence: item.text.trim(), index, offset: 0 });
    // A message that asks for a person, raises safety, or only says thanks restates no intent.
    const closing = (GRATITUDE.test(whole) || isAcceptance(whole)) && !STILL_A_PROBLEM.test(whole) && !TOLD_TO_DO.test(whole);
    if (!closing && !found.some((s) => s.kind === 'human_request' || s.kind === 'safety')) {
      const at = { evidence: item.text.trim(), index, offset: 0 };
      const named = namedIntents.filter((intent) => !asked.intents.includes(intent));
      if (named.length > 0) {
        for (const intent of named) found.push({ kind: 'intent', intent, ...at });
      } else {
        const stems = new Set([...stemsOf(whole)].filter((w) => !asked.stems.has(w)));
        if (stems.size > 0) {
          const key = intents.keyOf(whole, [...stems].sort().join(' '), {
            afterFallback: fallbackPending || unansweredPending,
            afterAnswer: answeredPending,
            continues: ignoredPending && words(whole).length >= 3 && !NEW_TOPIC.test(whole),
            asked: asked.vector,
          });
          found.push({ kind: 'intent', intent: key, ...at });
        }
      }
    }
    asked = NOTHING_ASKED;
    fallbackPending = false;
    answeredPending = false;
    unansweredPending = false;
    ignoredPending = false;
    lastAsk = whole;
    lastCustomer = whole;
    for (const f of found) {
      if (f.kind === 'human_request') {
        requestOpen = true;
        askedBefore = true;
        onlyAskedIfBot = ASKS_IF_BOT.test(canonicalize(normalizeText(f.evidence)).trim());
      } else if (f.kind === 'human_declined' && !found.some((r) => r.kind === 'human_request' && r.offset >= f.offset)) requestOpen = false;
    }
    signals.push(...found);
  });
  return signals;
}

/**
 * A request for a person called off later in the same message ("a human please. actually no,
 * you'll do"), or one that was only ever an intention ("I was going to ask for a person but …"):
 * a refusal after it, so the request does not stand.
 */
function withdrawWithin(found: Signal[], clauses: readonly Clause[], whole: string, index: number): void {
  const requests = found.filter((f) => f.kind === 'human_request' && f.index === index);
  if (requests.length === 0) return;
  const last = Math.max(...requests.map((r) => r.offset));
  if (UNREALISED_REQUEST.test(whole)) {
    found.push({ kind: 'human_declined', evidence: requests[requests.length - 1]!.evidence, index, offset: last + 1 });
    return;
  }
  const first = Math.min(...requests.map((r) => r.offset));
  const off = clauses.find((c) => c.start > first && SELF_WITHDRAW.test(c.norm.trim()));
  if (off && off.start > last) found.push({ kind: 'human_declined', evidence: off.text, index, offset: off.start });
}

/**
 * The signal of a structured request (a customer item with `request: 'person'`, the web chat's
 * "Talk to a person" button): a request for a person, from the structure, never from the text.
 * Every extractor keeps these as they are (an LLM labels words, not buttons).
 */
export function requestedSignal(item: Extract<TranscriptItem, { role: 'customer' }>, index: number): Signal {
  return { kind: 'human_request', evidence: item.text.trim() || 'Talk to a person', index, offset: 0 };
}

/** The signals of the structured requests in a transcript (see {@link requestedSignal}). */
export function requestedSignals(items: readonly TranscriptItem[]): Signal[] {
  return items.flatMap((item, index) => (item.role === 'customer' && item.request === 'person' ? [requestedSignal(item, index)] : []));
}

/** Whether an agent's reply shares (almost) no concept with what the customer asked (vectors worked out only here, when asked). */
function answersNothing(reply: string, ask: string): boolean {
  const asked = intentVector(ask);
  return asked.size > 0 && intentSimilarity(intentVector(reply), asked) < NON_ANSWER;
}

/** A question the agent asks back, not a closing formula ("anything else I can help with?"). */
const CLOSING_QUESTION =
  /\b(?:anything else|something else|any other (?:questions?|way)|help with anything|else i can (?:help|do))\b[^?]*\?/g;
/**
 * Whether an agent's reply, whatever it was asked, moves nothing: it neither reports, announces
 * or offers an action, nor acknowledges the request, nor gives steps, a finding, a refusal or a
 * short answer without a verb, nor asks the customer anything ("Your plan is Fibre 300." to "can
 * I swap my router?"). Whether it answered in kind is judged apart, against the question.
 */
function movesNothing(norm: string): boolean {
  if (ACTS.test(norm) || STEPS.test(norm) || isFragment(norm)) return false;
  return !norm.replace(CLOSING_QUESTION, ' ').includes('?');
}
/**
 * A short reply with no verb — "Fibre 150.", "Calls to 0845 numbers.", "Only the account
 * holder.", "Insufficient funds." — names the thing asked for: an answer. Greetings, thanks and
 * exclamations ("Welcome to the network!", "Congratulations!") are not.
 */
function isFragment(norm: string): boolean {
  if (norm.includes('!') || norm.includes('?') || FRAGMENT_OPENERS.test(norm)) return false;
  const ws = (norm.match(/[a-z0-9£$€][\w'£$€.,-]*/g) ?? []).map((w) => w.replace(/[.,]+$/, ''));
  if (ws.length === 0 || ws.length > 10 || IMPERATIVES.has(ws[0]!)) return false;
  return !ws.some(
    (w) =>
      FINITE_VERBS.has(w) ||
      SUBJECTS.has(w) ||
      /(?:'s|'re|'ve|'ll|'d|'m|n't)$/.test(w) ||
      (/^[a-z]{3,}ed$/.test(w) && !ADJECTIVES_IN_ED.has(w)),
  );
}
/** A subject pronoun makes a sentence of it, whatever its verb ("We process refunds quickly"). */
const SUBJECTS = new Set(['i', 'we', 'you', 'they', 'he', 'she']);
/** A fragment that opens with a verb is an instruction, judged as such (see {@link STEPS}). */
const IMPERATIVES = new Set(
  'add make text call visit use send dial contact see check try get take go put turn ask keep reply email upload remember note ensure pay top enjoy choose pick let'.split(
    ' ',
  ),
);
/** Words in -ed that are not verbs in a reply ("unlimited data", "Itemised Calls"). */
const ADJECTIVES_IN_ED = new Set(
  'limited unlimited itemised itemized detailed registered dedicated fixed based advanced selected connected combined unused used shared named red'.split(
    ' ',
  ),
);
/** Openings of a verbless reply that greets or thanks rather than answers. */
const FRAGMENT_OPENERS =
  /^(?:thanks|thank you|welcome|congratulations|congrats|hello|hi|hey|good (?:morning|afternoon|evening)|great|sorry|happy|glad|no worries|anytime|enjoy)\b/;
/** Auxiliaries and the verbs agents' general statements are made of; with them a reply is a sentence, not a fragment. */
const FINITE_VERBS = new Set(
  "is are was were be been being am 's 're 've 'll 'd isn't aren't wasn't weren't has have had do does did don't doesn't didn't can can't cannot could will won't would shall should may might must send sends block blocks come comes include includes offer offers give gives let lets help helps keep keeps make makes cover covers protect protects work works apply applies start starts vary varies depend depends mean means need needs require requires show shows cost costs get gets love loves enjoy take takes run runs use uses go goes support supports provide provides charge charges arrive arrives renew renews say says want check try ensure contact call visit find see pay view manage rise rises process processes save saves store stores accept accepts incur incurs last lasts expire expires end ends begin begins change changes increase increases drop drops stay stays remain remains dial".split(
    ' ',
  ),
);
/** Participles that report an action done. */
const DONE_WORDS =
  'done|updated|sent|cancell?ed|refunded|applied|booked|added|removed|changed|switched|moved|set|scheduled|arranged|processed|raised|logged|reset|unlocked|blocked|barred|paused|waived|credited|ordered|posted|emailed|texted|fixed|sorted|requested';
/** Reported as done, by the agent or of the thing: "I've sent…", "It has been cancelled" (not "is now": "5G is now available"). */
const PASSIVE_DONE = `\\b(?:has|have) been (?:${DONE_WORDS})\\b`;
const DONE = new RegExp(`\\b(?:i|we)(?:'ve| have)(?: just| now)? (?:${DONE_WORDS})\\b|${PASSIVE_DONE}`);
/**
 * A reply that reports, announces or offers what is done about the request, or says it cannot
 * be. An apology or a statement of what the customer could do ("You can pay online.") is not
 * enough: agents that miss the point say both.
 */
const ACTS = new RegExp(
  [
    // The agent itself, doing or about to: "I've sent it", "let me check", "I can offer 10%".
    "\\b(?:i|we)(?:'ve| have| had|'ll| will|'m going to| am going to| can| could| just)\\b|\\blet me\\b|\\bone moment\\b|\\b(?:checking|looking into)\\b",
    // Reported as done: "Done.", "Sent to your email.", "It has been cancelled", "is now on".
    `(?:^|[.!;]\\s+)(?:${DONE_WORDS})\\b`,
    `${PASSIVE_DONE}|\\b(?:is|are) now\\b`,
    // An answer, a consent or a refusal: "Yes, …", "OK.", "Noted.", "No, …", "that isn't possible", "we can't".
    "^(?:yes|yeah|yep|no|nope|ok|okay|sure|sure thing|of course|certainly|no problem|will do|right away|noted|understood|got it|on it)\\b|\\b(?:can't|cannot|unable|won't|isn't possible|not possible|unfortunately)\\b",
    // What was found or why: "I see it: …", "That's the annual price change", "£15, £12 and £8."
    "\\bi (?:can )?see\\b|^(?:that's|that is|that was|it's|it is|it was|this is|they're|they are|these are|because|due to)\\b|^(?:[£$€]|\\d|one|two|three|four|five|six|seven|eight|nine|ten)\\b",
  ].join('|'),
);
/** Steps to follow: "Hold the home button for 5 seconds", "Let's try again", "It's under Account > Plan". */
const STEPS = new RegExp(`(?:^|[.!]\\s+)(?:${STEP_VERBS}|update|try|let's|check)\\b|${MENU_PATH}|\\bshould (?:fix|sort|solve)\\b`);
/**
 * A turn that says it asks something new ("also", "another question", "never mind"), or takes
 * the reply first ("ok so", "oh right.", "fair enough.", "found it."), unless it objects ("ok but").
 */
const ACKNOWLEDGED =
  "ok|okay|oh|ah|nice|great|cool|perfect|lovely|brilliant|fair enough|got it|got in|found it|i see|whoa|wow|omg|thanks|thank you|ty|cheers|makes sense|that(?:'s| is) (?:useful|helpful|great|good|fine)|that worked|it works";
const NEW_TOPIC = new RegExp(
  [
    // Marked as new, after any acknowledgement: "ok so, another thing", "right, never mind".
    `^(?:(?:${ACKNOWLEDGED}|right|fine|well|so|hmm+|good|yes|yeah)\\b[,.!]*\\s*)*(?:also|another|one more|by the way|btw|separately|unrelated|different (?:question|thing)|while i|never ?mind|forget (?:it|that|about)|on another|now|what if|what about|actually|first|second|third|next|finally|lastly)\\b`,
    '^and\\b',
    '^(?:\\S+\\s+){0,4}?also\\b',
    // The reply taken first, unless the turn objects to it: "fair enough. …", not "ok but …".
    `^(?!.*\\bbut\\b)(?:${ACKNOWLEDGED}|fine|done)\\b`,
  ].join('|'),
);

/** The default extractor as a port implementation. */
export const lexiconSignalExtractor: SignalExtractor = { extract: (items, policy) => extractSignals(items, policy) };
