/**
 * What a lab run writes: `run.json` (the resolved configuration and provenance) and one
 * `EpisodeRecord` per line of `trajectories.jsonl`. Metrics and reports read only these, so a run
 * can be re-analysed, compared and audited without running anything again.
 */
import type { EpisodeLabel, RecordedEpisode } from '../analysis/recorded-episode.js';
import { redactText } from '../core/index.js';
import type { TrajectoryMessage } from '../domains/trajectory.js';
import { createRuntimeRedactor, redactDeep, type Redactor } from '../runtime/service/redactor.js';
import type { EpisodeResult } from './run-episode.js';
import type { HandoffVariant, ProductionKind, VariantKind } from './variant.js';

export const RECORD_VERSION = 1;

export type { EpisodeLabel } from '../analysis/recorded-episode.js';

/** One line of `trajectories.jsonl`: a recorded episode (what the analysis reads) with its run context. */
export interface EpisodeRecord extends RecordedEpisode {
  version: typeof RECORD_VERSION;
  domain: string;
  variant_id: string | null;
  /** The variant's kind (or a production task's), or `task` for a plain task. */
  kind: VariantKind | ProductionKind | 'task';
  split: string;
  agent: string;
  user: 'scripted' | 'llm';
  seed: number;
  customer_turns: number;
  /** The hand-off as carried out: the customer turn it answered, why, to whom, and who decided. */
  handoff: EpisodeResult['handoff'];
  /**
   * Wall time of the episode (ms), as the runner returns it; `baton eval` moves it to the run's
   * `timings.jsonl` (run-environment) and writes the record without it, so that runs compare byte
   * for byte. Older folders have it in their records.
   */
  wall_ms?: number;
  /**
   * Set when the episode ended for an infrastructure reason (the provider down, the simulated
   * customer failing): not an agent result, left out of the metrics, run again on resume.
   */
  infrastructure_failure?: 'provider_down' | 'user_error' | 'provider_unreachable';
  /** The agent's model calls in the episode (an agent behind a model endpoint only): answered, and failed for good. */
  model_calls?: { answered: number; failed: number };
}

/** A record's key: domain, task, variant kind, style and trial. */
export function recordKey(domain: string, taskId: string, variant: HandoffVariant | null, style: string, trial: number): string {
  return `${domain}/${taskId}${variant ? `/${variant.kind}` : ''}#${style}#${trial}`;
}

/**
 * A trajectory as it may be kept: every text and every tool argument redacted as the runtime
 * redacts what it stores. The evaluator has scored the raw trajectory already; what is written to
 * disk (and so every report, export and dataset made from it) holds no secret.
 */
export function redactedMessages(messages: readonly TrajectoryMessage[], redact: Redactor = createRuntimeRedactor()): TrajectoryMessage[] {
  // One episode is one conversation: read in order, so a bare code is read as the answer it is.
  const id = 'episode';
  return messages.map((m) => {
    if (m.role === 'tool') return { ...m, content: redact.text(m.content, id) };
    const toolCalls = m.toolCalls.map((c) => ({ ...c, arguments: redact.args(c.arguments, id) }));
    if (m.content === null) return { ...m, toolCalls };
    return { ...m, content: m.role === 'user' ? redact.inbound(m.content, id) : redact.outbound(m.content, id), toolCalls };
  });
}

/** The record of one finished episode. */
export function toRecord(
  result: EpisodeResult,
  context: { variant: HandoffVariant | null; split: string; user: 'scripted' | 'llm'; trial: number; seed: number },
): EpisodeRecord {
  const { variant } = context;
  const label: EpisodeLabel = variant
    ? {
        should_transfer: variant.should_transfer,
        expected_target: variant.expected_target,
        expected_reason: variant.expected_reason,
        due_turn: variant.due_turn,
        label_rule: variant.label_rule,
      }
    : {
        should_transfer: result.evaluation.handoff.label.expected,
        expected_target: result.evaluation.handoff.label.queue,
        expected_reason: result.evaluation.handoff.label.reason,
        due_turn: null,
        label_rule: null,
      };
  return {
    version: RECORD_VERSION,
    key: recordKey(result.domain, result.taskId, variant, result.style, context.trial),
    domain: result.domain,
    task_id: result.taskId,
    variant_id: result.variantId,
    kind: variant?.kind ?? 'task',
    split: context.split,
    agent: result.agent,
    user: context.user,
    style: result.style,
    trial: context.trial,
    seed: context.seed,
    label,
    termination: result.termination,
    customer_turns: result.customerTurns,
    evaluation: redactDeep(result.evaluation, (t) => redactText(t).text) as typeof result.evaluation,
    handoff: result.handoff && {
      ...result.handoff,
      evidence: result.handoff.evidence === null ? null : redactText(result.handoff.evidence).text,
    },
    packet: result.packet,
    messages: redactedMessages(result.trajectory.messages),
  };
}
