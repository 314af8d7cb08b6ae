import { allMatches } from './all-matches.js';
import { canonicalize } from './text-canon.js';

/**
 * The lexicon of asking for a person: word classes, request frames, and the scope rules
 * (negation, reported speech) that tell "get me a manager" from "my friend told me to ask for
 * a manager". Patterns run on normalized clauses (see `normalizeText`), never on raw text.
 */

/** A clause of a message: its original text, its canonical form (`canonicalize`), and where the text starts. */
export interface Clause {
  text: string;
  norm: string;
  start: number;
}

const PRINTABLE_ASCII = /^[ -~\t\n\r]*$/;

/**
 * Lower-cases and straightens quotes without changing the length, so that offsets found in
 * the normalized text point into the original.
 */
export function normalizeText(text: string): string {
  // Most text is printable ASCII, where lower-casing keeps the length and only the backtick needs straightening.
  if (PRINTABLE_ASCII.test(text)) return text.toLowerCase().replaceAll('`', "'");
  let out = '';
  for (const ch of text) {
    const lower = ch.toLowerCase();
    const straight =
      lower === '\u2019' || lower === '\u2018' || lower === '`' ? "'" : lower === '\u201c' || lower === '\u201d' ? '"' : lower;
    out += straight.length === ch.length ? straight : ch;
  }
  return out;
}

// Quoted words are somebody else's: blank them (same length) so no frame matches inside.
const QUOTED = /"[^"\n]{1,200}"/g;
// Sentence ends, commas and contrast words end a clause, and with it the scope of a negation.
const CLAUSE_BREAK = /[.!?;:\n]+|,|\s+(?:but|however|although|though|because|cause|cuz|whereas|otherwise|or else)\s+/g;

/** Words a sentence usually starts with. */
const SENTENCE_START =
  '(?:Transfer|Connect|Put|Get|Give|Let|Send|Talk|Speak|Someone|Somebody|Anyone|Anybody|Human|Humans|Real|Please|Can|Could|Would|Will|Is|Are|Where|Why|What|How|Who|When|You|Just|Now|Seriously|Honestly|Also|This|That|Then|Cancel|Stop|Fix|Refund|Check|Any|Need|Want|My|It|No|Yes|Ok|Okay)\\b';
// Only after an all-lower-case word and before a usual first word, so names and Title Case stay whole.
const UNPUNCTUATED_SENTENCE = new RegExp(`(?<=(?:^|\\s)[a-z']+)\\s+(?=${SENTENCE_START})`, 'g');
/** The same start after any space: without one, no sentence starts unpunctuated (a cheap scan before the look-behind's). */
const FIRST_WORD_AFTER_SPACE = new RegExp(`\\s${SENTENCE_START}`);

/** Splits a message into clauses, with quoted speech blanked out, each clause's words made canonical. */
export function splitClauses(text: string): Clause[] {
  const norm = normalizeText(text).replace(QUOTED, (q) => ' '.repeat(q.length));
  const clauses: Clause[] = [];
  let from = 0;
  const push = (end: number) => {
    const raw = norm.slice(from, end);
    const lead = raw.length - raw.trimStart().length;
    const piece = raw.trim();
    if (piece !== '')
      clauses.push({ text: text.slice(from + lead, from + lead + piece.length), norm: canonicalize(piece).trim(), start: from + lead });
  };
  const breaks = allMatches(CLAUSE_BREAK, norm).map((m) => ({ at: m.index, end: m.index + m[0].length }));
  // "worst bot ever Transfer me to staff": a capital after a lower-case word, with no stop between, starts a sentence.
  // (The look-behind is costly at every space: a text without a usual first word after a space has no such start.)
  if (FIRST_WORD_AFTER_SPACE.test(text))
    for (const m of allMatches(UNPUNCTUATED_SENTENCE, text)) breaks.push({ at: m.index, end: m.index + m[0].length });
  breaks.sort((a, b) => a.at - b.at);
  for (const b of breaks) {
    if (b.at < from) continue;
    push(b.at);
    from = b.end;
  }
  push(norm.length);
  return clauses;
}

/** Words of a normalized string, apostrophes kept ("don't"). */
export const words = (s: string): string[] => s.match(/[a-z0-9']+/g) ?? [];

const alt = (...parts: string[]) => `(?:${parts.join('|')})`;

const DET = alt('a', 'an', 'the', 'your', 'ur', 'some', 'any', 'another', 'one of (?:your|the|ur)', 'a member of (?:your |the )?');
const ADJ = alt(
  'real',
  'live',
  'actual',
  'human',
  'genuine',
  'proper',
  'competent',
  'senior',
  'higher[\\s-]up',
  'different',
  'other',
  'living',
  'breathing',
  'flesh[\\s-]and[\\s-]blood',
  'qualified',
  'knowledgeable',
  'experienced',
  'trained',
  'customer[\\s-](?:service|support|care)',
  'support',
  'service',
  'billing',
  'sales',
  'technical',
  'tech',
  'complaints?',
  'accounts?',
  'retention',
  'escalations?',
  'refunds?',
  'claims',
  'duty',
  'floor',
  'shift',
  'store',
  'site',
);
const ADJS = `(?:${ADJ}[\\s-]+){0,3}`;
/** Nouns for a person who could take over. */
const PERSON = alt(
  'human(?:s|[\\s-]beings?)?',
  'persons?',
  // "the agent" and "this agent" are as likely to mean the assistant itself as a person.
  '(?<!\\b(?:the|this) )agents?',
  'reps?',
  'representatives?',
  'operators?',
  'supervisors?',
  'managers?',
  'management',
  'boss(?:es)?',
  'superiors?',
  'staff(?:[\\s-]members?)?',
  'members? of (?:(?:your|the|our)\\s+)?(?:staff|team|personnel)',
  'employees?',
  'team[\\s-]members?',
  'specialists?',
  'advis[oe]rs?',
  'associates?',
  'colleagues?',
  'consultants?',
);
// "the manager's name", "human resources", "travel agent fee": the noun is a modifier, not a person asked for.
const NOT_A_MODIFIER = `(?!['\\w-]|\\s+(?:number|id|name|code|portal|login|app|details|email|address|phone|contact|reference|ref|error|errors|resources|rights|nature|records?|interest|body|race|trafficking|readable|fees?|commission|charges?|costs?|discount|price|said|says|told|was|were)\\b)`;
const NP_PERSON = `(?:${DET}\\s+)?${ADJS}${PERSON}${NOT_A_MODIFIER}`;
// After "talk to" or "transfer me to", "the agent" cannot be the assistant being talked to.
const NP_PERSON_TO = NP_PERSON.replace('(?<!\\b(?:the|this) )', '');
const WEAK = alt('someone', 'somebody', 'some one', 'some body', 'anyone', 'anybody', 'any one');
/** "someone" only asks for a person with a qualifier: "someone real", "someone who can help". */
const WEAK_QUALIFIED = `${WEAK}(?=\\s+(?:real|else|human|alive|live|competent|qualified|senior|in charge|higher up|with (?:authority|a brain|a pulse|power)|who|that|from|at your|in your|on your|i can|i could|we can|to (?:talk|speak|chat|help|call|contact|look|deal)|available|actually|properly|not a|not an)\\b)`;
const DEPT = `(?:${DET}\\s+)?${ADJS}${alt('customer[\\s-](?:service|support|care|services)', 'support(?:[\\s-](?:team|staff|desk|line))?', 'team', 'department', 'dept', 'help[\\s-]?desk', 'call cent(?:er|re)', 'your (?:office|company|people)', 'one of you')}${NOT_A_MODIFIER}`;
const HELP_NOUN = `(?:(?:a|an|some|the|your)\\s+)?${alt(
  `(?:human|live|real|personal|manual|in[\\s-]person|person[\\s-]to[\\s-]person)[\\s-](?:help|assistance|support|review|chat|contact|interaction|intervention|attention|response|answer|reply)`,
  'escalation',
)}\\b`;
// "someone from billing", "a person in your refunds team": where the person sits, not who else they are.
const WHERE_THEY_SIT = `\\s+(?:from|in|on) (?:your |the )?[a-z]+(?: (?:team|department|dept|desk|office))?`;
const FROM = `(?:${WHERE_THEY_SIT})?`;
const NP_ANY = alt(NP_PERSON_TO, WEAK_QUALIFIED, WEAK, DEPT);
const NP_WANTED = alt(NP_PERSON, WEAK_QUALIFIED, HELP_NOUN);
const BOT = `(?:(?:stupid|dumb|useless|automated|virtual)\\s+)?${alt('bots?', 'robots?', 'machines?', 'ai', 'chat\\s?bots?', 'computers?', 'automated (?:system|service|assistant|agent)s?', 'virtual (?:assistant|agent)s?', 'algorithms?', 'programs?', 'scripts?')}\\b`;

/** A way of asking for a person. `lead`: the frame counts only after a request lead ("can I", "I want to"). */
export interface RequestFrame {
  name: string;
  re: RegExp;
  lead: boolean;
  /** A cheap test every match needs (a word each alternative holds): `re` runs only on clauses that pass it. */
  pre?: RegExp;
}

const frame = (name: string, source: string, lead: boolean): RequestFrame => ({ name, re: new RegExp(source, 'g'), lead });

/** Frames in which a customer asks for a person, each one a word class pattern, not a phrase list. */
export const REQUEST_FRAMES: readonly RequestFrame[] = [
  frame(
    'talk_to',
    `\\b(?:(?:speak|talk|chat|converse|communicate|deal|have a word|a word|get through|get in touch|be in touch|be connected|get connected|be transferred|get transferred|be put through|get put through|be passed(?: over)?|be escalated|get escalated|be handed(?: over)?|be routed|be sent|be put in touch)(?:\\s+(?:directly|straight|over|back|right now|now|immediately|please))?\\s+(?:to|with)|reach|contact|see|phone|ring|get hold of|get ahold of|involve|loop in|bring in)\\s+${NP_ANY}`,
    true,
  ),
  frame(
    'transfer_to',
    `\\b(?:transfer|connect|put|pass|hand|forward|redirect|route|switch|send|patch|bump|move|escalate|refer)\\s+(?:me|us|my (?:call|chat|case|ticket|query|request|issue|complaint)|this(?:\\s+(?:chat|conversation|case|call|issue|ticket|matter))?|it)\\s+(?:(?:through|over|across|along|on|up|back|directly|straight)\\s+)?(?:to|with|onto)\\s+${NP_ANY}`,
    true,
  ),
  frame(
    'transfer',
    `\\b(?:(?:transfer|forward|escalate)\\s+(?:me|us|this|it|my (?:call|chat|case|ticket))|put me through|escalate)(?=\\s*$|\\s+(?:please|pls|plz|now|immediately|asap|right now|right away|already|then|thanks|thank you|up|this|it|my|the|that)\\b)`,
    true,
  ),
  frame(
    'talking_to',
    `\\b(?:appreciate|prefer|insist on|keen on|interested in|how about|what about|fine with|ok with|okay with|happy with)\\s+(?:just\\s+)?(?:speaking|talking|chatting|being (?:transferred|connected|put through))\\s+(?:to|with)\\s+${NP_ANY}`,
    false,
  ),
  frame('be_transferred', `\\b(?:be|get|getting|being)\\s+(?:transferred|escalated|put through|handed over|passed on)\\b`, true),
  frame(
    'want_escalated',
    `\\b(?:want|need|would like|'d like|like)\\s+(?:this|it|that|my \\w+|the \\w+)\\s+(?:escalated|transferred|(?:looked at|reviewed|handled|seen|checked) by\\s+${NP_ANY})`,
    false,
  ),
  frame(
    'want_person',
    `\\b(?:want|wanna|need(?:\\s+for)?|would like|'d like|'d love|would love|'d prefer|would prefer|prefer|demand|request|require|insist on|ask(?:ing|ed)? for|looking for|waiting for|wait for|get me|give me|find me|bring me|fetch me|grab me|go get|send me|let me have|let me get|i'll take|(?:can|could|may) (?:i|we) (?:please\\s+)?(?:have|get|see)|(?:this|it|that) (?:needs|requires))\\s+(?:me\\s+)?${NP_WANTED}`,
    false,
  ),
  frame(
    'person_can',
    `\\b(?:can|could|would|will|may|might|can't|couldn't|won't|wouldn't)\\s+(?:${NP_PERSON}${FROM}|${WEAK}${WHERE_THEY_SIT}|${WEAK_QUALIFIED}|${WEAK}(?=\\s+(?:please\\s+)?(?:call|phone|ring|contact|email|get back|reach out|talk|speak|chat)))\\s+(?:(?:please|just|quickly|maybe|possibly)\\s+)?(?:be able to\\s+)?(?:look|check|help|review|handle|call|phone|ring|contact|email|take|deal|sort|assist|see|read|get back|reach out|explain|fix|step in|join|approve|verify|confirm|intervene|authori[sz]e|override|process|talk|speak|chat|get in touch|follow up|investigate|examine|give|come|jump|hop)\\b`,
    false,
  ),
  frame(
    'possible_for_person',
    `\\b(?:possible|able|a (?:chance|way)|any (?:chance|way)|okay|ok|alright)\\s+for\\s+(?:${NP_PERSON}${FROM}|${WEAK}${WHERE_THEY_SIT}|${WEAK_QUALIFIED})\\s+to\\s+(?:(?:please|just|quickly)\\s+)?(?:take (?:a )?look|look|help|handle|deal|review|check|sort|step in|take over|call|phone|contact|talk|speak|get back)\\b`,
    false,
  ),
  frame(
    'rather_person_handled',
    `\\b(?:if|when|rather|prefer(?:red)?|sooner)\\s+(?:${NP_PERSON}${FROM}|${WEAK}${WHERE_THEY_SIT}|${WEAK_QUALIFIED})\\s+(?:handled|dealt with|took over|looked at|looked into|took a look at|took care of|sorted out|reviewed|checked|could handle|could deal with|could take over|could look at|would handle|would deal with|would take over|would look at)\\b`,
    false,
  ),
  frame(
    'have_person_call',
    `\\b(?:have|get|make)\\s+(?:${NP_PERSON}|${WEAK})${FROM}\\s+(?:to\\s+)?(?:call|phone|ring|contact|email|get back to|reach out to|look at|review|check)\\b`,
    true,
  ),
  frame('find_person', `\\b(?:find|get|reach|grab|locate)\\s+(?:${NP_PERSON}|${WEAK_QUALIFIED})`, true),
  frame(
    'bring_person',
    `\\b(?:get|bring|put|fetch|grab|call)\\s+(?:${NP_PERSON}|${WEAK_QUALIFIED})(?=\\s*$|\\s+(?:on|in|here|over|now|please|into|to the)\\b)`,
    true,
  ),
  frame(
    'person_available',
    `\\b(?:is|are|isn't|aren't)\\s+(?:there\\s+)?(?:${NP_PERSON}|${WEAK})\\s+(?:available|around|free|online|on (?:shift|duty)|working today|able to (?:help|talk|take))\\b`,
    false,
  ),
  frame(
    'is_there',
    `\\b(?:is|are|isn't|aren't)\\s+there\\s+(?:(?:not|no|any|even|actually|really|still)\\s+)*(?:${NP_PERSON}|${WEAK}(?=\\s*$|\\s+(?:real|human|alive|live|i can|i could|we can|who can|who could|that can|that could|to (?:talk|speak|help|chat)|available|there|out there|in charge|competent|working|at all|around|here)\\b)|${DEPT})`,
    false,
  ),
  frame(
    'reject_bot',
    `\\b(?:(?:(?:don't|dont|do not|no longer|won't|will not|refuse to)\\s+(?:want|wanna|need|like|wish)|(?:don't|dont|do not|stop)\\s+(?:make|making|forcing|force)\\s+me)\\s+(?:to\\s+)?(?:(?:talk|speak|chat|deal|communicate)\\s+(?:to|with)\\s+)?|(?:tired|sick|fed up|done|had enough)\\s+(?:of|with)\\s+(?:(?:talking|speaking|chatting|dealing)\\s+(?:to|with)\\s+)?|no more\\s+|^(?:please\\s+)?no\\s+)(?:(?:a|an|the|this|some|your|any|these)\\s+)?${BOT}`,
    false,
  ),
];

/** A clause that is nothing but a person asked for: "Human!", "real person please", "agent". */
export const BARE_REQUEST = new RegExp(
  `^(?:(?:hi|hello|hey|ok|okay|so|just|please|pls|plz|um+|uh+|oh|sorry|i said|i say|then|now|again|look|listen|honestly|seriously|ugh+)\\s+)*(?<neg>(?:no|not|never)\\s+(?:an?\\s+|any\\s+|more\\s+)?)?(?:(?:a|an|some|any|your|ur)\\s+)?(?:${ADJ}[\\s-]+){0,3}${PERSON}(?:[\\s-]+${PERSON})*(?:\\s+(?:please|pls|plz|now|asap|immediately|right now|right away|thanks in advance|in advance|thanks|thank you|thx|cheers|ta|already|then|again)|\\s*,?\\s*not (?:an?\\s+)?${BOT})*\\s*$`,
);

// What may come right before a frame that needs a lead, once negators are taken out.
const LEAD = new RegExp(
  `(?:^|\\b(?:want|wanna|need|would like|'d like|like|'d love|would love|love|'d rather|would rather|rather|'d prefer|would prefer|prefer|demand|insist on|request|require|wish|hope|hoping|trying|try|asking|ask|going|gonna|gotta|got|have|must|let me|lemme|allow me|please|pls|plz|kindly|just|then|way|possible|able|time|how|hi|hello|hey|um|uh|oh|look|listen|yo|ok|okay|so|and|yes|yeah|sure|seriously|honestly|i said|(?:can|could|may|might|shall|can't|couldn't)\\s+(?:i|we|u|you)|(?:would|will|won't|wouldn't)\\s+(?:you|u)|(?:how|where|when)\\s+(?:do|can|could|would|should|shall|might|may|will)\\s+(?:i|we)|(?:way|chance|wondering if|wonder if|if|somewhere|anywhere|someone|somebody|anyone|anybody) (?:i|we) (?:can|could|may|might)|you\\s+(?:can|could|should|need|have|must|may|better|gotta)|you(?: would| will|'d|'ll| were going to| promised to)|go ahead and|why not|do to|need you|want you|like you))(?:\\s+to)?(?:\\s+be able to)?(?:\\s+(?:please|pls|just|now|finally|actually|quickly|immediately|directly|right now|maybe|possibly|really|already|somehow))*\\s*$`,
);
const STRIP_NEGATORS = /\b(?:not|never|don't|dont|do not|doesn't|didn't|won't|wouldn't|shouldn't|no longer)\b/g;

/** Whether the text before a frame lets it be a request: a modal, a want-verb, or nothing at all. */
export function hasRequestLead(before: string): boolean {
  return LEAD.test(before.replace(STRIP_NEGATORS, ' ').replace(/\s+/g, ' ').trim());
}

const NEGATOR =
  /\b(?:not|never|no|nobody|none|neither|nor|without|don't|dont|do not|doesn't|doesnt|didn't|didnt|won't|wont|wouldn't|can't|cant|cannot|couldn't|shouldn't|isn't|aren't|wasn't|haven't|hasn't|no need|no longer|rather not|instead of|stop|quit|refuse|hate to|never mind|nevermind)\b/g;
// "can't I", "why don't you": an inverted question asks; it does not negate.
const INVERTED = /^\s+(?:i|you|u|we)\b/;
const CONTRAST = new Set([
  'but',
  'just',
  'instead',
  'rather',
  'only',
  'though',
  'however',
  'so',
  'yet',
  'except',
  'actually',
  'anyway',
  'and',
]);
const SUBJECT = new Set(['i', 'we', 'you', "i'm", "we're", "you're", "i'd", "i'll", 'u']);
// Verbs whose negation reaches into the clause they govern: "I don't think I need a human".
const CARRIER = new Set([
  'think',
  'believe',
  'feel',
  'suppose',
  'reckon',
  'guess',
  'expect',
  'imagine',
  'want',
  'need',
  'like',
  'wish',
  'mean',
  'say',
  'said',
  'ask',
  'asked',
  'tell',
  'told',
  'that',
  'really',
  'even',
  'necessarily',
  'sure',
  'certain',
  'convinced',
  'honestly',
  'to',
]);

/** Whether a negator governs what follows `before`: close enough, with no contrast or new subject between. */
export function isNegatedBefore(before: string): boolean {
  let last: { end: number; word: string } | undefined;
  for (const m of allMatches(NEGATOR, before)) {
    const end = m.index + m[0].length;
    if (/n't$|^cannot$/.test(m[0]) && INVERTED.test(before.slice(end))) continue;
    last = { end, word: m[0] };
  }
  if (last === undefined) return false;
  const gap = words(before.slice(last.end));
  // "no, I still want the person": a "no" that answers, followed by its own subject, negates nothing after it.
  if (last.word === 'no' && gap.length > 0 && SUBJECT.has(gap[0]!)) return false;
  if (gap.length > 5 || gap.some((w) => CONTRAST.has(w))) return false;
  // "if this isn't refunded by Friday my solicitor…": the negation took its own verb and that verb's
  // time or place; what comes after is another clause, its comma left out.
  if (/^[a-z]+(?:ed|en)$/.test(gap[0] ?? '') && gap.slice(1, -1).some((w) => ADJUNCT.has(w))) return false;
  return !gap.some((w, i) => SUBJECT.has(w) && gap.slice(0, i).some((v) => !CARRIER.has(v)));
}

const ADJUNCT = new Set(['by', 'until', 'till', 'before', 'within', 'on', 'at', 'in', 'after']);
const REPORTER =
  /\b(?:said|says|say|saying|told|tells|tell|telling|mentioned|suggested|suggests|advised|advises|recommended|recommends|explained|claimed|claims|insisted|warned|reckons|thinks|thought|promised|instructed|informed|asked me|wanted me|wants me)\b/g;
const ADVERB = new Set([
  'already',
  'just',
  'even',
  'literally',
  'also',
  'then',
  'clearly',
  'specifically',
  'explicitly',
  'actually',
  'have',
  'had',
  "i've",
  'has',
  'did',
  'do',
  'once',
  'repeatedly',
  'never',
]);
const OWN_VOICE = new Set([
  'i',
  'we',
  'you',
  'u',
  "i've",
  "we've",
  "you've",
  "i'd",
  'as',
  'please',
  'so',
  'then',
  'ok',
  'okay',
  'can',
  'could',
  'would',
  'will',
  'and',
]);
const NARRATIVE =
  /\b(?:last time|the other day|yesterday|previously|earlier today|last (?:week|month|year|night)|in the past|back then|\d+ (?:days?|weeks?|months?|years?) ago|a (?:while|few \w+|week|month|year|day) ago|when i (?:called|phoned|rang|was|went|spoke|visited|contacted|flew|chatted)|according to)\b/;
// A question about the procedure, right before the frame: "do I have to talk to a manager?"
const PROCEDURE =
  /(?:(?:do|does|will|would|should|must) (?:i|we) (?:really |still )?(?:have|need) to|does (?:that|this|it) mean (?:i|we) (?:have|need) to)$/;

/**
 * Whether the words before a frame report somebody else's speech ("the agent at the airport
 * said", "my friend told me to", "I was told to"), tell a past episode ("last time"), or ask
 * about the procedure rather than for a person ("do I have to"). The customer's own voice
 * ("I told you", "you said you would") is not reported speech.
 */
const OWN_VOICE_AGAIN =
  /\b(?:and|so|but|then|now)\s+(?:i|we)\b[^]*\b(?:can|could|will|would) (?:you|u)\b|\b(?:so|and|then|now)\s+(?:can|could|will|would) (?:you|u)\b/;

export function isReportedBefore(before: string): boolean {
  if (NARRATIVE.test(before) || PROCEDURE.test(before.trim())) return true;
  for (const m of allMatches(REPORTER, before)) {
    const prior = words(before.slice(0, m.index));
    let i = prior.length - 1;
    while (i >= 0 && ADVERB.has(prior[i] ?? '')) i -= 1;
    const subject = prior[i];
    // At the start of the clause the verb is an imperative: "tell me how to reach a person".
    if (subject === undefined || OWN_VOICE.has(subject)) continue;
    // "it says I owe 42 and I always pay by direct debit so can you put me through": the customer
    // speaks again in their own voice after what was reported, and what follows is theirs.
    if (OWN_VOICE_AGAIN.test(before.slice(m.index + m[0].length))) continue;
    return true;
  }
  return false;
}

/** "asked for a manager" said of somebody else: the request is not the customer's. */
export function isThirdPartySubject(before: string): boolean {
  const prior = words(before).filter((w) => !ADVERB.has(w));
  const subject = prior[prior.length - 1];
  return (
    subject !== undefined &&
    /^(?:he|she|they|it|him|her|them|husband|wife|friend|partner|mother|father|mum|mom|dad|son|daughter|colleague|boss)$/.test(subject)
  );
}

/** A clause that takes back the one before it: "Human? No." */
export const REFUSAL =
  /^(?:no(?!\s*-?\s*one\b)(?!\s+(?:problem|problems|worries|worry|rush|hurry|bother|stress)\b)(?!\s+(?:entiendo|hablo|comprendo|puedo|se|sé|tengo|funciona|me|lo|le|es|está|esta|hay|capisco|parlo|riesco|entendo|falo|consigo|comprends|parle|peux|sais)\b)|nope|nah|not really|no thanks|no thank you|absolutely not|definitely not|of course not|no way|never|not needed|not necessary|not now|never mind|nevermind)\b/;

/** An agent turn that offers a person: "Would you like me to transfer you to a specialist?" */
export const AGENT_OFFER =
  /\b(?:i'll|i will|i can|let me) (?:put you through|transfer you|connect you|arrange (?:a|for a) (?:person|human|colleague|callback|call ?back)|place you in the queue|book (?:a|the|you a) (?:callback|call ?back|call))\b[^]*\?|\b(?:callback|call ?back) (?:slot|time)\b[^]*\b(?:would that work|does that work|shall i book|is that ok|would that suit)\b|\b(?:would you like|do you want|shall i|should i|want me to|would you prefer|if you(?:'d| would) like|i can|i could|happy to|prefer to)\b[^.?!]*\b(?:transfer|connect|escalate|put you through|pass you|hand (?:you|this|it) over|human|person|specialist|supervisor|manager|colleague|agent|representative|team member|someone)\b/;
/** A reply that accepts such an offer. Bare "ok"/"fine" count only as the whole reply. */
export const ACCEPT =
  /^(?:(?:yes|yeah|yep|yup|ya|yea|sure|please|please do|go ahead|do it|absolutely|definitely|of course|certainly|i would|i do|y)\b(?!.*\b(?:but|first|before|wait|actually|instead|rather|hold on|hang on|not|don't|no)\b)|(?:ok|okay|fine|alright)(?:\s+(?:please|thanks|thank you))?\s*[.!]*$|(?:ok|okay|fine|alright|sure)[,.!]*\s+(?:that's|that is|thats) (?:fine|ok|okay|alright|good)\b(?!.*\b(?:but|instead|rather|not|don't|no|first|wait|actually)\b)|that(?:'d| would) be (?:great|good|nice|helpful|perfect))/;
/** A reply that declines such an offer. */
export const DECLINE =
  /^(?:no|nope|nah|no thanks|no thank you|not now|not yet|i'm (?:good|fine|ok|okay)|i am (?:good|fine|ok)|never mind|nevermind|don't|do not|please don't|it's fine|that's ok|not necessary|no need|rather not|i'd rather not)\b/;
