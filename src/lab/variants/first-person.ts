/**
 * Turns a tau2-style scenario ("You want to cancel reservation EHGLP3. If the agent asks…") into
 * what the customer says: plain first person, addressed to the agent, without the lines that only
 * direct the simulator (conditions on the agent's behaviour, "mention…", "do not reveal…").
 * Rules, not per-task edits, so that a new task file converts the same way.
 */

// A parenthesis that talks to the simulator ("(do not share this with the agent)") is dropped;
// "do not share this" also hides the sentence it sits in (it names a secret).
const DIRECTIVE_PAREN = /\s*\((?=[^)]*\b(?:agent|reveal|mention|share|shows?)\b)[^)]*\)/gi;
const SECRET_PAREN = /\((?=[^)]*\bdo not share this\b)[^)]*\)/i;

// Sentences that only direct the simulator.
const DIRECTIVE_START =
  /^(?:make sure|mention|be insistent|be |insist|do not mention|do not reveal|don't mention|provide all|respond|halfway|when asked|for that you|as you are interacting|you are trying to make|if it refuses|you are not threatening)/i;
// An instruction to say something, after a condition: "If that doesn't work, respond exactly with…".
const DIRECTIVE_CLAUSE = /(?:^|, )(?:say|respond|reply|answer|pretend|act as if)\b/i;
// A condition on what the agent says or does: the simulator's cue, not the customer's request.
const AGENT_CUE =
  /\b(?:if|when|once|after|as soon as|unless)\b[^,.]*\bthe (?:customer service |service )?agent (?:asks|says|tells|gives|provides|offers|mentions|shows|proposes|insists|suggests|cannot|can't|doesn't|does not|refuses|confirms|is|has|just|explicitly|allows|doesn't)/i;

/** Splits a text into sentences (a stop followed by a space and a capital or an opening bracket). */
export function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+(?=[A-Z("'#])|\n+/)
    .map((s) => s.trim())
    .filter((s) => s !== '' && /[A-Za-z0-9]/.test(s));
}

/** Words that follow a subject "you" ("you want", "you are"): then it becomes "I" whatever comes before. */
const SUBJECT_BEFORE = new Set(
  (
    "are were was have had will would can could should might may must do did don't didn't cannot can't won't wouldn't " +
    'want wanted need needed just also only really still recently first then think thought know knew received ordered bought ' +
    'placed booked paid made get got wish wonder prefer like love live lived moved believe realize realized regret become find ' +
    'found expected guess use used forgot intend plan mistakenly never already say said ask asked contact decided work spoke see ' +
    'remember recall went go feel felt hope tried try'
  ).split(' '),
);

/** Words after which "you" is an object ("told you", "for you"): it becomes "me". */
const OBJECT_AFTER = new Set(
  (
    'told tell tells telling with for to help helps helping asks ask asked gives give gave provides provide provided saves save ' +
    'allows allow allowed caused cause let lets show shows showed send sends sent offer offers offered charge charged cost costs ' +
    'contact call transfer than at from about of by against before after like toward towards upon into onto behind remind reminds ' +
    'reminded assure assures assured refund refunds refunded pay pays paid email emailed text texted upgrade upgrades book move ' +
    'put get keep assist inform notify connect reach'
  ).split(' '),
);

/** Words after which "you" cannot be a subject: "upgrade you to business", "gives you several options". */
const OBJECT_BEFORE = new Set('to a an the back several one all both up down in on at with for from'.split(' '));

/** Second person to first person, word by word: you → I/me, your → my, you're → I'm, … */
export function toFirstPerson(sentence: string): string {
  const tokens = sentence.split(/(\s+)/);
  const wordAt = (i: number): { lead: string; word: string; tail: string } | null => {
    const m = /^([^A-Za-z']*)([A-Za-z']+)(.*)$/s.exec(tokens[i] ?? '');
    return m ? { lead: m[1] ?? '', word: m[2] ?? '', tail: m[3] ?? '' } : null;
  };
  const out: string[] = [];
  let previousWord = '';
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const parts = /^\s*$/.test(token) ? null : wordAt(i);
    if (!parts) {
      out.push(token);
      continue;
    }
    const { lead, word, tail } = parts;
    const lower = word.toLowerCase();
    let replaced: string | null = null;
    switch (lower) {
      case 'you': {
        const next = tail === '' ? wordAt(i + 2) : null;
        const nextWord = next && next.lead === '' ? next.word.toLowerCase() : '';
        const subject =
          SUBJECT_BEFORE.has(nextWord) ||
          (lead === '' && !OBJECT_AFTER.has(previousWord) && nextWord !== '' && !OBJECT_BEFORE.has(nextWord));
        replaced = subject ? 'I' : 'me';
        break;
      }
      case 'your':
        replaced = 'my';
        break;
      case 'yours':
        replaced = 'mine';
        break;
      case 'yourself':
        replaced = 'myself';
        break;
      case "you're":
        replaced = "I'm";
        break;
      case "you've":
        replaced = "I've";
        break;
      case "you'd":
        replaced = "I'd";
        break;
      case "you'll":
        replaced = "I'll";
        break;
    }
    if (replaced !== null) {
      // Keep a sentence-initial capital; "I" is always capital.
      const capital = /^[A-Z]/.test(word);
      if (!replaced.startsWith('I') && capital) replaced = replaced[0]!.toUpperCase() + replaced.slice(1);
      out.push(lead + replaced + tail);
    } else {
      out.push(token);
    }
    previousWord = tail === '' ? lower : '';
  }
  let said = out
    .join('')
    // The verb "to be" follows its new subject.
    .replace(/\bI are\b/g, 'I am')
    .replace(/\bI were\b/g, 'I was')
    .replace(/\bI aren't\b/g, "I'm not")
    .replace(/\bI weren't\b/g, "I wasn't")
    .replace(/\bare I\b/g, 'am I')
    // "your forgot" is upstream's typo for "you forgot".
    .replace(/\bmy forgot\b/g, 'I forgot');
  // "I just lost it and are upset": a verb shared with the subject "I".
  if (/^I\b/.test(said)) said = said.replace(/\b(and|but|or) are\b/g, '$1 am').replace(/\b(and|but|or) were\b/g, '$1 was');
  return said;
}

/** Third-person verbs whose subject was "the agent" and is now "you". */
const AGENT_VERBS: Record<string, string> = {
  asks: 'ask',
  says: 'say',
  tells: 'tell',
  gives: 'give',
  provides: 'provide',
  offers: 'offer',
  mentions: 'mention',
  shows: 'show',
  proposes: 'propose',
  insists: 'insist',
  suggests: 'suggest',
  refuses: 'refuse',
  confirms: 'confirm',
  finds: 'find',
  has: 'have',
  is: 'are',
  was: 'were',
  "doesn't": "don't",
  does: 'do',
};

/** The agent is the one spoken to: "ask the agent to check" → "please check", "the agent" → "you". */
function addressAgent(sentence: string): string {
  if (!/\bagent\b/i.test(sentence)) return sentence;
  return (
    sentence
      .replace(/\bI ask the agent (?=if|whether|how|what|which|about)/g, "I'd like to know ")
      .replace(/\bI'd like to know about\b/g, "I'd like to ask about")
      .replace(/\b(?:I )?(?:ask|tell) the agent (\w+ly )?to /gi, (_m, adverb: string | undefined) => `please ${adverb ?? ''}`)
      .replace(/(^|, (?:so |and |then )?|; )ask the agent (?=if|whether|how|what|which|about)/gi, '$1please tell me ')
      .replace(/(^|, (?:so |and |then )?|; )ask the agent for /gi, "$1I'd like ")
      // Only "the agent" is the one spoken to; "an agent" or "a human agent" is someone else.
      .replace(/\bthe (?:customer service |customer support |service )?agent\b(?:'s)?/gi, (m) => (m.endsWith("'s") ? 'your' : 'you'))
      .replace(/\byou (\w+(?:n't)?)\b/g, (m, verb: string) => (AGENT_VERBS[verb] ? `you ${AGENT_VERBS[verb]}` : m))
      .replace(/\bon its own\b/g, 'on your own')
  );
}

function capitalise(s: string): string {
  return s.length === 0 ? s : s[0]!.toUpperCase() + s.slice(1);
}

/**
 * What the customer asks for, in plain first person: the scenario's sentences without the ones
 * that direct the simulator, each turned to first person and addressed to the agent.
 */
export function firstPersonRequest(reasonForCall: string): string {
  const text = reasonForCall.replace(/\s+/g, ' ').replace(/^[\s.]+/, '');
  const kept: string[] = [];
  for (const raw of sentences(text)) {
    if (SECRET_PAREN.test(raw)) continue;
    const sentence = raw.replace(DIRECTIVE_PAREN, '').trim();
    if (!/[A-Za-z]/.test(sentence.replace(/^[^A-Za-z]+/, ''))) continue;
    if (DIRECTIVE_START.test(sentence) || DIRECTIVE_CLAUSE.test(sentence)) continue;
    let wanted = sentence;
    const cue = AGENT_CUE.exec(wanted);
    if (cue) {
      // A cue that opens the sentence takes the sentence; one inside it takes the rest of it.
      const cut = wanted.slice(0, cue.index).replace(/[\s,;]*(?:\b(?:and|but|or|so))?[\s,;]*$/i, '');
      if (!/[A-Za-z]{2}/.test(cut) || !/\s/.test(cut.trim())) continue;
      wanted = cut;
    }
    const direct = wanted.replace(/\b(so|and) insist (\w+ly )?on\b/g, '$1 I insist $2on').replace(/^First, try to /, 'First, I want to ');
    let said = addressAgent(toFirstPerson(direct));
    said = capitalise(said.replace(/^[\s,;:.]+/, '').replace(/[\s,;:]+$/, ''));
    if (!/[.!?]["')]*$/.test(said)) said += '.';
    kept.push(said);
  }
  return kept.join(' ');
}
