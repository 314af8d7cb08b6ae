/**
 * Whether two customer turns state the same request in other words, for loop detection. Each
 * turn becomes a weighted bag of concepts: content words, stemmed, with synonyms folded into
 * one concept ("refund", "money back", "reimbursement" → refund), and every concept weighted by
 * how specific it is (an inverse-document-frequency weight fixed from the concept lists, since a
 * conversation is too short to estimate one). Two turns are one intent when the cosine of their
 * bags reaches a threshold, lower right after the agent failed to understand, or when the
 * customer marks the turn as a restatement ("to clarify", "what I mean is", "let me try again").
 * Words alone cannot tie "does my tariff work abroad" to "if I go to Greece can I use my phone",
 * so the extractor also reads the agent's reply between them: after one that answered nothing in
 * kind, did nothing and asked nothing, the customer's next turn goes on with the same request
 * unless it says it asks something new ("also", "never mind", "fair enough. what about…").
 */
import { isIntentWord, stem } from './handoff-topics-lexicon.js';
import { words } from './handoff-lexicon.js';
import { withinOneEdit } from './text-canon.js';
import { memoByText } from './memo.js';

/** Synonyms folded into one concept. Multi-word entries are matched on the canonical text first. */
const CONCEPTS: Readonly<Record<string, readonly string[]>> = {
  refund: [
    'refund',
    'reimburse',
    'reimbursement',
    'money back',
    'repay',
    'repayment',
    'return the money',
    'money',
    'credit back',
    'chargeback',
  ],
  cancel: [
    'cancel',
    'cancellation',
    'terminate',
    'termination',
    'end',
    'stop',
    'close',
    'quit',
    'unsubscribe',
    'get out of',
    'leave',
    'no longer want',
  ],
  subscription: ['subscription', 'plan', 'membership', 'contract', 'service', 'tier', 'package deal', 'tariff', 'bundle'],
  delivery: [
    'parcel',
    'package',
    'delivery',
    'deliver',
    'shipment',
    'ship',
    'arrive',
    'arrival',
    'courier',
    'tracking',
    'show up',
    'came',
    'come',
  ],
  charge: [
    'charge',
    'payment',
    'paid',
    'pay',
    'debit',
    'billed',
    'taken',
    'took',
    'fee',
    'amount',
    'transaction',
    'duplicate',
    'twice',
    'two times',
    'identical',
    'same amount',
  ],
  bill: ['bill', 'invoice', 'statement', 'receipt', 'billing'],
  high: [
    'high',
    'higher',
    'more',
    'expensive',
    'increase',
    'went up',
    'gone up',
    'large',
    'overcharge',
    'overcharged',
    'too much',
    'usual',
    'extra',
    'price',
  ],
  email: ['email', 'e-mail', 'mail', 'login email', 'contact email'],
  change: ['change', 'update', 'replace', 'switch', 'swap', 'move', 'modify', 'edit', 'new', 'different', 'put'],
  card: ['card', 'payment method', 'card details', 'expired'],
  login: ['login', 'log in', 'sign in', 'password', 'access', 'locked', 'locked out', 'rejecting'],
  booking: ['flight', 'booking', 'reservation', 'rebook', 'departure', 'date', 'day', 'trip', 'ticket', 'later', 'earlier', 'weekend'],
  cheaper: ['cheaper', 'lower', 'basic', 'downgrade', 'cheapest', 'smaller', 'go down', 'lower-cost', 'low cost', 'reduce', 'reduced'],
  company: ['company', 'business', 'ltd', 'vat', 'tax', 'name', 'firm'],
  status: ['status', 'where', 'yet', 'received', 'receive', 'sent', 'gone through', 'happening', 'progress', 'still'],
  explain: ['explain', 'reason', 'why', 'what for', 'recognise', 'recognize', 'unknown', 'mystery'],
  // What the customer tells the agent to do, in the verbs they use for it.
  remove: [
    'remove',
    'take off',
    'take it off',
    'take them off',
    'wipe',
    'get rid of',
    'delete',
    'waive',
    'reverse',
    'strip',
    'knock off',
    'get it off',
    'off my bill',
    'off the bill',
    'off my account',
  ],
  restore: ['put back', 'put it back', 'restore', 'reinstate', 'bring back', 'give back', 'give me back', 'return', 'back on'],
  fix: ['fix', 'correct', 'amend', 'adjust', 'rectify', 'sort out', 'put right'],
  // A telecom's own things, each under the words customers use for it.
  connection: [
    'internet',
    'broadband',
    'wifi',
    'wi-fi',
    'connection',
    'signal',
    'coverage',
    'reception',
    'outage',
    'disconnect',
    'disconnects',
    'dropping',
    'drops',
    'cut out',
    'cuts out',
    'cutting out',
    'offline',
    'no service',
  ],
  speed: ['speed', 'speeds', 'mbps', 'download', 'upload', 'slow', 'bandwidth', 'guaranteed minimum'],
  port: ['port', 'porting', 'pac', 'stac', 'keep my number', 'transfer my number', 'move my number', 'switching code', 'number moved'],
  merge: ['merge', 'merged', 'combine', 'combined', 'consolidate', 'single bill', 'one bill', 'same bill', 'joint bill'],
  usage: ['usage', 'data', 'gb', 'gig', 'gigs', 'gigabyte', 'allowance', 'minutes', 'texts'],
  device: ['router', 'hub', 'modem', 'handset', 'equipment'],
  instalments: [
    'instalment',
    'instalments',
    'installment',
    'installments',
    'split',
    'in parts',
    'two parts',
    'in two',
    'spread the cost',
    'spread it',
  ],
  roaming: ['roaming', 'abroad', 'overseas', 'euro pass', 'travel pass'],
};
/** Concepts that say little about what is asked: half weight. */
const GENERIC = new Set(['change', 'status', 'explain', 'high']);
// Words that carry feeling or discourse, not a request.
const NOISE = new Set(
  "mad driving pathetic absolutely reading write writing kidding listening third second time clarify clear mean try rephrase hmm sorry maybe wasn wasn't seriously infuriating joke unreal typical honestly already asked said told keep keeps kept keeping every each both all always constantly though anyway actually".split(
    ' ',
  ),
);

// Nearly every request names its order or account: they tell little apart.
const WEAK_WORDS = new Set(['order', 'account', 'wrong']);

// Each phrase with its first word, which must occur in the text before the phrase is looked for.
const phraseConcepts: Array<[RegExp, string, string]> = [];
const wordConcept = new Map<string, string>();
for (const [concept, entries] of Object.entries(CONCEPTS)) {
  for (const entry of entries) {
    if (entry.includes(' ') || entry.includes('-'))
      phraseConcepts.push([new RegExp(`\\b${entry}\\b`, 'g'), concept, entry.split(/[ -]/)[0]!]);
    else wordConcept.set(stem(entry), concept);
  }
}

const conceptWords = [...wordConcept.keys()].filter((w) => w.length >= 4);
/** The concept of a slip of one of its words ("fligth", "bookibg"): same first letter, one edit. */
function conceptOfSlip(s: string): string | undefined {
  if (s.length < 4) return undefined;
  const hit = conceptWords.find((w) => w[0] === s[0] && withinOneEdit(w, s));
  return hit === undefined ? undefined : wordConcept.get(hit);
}

/** A turn as weighted concepts. */
export type IntentVector = ReadonlyMap<string, number>;

/** The concepts of a canonical text, each with its weight. */
export const intentVector: (norm: string) => IntentVector = memoByText(intentVectorAfresh);

function intentVectorAfresh(norm: string): IntentVector {
  const vector = new Map<string, number>();
  const add = (concept: string, weight: number) => vector.set(concept, Math.max(vector.get(concept) ?? 0, weight));
  let rest = norm;
  for (const [re, concept, first] of phraseConcepts) {
    if (!rest.includes(first)) continue;
    rest = rest.replace(re, () => {
      add(concept, GENERIC.has(concept) ? 0.5 : 1);
      return ' ';
    });
  }
  for (const w of words(rest)) {
    if (NOISE.has(w) || !isIntentWord(w) || /\d/.test(w)) continue;
    const s = stem(w);
    const concept = wordConcept.get(s) ?? conceptOfSlip(s);
    if (concept) add(concept, GENERIC.has(concept) ? 0.5 : 1);
    else add(`w:${s}`, WEAK_WORDS.has(s) ? 0.3 : 1);
  }
  return vector;
}

/** The cosine of two intent vectors, 0 when either is empty. */
export function intentSimilarity(a: IntentVector, b: IntentVector): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (const [k, v] of a) {
    na += v * v;
    // A content word matches its slip in the other turn ("flight", "fligth"), as key words do.
    const u =
      b.get(k) ?? (k.length >= 7 && k.startsWith('w:') ? [...b].find(([j]) => j.startsWith('w:') && withinOneEdit(j, k))?.[1] : undefined);
    if (u !== undefined) dot += v * u;
  }
  for (const v of b.values()) nb += v * v;
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** Turns the customer marks as saying the same again: "to clarify", "let me try again", "for the third time". */
export const RESTATEMENT =
  /^(?:(?:hmm+|ok|okay|sorry|so|well|look|again|no|right|um+|erm)\b[\s,.!:]*)*(?:to clarify|let me (?:try again|rephrase|put it (?:another|differently)|say (?:it|that) again|explain again)|just to be clear|what i mean is|(?:sorry,? )?maybe i wasn't clear|i wasn't clear|in other words|i'll say it again|again\b|as i said|like i said|i(?:'ve| have)? already (?:said|told you|asked)|for the (?:second|third|fourth|fifth|\d+(?:st|nd|rd|th)) time|once more|one more time|i repeat|i'm asking again|i asked|i'm still asking)/;

/**
 * Turns that tell the agent it missed what was asked, anywhere in the message: "I meant the end
 * date", "I'm not asking how to pay, I'm asking why it went up", "not the PIN, the PUK", "thanks,
 * but I need all of them", "I've looked there". The customer says it is the same request again.
 */
export const CORRECTION = new RegExp(
  [
    "\\b(?:i|i'm|im|i am)\\s+(?:only |just )?(?:meant|mean|meaning)\\b(?! (?:it|that|to say)\\b)",
    "\\b(?:i'm|im|i am|i was) (?:not asking|asking (?:for|about|what|why|how|when|where|if|whether|you to|you for))\\b",
    "\\b(?:that(?:'s| is|s)?|this is|it's|its) not what i (?:asked|meant|said|want|wanted|need|needed)\\b",
    '\\bnot what i (?:asked|meant)\\b',
    "\\bwhat i (?:need|want|asked|meant|mean|am asking|'m asking) (?:is|was|for)\\b",
    '\\bmy question (?:is|was)\\b',
    '\\blet me (?:ask|put it|say it|phrase it|word it) (?:differently|another way|a different way|again)\\b',
    "^(?:(?:yes|yeah|yep|ok|okay|sure|cool|great|thanks|thank you|i know|i understand|understood|right|fine|i see|that's nice|thats nice|that's great|that's good|lovely|interesting|good to know|noted)\\b(?: that)?[,.!]*\\s*)+but\\b",
    // Told what they knew, and asked again: "yes I know, I want it switched off", "I understand, so please…".
    "^(?:(?:yes|yeah|yep|ok|okay|right|sure)[,.!]*\\s+)?(?:i know|i understand|i get (?:that|it)|understood|i'm aware|i am aware)\\b[^.?!]{0,40}?[,.;!-]\\s*(?:so|i (?:want|need|asked|meant|just|only|still|don't|do not|dont|would|'d))\\b",
    '\\bi know (?:what|how|where|that) (?:a |an |the |my |your )?[a-z]+(?: [a-z]+)? (?:is|are|works|means|does)\\b',
    // The agent's assumption denied: "I don't want to cancel", "I'm not travelling", "nothing wrong with the card".
    "^(?:(?:ok|okay|right|yes|yeah|no|nope)[,.!]*\\s+)?i (?:don't|do not|dont) want (?:it|to|that|them|this)\\b",
    "\\b(?:i'm|im|i am) not (?:travell?ing|going abroad|abroad|moving|leaving|switching|cancell?ing|upgrading|changing)\\b",
    "\\bnothing(?:'s| is)? (?:wrong|the matter) with (?:the|my|it)\\b",
    '\\bnot (?:the|a|an|my) [a-z]+(?: [a-z]+)?[,.;]+\\s*(?:the|a|an|my|just|i)\\b',
    "\\b(?:i've|ive|i have|i already|i've already|i have already) (?:looked|checked|tried|done|read|seen|restarted)(?: (?:that|there|it|this|them|those))?\\b[^.?!]{0,30}(?:[.,;!]|$)",
    "\\b(?:i'm|im|i am) not (?:after|looking for|interested in|wanting)\\b",
    "\\byou(?:'re| are| keep)? (?:not|still not) (?:answering|listening|understanding|getting it)\\b",
    // Said back to a reply that missed: "I DID top up", "I have viewed it", "stop changing the
    // subject", "did you miss the part where…", "I don't care how fast it is", "that's the whole point".
    "\\bi did (?!not\\b|n't)[a-z]+\\b|\\bi(?:'ve| have)(?: already)? (?!not\\b|got\\b|been\\b|had\\b)[a-z]+ed (?:it|that|this|them)\\b",
    '\\b(?:stop|quit) changing the subject\\b|\\b(?:did|do) you (?:miss|not (?:read|see)|even read)\\b|\\bare you (?:a broken record|even reading|reading (?:this|what))\\b',
    "\\b(?:again|still) with the\\b|\\bdo you (?:understand|speak) (?:english|me)\\b|\\bthat(?:'s| is|s) the (?:whole )?(?:point|problem)\\b",
    "\\bi (?:don't|do not|dont) care (?:about|how|if|what|whether)\\b",
    "\\bi (?:don't|do not|dont) want (?:a|an|the|your|another|any) (?:\\w+ )?(?:discount|offer|deal|upgrade|downgrade|bundle|add-?on|promotion|voucher)\\b",
    // The reply named as missing the point: "that doesn't answer it", "still doesn't explain the
    // 11.20", "we're at cross purposes", "that's what I'm trying to stop", "not that one".
    "\\b(?:that|this|it|which)(?: still)? (?:doesn't|does not|didn't|did not|dont|doesnt) (?:answer|explain|help|address|tell me)\\b|\\bstill (?:doesn't|does not|didn't|dont|doesnt) (?:answer|explain|tell)\\b",
    "\\bcross purposes\\b|\\byou(?:'ve| have)? (?:misunderstood|misread|got (?:it|me) wrong)\\b|\\b(?:that's|that is|thats) (?:exactly )?what i(?:'m| am) trying to\\b|^(?:no[,.]?\\s+)?not that one\\b|\\bnot interested in\\b",
    "^(?:(?:ok|okay|look|please|right)[,.!]*\\s+)?just (?:tell me|answer)\\b|\\b(?:it's|its|they're|theyre|that's|it is|they are) (?:in|on) my (?:first |last |previous )?message\\b|\\bi (?:already )?(?:gave|sent) you (?:that|it|them|those)\\b",
  ].join('|'),
);

/** A question the customer asks, by its kind: yes or no, an amount, a time, a number, a way to do something. */
type AskKind = 'yes_no' | 'amount' | 'time' | 'number' | 'how_to';
const LEAD = '^(?:(?:and|so|ok|okay|also|hi|hello|hey|right|then|oh|great|thanks|thank you|cool)[,.!]*\\s+)*';
const ASK_KINDS: ReadonlyArray<[AskKind, RegExp]> = [
  [
    'amount',
    /\bhow much\b|\b(?:what(?:'s| is| are| was| will be)|whats) (?:the|my) (?:\w+ )?(?:cost|price|charge|fee|fees)\b|\bwhat (?:does|do|would|will|did) [^?.!]{0,40}\bcost\b|\bhow expensive\b|^(?:the )?(?:amount|cost|price|total|balance)\b/,
  ],
  ['time', /\bwhen\b|\bwhat (?:date|day|time)\b|^(?:the )?(?:date|day|time)\b/],
  [
    'number',
    /\bhow (?:many|far|fast|long|big|often)\b|\b(?:what(?:'s| is)|whats) (?:the|my) (?:\w+ )?(?:number|code|reference|address|postcode)\b|^(?:the|my) (?:\w+ )?(?:number|code|reference|address|postcode)\b/,
  ],
  ['how_to', /\bhow (?:do|can|should|would) (?:i|we)\b|\bwhere (?:do|can|would) i\b/],
  ['yes_no', new RegExp(`${LEAD}(?:can|could|is|are|was|will|would|does|do|did|has|have|should|shall|may|am)\\b`)],
];
/** The verbs steps open with ("go to…", "tap…", "restart…"), and a path through menus ("Account > Plan"). */
export const STEP_VERBS = 'go to|log in|sign in|open|tap|click|press|select|choose|enter|type|turn|switch|hold|unplug|plug|restart|reset';
export const MENU_PATH = '\\w >\\s?\\w';
const ANSWERS: Record<AskKind, RegExp> = {
  amount:
    /[£$€]\s?\d|\b\d+[.,]\d{2}\b|\b\d+(?:[.,]\d+)?\s?(?:p|pounds?|euros?|dollars?|gbp|eur|usd)\b|\b(?:it's |it is )?free\b|\bno (?:charge|cost|fee)\b/,
  time: /\b(?:the |on the )?\d{1,2}(?:st|nd|rd|th)\b|\b(?:each|every) (?:month|week|year)\b|\b\d{1,2}(?:st|nd|rd|th)?(?: of)? (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|\b(?:jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]* \d|\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tomorrow|tonight|next week|this week)\b|\b\d{1,2}[:.]\d{2}\b|\b\d{1,2}\s?(?:am|pm)\b|\b\d+\s*(?:minutes?|mins?|hours?|days?|weeks?|months?|years?)\b|\b\d{4}-\d{2}-\d{2}\b/,
  number: /\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|none|no)\b/,
  how_to: new RegExp(`^(?:${STEP_VERBS}|in the app|in (?:the )?settings|under|from (?:the|your))\\b|${MENU_PATH}`),
  yes_no:
    /^(?:(?:sure|ok|okay|great|good news|thanks|thank you|of course)[,!.\s]+)?(?:yes|yep|yeah|no|nope|it is|it's not|it isn't|it won't|it will|it does|it doesn't|you can't|you cannot|you won't|you don't|there is|there's|there isn't|there are no|they are|they're not|that's right|correct|absolutely|certainly)\b/,
};

/**
 * Whether an agent's reply answers the customer's question in kind: a yes or a no to a yes/no
 * question, an amount to "how much", a date or a time to "when", a number to "how many", steps
 * to "how do I". A turn after such an answer asks something new unless it says otherwise.
 * `specific` when it answers in another kind, `unanswered` when it says nothing of the kind at
 * all, null when the customer's message asks nothing of a kind this can judge.
 */
export function answersInKind(reply: string, ask: string): 'answered' | 'specific' | 'unanswered' | null {
  // A question asked politely is judged by what it asks: "could you tell me the date of my last
  // payment?" wants a date, not a yes.
  const embedded = EMBEDDING.exec(ask);
  const asked = embedded ? ask.slice(embedded[0].length).trim() : ask;
  // A statement asks nothing, whatever its clauses say ("I'd like my number kept when the SIM arrives").
  if (!embedded && !ask.includes('?') && !QUESTION_START.test(ask)) return null;
  const kind = ASK_KINDS.find(([, re]) => re.test(asked))?.[0] ?? (embedded && /^(?:if|whether)\b/.test(asked) ? 'yes_no' : undefined);
  if (kind === undefined) return null;
  const text = reply.trim();
  if (ANSWERS[kind].test(text)) return 'answered';
  // An answer of another kind ("£5 if paid late" to "is there a charge?") may still answer a yes
  // or a no; a date is no answer to "how much", nor a price to "when".
  return kind === 'yes_no' && SPECIFIC.some((re) => re.test(text)) ? 'specific' : 'unanswered';
}

/** A message that opens as a question, with or without its question mark ("whens the engineer coming"). */
const QUESTION_START = new RegExp(
  `${LEAD}(?:what|whats|when|whens|where|wheres|why|how|hows|which|who|can|could|is|are|was|will|would|does|do|did|has|have|should|shall|may|am)\\b`,
);

const EMBEDDING =
  /^(?:(?:and|so|ok|okay|also|hi|hello|hey|then)[,.!]*\s+)*(?:(?:could|can|would|will) you (?:please |kindly |just )?(?:tell|show|let|remind) me|(?:please )?tell me|do you know|i(?:'d| would) like to know|i want to know|(?:could|can|would) you (?:please )?(?:explain|check|confirm)(?: to me)?)\b/;

const SPECIFIC = [
  ANSWERS.yes_no,
  ANSWERS.amount,
  ANSWERS.time,
  ANSWERS.how_to,
  /^(?:\d|one|two|three|four|five|six|seven|eight|nine|ten|none|nothing|only|just)\b/,
];

/** A turn this close to an earlier one is the same request even after an answer (asked again, word for word). */
export const SAME_WORDS = 0.85;

/** An agent turn that did not understand or did not answer: a fallback, a help link, a generic prompt. */
export const AGENT_FALLBACK =
  /\b(?:not (?:sure|able to) (?:i )?understand|(?:didn't|did not|don't|do not) (?:quite )?(?:understand|catch|get) (?:that|you|what)|(?:can|could) you (?:try asking|rephrase|say that again|provide more details|tell me (?:a bit |a little )?more|give me more details)|anything else you can share|try asking in a different way|not able to find that|something went wrong|what was your question|how can i help(?: you)?(?: with your account)?(?: today)?|which of these is it about|help article|manage your account from|i can help with [a-z, ]+ and [a-z]+\b(?=\.|\s*which)|could you (?:please )?clarify)\b/;

/** The threshold for one intent: lower after an agent fallback, where a restatement in other words is expected. */
export const SAME_INTENT = 0.5;
export const SAME_INTENT_AFTER_FALLBACK = 0.25;

/**
 * The intents a conversation has stated so far, each turn keyed to the earlier intent it
 * restates (a restatement marker, a correction, or a turn that `continues` after a reply that
 * moved nothing, links to the latest; otherwise the most similar above the threshold), or to a
 * new key of its own.
 */
export function createIntentLog(): {
  keyOf(
    norm: string,
    fallbackKey: string,
    options: { afterFallback: boolean; afterAnswer?: boolean; continues?: boolean; asked: IntentVector },
  ): string;
} {
  const prior: Array<{ key: string; vector: IntentVector }> = [];
  return {
    keyOf(norm, fallbackKey, { afterFallback, afterAnswer = false, continues = false, asked }) {
      // What the agent just asked about is an answer when echoed, not a restatement.
      const vector = new Map([...intentVector(norm)].filter(([k]) => !asked.has(k)));
      let key: string | undefined;
      const latest = prior[prior.length - 1];
      // Marked as the same again, or as a correction of what the agent made of it.
      if (latest && (continues || RESTATEMENT.test(norm) || CORRECTION.test(norm))) key = latest.key;
      else if (vector.size > 0) {
        // After a reply that answered in kind, only the same words again are the same request.
        const threshold = afterAnswer ? SAME_WORDS : afterFallback ? SAME_INTENT_AFTER_FALLBACK : SAME_INTENT;
        let best = 0;
        for (const p of prior) {
          const s = intentSimilarity(p.vector, vector);
          if (s >= threshold && s > best) [best, key] = [s, p.key];
        }
      }
      key ??= fallbackKey;
      prior.push({ key, vector });
      return key;
    },
  };
}
