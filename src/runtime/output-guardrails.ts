import { inferToolKind, type TranscriptItem } from '../core/index.js';

/** A tripped output check: what it found, in which text. Returned, never thrown. */
export interface GuardrailTrip {
  guardrail: 'unbacked_claim' | 'foreign_personal_data' | 'forbidden_promise';
  evidence: string;
}

/** A check of an agent's reply before it may reach the customer. */
export type OutputGuardrail = (reply: string, transcript: readonly TranscriptItem[]) => GuardrailTrip | null;

// Completed actions a reply may claim, and the tool names that can back each claim.
const CLAIMS: Array<{ claim: RegExp; tools: RegExp }> = [
  {
    claim:
      /\b(refund(ed)?|reimburs(ed|ement))\b[^.!?]*\b(issued|processed|sent|completed|done|approved|on its way)\b|\b(i|we)('ve| have)? (issued|processed|sent) (you )?(a|the|your) refund\b|\brefunded\b/i,
    tools: /refund|reimburse|credit/i,
  },
  { claim: /\b(has|have) been (cancel+ed)\b|\b(i|we)('ve| have) cancel+ed\b/i, tools: /cancel/i },
  {
    claim: /\b(has|have) been (updated|changed|modified)\b|\b(i|we)('ve| have) (updated|changed|modified)\b/i,
    tools: /update|change|modify|set|edit/i,
  },
  { claim: /\b(has|have) been (booked|reserved)\b|\b(i|we)('ve| have) (booked|reserved)\b/i, tools: /book|reserve/i },
  { claim: /\b(has|have) been (exchanged|returned)\b|\b(i|we)('ve| have) (exchanged|returned)\b/i, tools: /exchange|return/i },
];

// A negation only cancels a claim when it governs the claim itself: within the few words before
// its verb ("has not been issued", "I couldn't process"), not anywhere in the sentence
// ("your refund has been issued, not to worry" is still a claim).
const NEGATED_BEFORE = /\b(not|never|unable to|cannot|can't|couldn't|won't|haven't|hasn't|didn't|wasn't|weren't)\b(?:\s+\S+){0,3}\s*$/i;
const NEGATED_INSIDE = /\b(not|never|n't)\b/i;
// A sentence that reports an earlier action rather than one just taken.
const REPORTS_PAST = /\b(already|previously|earlier|back on|on \d{4}-\d{2}-\d{2}|last (?:week|month|year))\b/i;

/**
 * No claim of an action the tool log does not show: "your refund has been issued" needs a
 * successful refund-like write in this conversation (a lookup such as `get_refund_policy` backs
 * nothing).
 */
export const unbackedClaim: OutputGuardrail = (reply, transcript) => {
  const sentences = reply.replace(/[\u2018\u2019]/g, "'").split(/(?<=[.!?])\s+/);
  for (const sentence of sentences) {
    for (const { claim, tools } of CLAIMS) {
      const match = claim.exec(sentence);
      if (!match) continue;
      const before = sentence.slice(0, match.index);
      if (NEGATED_BEFORE.test(before) || NEGATED_INSIDE.test(match[0])) continue;
      const backed =
        transcript.some((item) => item.role === 'tool' && item.ok && tools.test(item.name) && inferToolKind(item.name) === 'write') ||
        // "It was already refunded on 2025-03-02": a past action reported from the record a look-up returned.
        (REPORTS_PAST.test(sentence) && transcript.some((item) => item.role === 'tool' && item.ok && tools.test(item.output)));
      if (!backed) return { guardrail: 'unbacked_claim', evidence: sentence.trim() };
    }
  }
  return null;
};

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
// A phone number stands alone: not the digits of an id (`ch_100446`), and not run into an amount (`(24.00`).
const PHONE = /(?<![\w.])\+?\d[\d\s().-]{8,}\d(?![\w])/g;
const AMOUNT_INSIDE = /\d\.\d{2}(?!\d)/;
const IDENTITY_KEYS = /^(user_id|customer_id|email|account_id)$/;

/** The customer ids a look-up answered with: a bare id, or the identity fields of a JSON object. */
function identitiesIn(output: string): string[] {
  const text = output.trim();
  if (/^[\w.@+-]+$/.test(text)) return [text];
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return typeof value === 'string' ? [value] : [];
    return Object.entries(value)
      .filter(([k, v]) => IDENTITY_KEYS.test(k) && (typeof v === 'string' || typeof v === 'number'))
      .map(([, v]) => String(v));
  } catch {
    return [];
  }
}

/**
 * No personal data of another customer: an e-mail address or phone number in a reply must come
 * from the customer's own turns, or from tool calls about the first customer the tool log
 * identified — not from a lookup of someone else.
 */
export const foreignPersonalData: OutputGuardrail = (reply, transcript) => {
  const phones = (reply.match(PHONE) ?? []).filter((p) => p.replace(/\D/g, '').length >= 10 && !AMOUNT_INSIDE.test(p));
  const found = [...(reply.match(EMAIL) ?? []), ...phones];
  if (found.length === 0) return null;
  // The customer is who the first identifying call was about: the id it was called with, and the
  // ids its answer gave for them (a look-up by e-mail answers with the customer id later calls use).
  let identities: Set<string> | null = null;
  const allowed: string[] = [];
  for (const item of transcript) {
    if (item.role === 'customer') allowed.push(item.text);
    if (item.role !== 'tool' || !item.ok) continue;
    const ids = Object.entries(item.arguments)
      .filter(([k]) => IDENTITY_KEYS.test(k))
      .map(([, v]) => String(v));
    if (identities === null && ids.length > 0) identities = new Set([...ids, ...identitiesIn(item.output)]);
    if (ids.length === 0 || ids.some((id) => identities?.has(id))) allowed.push(item.output, JSON.stringify(item.arguments));
  }
  const text = allowed.join('\n');
  const digits = text.replace(/\D/g, '');
  const foreign = found.find((value) => (value.includes('@') ? !text.includes(value) : !digits.includes(value.replace(/\D/g, ''))));
  return foreign ? { guardrail: 'foreign_personal_data', evidence: foreign } : null;
};

/** No promise the policy forbids: each pattern is one the domain's policy rules out. */
export function forbiddenPromises(patterns: readonly RegExp[]): OutputGuardrail {
  return (reply) => {
    for (const pattern of patterns) {
      const match = reply.match(pattern);
      if (match) return { guardrail: 'forbidden_promise', evidence: match[0] };
    }
    return null;
  };
}

/** The checks every agent's replies go through unless configured otherwise. */
export const DEFAULT_OUTPUT_GUARDRAILS: readonly OutputGuardrail[] = [unbackedClaim, foreignPersonalData];
