/** BASELINE copy (before issue 13) for `baton bench decider`; see `handoff-signals.ts` here. */
/**
 * The lexicon of what a conversation is about: safety, regulated topics, frustration, tool
 * outputs that mean "cannot", and the words that make up an intent. Patterns run on
 * normalized clauses (see `normalizeText` in `handoff-lexicon.ts`).
 */

const re = (source: string) => new RegExp(source);

const RELATION =
  '(?:mother|mom|mum|mommy|mummy|mama|father|dad|daddy|papa|husband|wife|partner|spouse|son|daughter|child|kid|baby|brother|sister|sibling|grandmother|grandma|granny|nan|nana|grandfather|grandpa|grandad|granddad|aunt|auntie|uncle|cousin|fianc[eé]e?|parent|parents|boyfriend|girlfriend|nephew|niece|stepfather|stepmother|stepdad|stepmom|stepmum|(?:mother|father|son|daughter|brother|sister)[\\s-]in[\\s-]law|best friend|friend|loved one|family member|grandson|granddaughter|grandchild)';
// "passed" of a person, not of an exam or a car passing by.
const PASSED = 'passed(?!\\s+(?:the|my|an?|his|her|our|their|your|its|through|by|out|it|me|us|him|them|on to|along|over)\\b)';

/** A safety topic: the customer or someone with them may be in danger. Never negated: a human checks. */
export interface SafetyPattern {
  topic: 'self_harm' | 'danger' | 'medical';
  re: RegExp;
}

/** Safety phrases. Checked before anything else, and a hit means the model is not called. */
export const SAFETY_PATTERNS: readonly SafetyPattern[] = [
  {
    topic: 'self_harm',
    re: re(
      "\\b(?:kill(?:ing)? (?:myself|himself|herself|themselves|my ?self)|end(?:ing)? (?:my|his|her) (?:own )?life|end(?:ing)? it all|take (?:my|his|her) (?:own )?life|suicid\\w*|(?:want|wanna) (?:to )?die\\b|wish i (?:was|were) dead|better off dead|(?:don't|do not) want to (?:live|be alive|exist|be here anymore|wake up)|no (?:reason|point) (?:to|in) (?:live|living|going on)|not worth living|(?:hurt|harm|cut|cutting|hurting|harming) (?:myself|himself|herself)|self[\\s-]?harm\\w*|overdos\\w*|(?:jump|jumping) off (?:a|the) (?:bridge|building|roof))",
    ),
  },
  {
    topic: 'danger',
    re: re(
      `\\b(?:(?:i'm|i am|we're|we are|(?:he|she|they|my \\w+) (?:is|are)) in danger|(?:i|we)(?: am|'m| are|'re| feel)(?: really| very| just)? (?:not safe|unsafe)|(?:i|we) (?:don't|do not) feel safe|(?:feel|am|'m) threatened|threaten(?:ed|ing)? (?:me|us|to (?:hurt|kill|shoot|stab|beat))|threatened to (?:hurt|kill|attack|beat|stab|shoot)|(?:he|she|they|someone|somebody|${RELATION})\\s*(?:'d|'ll|would|will|is going to|'s going to|are going to|is gonna|'s gonna|wants to|is trying to|'s trying to|tried to)\\s+(?:hurt|kill|attack|beat|stab|shoot|strangle) (?:me|us|my|her|him|them)\\b|(?:i'll|i will|i'm going to|i am going to|i'm gonna) (?:hurt|kill|shoot|stab|attack|beat up) (?:you|someone|somebody|people|your|them|everyone)|being (?:abused|attacked|assaulted|followed|stalked|hit|beaten)|domestic (?:violence|abuse)|abusive (?:partner|husband|wife|boyfriend|girlfriend|relationship)|stalk(?:ing|er)|(?:trying to|is|are) break(?:ing)? in\\b|break(?:ing)? into (?:my|our) (?:house|home|flat|apartment|room|car)|broke into (?:my|our) (?:house|home|flat|apartment|room)|break[\\s-]?in at|intruder|gas leak|smell(?:s|ing)? gas|(?:house|home|building|car|flat|apartment|kitchen|room) (?:is )?on fire|there'?s a fire|carbon monoxide|(?:has|with|pulled) a (?:gun|knife|weapon)|bomb (?:threat|scare)|(?:planted|plant|set off) a bomb|hostage|kidnap\\w*|traffick(?:ed|ing))`,
    ),
  },
  {
    topic: 'medical',
    re: re(
      `\\b(?:heart attack|can'?t breathe|cannot breathe|can not breathe|(?:trouble|difficulty|struggling) breathing|(?:not|isn't|isnt|wasn't|stopped|no longer) breathing|(?:he|she|someone|somebody|${RELATION}) (?:has |just |suddenly )?collapsed|(?:took|taken|swallowed) (?:too many|a lot of|a bunch of|a whole bottle of|all (?:my|the|of my)) (?:pills|tablets|meds|medication|sleeping pills|painkillers)|chest pains?|(?:having|had|is having) a stroke|unconscious|unresponsive|passed out|fainted|seizures?|convuls\\w*|anaphyla\\w*|allergic reaction|bleeding (?:heavily|badly|a lot|out|profusely|everywhere)|(?:severe|heavy) bleeding|lots of blood|(?:call|need|send) (?:an |a )?ambulance|call (?:911|999|112)|dial (?:911|999|112)|medical emergency|need a doctor (?:now|urgently|right now)|is choking|choking on|going into labou?r|overdosed)`,
    ),
  },
];

/** "I nearly had a heart attack when I saw the bill": a figure of speech, not an emergency. */
export const MEDICAL_HYPERBOLE =
  /\b(?:nearly|almost|practically|gave me|give me|giving me|going to give me|gonna give me|could have had|about to have)\b(?:\s+\w+){0,2}\s*$/;

/** A regulated topic. `negatable`: "I'm not going to sue" takes it back; a death is not taken back. */
export interface TopicPattern {
  topic: 'complaint' | 'bereavement' | 'legal';
  re: RegExp;
  negatable: boolean;
}

/** Regulated topics: a human handles them whatever the agent could do. */
export const POLICY_TOPIC_PATTERNS: readonly TopicPattern[] = [
  {
    topic: 'complaint',
    negatable: true,
    re: re(
      "\\b(?:(?:file|filing|filed|lodge|lodging|lodged|make|making|made|raise|raising|raised|submit|submitting|submitted|register|registering|open|opening|log|logging|put in|putting in|start|starting|escalate|escalating|issue|take out)\\s+(?:a|an|my|the|this|another|one more)?\\s*(?:formal|official|written|proper|serious)?\\s*complaint|(?:formal|official|written)\\s+complaint|(?:want|wish|would like|'d like|need|going|gonna|intend|plan|planning|have)\\s+to\\s+complain\\b|complain(?:ing)?\\s+to\\s+(?:your|the)\\s+(?:manager|management|company|ceo|head office|regulator|ombudsman|authorities|bbb|ftc)|complaints?\\s+(?:department|procedure|process|team|form|line|policy|reference)|ombuds(?:man|person)|report(?:ing)?\\s+(?:you|this|your company|your business|it|them)\\s+to\\s+(?:the\\s+)?(?:bbb|better business bureau|ftc|cfpb|fca|fcc|regulator|authorities|consumer|trading standards|attorney general|dot|department of transportation)|better business bureau|trading standards)",
    ),
  },
  {
    topic: 'legal',
    negatable: true,
    re: re(
      "\\b(?<!\\b(?:is|was|were|are|'s|as|be|being|became|become|like)\\s+(?:(?:a|an|the)\\s+)?)(?:lawyers?|attorneys?|solicitors?|barristers?)\\b(?!\\s+(?:friend|by (?:profession|trade))\\b)|\\b(?:legal counsel|my counsel|legal\\s+(?:action|team|counsel|department|advice|proceedings|route|steps|representation|recourse|matter|claim|case|remedy|remedies)|law\\s?suits?|litigation|litigate|class[\\s-]action|small[\\s-]claims|cease and desist|breach of contract|court (?:case|order|action|claim|proceedings|date|summons)|(?:in|to|into) court|suing|sued|sue(?=\\s+(?:you|u|your|y'all|this|the|them|him|her|everyone|everybody|for|over|if|unless)\\b)|(?:will|'ll|gonna|going to|to|could|can|should|might|would|'d)\\s+sue\\b)",
    ),
  },
  {
    topic: 'bereavement',
    negatable: false,
    re: re(
      `\\b(?:pass(?:ed|ing)\\s+away|(?:has|have|had|just|recently|sadly|suddenly)\\s+${PASSED}|${RELATION}(?:\\s+\\w+){0,3}?\\s+(?:died|${PASSED}|is dead|was killed|got killed|has died|is deceased)|(?:he|she)\\s+(?:just\\s+|recently\\s+|suddenly\\s+|sadly\\s+)?(?:died|passed away)|(?:death|funeral|burial|cremation)\\s+of\\s+(?:my|our|his|her|their)\\b|(?:loss|passing)\\s+of\\s+(?:my|our|his|her|their)\\s+${RELATION}|lost\\s+(?:my|our)\\s+(?:dear\\s+|beloved\\s+)?${RELATION}\\b(?!['\\w])|my\\s+late\\s+${RELATION}|bereave\\w*|funeral|deceased|death certificate|condolence\\w*|probate|widow(?:ed|er)?|no longer with us|death in (?:the|my|our) family|(?:executor|estate) of)`,
    ),
  },
];

/**
 * The customer's own matter: "my mother passed away and I'm cutting costs: cancel my own
 * subscription" mentions a death but is not about the deceased's account, so it is no
 * bereavement case, unless the same message also speaks of their account.
 */
export const OWN_MATTER = re(
  `\\bmy own\\b|\\bown (?:account|subscription|plan|internet|service|bill|line|contract|order|booking|reservation)\\b`,
);
export const THEIR_MATTER = re(
  `\\b(?:their|his|her)\\s+(?:account|subscription|plan|internet|service|bills?|line|contract|order|booking|reservation|estate)\\b`,
);

/**
 * A death told across an apposition: "My partner Alex, the account holder, died recently" is
 * split at its commas, so the clause with the verb has no subject. `DEATH_WITHOUT_SUBJECT` is
 * such a clause; it counts as bereavement when one of the two clauses before it names a relative
 * or the account holder (`BEREAVED_SUBJECT`), never on its own ("my phone, the old one, died").
 */
export const DEATH_WITHOUT_SUBJECT = re(
  `^(?:(?:and|who|has|have|had|just|recently|sadly|suddenly|tragically|unexpectedly)\\s+)*(?:died|${PASSED}|passed away)\\b`,
);
export const BEREAVED_SUBJECT = re(`\\b(?:${RELATION}|(?:the |main |primary )?account ?holder|(?:the )?policy ?holder)\\b`);

/** Words and phrases of frustration. Frustration never hands off alone; it is a modifier. */
export const FRUSTRATION = re(
  "(?:\\b(?:ridiculous|absurd|useless|pathetic|unacceptable|outrageous|terrible|awful|horrible|horrendous|appalling|disgusting|disgraceful|shocking|worst|a joke|waste of (?:my )?time|fed up|sick (?:and tired )?of|tired of|frustrat\\w*|annoy\\w*|irritat\\w*|angry|furious|livid|pissed|mad at|upset|infuriat\\w*|exasperat\\w*|unbelievable|incompetent|stupid|idiotic|idiots?|dumb|clueless|hopeless|nonsense|rubbish|garbage|crap|bullshit|wtf|ffs|ugh+|argh+|come on|are you (?:even )?(?:kidding|serious|listening|reading)|what(?: is|'s) wrong with you|how many times|for the (?:second|third|fourth|fifth|last|hundredth|nth|\\d+(?:st|nd|rd|th)) time|(?:i've|i have|i) (?:already |just )?(?:told|said|explained|asked|given) (?:you|this|that|it)|again and again|over and over|still (?:not|no|nothing|hasn't|haven't|isn't|doesn't|waiting|broken|wrong)|not listening|going (?:round )?in circles|round in circles|not helping|no help|doesn't help|zero help|never again|getting nowhere|fuming|grr+|jeez|dammit|damn it)\\b|^seriously\\b|\\bseriously\\s*[?!]|[!?]{3,}|!{2,})",
);
const FRUSTRATION_PUNCTUATION = /^(?:[!?]{3,}|!{2,})$/;

/** Whether a frustration hit is punctuation only ("!!!"), which no negation can take back. */
export const isPunctuationOnly = (hit: string): boolean => FRUSTRATION_PUNCTUATION.test(hit);

/**
 * Shouting: at least two all-capital words making up most of the words. Order ids ("W123")
 * and short acronyms in an ordinary sentence do not count.
 */
export function isShouting(original: string): boolean {
  const tokens = original.match(/[A-Za-z]{2,}/g) ?? [];
  const caps = tokens.filter((t) => t === t.toUpperCase());
  return caps.length >= 2 && caps.length / tokens.length >= 0.6;
}

/** A failed tool call whose output says the tool cannot be used at all (not a passing error). */
export const TOOL_UNAVAILABLE =
  /\b(?:disabled|not supported|unsupported|not available|unavailable|not enabled|not implemented|not permitted|not allowed|no such (?:tool|function|operation)|unknown (?:tool|function|operation)|tool not found|turned off|switched off|deactivated|out of scope|not authori[sz]ed to)\b/;
/** Words that make an "unavailable" output a transient failure: it may work on the next try. */
export const TRANSIENT =
  /\b(?:temporar\w*|try again|retry|retrying|later|timeout|timed out|time out|rate[\s-]?limit\w*|50[234]|overloaded|busy|service unavailable|maintenance)\b/;

/** Clauses that ask the agent to do something: checked against the capabilities. */
export const REQUEST_FRAME =
  /\b(?:i\s+(?:really\s+)?(?:want|need|would like|wanna|wish|have to|must)|i'd (?:like|love)|i'm (?:trying|looking|hoping|wanting) to|i am (?:trying|looking|hoping) to|(?:can|could|would|will) you|(?:can|could|may) i|help me|how (?:do|can|could) i|is it possible to|please|let me|where (?:can|do) i)\b/;
/** Clauses that report a problem, which is a request in all but form. */
export const PROBLEM_FRAME =
  /\b(?:not working|doesn't work|does not work|isn't working|won't (?:work|load|open|start|connect)|stopped working|broken|is down|(?:can't|cannot|can not) (?:log|sign|access|get|connect|find|open|use))\b/;

/** Words that carry no intent of their own: function words, politeness, frustration, fillers. */
export const STOPWORDS = new Set(
  (
    'a an the and or but if then so of to in on at by for with from about into over after before up down out off again still just ' +
    "really very too also already yet now please pls plz thanks thank thx you your yours u me my mine i i'm i've i'd i'll we us our " +
    "it it's its this that these those there here what which who whom whose when where why how is are was were be been being am " +
    'do does did done doing have has had having can could would will shall should may might must not no yes yeah ok okay sure ' +
    "don't doesn't didn't won't can't cannot isn't aren't wasn't haven't hasn't hi hello hey dear sir madam some any all " +
    'want wanna need like would get got give make let know tell say said ask asked help fix sort check look see go try wait ' +
    'thing things stuff something anything everything nothing one ones lot bit way time times today day again same other another ' +
    'ridiculous useless unacceptable terrible awful seriously frustrated frustrating annoying angry joke come honestly literally ' +
    'understand explain answer repeat clarify confirm continue hurry quickly asap soon possible able issue problem question ' +
    'order account wrong january february march april may june july august september october november december ' +
    'monday tuesday wednesday thursday friday saturday sunday tomorrow yesterday tonight morning afternoon evening week month year ' +
    // Hedges and assent ("I think so, yes. Please go ahead, sorry"): a confirmation restates no request.
    'think guess suppose believe sorry apologies apologise apologize excuse mean meant saying reading right proceed ahead fine ' +
    'alright great good um umm uh hmm well maybe perhaps probably exactly called'
  ).split(/\s+/),
);
// "order", "account" and "wrong" are stop words for matching capabilities (nearly every request
// names them) but they do tell restatements apart, so the intent key keeps them.
const INTENT_KEEP = new Set(['order', 'account', 'wrong']);

/** Whether a word carries intent for telling restatements apart. */
export const isIntentWord = (w: string): boolean =>
  INTENT_KEEP.has(w) || (!STOPWORDS.has(w) && !/^\d+$/.test(w) && (w.length >= 3 || /\d/.test(w)));
/** Whether a word says what is asked for, for matching against capabilities: ids and numbers do not. */
export const isRequestWord = (w: string): boolean => !STOPWORDS.has(w) && w.length >= 3 && !/\d/.test(w);

/** A crude stem, enough to make "refunds", "refunded" and "refunding" one word. */
export function stem(word: string): string {
  let w = word.replace(/'s$/, '');
  for (const suffix of ['ations', 'ation', 'ings', 'ing', 'ies', 'ed', 'es', 's', 'ly']) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
      w = w.slice(0, -suffix.length) + (suffix === 'ies' ? 'y' : '');
      break;
    }
  }
  return w.replace(/(.)\1$/, '$1').replace(/e$/, '');
}

/** A message that only thanks or closes, which restates nothing even if it names the topic. */
export const GRATITUDE =
  /\b(?:thanks?|thank you|thx|ty|cheers|perfect|great|awesome|appreciate\w*|bye|goodbye|that's all|all good|sorted|resolved|works now|it worked)\b/;
/** Words that keep a thankful message a complaint: "thanks, but it's still wrong". */
export const STILL_A_PROBLEM = /\b(?:still|not|n't|never|again|wrong|where|why|but)\b|n't\b/;
