/**
 * Whether a clause asks for a person, refuses one, or neither: the request frames of
 * `handoff-lexicon.ts` and `person-request-frames.ts`, each match judged in scope (a lead where
 * the frame needs one, not reported, not hypothetical, not negated).
 */
import {
  BARE_REQUEST,
  REFUSAL,
  REQUEST_FRAMES,
  hasRequestLead,
  isNegatedBefore,
  isReportedBefore,
  isThirdPartySubject,
} from './handoff-lexicon.js';
import {
  EXTRA_BARE_REQUEST,
  EXTRA_REQUEST_FRAMES,
  PAST_HABIT,
  TOLD_REQUEST,
  isCondition,
  isEventuality,
  isHypothetical,
} from './person-request-frames.js';

import { allMatches } from './all-matches.js';

/** A clause's verdict: it asks for a person, refuses one, or neither. */
export type Verdict = 'request' | 'declined' | null;

/** Whether a clause asks for a person, refuses one, or neither. */
// The frames are costly and a conversation's clauses are read again at every decider phase: a
// clause's verdict depends on nothing but its text (and whether the next clause refuses), so it is kept.
const verdicts = new Map<string, Verdict>();
const MAX_VERDICTS = 20_000;

export function personRequest(norm: string, next: string | undefined, prev?: string): Verdict {
  const refusedNext = next !== undefined && REFUSAL.test(next);
  const butNext = next !== undefined && COUNTERFACTUAL_BUT.test(next);
  const afterCondition = prev !== undefined && isCondition(prev);
  const afterEventuality = afterCondition && isEventuality(prev);
  const key = `${refusedNext ? '1' : '0'}${butNext ? '1' : '0'}${afterEventuality ? '2' : afterCondition ? '1' : '0'}${norm}`;
  const known = verdicts.get(key);
  if (known !== undefined) return known;
  const verdict = MIGHT_ASK_FOR_A_PERSON.test(norm)
    ? readPersonRequest(norm, refusedNext, butNext, afterCondition, afterEventuality)
    : null;
  if (verdicts.size >= MAX_VERDICTS) verdicts.clear();
  verdicts.set(key, verdict);
  return verdict;
}

const FRAMES = [...REQUEST_FRAMES, ...EXTRA_REQUEST_FRAMES];
/**
 * A cheap test every request frame implies: a word for a person, a team, a bot, a transfer or
 * a call, in any of the frames' languages. A clause without one is no request, unread.
 */
const MIGHT_ASK_FOR_A_PERSON = new RegExp(
  [
    'human',
    'person',
    'people',
    'agent',
    'rep',
    'operat',
    'supervis',
    'manag',
    'boss',
    'superior',
    'staff',
    'member',
    'employ',
    'team',
    'special',
    'advis',
    'associate',
    'colleague',
    'consult',
    'some',
    'any',
    'one',
    'body',
    'customer',
    'support',
    'depart',
    'dept',
    'desk',
    'cent',
    'office',
    'company',
    'bot',
    'robot',
    'machine',
    'ai',
    'computer',
    'automat',
    'virtual',
    'algorithm',
    'program',
    'script',
    'transfer',
    'forward',
    'escalat',
    'through',
    'connect',
    'call',
    'ring',
    'phone',
    'worker',
    'man',
    'guy',
    'lady',
    'real',
    'live',
    'living',
    'actual',
    'proper',
    'compet',
    'genuine',
    'flesh',
    'breathing',
    'adult',
    'grown',
    'pulse',
    'eyes',
    'else',
    'irl',
    'bean',
    'personal',
    'manual',
    'handed',
    'passed',
    'umano',
    'humano',
    'humain',
    'mensch',
    'mitarbeiter',
    'berater',
    'sachbearbeiter',
    'insaan',
    'insan',
    'aadmi',
    'vyakti',
    'medewerker',
    'iemand',
    'atendente',
    'asesor',
    'encargado',
    'gerente',
    'conseill',
    'responsable',
    'addetto',
    'qualcuno',
    'alguém',
    'alguem',
    'parler',
    'hablar',
    'falar',
    'parlare',
    'baat',
    'spreken',
    'praten',
    'sprechen',
    'trained',
    'experienced',
    'qualified',
    'knowledgeable',
    'senior',
    'higher',
    'different',
    'other',
    'escalation',
    'help',
    'review',
    'contact',
    'reach',
    'whoever',
    'soul',
    'tao',
    'llam',
    'me lig',
    'bell',
    'buzz',
    'see',
    'involve',
    'loop',
    'bring',
    'word',
    'touch',
    'get',
    'put',
    'send',
    'hand',
    'pass',
    'speak',
    'talk',
    'chat',
  ].join('|'),
);

/**
 * "I would ask for a human but it's 3am", "I'd call a manager but what's the point": a request the
 * customer would make, and then says why they do not — unless the reason is that they cannot ("but
 * there's no option", "but you won't let me"), which still wants one.
 */
const COUNTERFACTUAL =
  /\b(?:i|we)(?:'d| would)(?: (?:just|normally|usually|honestly|probably|happily))? (?:ask|request|demand|call|ring|phone|go for|insist on|speak|talk|get|escalate)\b/;
const COUNTERFACTUAL_BUT =
  /^but\b(?![^.?!]*\b(?:no (?:way|option|button|number|link)|there(?:'s| is) no|(?:can't|cannot|can not|couldn't) (?:find|see|get|reach)|(?:won't|wont|doesn't|does not|don't|do not) let|not allowed|isn't an option|is not an option)\b)/;

function readPersonRequest(
  norm: string,
  refusedNext: boolean,
  butNext: boolean,
  afterCondition: boolean,
  afterEventuality: boolean,
): Verdict {
  let requested = false;
  let declined = false;
  const bare = BARE_REQUEST.exec(norm);
  if (bare) {
    if (bare.groups?.['neg'] === undefined) requested = true;
    else declined = true;
  }
  if (!bare && EXTRA_BARE_REQUEST.test(norm)) requested = true;
  // A request told as something that happened asks for nothing now.
  const told = TOLD_REQUEST.test(norm);
  for (const frame of told ? [] : FRAMES) {
    if (frame.pre !== undefined && !frame.pre.test(norm)) continue;
    for (const m of allMatches(frame.re, norm)) {
      const before = norm.slice(0, m.index);
      if (frame.lead && !hasRequestLead(before)) continue;
      if (isReportedBefore(before) || PAST_HABIT.test(before)) continue;
      if (isHypothetical(norm, m.index, m.index + m[0].length, afterCondition, afterEventuality)) continue;
      if (butNext && COUNTERFACTUAL.test(norm.slice(0, m.index + m[0].length))) continue;
      if (/^ask(?:ed|ing)? for/.test(m[0]) && isThirdPartySubject(before)) continue;
      // Refusing a bot is itself a request: its negation is part of the frame.
      if (frame.name !== 'reject_bot' && isNegatedBefore(before)) declined = true;
      else requested = true;
    }
  }
  if (requested && refusedNext) return 'declined';
  return requested ? 'request' : declined ? 'declined' : null;
}
