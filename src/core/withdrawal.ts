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
    '\\b\\d+\\s*(?:minutes?|mins?|hours?|hrs?)\\b',
    '\\b(?:an|one|half an|about an) hour\\b',
    "\\b(?:or|alternatively|also|instead|in the meantime|meanwhile|before that|before i do|first|otherwise)\\b[^.?!]{0,60}\\bi (?:can|could|will|am able to|'m able to|'ll)\\b",
    "\\bi(?:'m| am) able to (?:help|do|sort|fix|process|handle)\\b",
    '\\bi can (?:actually |also |probably |usually |certainly )?(?:do|help|fix|sort|process|update|try|look|check|handle|resend|send|change|refund)\\b[^.?!]{0,60}(?:right now|now|here|myself|directly|for you|straight away|right away|if you)',
    '\\b(?:would you like|do you want|want|shall|should) (?:me to |i )?(?:try|give it a go|have a go|go ahead|proceed|look|take a look|have a look|check|help)\\b',
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
    '\\b(?:no thanks|no thank you|too long|not waiting|that long)\\b',
    '\\bif you can (?:fix|do|sort|help)\\b',
    '\\b(?:please )?do it (?:now|here|yourself|then)\\b',
    '\\b(?:check|resend|send|update|look at|fix|sort|process|change|refund) (?:it|that|this|them|the \\w+|my \\w+)(?: then| now| please)?\\b',
  ].join('|'),
);
