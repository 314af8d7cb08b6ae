import { z } from 'zod';
import { DEFAULT_DECIDER_POLICY, type DeciderPolicy } from './decider-policy.js';
import { SignalSchema, extractSignals, type Signal } from './handoff-signals.js';
import { DeciderReasonSchema, type DeciderReason, type TranscriptItem } from './transcript.js';

/**
 * What the decider says: whether to hand off, why, to which queue, the text that fired it,
 * and the signals the decision rests on (empty when there is no hand-off).
 */
export const HandoffDecisionSchema = z.object({
  handoff: z.boolean(),
  reason: DeciderReasonSchema.nullable(),
  target: z.string().nullable(),
  evidence: z.string().nullable(),
  signals: z.array(SignalSchema),
});
export type HandoffDecision = z.infer<typeof HandoffDecisionSchema>;

/** Hard triggers fire at once; when several fire, the first of this list gives the reason. */
export const HARD_TRIGGERS = ['safety', 'customer_request', 'policy_topic', 'value_threshold', 'no_capability'] as const;
/** Soft triggers fire on thresholds, after every hard trigger, in this order. */
export const SOFT_TRIGGERS = ['tool_failures', 'frustration_and_loop', 'loop_detected'] as const;

/**
 * What the customer is told when `safety` fires. Fixed text: on safety the model is not
 * called, so nothing it might improvise reaches a person at risk.
 */
export const SAFETY_RESPONSE =
  "I'm really sorry you're going through this, and I want to make sure you get the right help. " +
  "I'm bringing in a member of our team right now. If you or anyone else is in immediate danger, " +
  'please call your local emergency number (911 in the US, 112 in the EU, 999 in the UK) straight away.';

/** The signals that fire one reason, the first being the one whose text is the evidence. */
type Fired = [Signal, ...Signal[]];

const ofKind = <K extends Signal['kind']>(signals: readonly Signal[], kind: K) =>
  signals.filter((s): s is Extract<Signal, { kind: K }> => s.kind === kind);
const after = (a: Signal, b: Signal) => a.index > b.index || (a.index === b.index && a.offset > b.offset);
const first = (signals: readonly Signal[]): Fired | null => (signals[0] ? [signals[0]] : null);

/** The customer's latest request for a person, unless they refused one after it. */
function customerRequest(signals: readonly Signal[]): Fired | null {
  const requests = ofKind(signals, 'human_request');
  const last = requests[requests.length - 1];
  if (!last) return null;
  return ofKind(signals, 'human_declined').some((d) => after(d, last)) ? null : [last];
}

/** The trailing run of failed tool calls: a success starts the count again. */
function toolFailures(signals: readonly Signal[], limit: number): Fired | null {
  const streak: Signal[] = [];
  for (const s of ofKind(signals, 'tool_result')) {
    if (s.ok) streak.length = 0;
    else streak.push(s);
  }
  const last = streak[streak.length - 1];
  return last && streak.length >= limit ? [last, ...streak.slice(0, -1)] : null;
}

/** Statements of each intent, in order. */
function statementsByIntent(signals: readonly Signal[]): Map<string, Signal[]> {
  const by = new Map<string, Signal[]>();
  for (const s of ofKind(signals, 'intent')) by.set(s.intent, [...(by.get(s.intent) ?? []), s]);
  return by;
}

/**
 * Frustration shown at or after the `limit`-th statement of one intent: the customer is upset
 * *because* they are going round in circles. Frustration before the loop began, or with no
 * loop at all (an angry customer whose request is simply being handled), does not count.
 */
function frustrationAndLoop(signals: readonly Signal[], limit: number): Fired | null {
  const upset = ofKind(signals, 'frustration');
  for (const statements of statementsByIntent(signals).values()) {
    const nth = statements[limit - 1];
    const hit = nth && upset.find((f) => f.index >= nth.index);
    if (hit) return [hit, ...statements];
  }
  return null;
}

function loopDetected(signals: readonly Signal[], limit: number): Fired | null {
  for (const statements of statementsByIntent(signals).values()) {
    const nth = statements[limit - 1];
    if (nth) return [nth, ...statements.filter((s) => s !== nth)];
  }
  return null;
}

function valueThreshold(signals: readonly Signal[], limit: number | null): Fired | null {
  if (limit === null) return null;
  // Strictly greater: a write of exactly the limit is within the agent's authority.
  return first(ofKind(signals, 'write_amount').filter((s) => s.amount > limit));
}

/**
 * Decides from signals whether to hand off, and why. Pure. Hard triggers, in precedence:
 * safety > customer_request > policy_topic > value_threshold > no_capability. Then the soft
 * ones: tool_failures (the trailing run of failed tool calls reaches `toolFailureLimit`),
 * frustration_and_loop (frustration at or after the `frustrationLoopLimit`-th statement of one
 * intent), loop_detected (one intent stated `loopLimit` times). A customer's refusal of a
 * person cancels their earlier request for one, not later ones.
 */
export function decideHandoff(signals: readonly Signal[], policy: DeciderPolicy = DEFAULT_DECIDER_POLICY): HandoffDecision {
  const triggers: Record<DeciderReason, () => Fired | null> = {
    safety: () => first(ofKind(signals, 'safety')),
    customer_request: () => customerRequest(signals),
    policy_topic: () => first(ofKind(signals, 'policy_topic')),
    value_threshold: () => valueThreshold(signals, policy.autonomousLimit),
    no_capability: () => first(ofKind(signals, 'no_capability')),
    tool_failures: () => toolFailures(signals, policy.toolFailureLimit),
    frustration_and_loop: () => frustrationAndLoop(signals, policy.frustrationLoopLimit),
    loop_detected: () => loopDetected(signals, policy.loopLimit),
  };
  for (const reason of [...HARD_TRIGGERS, ...SOFT_TRIGGERS]) {
    const fired = triggers[reason]();
    if (fired) {
      const signal = fired[0];
      // A reserved topic goes to the team for that topic, where the domain has one.
      const topical = signal.kind === 'policy_topic' ? policy.topicTargets[signal.topic] : undefined;
      const target = topical ?? policy.targets[reason] ?? policy.defaultTarget;
      return { handoff: true, reason, target, evidence: signal.evidence, signals: fired };
    }
  }
  return { handoff: false, reason: null, target: null, evidence: null, signals: [] };
}

/** Extracts signals with the default lexicon detector and decides: the whole decider in one call. */
export function decideTranscript(items: readonly TranscriptItem[], policy: DeciderPolicy = DEFAULT_DECIDER_POLICY): HandoffDecision {
  return decideHandoff(extractSignals(items, policy), policy);
}
