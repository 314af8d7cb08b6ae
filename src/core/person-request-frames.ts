/**
 * More ways of asking for a person, beyond the frames of `handoff-lexicon.ts`: questions about
 * whether anyone is there, a person asked to reply, look or call back, requests in a second
 * language or in learner's grammar, bare nouns, and getting past the bot. Also the scope rule
 * for hypotheticals ("if this doesn't work I might want a person"). Patterns run on canonical
 * clauses (`canonicalize`), and every frame still goes through the negation and reported-speech
 * checks of `handoff-signals.ts`.
 */
import type { RequestFrame } from './handoff-lexicon.js';

const alt = (...parts: string[]) => `(?:${parts.join('|')})`;
const frame = (name: string, source: string, pre?: RegExp): RequestFrame => ({
  name,
  re: new RegExp(source, 'g'),
  lead: false,
  ...(pre ? { pre } : {}),
});
// "are you a bot?", "am I talking to a robot", "is this an actual human or an AI": asked of the chat
// itself, the question asks for a person (every blind writer labelled it so), a weak request: see
// `onlyAskedIfBot` in handoff-signals.ts.
const ARE_YOU_A_BOT = `^(?:(?:hello|hi|hey|wait|so|ok|okay|mate|um|erm|sorry|quick question|honestly)\\s+)*(?:are|r) (?:you|u) (?:even |actually |really |just )?(?:a |an )?(?:real|human|person|real person|actual person|live person|bot|robot|machine|ai|computer|chatbot|chat bot|automated)\\b(?:\\s+(?:or (?:a |an )?(?:real |actual )?(?:person|human|bot|robot|machine|ai)|person|human|one))?\\s*$|^(?:(?:hello|hi|hey|wait|so|ok|okay|um)\\s+)*(?:am i|are we) (?:talking|speaking|chatting) (?:to|with) (?:a |an )?(?:real |actual )?(?:robot|bot|machine|computer|ai|person|human)\\b(?:\\s+or (?:a |an )?(?:real |actual )?(?:person|human|bot|robot|machine|ai))?\\s*$|^(?:(?:hello|hi|hey|wait|so|ok|okay|um)\\s+)*is (?:this|that|it) (?:an? )?(?:actual |real )?(?:human|person|robot|bot|ai|machine|automated|automatic)(?: (?:service|chat|thing|system))?\\b(?:\\s+or (?:a |an )?(?:real |actual )?(?:person|human|bot|robot|machine|ai))?\\s*$`;
/** A clause that only asks whether the chat is a bot. */
export const ASKS_IF_BOT = new RegExp(ARE_YOU_A_BOT);
/** What every call-asking frame holds: a word for calling. */
const CALL_WORD = /\b(?:call|phone|ring|rang|telephone|bell|buzz|voice)/;

const QUAL = alt('real', 'actual', 'live', 'human', 'living', 'proper', 'competent', 'breathing', 'genuine', 'flesh and blood');
/** Nouns for a person, wider than the main lexicon's (learners write "a people", "a worker", "real man"). */
const WHO = alt(
  'humans?',
  'human beings?',
  'persons?',
  'people',
  'employees?',
  'workers?',
  'staff(?: members?)?',
  'members? of (?:your |the )?(?:staff|team)',
  'agents?',
  'reps?',
  'representatives?',
  'operators?',
  'advis[oe]rs?',
  'specialists?',
  'supervisors?',
  'managers?',
  'colleagues?',
  `${QUAL} (?:man|woman|guy|lady|one|ones|someone|somebody)`,
  'lady or (?:a )?gentleman',
  'lady',
  'gentleman',
  'gentleman or (?:a )?lady',
  'grown[\\s-]?ups?',
);
const DET = `(?:(?:a|an|the|that|this|your|some|any|one of (?:your|the)|another|other)\\s+)?`;
const NP = `${DET}(?:${QUAL}\\s+){0,2}${WHO}\\b`;
const TEAM = alt(
  `(?:some|any)(?:one|body) (?:real|else|human|from (?:your|the) (?:team|side|end|company|office)|at your end|on your (?:side|end)|there)`,
  `(?:some|any)(?:one|body) (?:who|that) [^.?!]{1,40}?`,
  'one of (?:your|the) (?:team|staff|people|colleagues|agents)',
  '(?:your|the) (?:team|staff|people|support team)',
  NP,
);
const ACT = alt(
  'reply',
  'respond',
  'answer',
  'help',
  'look(?: into)?',
  'take a look',
  'have a (?:quick )?look',
  'take over',
  'step in',
  'get back to me',
  'call me',
  'phone me',
  'ring me',
  'contact me',
  'email me',
  'give me a (?:ring|call|bell|buzz)',
  'handle',
  'deal with',
  'sort',
  'check',
  'review',
  'decide',
  'read',
  'see',
  'assist',
  'fix',
  'do (?:this|it|that)',
);

/** The extra frames, each a request for a person whatever the lead. */
export const EXTRA_REQUEST_FRAMES: readonly RequestFrame[] = [
  // Whoever else there is, once the bot is refused: "who else is there?", "is there a non virtual one".
  frame(
    'who_else',
    `\\bwho else (?:is there|(?:can|could) (?:i|we) (?:talk|speak|chat) (?:to|with))\\b|\\bis there (?:a |an )?non[\\s-]?(?:virtual|automated|bot|robot|ai)(?: one| person| version| agent)?\\b|\\bis there an? (?:adult|grown[\\s-]?up)(?= in the room| (?:i|we) (?:can|could)| to (?:talk|speak)| here| there| who| available| around| on (?:this|here)|\\s*$)`,
  ),
  // Someone told apart from a machine: "anyone with a pulse working today", "a colleague of yours who
  // is not software", "anyone who isn't automated", "anybody in billing who's awake".
  frame(
    'not_a_machine',
    `\\b(?:(?:some|any)(?:one|body)|colleague|person|people|one)(?: of (?:yours|you))? (?:with a pulse|(?:who|that)(?:'s| is)? (?:not|isn't|is not|aren't|are not) (?:software|automated|an? (?:bot|machine|program|robot|computer|script|ai)))\\b|\\b(?:is|are) there (?:any(?:one|body)|some(?:one|body)|any (?:people|humans|staff)) (?:in (?:the |your )?\\w+(?: \\w+)? (?:who(?:'s| is) )?)?(?:awake|with a pulse)\\b`,
  ),
  // A person named by what a machine is not: "I'd prefer dealing with flesh and blood", "a job for
  // a human being, not a script", "looked at by actual eyes", "passed to whoever deals with this in real life".
  frame(
    'machine_contrast',
    `\\b(?:prefer|rather|need|want|like|job for|looked at by|seen by|read by|passed to|pass me to|put me to|dealing with|deal with|talk to|speak to|explain to)\\b[^.?!]{0,40}\\b(?:flesh and blood|human beings?|human bean|(?:actual|real|human) eyes|in real life|irl|a people)\\b`,
  ),
  // "get out of this bot thing and through to the people"; "there's got to be a real operator somewhere".
  frame('through_to_people', `\\bthrough to (?:the |your |a )?(?:people|humans?|(?:${QUAL}) \\w+)\\b`),
  frame('must_be_someone', `\\bthere(?:'s| has| have)? (?:got to|gotta|must|has to) be (?:a |an |some )?(?:${QUAL} )?${WHO}\\b`),
  // "Does your company employ people? I'd like one of the people."
  frame('one_of_the_people', `\\b(?:like|want|need|have|get) one of (?:the|your) (?:people|humans|human ones|real ones)\\s*$`),
  // Calls asked of whoever: "get billing to ring me", "can they call me", "could your team call my landline",
  // "I would be obliged if someone would telephone me".
  frame(
    'get_them_to_call',
    `\\bget (?:\\w+ ){1,3}to (?:ring|call|phone|telephone) (?:me|us)\\b|\\b(?:can|could|would|will) (?:they|someone|somebody|(?:your|the) (?:\\w+ )?team) (?:please )?(?:call|ring|phone|telephone) (?:me|us|my (?:landline|mobile|number|home phone|phone|cell))\\b|\\b(?:obliged|grateful|appreciate it) if (?:some(?:one|body)|you|your team|a colleague) (?:would|could|can) (?:please )?(?:call|ring|phone|telephone) (?:me|us)\\b`,
    CALL_WORD,
  ),
  // "is a real life human available for a chat?", "is a human able to jump in here?",
  // "is there a lady or a gentleman I can talk to?"
  frame(
    'someone_available',
    `\\b(?:is|are) (?:there )?(?:(?:a|an|any|some)\\s+)?(?:${QUAL}\\s+)?(?:life\\s+)?${WHO}\\s+(?:available|free|around|able to (?:jump in|join|take over|help|chat|talk|speak|look)|(?:i|we) (?:can|could) (?:talk|speak|chat|write)(?: to| with)?)\\b`,
  ),
  // "let someone from staff reply", "whoever's in charge of this chat, please come and take over"
  frame(
    'let_someone',
    `\\blet (?:(?:some|any)(?:one|body)(?: (?:from|on|in) (?:your |the )?(?:staff|team|office))?|${NP}) (?:reply|answer|respond|take over|handle|deal with|step in|help)\\b`,
  ),
  frame('come_take_over', `\\b(?:come|step) (?:in )?(?:and )?take over\\b|\\bwhoever(?:'s| is) in charge\\b`),
  // "is there literally no one real on this thing", "are there no people working at your company?"
  frame(
    'nobody_real',
    `\\b(?:is there|are there|there(?:'s| is| are)) (?:literally |actually |really |even )?(?:no ?one|nobody|no (?:${QUAL} )?(?:people|humans?|persons?|staff)) (?:${QUAL}|working|there|here|at all|on (?:this|here))\\b`,
  ),
  frame('wheres_the', `\\bwhere(?:'s|s| is| are)? the (?:${QUAL} )?(?:customer service|humans|people|staff|person|human)\\b`),
  // A call-back asked of a person: "I'd rather someone rang me", "is it possible for an advisor to ring me later?",
  // "I need a call from you guys".
  frame(
    'someone_call_me',
    `\\b(?:rather|prefer|like|want|need|possible for|please can|could|can)\\b[^.?!]{0,20}\\b(?:(?:some|any)(?:one|body)|${NP}|an? (?:technician|engineer)|you guys|your team)\\s+(?:to\\s+)?(?:ring|call|phone|rang|phoned|called|rings|calls|phones)\\s+me\\b`,
    CALL_WORD,
  ),
  // A call asked of a team or a technician: "could you have the billing team call me", "can a tech
  // call me instead", "could somebody from the bills department telephone me this week".
  frame(
    'team_call_me',
    `\\b(?:can|could|would|will|may|might|please|have|get|ask|arrange for|grateful if)\\s+(?:${TEAM}|(?:some|any)(?:one|body)|an? (?:tech|technician|engineer)|(?:your|the) (?:\\w+ )?(?:team|department|dept)|(?:some|any)(?:one|body) from (?:your|the) (?:\\w+ )?(?:team|department|dept|office))\\s+(?:(?:please|just|kindly|be able to|to)\\s+)*(?:(?:call|phone|ring|telephone)\\s+(?:me|us)|give (?:me|us) a (?:ring|call|bell|buzz))\\b`,
    CALL_WORD,
  ),
  // A phone call asked for by name: "I'd prefer a phone call from one of your advisers", "can you
  // schedule a call with a billing specialist", "book a phone appointment", "I want a phone call not a chat".
  frame(
    'phone_call_wanted',
    `\\b(?:want|wanna|like|prefer|rather|book|arrange|schedule|request|requesting|set up|organi[sz]e)\\b(?!\\s+not\\b)(?:(?!\\b(?:not|no|never|don't|dont)\\b)[^.?!]){0,25}?\\b(?:(?:phone|voice|telephone)\\s+(?:call|appointment|consultation|conversation)|call\\s?back|call (?:with|from))\\b`,
    CALL_WORD,
  ),
  // Asked as a bare noun or an option: "Voice call please, not chat", "call back request for account …",
  // "a call back would be best", "is a callback an option?"
  frame(
    'callback_bare',
    `^(?:(?:a|an)\\s+)?(?:voice call|phone call|call\\s?back|phone appointment)(?=\\s*$|\\s+(?:please|pls|plz|request|requested|instead|not (?:a )?(?:chat|text))\\b)|\\b(?:a\\s+)?call\\s?back (?:would be (?:best|better|easier|great|good|ideal|preferable)|(?:is|would be) (?:possible|an option|available))\\b|\\b(?:is|would|could|will) (?:a\\s+|an\\s+)?(?:call\\s?back|phone call) (?:be\\s+)?(?:an option|possible|available)\\b`,
    CALL_WORD,
  ),
  frame(
    'call_from',
    `\\b(?:need|want|like|have|get) a (?:phone )?call(?: back)? from (?:you|your team|(?:some|any)(?:one|body)|billing|support|sales|the \\w+ (?:team|department)|${NP})\\b|^(?:please |pls |can you |could you )?(?:call|ring|phone) (?:me|my (?:landline|mobile|number|home|cell|home phone))\\b|\\b(?:some(?:one|body)|a person) (?:just |could |would |can )?(?:phoned|called|rang|phone|call|ring) me\\b|\\b(?:schedule|book|arrange|set up) (?:a|me a) (?:phone )?call\\b`,
    CALL_WORD,
  ),
  // "is anybody there?", "anyone at your end reading this?", "is there a real someone behind this chat?"
  frame(
    'anyone_there',
    `(?:^|\\b(?:is|are)\\s+(?:there\\s+)?)(?:(?:a|an|any|some)\\s+)?(?:${QUAL}\\s+)?(?:any(?:one|body)|some(?:one|body)|person|people|humans?)\\s+(?:(?:actually|even|still|real|else)\\s+)*(?:there|here|around|alive|awake|at (?:your|the other) end|on the other end|on the other side(?: of (?:this|the) (?:chat|screen|line))?|behind (?:this|the) (?:chat|screen|bot)|out there|reading(?: this)?|listening|working (?:there|today))\\b`,
  ),
  // "do real humans work there", "does a human ever read these", "will a person ever see this"
  frame(
    'does_anyone_read',
    `\\b(?:do|does|will|would|is|are|can)\\s+(?:${NP}|any(?:one|body)|some(?:one|body))\\s+(?:(?:ever|actually|even|really|going to|gonna)\\s+)*(?:work (?:there|here|at)|read|see|look at|answer|reply|respond|check|get to see)\\b`,
  ),
  // "can someone who can make decisions take a look", "could one of your team give me a ring", "can a person phone me"
  frame(
    'someone_act',
    `\\b(?:can|could|would|will|may|might|please)\\s+(?:${TEAM})\\s+(?:(?:please|just|quickly|actually|maybe|possibly|kindly)\\s+)*(?:${ACT})\\b`,
  ),
  frame('looked_at_by', `\\b(?:looked at|handled|reviewed|checked|seen|dealt with|read|answered)\\s+by\\s+${NP}`),
  frame(
    'second_opinion',
    `\\b(?:opinion|answer|help|advice|word|someone)\\s+from\\s+(?:an?\\s+)?(?:${QUAL})\\s+(?:person|human|employee|staff member|member of staff|agent|representative)`,
  ),
  frame(
    'can_i_have',
    `\\b(?:can|could|may) (?:i|we) (?:please )?(?:have|get|see|speak to|talk to|go to)\\s+(?:${NP}|(?:a|an) (?:${QUAL}) one)`,
  ),
  frame(
    'where_are_people',
    `\\bwhere (?:are|is) (?:the|your|all the|all your|any) (?:${QUAL} )?(?:people|humans|staff|agents|employees|persons|person|human)\\b`,
  ),
  frame('send_in', `\\b(?:send|bring|get|put|fetch)\\s+(?:in|on|over|through)\\s+${NP}`),
  frame(
    'someone_real',
    `\\b(?:get|give|find|send|bring|fetch)?\\s*(?:me\\s+|us\\s+)?(?:some|any)(?:one|body) (?:real|human|alive|competent|qualified|in charge)\\b(?! (?:good|nice|quick|fast|soon|well|quickly)\\b)(?!(?:\\s+\\w+)?\\s+(?:told|said|says|mentioned|recommended|suggested)\\b)`,
  ),
  frame(
    'who_is_the_person',
    `\\bwho(?:'s| is) (?:the |a )?(?:person|human|one|manager|supervisor|someone)\\b[^.?!]{0,30}\\b(?:talk|speak|in charge|responsible)`,
  ),
  frame('what_to_get', `\\b(?:what|how)\\b[^.?!]{0,30}\\bto (?:get|reach) (?:to |through to )?${NP}`),
  frame(
    'connect_to',
    `\\b(?:connect|transfer|put|pass|route|switch|escalate|forward)\\s+(?:me\\s+|us\\s+)?(?:through\\s+|over\\s+)?to\\s+${NP}(?!\\s+(?:portal|app|site|number|wifi|network|server|login|account|page))`,
  ),
  frame(
    'line_with_people',
    `\\b(?:phone|number|line|helpline|hotline)\\b[^.?!]{0,20}\\b(?:with|to reach|to talk to|to speak to|for) (?:a |real |actual |live )?(?:people|humans?|persons?|staff|someone|somebody|an? agent)\\b`,
  ),
  frame(
    'book_a_call',
    `\\b(?:book|schedule|arrange|set up|request|have|get) (?:a |an )?(?:call|phone call|chat|meeting|appointment) with (?:${TEAM})`,
  ),
  frame(
    'possible_for_someone',
    `\\b(?:possible|able|a way|any way|chance) for (?:some|any)(?:one|body)(?: \\w+)? to (?:look|help|check|review|handle|deal|call|contact|take|speak|talk)`,
  ),
  frame(
    'check_with_someone',
    `\\b(?:check|speak|confer|consult) with (?:some|any)(?:one|body) (?:in|from|at|on) (?:the|your) (?:office|team|department|billing|back office|side)`,
  ),
  frame('queue_for_person', `\\b(?:put|add|place|get) me (?:in|into|on|onto) (?:the |a |your )?(?:queue|line|waiting list)\\b`),
  // A call back: only a person can phone ("call me", "can u just ring me instead", "set up a call back").
  frame(
    'call_me',
    `(?:^|\\b(?:please|pls|plz|can you|could you|can u|could u|would you|will you|just|then|instead|so|rather))\\s*(?:just\\s+|please\\s+|pls\\s+)?(?:call|ring|phone)\\s+me\\b(?!\\s+(?:a|an)\\b)(?!\\s+(?:by|as)\\b)`,
    CALL_WORD,
  ),
  frame(
    'call_back',
    `\\b(?:request|book|arrange|set up|schedule|want|need|like|get|have|organise|organize)\\s+(?:me\\s+)?(?:a\\s+)?(?:call\\s*-?\\s*back|callback|phone call back)\\b`,
    CALL_WORD,
  ),
  frame('someone_rings', `\\b(?:some|any)(?:one|body)\\s+(?:to\\s+)?(?:calls?|rings?|phones?)\\s+me\\b`),
  // "is there anyone with a brain I can talk to", "so there's nobody I can talk to?", "surely there's somebody who can look at this"
  frame(
    'anyone_who_can',
    `\\b(?:is there|isn't there|isnt there|there's|theres|there is|there are)\\s+(?:really\\s+)?(?:no\\s?one|nobody|no person|any(?:one|body)|some(?:one|body)|people)\\b[^.?!]{0,50}?\\b(?:i can|i could|to|who can|who could|that can|who is able to)\\s+(?:(?:actually|really|just|even|properly|please)\\s+)?(?:talk|speak|chat|look|read|deal|sort|handle|fix|explain|check)\\b`,
  ),
  // "pass this to whoever is your boss", "let me talk to whoever handles the complicated stuff"
  frame(
    'to_whoever',
    `\\b(?:pass|send|give|forward|escalate|hand|put)\\s+(?:this|it|me|my case)\\s+(?:on\\s+)?to\\s+whoever\\b|\\b(?:talk|speak|chat)\\s+(?:to|with)\\s+whoever\\b`,
  ),
  // "can someone who isn't a machine explain this", "who's next in line that's not a bot"
  frame(
    'not_a_bot',
    `\\b(?:some|any)(?:one|body)\\s+(?:who|that)\\s*(?:is|'s)?\\s*(?:not|isn't|isnt|is not|aren't)\\s+(?:a\\s+|an\\s+)?(?:bot|machine|robot|computer|ai|program|chatbot)\\b|\\b(?:who|one)(?:'s| is)? next in line\\b`,
  ),
  // "whoever is in charge of billing, I need them to see this", "I need whoever made that promise, or whoever's above them".
  frame(
    'whoever_in_charge',
    `\\bwhoever(?:'s| is)? (?:in charge|above (?:you|them|him|her)|the boss|higher up|more senior|senior|your (?:boss|manager|supervisor))\\b|\\b(?:need|want|get me|give me|put me (?:through )?to|find me)\\s+whoever\\b`,
  ),
  // "Who's the boss there? … I'd like a word": the British way of asking to speak to someone.
  frame('a_word', `\\b(?:i'd|i would|id|i want|i need) (?:like )?a (?:quick |brief )?word\\b(?! (?:about|on|of|for) (?:the|my|your)\\b)`),
  // "anyone home??", "anyone else available?": asking whether anyone is there, in few words.
  frame(
    'anyone_home',
    `(?:^|\\b(?:is|are)\\s+(?:there\\s+)?)(?:any(?:one|body))\\s+(?:(?:at\\s+)?home|(?:else\\s+|real\\s+|human\\s+)*(?:available|free))\\b(?!\\s+(?:to (?:collect|sign|receive|let|open|take|be)|on|at|for|between|during|when|that|who|today|tomorrow))`,
  ),
  // "give us a bell when someone's free", "give me a ring": a call back asked for in British slang.
  frame('give_a_ring', `\\bgive (?:me|us) a (?:bell|ring|buzz|call)\\b`, CALL_WORD),
  frame('hand_it_over', `\\bhand (?:it|this|me|the case) over\\b`),
  // Ninth measurement: "can this be passed to someone?", "is a lady or gentleman there to help me?",
  // "be helped by a real person", "a living soul", "no way to reach an actual human", "is there
  // actually a human anywhere", "do you have anyone in billing I could chat with", "I need someone",
  // "I'm not talking to a machine", "whoever is real over there".
  frame(
    'pass_it_on',
    `\\b(?:can|could) (?:this|it|my case|my query|my issue) be (?:passed|handed|transferred|escalated|sent|put through) (?:on |over )?to (?:some(?:one|body)|a person|a human|a colleague|your team|${NP})`,
  ),
  frame(
    'lady_or_gentleman',
    `\\b(?:is|are|would) (?:there )?(?:be )?(?:a |an )?(?:young )?(?:lady|gentleman|man|woman) or (?:a )?(?:young )?(?:lady|gentleman|man|woman)\\b`,
  ),
  frame('helped_by', `\\b(?:be|being) helped by (?:a |an |some )?(?:${QUAL} )?(?:person|human|people|agent|someone|somebody|staff)\\b`),
  frame('living_soul', `\\b(?:a|any|one) (?:living|real|human) soul\\b`),
  frame(
    'no_way_to_reach',
    `\\bno way to (?:reach|get|speak to|talk to|contact|get hold of|get through to) (?:a |an |any )?(?:${QUAL} )?(?:human|person|people|agent)\\b|\\bis there (?:actually |really |even )?(?:a |an |any )?(?:${QUAL} )?(?:human|person|people|humans) (?:anywhere|at all|in this)\\b`,
  ),
  frame(
    'have_anyone',
    `\\b(?:do|does) (?:you|your company|the company|your team) have (?:any(?:one|body)|some(?:one|body)|a person|any (?:${QUAL} )?(?:(?:customer service|support) )?(?:people|humans|staff|persons))\\b`,
  ),
  frame(
    'i_need_someone',
    `^(?:(?:so|and|just|now|please|i think|honestly|ok|okay)\\s+)*(?:i|we) (?:really |just |actually )?(?:need|want) (?:some(?:one|body)|a person|a human)(?:\\s+(?:please|now|asap|real|else|here|pls))*\\s*$`,
  ),
  frame(
    'not_talking_to_a_bot',
    `\\b(?:i'm not|im not|i am not|i ain't|i aint|i won't|i wont|i will not|not going to|i refuse to) (?:be )?(?:talk|talking|speak|speaking|chat|chatting|deal|dealing) (?:to|with) (?:a |an |the |this |your )?(?:machine|bot|robot|computer|ai|chat ?bot|program)\\b`,
  ),
  frame('are_you_a_bot', ARE_YOU_A_BOT),
  frame('whoever_real', `\\bwhoever(?:'s| is) (?:real|human|there|over there|reading this|on the other end)\\b`),
  frame('a_real_one', `\\b(?:like|want|need|prefer) (?:a|an) (?:${QUAL}) one\\b`),
  frame(
    'done_with_bot',
    `\\b(?:done|finished|tired|sick|fed up|through) (?:of |with )?(?:talking|chatting|speaking|dealing) (?:to|with) (?:a |an |the |this |your )?(?:bot|robot|machine|computer|ai|program|chat ?bot|automated \\w+)`,
  ),
  frame(
    'surely_a_person',
    `\\b(?:surely|maybe|perhaps|i bet|i'm sure) (?:a|an|some|one of your) (?:${QUAL} )?(?:human|person|agent|staff member|member of staff|colleague|representative) (?:can|could|would|will)\\b`,
  ),
  frame(
    'better_talking',
    `\\b(?:better|prefer|rather|happier|comfortable|insist on|keen on|like|love|interested in|appreciate)\\s+(?:\\w+\\s+){0,2}(?:talking|speaking|chatting|dealing) (?:to|with) ${NP}`,
  ),
  frame(
    'next_tier',
    `\\b(?:escalat\\w*|transfer|pass|send|put|move)\\b[^.?!]{0,15}\\b(?:to |up to )?(?:tier|level|line) ?(?:2|3|two|three)\\b|\\bsecond[- ]line support\\b|\\bup the (?:chain|ladder)\\b`,
  ),
  frame(
    'give_me_someone',
    `\\b(?:get|give|find|fetch|bring|send) me (?:some|any)(?:one|body)(?:\\s+(?:please|now|else|real|senior))*\\s*$`,
  ),
  frame(
    'someone_in_team',
    `\\b(?:get|give|find|put|connect) me (?:to )?(?:some(?:one|body)|a person|a human|an? (?:agent|advis[oe]r)) (?:in|from|at|on) (?:billing|support|sales|accounts|retentions?|the \\w+ (?:team|department)|your \\w+ (?:team|department))\\b`,
  ),
  frame(
    'out_of_the_bot',
    `\\bget me (?:out of|off|away from|past) (?:this|the|your) (?:bot|chat ?bot|machine|robot|automated \\w+|ai|system)`,
  ),
  frame(
    'refuse_the_bot',
    `\\brefuse to (?:talk|speak|chat|deal) (?:to|with) (?:a |an |the |this |your )?(?:bot|robot|machine|computer|ai|chat ?bot|program|automated \\w+)`,
  ),
  frame(
    'who_can_i',
    `\\bwho (?:else )?(?:can|could|should|do|shall) (?:i|we) (?:need to |have to )?(?:speak|talk|chat|go) (?:to|with)\\b|\\bwho is (?:the )?person i can (?:ask|talk to|speak to)\\b`,
  ),
  frame(
    'past_the_bot',
    `\\bget (?:past|around|beyond|through|by) (?:the|this|your) (?:bot|robot|ai|machine|chat ?bot|automated \\w+|system|menu)`,
  ),
  frame(
    'a_person_i_can',
    `\\b(?:there's|there is|is there|any) (?:a |an |any |some |no )?(?:${QUAL} )?(?:person|human|someone|somebody|anyone|anybody|people) (?:i|we) (?:can|could) (?:talk|speak|explain|chat|go|turn|reach|ask|get hold of|get through to|contact|phone|call|ring)`,
  ),
  frame(
    'needs_a_person',
    `\\b(?:this|it|that)(?: one| issue| case| problem| matter)? (?:needs|requires|calls for|deserves) (?:a |an |some )?(?:${QUAL} )?(?:person|human|people|manager|supervisor|agent|specialist|human touch|human being)\\b`,
  ),
  // "i want the speak with a worker", "is possible to speak with a people": a talk verb and a person, lead or not.
  frame('talk_with', `\\b(?:speak|talk|chat|discuss(?: this| it)?)\\s+(?:with|to)\\s+${NP}`),
  frame('real_one', `\\b(?:get|give|find|send|bring)\\s+me\\s+(?:a|an|some)\\s+(?:${QUAL})\\s+(?:one|person|human|people)\\b`),
  frame(
    'call_back',
    `\\b(?:call|ring|phone)\\s+(?:me|us)\\s+back\\b|\\b(?:arrange|book|schedule|request|get|want|need|like|'d like|demand|expect|insist on|can i have|can i get)\\s+(?:a |an )?call ?back\\b|\\bcall ?back (?:from|with|by)\\b`,
    CALL_WORD,
  ),
  // A second language: "voglio parlare con un operatore", "bitte einen echten Menschen", "quiero hablar con una persona".
  frame(
    'other_language',
    `(?:${alt(
      // (The slip correction reads "agente" and "persona" as "agent" and "person": both forms are here.)
      'hablar con (?:un|una|el|la|algun|alguna|algún)?\\s*(?:persona?|humano|agente?|asesor|operador|representante|encargado|supervisor|gerente)',
      '(?:una persona|un humano|un agente|un agent|un asesor) (?:real|de verdad|por favor|humano|human)',
      '(?:necesito|quiero|quisiera|prefiero) (?:un|una) (?:persona?|humano|agente?|asesor)\\b|hay alguien (?:real|ah[ií])|\\bll[aá]m(?:en|a)me\\b|\\bme llam(?:en|an|e)\\b|\\bme lig(?:a|ue|uem)\\b',
      "parler (?:à|a|avec) (?:un|une|quelqu'un|le|la|l')\\s*(?:vrai|vraie)?\\s*(?:humain|personne|conseill\\w+|agent|op[ée]rateur|responsable|r[ée]el)?",
      '(?:un|une) (?:vrai |vraie )?(?:humain|human|conseill\\w+|être humain)',
      "parlare con (?:un|una|un'|qualcuno)\\s*(?:operatore|persona|umano|essere umano|addetto|responsabile)?",
      'falar com (?:um|uma|o|a|alguém|alguem)\\s*(?:atendente|pessoa|humano|agente?|operador|gerente)?',
      '(?:mit )?(?:einen?|einem) (?:echten |richtigen |menschlichen )?(?:menschen|mitarbeiter\\w*|berater\\w*|person|sachbearbeiter\\w*)',
      '(?:insaan|insan|aadmi|vyakti|agent|representative) se baat|\\b(?:koi )?(?:insaan|insan|aadmi) hai\\b|\\bmay tao ba\\b',
      '(?:spreken|praten) met (?:een|iemand)(?: medewerker| mens| persoon)?',
    )})`,
  ),
];

/**
 * A clause that is nothing but a person asked for, in words the main lexicon's bare request
 * lacks: "humans only", "human support", "callback please", "someone real", "someone with a brain".
 */
export const EXTRA_BARE_REQUEST = new RegExp(
  `^(?:(?:hi|hello|hey|ok|so|just|please|then|now|a|an|some|any|your)\\s+)*(?:(?:${QUAL})\\s+)*${alt(
    'humans?',
    'persons?',
    'people',
    'human (?:support|help|assistance|agent|contact|chat|please)',
    'live (?:support|help|chat|person|human)',
    'call ?back',
    'transfer',
    'escalat(?:e|ion)',
    '(?:the |your )?customer (?:service|services|support|care)(?: (?:team|department|desk))?',
    '(?:the |your )?(?:billing|support|complaints|accounts) (?:team|department|dept|desk)',
    `(?:some|any)(?:one|body)(?: (?:real|else|human|competent|who \\w+(?: \\w+){0,5}|that \\w+(?: \\w+){0,5}|with (?:a brain|a pulse|authority|power|sense)|from (?:your|the) (?:team|staff|office)|senior|higher up|in charge|qualified))?`,
    `${QUAL} (?:man|woman|person|people|human|humans|someone|somebody)`,
  )}(?:\\s+(?:please|now|only|asap|immediately|right now|right away|thanks|thank you|thanks in advance|in advance|thx|ta|cheers|already|then|again|pretty please))*$`,
);

// A request inside a condition or put off for later is not made now.
const CONDITION =
  /^(?:(?:and|so|but|ok|okay|well|then|though|look|anyway|honestly|basically)\s+)*(?:if|should (?:i|we|it|this|that|you|things|the|my|your|there|they|he|she)|in case|unless|suppose|supposing|assuming|whenever|maybe later|later on|at some point|eventually|perhaps later|in the event|(?:just )?so (?:i|we) know|for (?:next time|future reference)|(?:just )?out of (?:interest|curiosity))\b/;

// A condition on something that may never happen: "in the event my bank disputes it", "if I'm ever abroad", "if it happens again".
const EVENTUALITY =
  /^(?:(?:and|so|but|ok|okay|well|then)\s+)*(?:in the event|suppose|supposing|should (?:it|this|that|the|my|i|we|there)|if (?:\S+ ){0,6}?(?:ever|again)\b|(?:just )?so (?:i|we) know|for (?:next time|future reference)|(?:just )?out of (?:interest|curiosity))/;

/** Whether a condition is on an eventuality: a question after it ("…, would a human contact me?") asks about that case, not now. */
export const isEventuality = (norm: string): boolean => EVENTUALITY.test(norm);

/** Whether a clause is a condition ("if it comes to that", "suppose it's not a duplicate"): the next clause may depend on it. */
export const isCondition = (norm: string): boolean => CONDITION.test(norm) && !POLITE_OPENER.test(norm);

// "If I may add something, I'd like to speak to a human": a formula of politeness, not a condition.
const POLITE_OPENER =
  /^(?:(?:and|so|but|ok|okay|well)\s+)*if (?:i may|i might|i can|you (?:don't|do not) mind|you please|possible|that's (?:ok|okay|alright|fine)|it's (?:ok|okay|alright|fine)|i'm (?:being )?honest|i can be honest|you ask me|anything)\b/;
const OWN_MODAL = /\b(?:i|we)(?:'d|'ll| would| will| might| may| could| shall)\b|\bmaybe\b|\bmight\b|\bprobably\b/;
const LATER = /^\s*(?:\w+\s+){0,4}?(?:later|at some point|eventually|in (?:the )?future|down the line|another time|next time)\b/;
const IF_AFTER = /^[^.?!]{0,40}?\bif (?:the|it|this|that|my|you|things|i)\b/;
/** A condition the chat itself meets: "if so, I want a real one", "if it's a bot I need a person". */
const MET_CONDITION =
  /\bif (?:so|(?:it's|its|it is|you're|youre|ur|you are|this is|u r|ure) (?:a |an |just a )?(?:bot|robot|machine|ai|computer|automated|chatbot))\b/;
const QUESTION_AUX_END = /\b(?:will|would|does|do|is|are|can|could)(?:\s+(?:i|we|you|someone|somebody|anyone|anybody))?\s*$/;
const QUESTION_AUX_START = /^(?:will|would|does|do|is|are|can|could)\b/;
/** A later day named after the request: "when the contract is up", "when I move", "in March", "next year". */
const WHEN_LATER =
  /^[^.?!]{0,40}?\b(?:(?:when|once) (?:it|it's|its|the|my|our|i|we|i'm|we're|this|that)\b|(?:in|by|from|after|before) (?:january|february|march|april|may|june|july|august|september|october|november|december|the new year|the spring|the summer|the autumn|the winter)\b|next (?:week|month|year|time)\b)/;
const POLITE_IF =
  /\bif (?:some(?:one|body)|you|your team) (?:could|can|would) (?:please )?(?:call|ring|phone|telephone)\b|\bif (?:that's|that is|it's|it is) (?:ok|okay|alright|possible|fine|all right)|\bif possible\b|\bif you (?:can|could|don't mind|would|please|are able)\b|\bif (?:there is|there's) (?:one|someone|anyone)\b|\bif you (?:can't|cannot|are unable|aren't able|won't)\b|\bif i (?:could|can|may|might) (?:speak|talk|get|have|be put|be transferred)\b/;

const TENTATIVE =
  /\b(?:i|we) (?:might|may)(?: (?:well|just|end up|have to|need to|want to|decide to))? (?:ask|want|need|request|demand|go for|call|ring|talk|speak|get)\b|\b(?:worst case|if it comes to (?:that|it)|if need be|if needed|if necessary|if all else fails)\b[^.?!]{0,20}\b(?:i'll|i will|i'd|i would|i can|i could)\b|\bwere i to\b|\b(?:whether|if) (?:i|we)(?:'ll| will| would|'d)? (?:need|want|have to)\b/;
// Questions about the option itself, not a use of it: "could I ask for a human at any point?",
// "what would happen if I asked for a human?", "is there any point asking for a human".
const ABOUT_THE_OPTION = new RegExp(
  [
    '\\bat any (?:point|time|stage)\\b',
    '\\bwhat (?:would|will|happens?|happened) (?:happen )?if i\\b',
    '\\bis there (?:any )?point (?:in )?(?:asking|speaking|talking|getting)\\b',
    '\\bin theory\\b|\\bhypothetically\\b|\\btheoretically\\b',
    // What it costs, how it usually goes, what others do: "does it cost extra to speak to a person",
    // "is it worth asking for a supervisor", "do people usually ask for a human for this".
    '\\bdoes it cost (?:extra|more|anything)\\b',
    '\\bis it (?:worth|weird|normal|usual|common)\\b',
    '\\bdo (?:people|customers|most people|others) (?:usually |normally |often |ever )?(?:ask|get|need|want|speak|talk)\\b',
    "\\bwhat(?:'s| is) the (?:average|usual|normal|typical) (?:wait|waiting time|queue|hold time)\\b",
    '\\b(?:just )?so i know\\b|\\bfor (?:next time|future reference)\\b|\\bin (?:the )?future\\b',
    // A condition the customer may never meet: "in the event my bank disputes it", "if I'm ever travelling", "only if".
    "\\bin the event\\b|\\bif (?:i|we)(?:'m| am| are)? ever\\b|\\bonly if\\b|\\bonly (?:going to|gonna) ask\\b",
    // Imagined, counterfactual or for another day: "imagine I wanted a supervisor", "say I was unhappy,
    // could I…", "if I wasn't at work I'd ring and demand a human", "would I have been better off asking",
    // "would it be weird to ask", "next time I'll ask for a person", "my plan was: …", "one day", "just in case".
    // "if I had a really complicated problem I'd need one of your people": a second conditional.
    "\\bif (?:i|we) (?:had|were|was|did)\\b[^.?!]{0,60}\\b(?:i'd|i would|we'd|we would)\\b|\\bimagine (?:i|if|that)\\b|\\bsay (?:i|if i|we) (?:was|were|wanted|am|got|had|need)\\b|\\bif (?:i|we) (?:wasn't|weren't|wasnt|werent|was not|were not)\\b",
    '\\bwould (?:i|we) have been better off\\b|\\bwould it be (?:weird|odd|strange|rude|silly|ok|okay|bad)\\b|\\bnext time (?:i|we)\\b|\\bmy plan was\\b|\\bone day\\b|\\bjust in case\\b',
  ].join('|'),
);

/**
 * A request told as something that happened, not made now: "in 2023 I asked for a manager", "my
 * partner asked to speak to a manager on Friday", "she had to speak to a supervisor", "I saw on TV
 * a man ask for the manager".
 */
export const TOLD_REQUEST = new RegExp(
  [
    '\\b(?:in (?:19|20)\\d\\d|last (?:year|time|month|week)|years ago|(?:on|last) (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|yesterday)\\b[^.?!]{0,25}\\b(?:i|we|he|she|they|my \\w+) (?:asked|demanded|requested|spoke|talked|had to)\\b',
    '\\b(?:i|we|he|she|they|my \\w+) (?:asked|demanded|requested|had to (?:ask|speak|talk|demand|get))\\b[^.?!]{0,50}\\b(?:in (?:19|20)\\d\\d|last (?:year|time|month|week)|years ago|(?:on|last) (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|yesterday)\\b',
    '\\b(?:he|she|they|my (?:\\w+[\\s-])?(?:in-law|\\w+)) had to (?:speak|talk|ask|demand|get|go)\\b',
    '\\b(?:saw|seen|heard|read|watched) (?:on|in) (?:tv|the news|youtube|facebook|tiktok|reddit|a forum|a video|online|the paper)\\b',
  ].join('|'),
);

/** "I used to speak with an agent every month": a habit of the past asks for nothing now. */
export const PAST_HABIT = /\b(?:used to|would always|every time i|each time i|whenever i)\b/;

/**
 * Whether a request found at `index` of a canonical clause is hypothetical: inside a condition
 * the customer may meet later ("if it turns out to be fraud I'd want a human", "should I need a
 * manager I'll ask"), or put off ("I may want a human later"). A polite "if that's OK", and a
 * condition on the agent's own failure ("if you can't, transfer me"), still ask now.
 */
export function isHypothetical(norm: string, index: number, end: number, afterCondition = false, afterEventuality = false): boolean {
  const before = norm.slice(0, index);
  const after = norm.slice(end);
  // "In the event my bank disputes it, would a human contact me?": a question about that case.
  if (afterEventuality && /^(?:would|will|could|can|do|does|is|are|am|should|how)\b/.test(norm.trim())) return true;
  // "In case I need a callback later, what number would you ring me from?": a detail of that case.
  if (afterCondition && /^(?:what|which|when)\b/.test(norm.trim())) return true;
  // "I might ask for a human", "worst case I'll ask for a manager", "were I to ask for one":
  // a possibility the customer keeps open, whatever the condition.
  if (TENTATIVE.test(norm.slice(0, end)) || ABOUT_THE_OPTION.test(norm)) return true;
  if (POLITE_IF.test(norm) || MET_CONDITION.test(norm)) return false;
  // "If it comes to that, I'll request a callback": the condition sits in the clause before.
  if (afterCondition && (OWN_MODAL.test(before) || /^then\b/.test(before))) return true;
  if (
    CONDITION.test(before) &&
    (OWN_MODAL.test(before) || /\b(?:ever|need|needed|needing|want|wanted|wanting|end up|have to|had to)\b/.test(norm.slice(0, end)))
  )
    return true;
  // "If my payment fails, will someone phone me?": a question about what happens in that case.
  if (CONDITION.test(before) && (QUESTION_AUX_END.test(before) || QUESTION_AUX_START.test(norm.slice(index)))) return true;
  // "I'll probably want to speak to someone when the contract is up": asked ahead, for a later day.
  if (
    /\b(?:i|we)(?:'ll| will|'m going to| am going to| are going to|'re going to| gonna)\b|\b(?:will|would) (?:i|we)\b/.test(
      norm.slice(0, end),
    ) &&
    WHEN_LATER.test(after)
  )
    return true;
  if (/^(?:(?:and|so|but|ok|well)\s+)*(?:should (?:i|we)|suppose|supposing|maybe later|later on)\b/.test(before)) return true;
  if (LATER.test(after) && /\b(?:may|might|can i|could i|will|'ll|would|possible|able to|allowed)\b/.test(before)) return true;
  // "Would I be able to speak to someone if the refund fails?" asks about a later case.
  // "I'll only want a human if you start talking rubbish": a request on a condition not yet met.
  // "Will someone call me if the engineer is late?" asks what happens then, too.
  const upTo = norm.slice(0, end);
  return (
    IF_AFTER.test(after) &&
    (/\b(?:would|could|will|can) (?:i|we)\b|\b(?:will|would) (?:some|any)(?:one|body)\b/.test(upTo) || OWN_MODAL.test(upTo))
  );
}
