/**
 * Labelled training examples for the decider's classifier, from the corpora's development parts:
 * each customer clause, labelled from its case's `category` and `expect` fields. The lexicon only
 * says *which* clause of a labelled case carries the label (its signals are near-perfect on the
 * development parts); the label itself is the case's. Where the lexicon finds no clause for a
 * case's reason, the last customer message as a whole is the example.
 */
import { extractSignals, type Signal } from '../../src/core/index.js';
import { canonicalize } from '../../src/core/text-canon.js';
import { fnv1a, lettersOnly } from '../../src/core/text-features.js';
import { ACCEPT, AGENT_OFFER, normalizeText, splitClauses } from '../../src/core/handoff-lexicon.js';
import { DecideLineSchema } from '../../src/cli/decide-command.js';
import type { DeciderCase } from '../../src/testing/decider-corpus.js';

/** What a clause is: nothing to hand off for, a request for a person, a reserved topic, or a safety sign (topic when known). */
export type Label =
  'none' | 'person_request' | 'complaint' | 'legal' | 'bereavement' | 'safety' | 'safety:self_harm' | 'safety:danger' | 'safety:medical';

/** One training example: a canonical text, its label, its case, and the cross-validation group of that case. */
export interface Example {
  norm: string;
  label: Label;
  caseId: string;
  group: string;
}

type Kind = 'safety' | 'person' | 'topic';
// The decider's precedence among the hard triggers the classifier reads.
const RANK: Record<Kind, number> = { safety: 0, person: 1, topic: 2 };
const REASON_KIND: Record<string, Kind> = { safety: 'safety', customer_request: 'person', policy_topic: 'topic' };
// The own corpus names the kind of safety case; the blind one says only "safety".
const SAFETY_TOPIC_OF_CATEGORY: Record<string, Label> = {
  self_harm: 'safety:self_harm',
  danger: 'safety:danger',
  medical_other: 'safety:medical',
};
const TOPIC_OF_CATEGORY: Record<string, Label> = { formal_complaint: 'complaint', legal: 'legal', bereavement: 'bereavement' };

function signalLabel(s: Signal): { kind: Kind; label: Label } | null {
  if (s.kind === 'safety') return { kind: 'safety', label: `safety:${s.topic}` };
  if (s.kind === 'human_request') return { kind: 'person', label: 'person_request' };
  if (s.kind === 'policy_topic') return { kind: 'topic', label: s.topic };
  return null;
}

const letters = lettersOnly;

/** The examples of one case. */
export function caseExamples(c: DeciderCase): Example[] {
  const line = DecideLineSchema.parse(c.conversation);
  const signals = extractSignals(line.messages, line.policy, { model: null });
  const want = c.expect.handoff && c.expect.reason !== null ? REASON_KIND[c.expect.reason] : undefined;
  const declinedAfter = (s: Signal) => signals.some((d) => d.kind === 'human_declined' && d.index > s.index);
  /** The label a lexicon signal gives its clause, if the case's expected decision agrees with it. */
  const agreed = (s: Signal): Label | null => {
    const got = signalLabel(s);
    if (got === null) return null;
    if (!c.expect.handoff) return got.kind === 'person' && declinedAfter(s) ? got.label : 'none';
    if (want === undefined) return got.kind === 'person' && declinedAfter(s) ? got.label : 'none';
    // A sign of higher precedence than the case's reason would have given that reason: it is not one.
    if (RANK[got.kind] < RANK[want]) return 'none';
    return got.label;
  };
  const found = want !== undefined && signals.some((s) => signalLabel(s)?.kind === want && agreed(s) !== 'none');
  const customer = line.messages.flatMap((m, index) => (m.role === 'customer' ? [{ text: m.text, index }] : []));
  const last = customer[customer.length - 1];
  const out: Array<Omit<Example, 'group'>> = [];
  for (const m of customer) {
    const clauses = splitClauses(m.text);
    const whole = canonicalize(normalizeText(m.text)).trim();
    // "yes please" to an offer of a person asks for one only because of the offer: the text alone teaches nothing.
    const before = line.messages[m.index - 1];
    if (before?.role === 'agent' && AGENT_OFFER.test(canonicalize(normalizeText(before.text))) && ACCEPT.test(whole)) continue;
    if (want !== undefined && !found && m === last) {
      const label = missedLabel(c, want);
      if (label !== null) out.push({ norm: letters(whole), label, caseId: c.id });
      continue;
    }
    const here = signals.filter((s) => s.index === m.index);
    const wholeSign = here.find(
      (s) => s.offset === 0 && s.evidence === m.text.trim() && clauses.length > 1 && clauses[0]?.text !== s.evidence,
    );
    if (wholeSign !== undefined) {
      const label = agreed(wholeSign);
      if (label !== null) out.push({ norm: letters(whole), label, caseId: c.id });
      continue;
    }
    const fromClauses = new Set<Label>();
    for (const clause of clauses) {
      const at = here.filter((s) => s.offset === clause.start);
      if (at.some((s) => s.kind === 'human_declined')) continue; // a refusal is the scope rules' business
      const labels = at.map(agreed).filter((l): l is Label => l !== null && l !== 'none');
      if (labels.length === 0) out.push({ norm: clause.norm, label: 'none', caseId: c.id });
      for (const label of new Set(labels)) out.push({ norm: clause.norm, label, caseId: c.id });
      for (const label of labels) fromClauses.add(label);
    }
    // The whole message as well, as the detector also reads it (a sign spread over sentences):
    // labelled with what its clauses carry, so a long message of harmless words is seen as such.
    if (clauses.length > 1 && fromClauses.size <= 1) out.push({ norm: letters(whole), label: [...fromClauses][0] ?? 'none', caseId: c.id });
  }
  // Cross-validation groups by the phrasing that carries the label, so a fragment wrapped in
  // different noise and openings stays in one fold.
  const key = out.find((e) => e.label !== 'none')?.norm ?? (last ? canonicalize(normalizeText(last.text)) : c.id);
  const group = letters(key).slice(0, 60);
  return out.map((e) => ({ ...e, group }));
}

/** The label of a case whose reason the lexicon found no clause for; a topic case of an unknown category gives none. */
function missedLabel(c: DeciderCase, want: Kind): Label | null {
  if (want === 'person') return 'person_request';
  if (want === 'topic') return TOPIC_OF_CATEGORY[c.category] ?? null;
  return SAFETY_TOPIC_OF_CATEGORY[c.category] ?? 'safety';
}

/** The fold (of `folds`) a group belongs to. */
export const foldOf = (group: string, folds: number): number => fnv1a(group) % folds;
