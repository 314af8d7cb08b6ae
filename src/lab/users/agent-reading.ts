/**
 * How the scripted customer reads the agent: sentence by sentence, with small general patterns
 * (a question, a request for information, a request to confirm, an offer or announcement of a
 * transfer, a closing question, a report that something is done). It never parses task content:
 * what counts as asking for a fact comes from the script's `askedBy` words.
 */
import type { ScriptFact } from '../variant.js';

/** What one agent turn (everything the agent said since the customer's last message) asks or says. */
export interface AgentReading {
  /** Facts asked for: an `askedBy` word in a sentence that asks for something. */
  asked: ScriptFact[];
  /** Asks the customer to confirm a change (yes/no). */
  confirm: boolean;
  /** Asks for information none of the script's facts answers. */
  unknown: boolean;
  /** Asks what the customer wants ("How can I help?"). */
  help: boolean;
  /** Offers a transfer (a question) or announces one (a statement). */
  transfer: 'offer' | 'announce' | null;
  /** Asks whether there is anything else, or says goodbye. */
  done: boolean;
  /** Reports that something was done ("has been refunded", "I've updated …"). */
  completed: boolean;
  /** Says it is working ("one moment", "let me check"). */
  waiting: boolean;
}

/**
 * Lower case, straight quotes, `_` as a space and a hyphen between letters dropped (`e-mail` →
 * `email`), applied alike to the agent's text and to `askedBy` words so that spelling variants meet.
 */
export function normaliseForMatching(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\u2018\u2019`]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/_/g, ' ')
    .replace(/(?<=[a-z])-(?=[a-z])/g, '')
    .replace(/[ \t]+/g, ' ');
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `word` occurs in `sentence` as whole words (both normalised). */
export function mentions(sentence: string, word: string): boolean {
  const w = normaliseForMatching(word).trim();
  if (w === '') return false;
  return new RegExp(`(?:^|[^a-z0-9])${escapeRegExp(w)}(?:$|[^a-z0-9])`).test(sentence);
}

/** Sentences of a normalised text: split after `.`, `!`, `?` followed by a space, and at line breaks. */
function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** A sentence that asks the customer for something: a question, or an imperative request. */
const REQUEST =
  /\?|\bplease\b(?! (?:wait|hold|note|be aware|allow|bear|keep in mind|stand by))|\b(?:provide|give me|share|tell me|let me know|send me|i need your|i'll need|i will need|may i have|can i have|could i have|can i get|could i get|enter|type in|reply with)\b/;
/** A request to confirm a change (yes/no), as opposed to "confirm your e-mail" (a fact) or "confirm which …" (information). */
const CONFIRM =
  /\b(?:proceed|go ahead|shall i|should i|do you want me to|would you like me to|want me to|shall we|is that (?:ok|okay|correct|right|alright|fine|what you want)|are you sure|do you (?:agree|approve|accept|consent)|confirm(?! (?:which|what|your|whether|if|the (?:e-?mail|name|code|id|number|address|zip)))|your (?:confirmation|approval|permission|consent|go-ahead)|yes\/no|yes or no|y\/n)\b/;
/** Asks what the customer wants. */
const HELP =
  /\b(?:how (?:can|may|could) i (?:help|assist)|what can i (?:do|help)|what (?:brings you|seems to be|is the (?:issue|problem))|how can i be of|what do you need|what would you like (?:me )?to do|what (?:are|were) you (?:calling|contacting|writing) about|tell me more|(?:could|can) you (?:describe|explain))\b/;
/** A closing question or a goodbye. */
const DONE =
  /\b(?:anything else|something else|any other (?:questions?|issues?|concerns?|requests?|thing)|is there more|else i can (?:do|help)|have a (?:great|good|nice|wonderful|lovely) (?:day|evening|one|trip|flight)|glad (?:i could|to) help|happy to have helped|take care|goodbye)\b/;
/** A report that something was done. */
const DONE_VERBS =
  'updated|changed|cancell?ed|refunded|issued|processed|booked|modified|applied|returned|exchanged|credited|reversed|completed|upgraded|downgraded|removed|added';
const COMPLETED = new RegExp(
  `\\b(?:all set|successfully|completed?|(?:has|have) been (?:${DONE_VERBS})|(?:i|we|i've|i have|we've|we have) (?:now |just )?(?:${DONE_VERBS})|(?:is|are) now (?:${DONE_VERBS}|active|on|set)|(?:is|it's|that's|all) done)\\b|(?:^|[\\s.!])done\\s*[:.!,]`,
);
/** Moving the customer to someone else. */
const TRANSFER =
  /\b(?:transfer(?:ring|red)?(?: you)?|hand(?:ing)? (?:you |this |it )?(?:off|over)|handoff|connect(?:ing)? you (?:to|with)|put(?:ting)? you through|pass(?:ing)? you (?:on|over|along|to)|take it from here|escalat(?:e|ing)|(?:specialist|team|colleague|human|agent|person|supervisor|manager|representative)s? will (?:take over|be with you|contact you|follow up|get back to you|reach out))/;
/** A negation just before the transfer words (same clause): a transfer the agent cannot or will not make. */
const NEGATED_BEFORE = /\b(?:can't|cannot|won't|will not|unable to|not able to|no need to|don't|do not|not)\b[^.?!,;]{0,15}$/;
/** The agent is working: "one moment", "let me check". */
const WAIT =
  /\b(?:one moment|a moment|just a (?:sec|second|minute)|please (?:wait|hold)|hold on|bear with me|give me a (?:moment|second|minute)|let me (?:check|look|see|verify|pull|find))\b/;
/** A transfer put as a question. */
const OFFER = /\?|\b(?:would you like|do you want|shall i|should i|can i|may i|if you(?:'d| would) like|want me to|would you prefer)\b/;

/**
 * The facts a sentence asks for. Words in parentheses are details, not questions ("I will verify
 * you (customer id …, code …). Shall I go ahead?"). When one fact's matching words contain
 * another's ("new e-mail" and "e-mail"), only the more specific is asked.
 */
function askedIn(text: string, facts: readonly ScriptFact[]): ScriptFact[] {
  const sentence = text.replace(/\([^()]*\)/g, ' ');
  const matched = facts
    .map((fact) => ({
      fact,
      word: fact.askedBy
        .map((w) => normaliseForMatching(w).trim())
        .filter((w) => mentions(sentence, w))
        .sort((a, b) => b.length - a.length)[0],
    }))
    .filter((m): m is { fact: ScriptFact; word: string } => m.word !== undefined);
  return matched
    .filter((m) => !matched.some((other) => other.word.length > m.word.length && mentions(other.word, m.word)))
    .map((m) => m.fact);
}

function transferIn(sentence: string): 'offer' | 'announce' | null {
  const m = TRANSFER.exec(sentence);
  if (!m) return null;
  if (/\b(?:bank|wire|balance|money|funds) transfer/.test(sentence)) return null;
  if (NEGATED_BEFORE.test(sentence.slice(0, m.index))) return null;
  return OFFER.test(sentence) ? 'offer' : 'announce';
}

/**
 * Reads what the agent said since the customer's last message. Per sentence, first match wins:
 * a transfer (offer or announcement) → a note that the agent is working ("one moment"), which
 * asks nothing → the `askedBy` words of facts, in a sentence that asks for something → a closing
 * question ("anything else?") → a question about what the customer wants → a request to confirm
 * → any other question or request for information (unknown, unless the same turn asks for a
 * fact). Reports of completed work are read over the whole text.
 */
export function readAgent(text: string, facts: readonly ScriptFact[]): AgentReading {
  const reading: AgentReading = {
    asked: [],
    confirm: false,
    unknown: false,
    help: false,
    transfer: null,
    done: false,
    completed: false,
    waiting: false,
  };
  const norm = normaliseForMatching(text);
  for (const sentence of sentencesOf(norm)) {
    const transfer = transferIn(sentence);
    if (transfer) {
      // An announcement outranks an offer made in the same turn.
      if (reading.transfer !== 'announce') reading.transfer = transfer;
      continue;
    }
    // "Let me check, one moment." asks nothing of the customer, even with a question mark.
    if (WAIT.test(sentence) && askedIn(sentence, facts).length === 0) {
      reading.waiting = true;
      continue;
    }
    const request = REQUEST.test(sentence);
    if (request) {
      const asked = askedIn(sentence, facts);
      if (asked.length > 0) {
        for (const fact of asked) if (!reading.asked.includes(fact)) reading.asked.push(fact);
        continue;
      }
    }
    if (DONE.test(sentence)) {
      reading.done = true;
      continue;
    }
    if (HELP.test(sentence)) {
      reading.help = true;
      continue;
    }
    if (request && CONFIRM.test(sentence)) {
      reading.confirm = true;
      continue;
    }
    if (request) reading.unknown = true;
  }
  // A turn that asks for facts and adds a general question ("Which one do you mean? Please tell
  // me its date.") is answered by the facts: the question is not a second, unanswerable ask.
  if (reading.asked.length > 0) reading.unknown = false;
  reading.completed = COMPLETED.test(norm);
  return reading;
}
