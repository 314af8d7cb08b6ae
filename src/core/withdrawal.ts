/**
 * Withdrawal of a request for a person: the customer asked for one, heard the wait or was
 * offered the agent's help, and took the agent's help instead ("OK, no transfer. Let's just
 * try.", "45 mins?! no thanks, resend the invoice then"). A withdrawal cancels the requests
 * before it, not later ones. Patterns run on canonical text (`canonicalize`).
 */

/** An agent turn that states the wait, or offers to help itself instead of (or before) a person. */
export const AGENT_ALTERNATIVE = new RegExp(
  [
    '\\b(?:wait|waiting time|queue|hold time)\\b[^.?!]{0,40}\\b(?:is|of|about|around|roughly|approximately|currently|at the moment|\\d+)\\b',
    '\\b\\d+\\s*-?\\s*(?:minutes?|mins?|hours?|hrs?|minutos|minuten)\\b',
    '\\b(?:espera|attente|wartezeit|wachttijd)\\b',
    '\\b(?:an|one|half an|about an) hour\\b',
    "\\b(?:or|alternatively|also|instead|in the meantime|meanwhile|before that|before i do|first|otherwise)\\b[^.?!]{0,60}\\bi (?:can|could|will|am able to|'m able to|'ll)\\b",
    "\\bi(?:'m| am) able to (?:help|do|sort|fix|process|handle)\\b",
    '\\bi can (?:actually |also |probably |usually |certainly )?(?:do|help|fix|sort|process|update|try|look|check|handle|resend|send|change|refund)\\b[^.?!]{0,60}(?:right now|now|here|myself|directly|for you|straight away|right away|if you)',
    '\\b(?:would you like|do you want|want|shall|should) (?:me to |to |i )?(?:try|give it a go|have a go|go ahead|proceed|look|take a look|have a look|check|help)\\b',
    "\\b(?:tell me|let me know) what(?:'s| is) (?:wrong|happening|going on)\\b",
  ].join('|'),
);

/** The customer calling off the request whatever the agent said: "no transfer", "cancel that request". */
export const WITHDRAW = new RegExp(
  [
    '\\bno (?:transfer|human|person|agent|need to (?:transfer|wait))\\b',
    "\\b(?:don't|do not|no need to) (?:bother )?(?:transfer|pass|put me through|connect|escalate)",
    '\\b(?:cancel|scrap|drop|skip|ditch|withdraw|forget|undo) (?:that|the|my|this) ?(?:request|transfer|human|person|agent|queue|escalation)?\\b(?! (?:charge|payment|order|subscription|plan|refund|invoice|bill|account|card))',
    "\\b(?:i'd|i would) rather not wait\\b",
    '\\bforget (?:the|about the|that|about that|it|about it)\\b(?: (?:human|person|agent|transfer|request|queue))?',
    '\\bnever ?mind\\b',
    "\\b(?:i'll|i will|i'd rather|let me|happy to|i can) (?:just )?(?:stay|stick) (?:with|on|in) (?:you|the chat|this chat|the bot|here|this)\\b",
    "\\b(?:let's|lets|we can|let us) (?:just )?(?:do|try|sort|fix|handle|keep going|carry on)\\b[^.?!]{0,20}\\b(?:here|together|then|this way|now|it)\\b",
    "\\b(?:let's|lets) (?:just )?try\\b",
    "\\bglad i didn't wait\\b",
    "\\b(?:won't|will not|don't) (?:need|wait for) (?:a|the) (?:human|person|agent|transfer|queue)\\b",
    '\\bno need for (?:a|the) (?:human|person|agent|transfer)\\b',
    "\\b(?:you're|you are) right\\b",
    // "don't worry about the human", "no dont get the person", "Thursday? No, don't book it".
    "\\b(?:don't|dont|do not) (?:worry|bother) (?:about )?(?:the |a |that )?(?:human|person|agent|transfer|queue|call ?back|manager|supervisor)\\b",
    "\\b(?:don't|dont|do not) (?:get|fetch|call|book|arrange|send|find) (?:me )?(?:the|a|that|it|them|anyone|anybody|someone)\\b(?! (?:charge|payment|bill|invoice|refund|letter|text|email)s?\\b)",
    '\\bcancel (?:my|the|that) request (?:to|for)\\b',
    // The need has gone: "my husband just sorted it", "I found the answer on the website".
    "\\b(?:i've|ive|i have|i|we've|we|he|she|they|my \\w+) (?:just |already |now )?(?:sorted|solved|fixed|figured out|worked out|resolved) it\\b",
    '\\bfound (?:the answer|it|what i needed)\\b',
    "\\b(?:i'll|i will|ill) (?:come back|try again|ask again|leave it)(?: later| another time| tomorrow)?\\b",
    // A second language's "never mind": Spanish, French, German.
    '\\b(?:mejor no|ya lo resolv\\w*|ya no hace falta|laisse[zr]? tomber|pas la peine|doch nicht|schon erledigt)\\b',
  ].join('|'),
);

/**
 * Taking the agent's help, counted only right after an agent alternative: "fine, you look at
 * it", "ok try it yourself", "sure, if you can fix it that's better", "too long, you sort it".
 */
export const TAKE_HELP = new RegExp(
  [
    '\\b(?:you|u) (?:can |could )?(?:do|look|check|sort|handle|fix|process|try|have a go|give it a go|deal with)\\b',
    '\\bgo ahead\\b',
    '\\btry (?:it|that|first|then|yourself|now|again)\\b',
    '\\b(?:ok|okay|fine|alright|sure|yes|yeah|yep)(?: please)? (?:try|do it|check|look|go ahead)\\b',
    '\\b(?:no thanks|no thank you|too long|too late|not waiting|that long)\\b',
    // "go on then show me", "go on, tell me the options".
    "\\bgo on(?: then)?[, ]+(?:show|tell|do|try|check|look|sort)\\b|\\b(?:show|tell) me (?:then|the options|them|what you(?:'ve| have| can))\\b",
    '\\bif you can (?:fix|do|sort|help)\\b',
    '\\b(?:please )?do it (?:now|here|yourself|then)\\b',
    '\\b(?:check|resend|send|update|look at|fix|sort|process|change|refund) (?:it|that|this|them|the \\w+|my \\w+)(?: then| now| please)?\\b',
    '\\b(?:straight away|right away|right now|now)(?: is| then| please)?(?: fine| better| ok| good)?$',
    '^(?:now|now then|here|here then)\\b',
    "\\b(?:i'll|i will|let me|ill) give (?:you|it) a (?:try|go|shot)\\b",
    '\\b(?:have|give it|take) a (?:go|look|try|shot)\\b',
    '\\b(?:help|try) (?:me )?(?:first|now|here)\\b',
    '\\b(?:ok|okay|fine|alright|sure|yes|yeah|go on)[, ]+(?:then[, ]+)?(?:try|you try|have a go|go for it)\\b',
    // The wait refused: "I haven't got 25 minutes", "1 hour no way", "45 minutos es mucho".
    "\\b(?:haven't|have not|havent|don't have|dont have|do not have|not got|no) (?:got )?(?:the )?(?:time|\\d+ ?(?:minutes?|mins?|hours?|hrs?)|an hour|half an hour|that long|all day)\\b",
    '\\bno way\\b',
    "\\b(?:es|is|thats|that is|that's) (?:mucho|way too long|too much)\\b",
    // Help accepted in other words: "you help", "I'll try you first", "fine help me then", "ayúdeme usted".
    '\\b(?:you|u) (?:help|go ahead|give it a try)\\b',
    "\\b(?:i'll|i will|ill|let me|i can) try (?:you|this|here)\\b",
    '\\bhelp me (?:then|yourself|instead)\\b',
    '\\b(?:ay[uú]d[ae]me|aidez-moi|helfen sie mir|versuchen sie es)\\b',
    // Resigned acceptance that goes straight on with the business, not on with the wait: "ugh fine. my internet keeps dropping".
    '^(?:ugh|urgh|sigh|fine|ok|okay|alright|meh)[,.!]*\\s+(?:fine[,.!]*\\s+)?(?![^?!]*\\b(?:wait|hold|queue|transfer|connect|put me through|human|person|agent|someone|somebody)\\b)[a-z]+ [a-z]+',
    '\\b(?:yes|yeah|ok|okay|sure)[, ]+(?:please )?(?:try|go|do)\\b',
    "\\b(?:bueno|vale|d'accord|na gut|also gut)\\b",
  ].join('|'),
);

/**
 * Calling off, in the same message, a request for a person made earlier in it: "can I talk to a
 * human? actually wait, never mind", "I want a person. Hmm, no, let's just try you first",
 * "put me through. On second thought, don't". Read on the clauses after the request.
 */
export const SELF_WITHDRAW = new RegExp(
  [
    '\\bnever ?mind\\b',
    '\\bscratch that\\b',
    '\\bon second thoughts?\\b',
    '\\b(?:actually|hmm|wait|no wait|lol)[, ]+(?:no|nah|not)\\b',
    '^(?:no|nah|hmm,? no|actually no)[,.!]*$',
    '\\bmaybe not\\b',
    "\\b(?:you'll|you will|you can|you could|you should) (?:probably |prob |likely )?(?:do|manage|handle this|handle it|sort (?:it|this))\\b",
    "\\b(?:let's|lets|let me) (?:just )?(?:try|ask) (?:you|this|here)\\b",
    '\\btry you first\\b',
    "\\b(?:it's|its|it is) (?:fine|ok|okay)\\b",
    "^(?:don't|do not|dont)\\b",
    // Put off, or only asked about: "… later if I need to? For now I just want to check my data",
    // "could I ask for a human at any point? ok good to know", "I'm not asking for one".
    '\\bfor (?:now|the moment|the time being|today)\\b(?![^.?!]*\\b(?:wait|hold|queue)\\b)',
    "\\b(?:i'm|i am|im) (?:fine|ok|okay|happy|good) (?:with you|here|for now|as is)\\b",
    '\\bjust (?:wondering|curious|checking|asking)\\b',
    '\\b(?:good to know|out of curiosity|in theory|hypothetically)\\b',
    "\\b(?:i'm|i am|im) not (?:asking for|going to|gonna|requesting)\\b",
    "\\blet's not go there\\b",
    // Asked ahead, not now: "asking for future reference, not now", "not booking yet", "just so I know".
    '\\bnot (?:now|yet|today|right now|at the moment|needed(?: yet| now)?|booking(?: yet)?|asking(?: yet| now)?)\\b',
    '\\bfor (?:future reference|next time|the future|later)\\b',
    '\\bjust (?:so i know|want(?:ed)? to know|finding out|planning ahead)\\b',
    "\\b(?:i'd|id|i would) rather (?:not|they didn't|they didnt)\\b",
    '\\bmight try then\\b',
    "\\bhopefully (?:it won't|it will not|not|it doesn't|i won't)\\b",
    "\\b(?:i've|ive|i have|we've|we have) (?:just |already |now )?(?:sorted|solved|fixed|figured out|worked out|resolved) it\\b",
  ].join('|'),
);

/**
 * A request for a person that was never made, or was settled: "I was going to ask for a person
 * but …", "I was about to demand a supervisor but …", "I asked for a person earlier but you fixed it".
 */
export const UNREALISED_REQUEST =
  /\b(?:i was (?:going|gonna|about) to|i (?:almost|nearly) (?:asked|demanded|called|rang)|i (?:asked|wanted|was asking) (?:for|to)\b[^.?!]{0,40}\b(?:earlier|before|at first)\b[^.?!]{0,30}\bbut)\b/;

// The request kept in so many words, whatever else the reply says: "no thanks, I'd still like the
// billing team", "you can try but keep my place in the queue", "FINE. ADD ME.", "espero a la persona".
const STILL_WANTED_SOURCE = [
  '\\bstill (?:want|like|need|prefer|yes)\\b',
  "\\b(?:i'll|i will|ill|i can|i don't mind|i dont mind|happy to|i'm happy to) (?:just )?(?:wait|hold|hang on|be here|stay in the queue)\\b",
  '\\b(?:queue|add|keep) me\\b|\\bkeep my place\\b|\\bhang on\\b',
  "\\b(?:don't|dont|do not) care how long\\b|\\ball the time in the world\\b",
  "\\b(?:i have|i've got|ive got|i got|i've|got) (?:the |plenty of )?time\\b|\\bi can wait\\b|\\bno (?:rush|hurry)\\b|\\b(?:stay|keep me|leave me) in (?:the )?(?:chat )?(?:queue|line)\\b|\\bstay in the (?:chat )?queue\\b",
  "\\b(?:espero|esperar[eé]|j'attends|vou esperar|ich warte|ik wacht)\\b",
  // "ok i wait for the person", "go ahead and connect me", "thanks but i want the billing team",
  // "just the representative when they're free".
  '\\bi (?:wait|will wait)\\b|\\bgo ahead and (?:connect|transfer|put|queue|book|add)\\b',
  "\\b(?:i want|i'd like|id like|just) the (?:\\w+ )?(?:team|representative|rep|person|human|agent|advis[oe]r|specialist|manager|supervisor)\\b(?! (?:to know|number|'s name)\\b)",
  "\\bwhen (?:they're|they are|theyre|someone's|someone is|one is|he's|she's) free\\b",
].join('|');
/** The request kept in so many words: it stands, even beside words that would take the agent's help. */
export const STILL_WANTED = new RegExp(STILL_WANTED_SOURCE);

/**
 * After the agent stated the wait or offered its own help, the customer saying they will wait or
 * want the transfer: the request stands.
 */
export const KEEP_WAITING = new RegExp(
  [
    STILL_WANTED_SOURCE,
    "\\b(?:i'll|i will|ill|i can|i don't mind|happy to|ok i'll|fine i'll|i'd rather|id rather) (?:just )?(?:wait|hold|queue)\\b",
    '\\b(?:put me through|transfer me|connect me|queue me|add me to the queue|pass me on|get me (?:a|the|someone))\\b',
    '\\b(?:yes|yeah|ok|okay|sure|fine|please)[, ]+(?:please )?(?:connect|transfer|do that|put me|the (?:human|person|queue))\\b',
    '^(?:yes|yes please|yeah|yep|ok|okay|sure|fine|please|pls)[.! ]*$',
    '\\b(?:wait|waiting|queue|queueing|queuing|holding|minutes?|mins?|hours?|human|person|agent|someone|somebody|manager|supervisor|staff|transfer)\\b',
    '\\b(?:connect|transfer) (?:please|pls|plz|now)\\b|\\bgo ahead and (?:connect|transfer|put)\\b',
  ].join('|'),
);
