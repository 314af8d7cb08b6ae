/**
 * BASELINE, NOT THE PRODUCT: a frozen copy of the lexicon signal extractor as it was before
 * issue 13 (commit 247600c), kept only so that `baton bench decider` and the scoring script can
 * measure the current detector against it in the same run. Do not fix or extend it.
 */
import type { DeciderPolicy, Signal, SignalExtractor, ToolItem, TranscriptItem } from '../../core/index.js';
import {
  ACCEPT,
  AGENT_OFFER,
  BARE_REQUEST,
  DECLINE,
  REFUSAL,
  REQUEST_FRAMES,
  hasRequestLead,
  isNegatedBefore,
  isReportedBefore,
  isThirdPartySubject,
  normalizeText,
  splitClauses,
  words,
  type Clause,
} from './handoff-lexicon.js';
import {
  BEREAVED_SUBJECT,
  DEATH_WITHOUT_SUBJECT,
  OWN_MATTER,
  THEIR_MATTER,
  FRUSTRATION,
  GRATITUDE,
  MEDICAL_HYPERBOLE,
  POLICY_TOPIC_PATTERNS,
  PROBLEM_FRAME,
  REQUEST_FRAME,
  SAFETY_PATTERNS,
  STILL_A_PROBLEM,
  TOOL_UNAVAILABLE,
  TRANSIENT,
  isIntentWord,
  isRequestWord,
  isShouting,
  stem,
} from './handoff-topics-lexicon.js';

type Verdict = 'request' | 'declined' | null;

/** Whether a clause asks for a person, refuses one, or neither. */
// The frames are costly and a conversation's clauses are read again at every decider phase: a
// clause's verdict depends on nothing but its text (and whether the next clause refuses), so it is kept.
const verdicts = new Map<string, Verdict>();
const MAX_VERDICTS = 20_000;

function personRequest(norm: string, next: string | undefined): Verdict {
  const refusedNext = next !== undefined && REFUSAL.test(next);
  const key = `${refusedNext ? '1' : '0'}${norm}`;
  const known = verdicts.get(key);
  if (known !== undefined) return known;
  const verdict = readPersonRequest(norm, refusedNext);
  if (verdicts.size >= MAX_VERDICTS) verdicts.clear();
  verdicts.set(key, verdict);
  return verdict;
}

function readPersonRequest(norm: string, refusedNext: boolean): Verdict {
  let requested = false;
  let declined = false;
  const bare = BARE_REQUEST.exec(norm);
  if (bare) {
    if (bare.groups?.['neg'] === undefined) requested = true;
    else declined = true;
  }
  for (const frame of REQUEST_FRAMES) {
    for (const m of norm.matchAll(frame.re)) {
      const before = norm.slice(0, m.index);
      if (frame.lead && !hasRequestLead(before)) continue;
      if (isReportedBefore(before)) continue;
      if (/^ask(?:ed|ing)? for/.test(m[0]) && isThirdPartySubject(before)) continue;
      // Refusing a bot is itself a request: its negation is part of the frame.
      if (frame.name !== 'reject_bot' && isNegatedBefore(before)) declined = true;
      else requested = true;
    }
  }
  if (requested && refusedNext) return 'declined';
  return requested ? 'request' : declined ? 'declined' : null;
}

function frustration(clauses: readonly Clause[], text: string): Clause | { text: string; start: number } | undefined {
  for (const clause of clauses) {
    const m = FRUSTRATION.exec(clause.norm);
    if (m && !isNegatedBefore(clause.norm.slice(0, m.index))) return clause;
  }
  // Clause splitting drops punctuation, so "!!!" and shouting are judged on the whole message.
  if (/[!?]{3,}|!{2,}/.test(text) || isShouting(text)) return { text, start: 0 };
  return undefined;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The capability intents a text names, by keyword at the start of a word. */
function capabilityIntents(norm: string, policy: DeciderPolicy): string[] {
  return policy.capabilities
    .filter((c) =>
      [...c.keywords, c.intent.replace(/[_-]+/g, ' ')].some((k) => new RegExp(`\\b${escapeRegExp(normalizeText(k.trim()))}`).test(norm)),
    )
    .map((c) => c.intent);
}

/** A clause that asks for something in particular (the caller checks it against the capabilities). */
function asksForSomething(clause: Clause, policy: DeciderPolicy): boolean {
  if (policy.capabilities.length === 0) return false;
  const request = REQUEST_FRAME.exec(clause.norm);
  const problem = request ? null : PROBLEM_FRAME.exec(clause.norm);
  const m = request ?? problem;
  if (!m) return false;
  if (request && isNegatedBefore(clause.norm.slice(0, m.index))) return false;
  const rest = `${clause.norm.slice(0, m.index)} ${clause.norm.slice(m.index + m[0].length)}`;
  // "Can you hurry up?" asks for nothing in particular: only a clause with content is judged.
  return words(rest).some(isRequestWord);
}

const stemsOf = (norm: string) => new Set(words(norm).filter(isIntentWord).map(stem));
const GENERIC_STEMS = new Set(['order', 'account', 'wrong']);

/** Two statements of the same intent: they share two words, or one specific word that is most of the shorter. */
function sameIntent(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  const shared = [...a].filter((w) => b.has(w));
  if (shared.length >= 2) return shared.length / Math.min(a.size, b.size) >= 0.5;
  return shared.length === 1 && !GENERIC_STEMS.has(shared[0] ?? '') && Math.min(a.size, b.size) <= 2;
}

function parseAmount(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const m = /^[^\d-]*(-?[\d,]*\.?\d+)/.exec(value.trim());
  const n = m?.[1] === undefined ? NaN : Number(m[1].replace(/,/g, ''));
  return Number.isFinite(n) ? n : undefined;
}

function toolSignals(item: ToolItem, index: number, policy: DeciderPolicy): Signal[] {
  const evidence = `${item.name}: ${item.output.slice(0, 200)}`;
  const at = { evidence, index, offset: 0 };
  const out: Signal[] = [{ kind: 'tool_result', tool: item.name, ok: item.ok, ...at }];
  if (policy.disabledTools.includes(item.name)) {
    out.push({ kind: 'no_capability', cause: 'tool_disabled', ...at, evidence: `${item.name} is disabled by the policy` });
  } else if (!item.ok) {
    // A successful call's output is data ("account disabled"), so only failures are read this way.
    const norm = normalizeText(item.output);
    if (TOOL_UNAVAILABLE.test(norm) && !TRANSIENT.test(norm)) out.push({ kind: 'no_capability', cause: 'tool_unavailable', ...at });
  }
  const raw = item.arguments[policy.amountArgument];
  const amount = parseAmount(raw);
  if (amount !== undefined && (policy.writeTools.length === 0 || policy.writeTools.includes(item.name))) {
    out.push({
      kind: 'write_amount',
      tool: item.name,
      amount,
      ...at,
      evidence: `${item.name} ${policy.amountArgument}=${JSON.stringify(raw)}`,
    });
  }
  return out;
}

/**
 * The default signal extractor: lexicons and patterns over the customer's words (clause by
 * clause, with negation and reported speech in scope), the agent's offers, and the tool log.
 * Deterministic and offline.
 */
export function extractBaselineSignals(items: readonly TranscriptItem[], policy: DeciderPolicy): Signal[] {
  const signals: Signal[] = [];
  const intents: Array<{ key: string; stems: ReadonlySet<string> }> = [];
  let offerPending = false;
  // What the agent just asked about: a reply that echoes the question answers it, it does not restate.
  let asked: { stems: ReadonlySet<string>; intents: readonly string[] } = { stems: new Set(), intents: [] };
  items.forEach((item, index) => {
    if (item.role === 'tool') {
      signals.push(...toolSignals(item, index, policy));
      return;
    }
    if (item.role !== 'customer') {
      if (item.role === 'agent') {
        const norm = normalizeText(item.text);
        offerPending = AGENT_OFFER.test(norm);
        asked = norm.includes('?') ? { stems: stemsOf(norm), intents: capabilityIntents(norm, policy) } : { stems: new Set(), intents: [] };
      }
      return;
    }
    const found: Signal[] = [];
    const clauses = splitClauses(item.text);
    const whole = normalizeText(item.text).trim();
    if (offerPending) {
      if (ACCEPT.test(whole)) found.push({ kind: 'human_request', evidence: item.text.trim(), index, offset: 0 });
      else if (DECLINE.test(whole)) found.push({ kind: 'human_declined', evidence: item.text.trim(), index, offset: 0 });
      offerPending = false;
    }
    // Judged per message: one clause naming a capability ("refund W123, the duplicate one") covers
    // its neighbours, which are usually details of the same request.
    const inScope = capabilityIntents(whole, policy).length > 0;
    clauses.forEach((clause, k) => {
      const at = { evidence: clause.text, index, offset: clause.start };
      for (const p of SAFETY_PATTERNS) {
        const m = p.re.exec(clause.norm);
        if (m && !(p.topic === 'medical' && MEDICAL_HYPERBOLE.test(clause.norm.slice(0, m.index)))) {
          found.push({ kind: 'safety', topic: p.topic, ...at });
        }
      }
      for (const p of POLICY_TOPIC_PATTERNS) {
        const m = p.re.exec(clause.norm);
        if (m && !(p.negatable && isNegatedBefore(clause.norm.slice(0, m.index))))
          found.push({ kind: 'policy_topic', topic: p.topic, ...at });
      }
      const toldBefore = clauses.slice(Math.max(0, k - 2), k).some((c) => BEREAVED_SUBJECT.test(c.norm));
      if (
        toldBefore &&
        DEATH_WITHOUT_SUBJECT.test(clause.norm) &&
        !found.some((f) => f.kind === 'policy_topic' && f.index === index && f.offset === clause.start)
      )
        found.push({ kind: 'policy_topic', topic: 'bereavement', ...at });
      const verdict = personRequest(clause.norm, clauses[k + 1]?.norm);
      if (verdict === 'request') found.push({ kind: 'human_request', ...at });
      else if (verdict === 'declined') found.push({ kind: 'human_declined', ...at });
      // A clause already read as a request for (or refusal of) a person, or a topic, asks the agent for nothing.
      const judged = found.some((s) => s.index === index && s.offset === clause.start);
      if (!judged && !inScope && asksForSomething(clause, policy)) found.push({ kind: 'no_capability', cause: 'out_of_scope', ...at });
    });
    // A death mentioned about the customer's own account is not a bereavement case.
    if (OWN_MATTER.test(whole) && !THEIR_MATTER.test(whole)) {
      for (let i = found.length - 1; i >= 0; i--) {
        const f = found[i];
        if (f?.kind === 'policy_topic' && f.topic === 'bereavement' && f.index === index) found.splice(i, 1);
      }
    }
    const upset = frustration(clauses, item.text);
    if (upset) found.push({ kind: 'frustration', evidence: upset.text, index, offset: upset.start });
    // A message that asks for a person, raises safety, or only says thanks restates no intent.
    const closing = GRATITUDE.test(whole) && !STILL_A_PROBLEM.test(whole);
    if (!closing && !found.some((s) => s.kind === 'human_request' || s.kind === 'safety')) {
      const at = { evidence: item.text.trim(), index, offset: 0 };
      const named = capabilityIntents(whole, policy).filter((intent) => !asked.intents.includes(intent));
      if (named.length > 0) {
        for (const intent of named) found.push({ kind: 'intent', intent, ...at });
      } else {
        const stems = new Set([...stemsOf(whole)].filter((w) => !asked.stems.has(w)));
        if (stems.size > 0) {
          const key = intents.find((prior) => sameIntent(prior.stems, stems))?.key ?? [...stems].sort().join(' ');
          intents.push({ key, stems });
          found.push({ kind: 'intent', intent: key, ...at });
        }
      }
    }
    asked = { stems: new Set(), intents: [] };
    signals.push(...found);
  });
  return signals;
}

/** The baseline extractor as a port implementation. */
export const baselineSignalExtractor: SignalExtractor = { extract: extractBaselineSignals };
