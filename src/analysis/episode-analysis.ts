/**
 * What the lab's metrics and the rewards read from one episode record: its hand-off outcome against the label, its
 * timing, the packet's required facts, the policy-rule violations (each at its message), and the
 * refusals and hand-offs with whether their text cites the policy. Pure; a report can show the
 * same findings at their turns.
 */
import { hasExplicitConfirmation } from '../core/confirmation.js';
import type { TranscriptItem } from '../core/transcript.js';
import type { Domain, GoldAction } from '../domains/domain.js';
import { toolCallsOf, type TrajectoryMessage, type TrajectoryToolCall } from '../domains/trajectory.js';
import { citedTerms, isRefusal, metricRulesOf, refusalCitedTerms } from './domain-rules.js';
import type { RecordedEpisode } from './recorded-episode.js';
import { requiredPacketFacts, type RequiredFact } from './required-packet-facts.js';
import { authenticationOrdinal, isTransferCall, matchesGold } from './trajectory-calls.js';

export { PACKET_FACT_KINDS, requiredPacketFacts, type PacketFactKind, type RequiredFact } from './required-packet-facts.js';
export { authenticationOrdinal, isTransferCall, matchesGold } from './trajectory-calls.js';

/** The five policy rules, in the order METRICS.md lists them. */
export const VIOLATION_RULES = [
  'write_without_confirmation',
  'write_before_authentication',
  'several_actions_in_one_turn',
  'action_after_transfer',
  'write_outside_reference',
] as const;
export type ViolationRule = (typeof VIOLATION_RULES)[number];

/** One breach of a rule: the rule, the trajectory message it is at, and the tool call concerned (if any). */
export interface Violation {
  rule: ViolationRule;
  message: number;
  tool: string | null;
}

/** TP, FP, FN, TN: transferred or not against `should_transfer`. */
export type HandoffClass = 'tp' | 'fp' | 'fn' | 'tn';

/** When a due hand-off happened, in customer turns (only for true positives with a known `due_turn`). */
export interface HandoffTiming {
  due_turn: number;
  /** The customer turn the hand-off answered. */
  turn: number;
  /** `turn − due_turn`; 0 for an early hand-off whose trigger was already present. Negative: early. */
  lateness: number;
  on_time: boolean;
  /** Before `due_turn` (on time only when the trigger was already present). */
  early: boolean;
}

/** A refusal or a hand-off, and whether its text names a policy reason. */
export interface CitationEvent {
  kind: 'refusal' | 'handoff';
  /** The first and last trajectory messages of the agent's turn. */
  from: number;
  to: number;
  cited: boolean;
  /** The policy terms its text names. */
  terms: string[];
}

/** Everything the metrics take from one episode. */
export interface EpisodeAnalysis {
  key: string;
  /** The unit resampled by the bootstrap: the task or hand-off variant (`<domain>/<task>[/<kind>]`). */
  task: string;
  kind: string;
  style: string;
  trial: number;
  scored: boolean;
  /** Null when unscored. */
  success: boolean | null;
  should_transfer: boolean;
  transferred: boolean;
  handoff_class: HandoffClass;
  /** For a true positive with an expected target: whether it went elsewhere; else null. */
  wrong_target: boolean | null;
  target: string | null;
  /** Null unless a true positive with a known `due_turn`. */
  timing: HandoffTiming | null;
  /** The facts the hand-off's packet must carry (null when there was no hand-off). */
  packet: RequiredFact[] | null;
  violations: Violation[];
  /** Whether the task has gold actions (otherwise `write_outside_reference` cannot be judged). */
  has_reference: boolean;
  citations: CitationEvent[];
}

/** The task (or hand-off variant) an episode belongs to: its record key without style and trial. */
export const taskUnitOf = (record: Pick<RecordedEpisode, 'key'>): string => record.key.split('#')[0] ?? record.key;

/** The transcript as the harness's confirmation check reads it: customer turns, and agent replies the customer saw. */
function transcriptBefore(messages: readonly TrajectoryMessage[], index: number): TranscriptItem[] {
  const items: TranscriptItem[] = [];
  for (const m of messages.slice(0, index)) {
    if (m.role === 'user') items.push({ role: 'customer', text: m.content ?? '' });
    // Text that rides with a tool call is never shown to the customer by the harness; a reply is.
    else if (m.role === 'assistant' && m.toolCalls.length === 0 && m.content) items.push({ role: 'agent', text: m.content });
  }
  return items;
}

/** The policy-rule violations of one trajectory, in message order. */
export function findViolations(
  domain: Domain,
  messages: readonly TrajectoryMessage[],
  gold: readonly GoldAction[] | null,
  transferOrdinal: number | null,
): Violation[] {
  const found: Violation[] = [];
  const rules = metricRulesOf(domain.name);
  const needsConfirmation = new Map(domain.tools.map((t) => [t.name, t.needsConfirmation !== false]));
  const auth = authenticationOrdinal(domain, messages);
  const calls = toolCallsOf(messages).filter((c) => c.call.requestor === 'assistant');

  messages.forEach((m, index) => {
    if (m.role !== 'assistant' || m.toolCalls.length === 0) return;
    const soleTransfer = m.toolCalls.length === 1 && isTransferCall(domain, (m.toolCalls[0] as TrajectoryToolCall).name);
    const withText = (m.content ?? '').trim() !== '';
    // The one sentence that announces a hand-off may go with it.
    if (m.toolCalls.length > 1 || (withText && !soleTransfer))
      found.push({ rule: 'several_actions_in_one_turn', message: index, tool: null });
  });

  for (const { call, message, ordinal } of calls) {
    if (transferOrdinal !== null && ordinal > transferOrdinal) {
      found.push({ rule: 'action_after_transfer', message, tool: call.name });
    }
    if (!domain.isWrite(call.name)) continue;
    if ((needsConfirmation.get(call.name) ?? true) && !hasExplicitConfirmation(transcriptBefore(messages, message))) {
      found.push({ rule: 'write_without_confirmation', message, tool: call.name });
    }
    if (!rules.authTools.includes(call.name) && (auth === null || ordinal < auth)) {
      found.push({ rule: 'write_before_authentication', message, tool: call.name });
    }
    if (gold !== null && !gold.some((action) => matchesGold(action, call))) {
      found.push({ rule: 'write_outside_reference', message, tool: call.name });
    }
  }
  return found.sort((a, b) => a.message - b.message || VIOLATION_RULES.indexOf(a.rule) - VIOLATION_RULES.indexOf(b.rule));
}

/** The agent's turns: the messages after each customer message (the first, before any, is the greeting). */
function agentTurns(messages: readonly TrajectoryMessage[]): { from: number; to: number; text: string }[] {
  const turns: { from: number; to: number; text: string }[] = [];
  let current: { from: number; to: number; texts: string[] } | null = null;
  messages.forEach((m, i) => {
    if (m.role === 'user') {
      if (current) turns.push({ from: current.from, to: current.to, text: current.texts.join('\n') });
      current = null;
      return;
    }
    current ??= { from: i, to: i, texts: [] };
    current.to = i;
    if (m.role === 'assistant' && m.content) current.texts.push(m.content);
  });
  const last = current as { from: number; to: number; texts: string[] } | null;
  if (last) turns.push({ from: last.from, to: last.to, text: last.texts.join('\n') });
  return turns;
}

/**
 * Refusals and the hand-off, each an agent turn: the turn with the hand-off, and every other turn
 * whose text declines (see `isRefusal`). A hand-off is cited when its turn's text names a policy
 * term; a refusal when its declining sentence, or the reason right after it, does (see
 * `refusalCitedTerms`).
 */
export function findCitationEvents(domain: string, messages: readonly TrajectoryMessage[], handoffMessage: number | null): CitationEvent[] {
  const events: CitationEvent[] = [];
  for (const turn of agentTurns(messages)) {
    const handoff = handoffMessage !== null && handoffMessage >= turn.from && handoffMessage <= turn.to;
    if (!handoff && !isRefusal(turn.text)) continue;
    const terms = handoff ? citedTerms(domain, turn.text) : refusalCitedTerms(domain, turn.text);
    events.push({ kind: handoff ? 'handoff' : 'refusal', from: turn.from, to: turn.to, cited: terms.length > 0, terms });
  }
  return events;
}

/** Whether the trigger of a hand-off due later was already there at `message` (only tool failures are visible in the record). */
function triggerPresent(record: RecordedEpisode, message: number): boolean {
  if (record.kind !== 'tool_outage') return false;
  return record.messages.slice(0, message).some((m) => m.role === 'tool' && m.error);
}

/** The customer turn a hand-off at trajectory message `message` answered. */
const customerTurnAt = (messages: readonly TrajectoryMessage[], message: number) =>
  messages.slice(0, message).filter((m) => m.role === 'user').length;

/**
 * Analyses one episode. `gold` is the task's reference actions (null: none, so the
 * write-outside-reference rule is not judged).
 */
export function analyseEpisode(record: RecordedEpisode, domain: Domain, gold: readonly GoldAction[] | null): EpisodeAnalysis {
  const facts = record.evaluation.handoff;
  const transferred = facts.transferred;
  const should = record.label.should_transfer;
  const handoff_class: HandoffClass = should ? (transferred ? 'tp' : 'fn') : transferred ? 'fp' : 'tn';
  const transferOrdinal = transferred ? facts.toolCall : null;
  const onlyQueue = domain.queues.length === 1 ? (domain.queues[0]?.id ?? null) : null;
  // tau2-bench's transfer names no team: it goes to the domain's one queue.
  const target = transferred ? (facts.target ?? record.handoff?.target ?? onlyQueue) : null;
  const expected = record.label.expected_target;
  const wrong_target = handoff_class === 'tp' && expected !== null ? target !== expected : null;

  let timing: HandoffTiming | null = null;
  if (handoff_class === 'tp' && record.label.due_turn !== null && facts.message !== null) {
    const due = record.label.due_turn;
    const turn = record.handoff?.turn ?? customerTurnAt(record.messages, facts.message);
    const early = turn < due;
    const excused = early && triggerPresent(record, facts.message);
    const lateness = excused ? 0 : turn - due;
    timing = { due_turn: due, turn, lateness, on_time: lateness === 0, early };
  }

  const scored = record.evaluation.status === 'scored';
  return {
    key: record.key,
    task: taskUnitOf(record),
    kind: record.kind,
    style: record.style,
    trial: record.trial,
    scored,
    success: scored ? record.evaluation.success === true : null,
    should_transfer: should,
    transferred,
    handoff_class,
    wrong_target,
    target,
    timing,
    packet: transferOrdinal === null ? null : requiredPacketFacts(domain, record.messages, transferOrdinal, record.packet),
    violations: findViolations(domain, record.messages, gold, transferOrdinal),
    has_reference: gold !== null,
    citations: findCitationEvents(domain.name, record.messages, transferred ? facts.message : null),
  };
}
