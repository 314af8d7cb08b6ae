/**
 * Signals from the trained classifier (`handoff-classifier.ts`), added only where the lexicon
 * found none of their kind in the message, so a decision stays explainable: the evidence is the
 * clause the classifier fired on, and the signal names the classifier and its score. Scope is the
 * lexicon's: the same negation, reported-speech, past-habit, hypothetical and refusal judgements
 * (`handoff-lexicon.ts`, `person-request-frames.ts`) apply, from the word that carried the score;
 * withdrawal and a refused transfer work on these signals as on the lexicon's (`handoff-signals.ts`,
 * `decide-handoff.ts`). Safety errs toward a person: its threshold is lower, and it is scoped as
 * the lexicon's safety signs are — never negated, the medical figures of speech and history aside.
 */
import { REFUSAL, hasRequestLead, isNegatedBefore, isReportedBefore, isThirdPartySubject, words, type Clause } from './handoff-lexicon.js';
import { THING_DIED, TRADE_VERB } from './handoff-topics-lexicon.js';
import { anchorWord, scoreClause, SAFETY_TOPIC_HEADS, type FiringHead, type HandoffModel } from './handoff-classifier.js';
import { PAST_HABIT, isCondition, isEventuality, isHypothetical } from './person-request-frames.js';
import { MEDICAL_CARE, MEDICAL_HISTORY, MEDICAL_HYPERBOLE, SAFETY_IDIOM } from './safety-lexicon.js';
import { allMatches } from './all-matches.js';
import { lettersOnly } from './text-features.js';
import type { Signal } from './handoff-signals.js';

/** A clause of a customer message with what the lexicon's scope rules read beside it. */
export interface ClauseInContext {
  clause: Clause;
  /** The next clause of the message, canonical ("Human? No."). */
  next: string | undefined;
  /** The clause before, when no full stop separates them (a condition reaches that far). */
  prev: string | undefined;
}

/** The name a classifier signal carries: which model, which head, and the score it fired on. */
export const classifierName = (model: HandoffModel): string => `handoff-classifier@${model.data.provenance.trainedAt}`;

type Topic = 'complaint' | 'legal' | 'bereavement';

/**
 * A person-request score this high is trusted to ask without a request lead before its anchor
 * ("I'm requesting a human agent", "hand me off to a person", "LIVE AGENT LIVE AGENT"): chosen by
 * cross-validation on the development parts (0.9, 0.8 and the threshold itself tried; 0.8 added
 * recall there and no false positive).
 */
const CONFIDENT_REQUEST = 0.8;
// Saying what someone is ("I'm a real person", "are you a real person?") or asking whether anyone
// can help ("can someone help me?") is no request, however high the score: the lead is still needed.
const STATES_BEING =
  /\b(?:(?:i'm|i am|im|you're|you are|are you|am i|is this|is it|it's|this is|is that)\s+(?:a|an|the|not|just|really|actually|even|talking)\b|(?:can|could|will|would) (?:someone|somebody|anyone|anybody)\b)/;
const UNQUALIFIED_HELPER = /^(?:some|any)\s?(?:one|body)\s+(?:help|assist|tell|explain|answer|show|advise)\b/;
/** Words of a danger to others that a customer can deny (self-harm's words are never read as denied). */
const DENIABLE_DANGER = /^(?:threat\w*|danger\w*|harm(?:ing|ed)?|hurt(?:ing)?|attack\w*|violen\w*|weapons?|unsafe|abus\w*)$/;
const TRADE_BEFORE = new RegExp(`\\b${TRADE_VERB}\\s+(?:(?:a|an|the)\\s+)?(?:\\w+\\s+)?$`);
/** Whether the word at [start, end) is a danger the customer denies ("I am not threatening anything"). */
const deniedDanger = (norm: string, start: number, end: number): boolean =>
  DENIABLE_DANGER.test(norm.slice(start, end)) && isNegatedBefore(norm.slice(0, start));
/** How far one of two neighbouring clauses must lean toward safety before the pair is read as one. */
const PAIR_LEAN = 0.8;

/** Whether the word the score rests on is in scope: (safety aside) not negated, reported, habitual or hypothetical. */
function inScope(norm: string, start: number, end: number, head: FiringHead, c: ClauseInContext, score: number): boolean {
  const before = norm.slice(0, start);
  // Safety is scoped as the lexicon scopes it: never negated ("I can't go on" is no denial) — but a
  // threat or a danger denied is one ("I am not threatening anything", "I'm not in danger"); its
  // figures of speech are judged by the caller (`outsideFigures`).
  if (head === 'safety') return !deniedDanger(norm, start, end);
  // Judged at the anchor and at the clause's end: the anchor is the classifier's best guess, so
  // a negation anywhere near either keeps the signal out ("a human? no, not needed").
  if (isNegatedBefore(before) || isNegatedBefore(norm)) return false;
  // The anchor is a noun more often than a frame's first word: reported speech and a question about
  // the procedure ("do I have to talk to a manager") are judged at every word before it, as if a frame started there.
  if (prefixes(before).some(isReportedBefore) || PAST_HABIT.test(before) || isThirdPartySubject(before)) return false;
  if (head === 'person_request') {
    if (c.next !== undefined && REFUSAL.test(c.next)) return false;
    if (!askedFor(before) && (score < CONFIDENT_REQUEST || STATES_BEING.test(before))) return false;
    // "Can someone help me?": anyone at all to help, as the lexicon reads a bare "someone" — not a person rather than the agent.
    if (UNQUALIFIED_HELPER.test(norm.slice(start))) return false;
    const afterCondition = c.prev !== undefined && isCondition(c.prev);
    const afterEventuality = afterCondition && isEventuality(c.prev!);
    if (
      isHypothetical(norm, start, end, afterCondition, afterEventuality) ||
      isHypothetical(norm, norm.length, norm.length, afterCondition, afterEventuality)
    )
      return false;
  }
  // "A friend of mine, who is a lawyer, said…": a trade told, as the lexicon reads it, not a threat.
  if (head === 'legal' && TRADE_BEFORE.test(before)) return false;
  return !(head === 'bereavement' && THING_DIED.test(norm));
}

/**
 * The safety score of a text with the lexicon's figures of speech (`SAFETY_IDIOM`: "my dad is
 * going to kill me when he sees this", "affairs in order before I move") taken out: a crisis's
 * words used for something else are not read, and what else the text says still is.
 */
function outsideFigures(model: HandoffModel, norm: string, score: number): number {
  const figures = allMatches(SAFETY_IDIOM, norm);
  if (figures.length === 0) return score;
  let rest = '';
  let from = 0;
  for (const m of figures) {
    rest += `${norm.slice(from, m.index)} `;
    from = m.index + m[0].length;
  }
  rest = lettersOnly(`${rest}${norm.slice(from)}`);
  return rest === '' ? 0 : scoreClause(model, rest).probability.safety;
}

/**
 * Whether the words before the anchor ask, as the lexicon's frames need: nothing at all ("human
 * please"), or a request lead somewhere before it ("can I just get one of your people"). A
 * statement or question about a person ("are you a real person", "someone emailed me") has none.
 */
function askedFor(before: string): boolean {
  const ps = prefixes(before);
  return ps.length === 0 || ps.some(hasRequestLead);
}

/** The texts of the first one, two, … words of `before`. */
function prefixes(before: string): string[] {
  const ws = words(before);
  return ws.map((_, k) => ws.slice(0, k + 1).join(' '));
}

/**
 * The classifier's signals for one customer message (item `index`), given what the lexicon
 * already found in it (`found`): a kind the lexicon found anywhere in the message is left to it.
 */
export function classifierSignals(
  model: HandoffModel,
  clauses: readonly ClauseInContext[],
  index: number,
  found: readonly Signal[],
  message?: { text: string; canonical: string },
): Signal[] {
  const lexicon = {
    safety: found.some((s) => s.kind === 'safety'),
    person: found.some((s) => s.kind === 'human_request' || s.kind === 'human_declined'),
    topic: found.some((s) => s.kind === 'policy_topic'),
    // Someone else's death, read as a bereavement: its words are not read again as danger to the customer.
    bereaved: found.some((s) => s.kind === 'policy_topic' && s.topic === 'bereavement'),
  };
  const { thresholds } = model.data;
  const name = classifierName(model);
  const out: Signal[] = [];
  const fired = { safety: false, person: false, topics: new Set<Topic>() };
  for (const c of clauses) {
    const { norm, text, start } = c.clause;
    const scores = scoreClause(model, norm);
    const p = scores.probability;
    const at = (head: FiringHead) => ({ evidence: text, index, offset: start, classifier: { model: name, head, score: round(p[head]) } });
    const ok = (head: FiringHead) => {
      const w = anchorWord(model, scores.features, head);
      return w !== undefined && inScope(norm, w.start, w.start + w.word.length, head, c, p[head]);
    };
    if (
      !lexicon.safety &&
      !lexicon.bereaved &&
      !fired.safety &&
      p.safety >= thresholds.safety &&
      ok('safety') &&
      outsideFigures(model, norm, p.safety) >= thresholds.safety
    ) {
      const topic = SAFETY_TOPIC_HEADS.reduce((a, b) => (p[b] > p[a] ? b : a));
      // The lexicon's guards on medical figures of speech ("dying to know") and history hold here
      // too, and an illness given as the reason for a plan is no emergency.
      if (!(topic === 'medical' && notAnEmergency(norm, message?.canonical)) && !illnessAsReason(topic, message?.canonical)) {
        out.push({ kind: 'safety', topic, ...at('safety') });
        fired.safety = true;
      }
    }
    if (!lexicon.person && !fired.person && p.person_request >= thresholds.person_request && ok('person_request')) {
      out.push({ kind: 'human_request', ...at('person_request') });
      fired.person = true;
    }
    if (!lexicon.topic) {
      for (const topic of ['complaint', 'legal', 'bereavement'] as const) {
        if (!fired.topics.has(topic) && p[topic] >= thresholds.topic && ok(topic)) {
          out.push({ kind: 'policy_topic', topic, ...at(topic) });
          fired.topics.add(topic);
        }
      }
    }
  }
  // A warning sign spread over two sentences ("I've been saving my tablets. I have enough now.")
  // is read on each pair of neighbouring clauses too, as the model was also trained on messages
  // whose sign no single clause carried — where one of the two already leans that way (PAIR_LEAN
  // of the threshold). Pairs, not the whole message: a long message's many harmless words add up to noise.
  if (message !== undefined && !lexicon.safety && !lexicon.bereaved && !fired.safety) {
    for (let k = 0; k + 1 < clauses.length; k++) {
      const first = clauses[k]!.clause;
      const second = clauses[k + 1]!.clause;
      const lean = Math.max(scoreClause(model, first.norm).probability.safety, scoreClause(model, second.norm).probability.safety);
      if (lean < thresholds.safety * PAIR_LEAN) continue;
      const norm = lettersOnly(`${first.norm} ${second.norm}`);
      const scores = scoreClause(model, norm);
      const p = scores.probability;
      const topic = SAFETY_TOPIC_HEADS.reduce((x, y) => (p[y] > p[x] ? y : x));
      if (p.safety < thresholds.safety || (topic === 'medical' && notAnEmergency(norm, message.canonical))) continue;
      if (illnessAsReason(topic, message.canonical)) continue;
      if (outsideFigures(model, norm, p.safety) < thresholds.safety) continue;
      // A danger denied is not read over a pair either ("these get reversed, I am not threatening anything").
      const w = anchorWord(model, scores.features, 'safety');
      if (w !== undefined && deniedDanger(norm, w.start, w.start + w.word.length)) continue;
      const evidence = message.text.slice(first.start, second.start + second.text.length);
      out.push({
        kind: 'safety',
        topic,
        evidence,
        index,
        offset: first.start,
        classifier: { model: name, head: 'safety', score: round(p.safety) },
      });
      break;
    }
  }
  return out;
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/** A medical reading that is a figure of speech, past history, or an illness given as the reason for a plan (read on the whole message). */
/**
 * An illness given as the reason for a plan ("my mother is really sick and I need to get home to
 * care for her") is no emergency, whichever head the model leans to: the pair reading of such a
 * message has scored as danger. Not for self-harm, which no plan explains away.
 */
function illnessAsReason(topic: (typeof SAFETY_TOPIC_HEADS)[number], whole: string | undefined): boolean {
  return topic !== 'self_harm' && whole !== undefined && MEDICAL_CARE.test(whole);
}

function notAnEmergency(norm: string, whole: string | undefined): boolean {
  return MEDICAL_HYPERBOLE.test(norm) || MEDICAL_HISTORY.test(norm) || (whole !== undefined && MEDICAL_CARE.test(whole));
}
