/**
 * What a lab run writes: `run.json` (the resolved configuration and provenance) and one
 * `EpisodeRecord` per line of `trajectories.jsonl`. Metrics and reports read only these, so a run
 * can be re-analysed, compared and audited without running anything again.
 */
import type { Evaluation } from '../domains/evaluator.js';
import type { TerminationReason, TrajectoryMessage } from '../domains/trajectory.js';
import type { EpisodeResult } from './run-episode.js';
import type { HandoffVariant, VariantKind } from './variant.js';

export const RECORD_VERSION = 1;

/** The label an episode is measured against (a plain task's comes from the task). */
export interface EpisodeLabel {
  should_transfer: boolean;
  expected_target: string | null;
  expected_reason: string | null;
  /** The customer turn from which a hand-off is due (null: none due, or not known). */
  due_turn: number | null;
  label_rule: string | null;
}

export interface EpisodeRecord {
  version: typeof RECORD_VERSION;
  /** `<domain>/<task>[/<variant kind>]#<style>#<trial>`: unique within a run, stable across runs. */
  key: string;
  domain: string;
  task_id: string;
  variant_id: string | null;
  /** The variant's kind, or `task` for a plain task. */
  kind: VariantKind | 'task';
  split: string;
  agent: string;
  user: 'scripted' | 'llm';
  style: string;
  trial: number;
  seed: number;
  label: EpisodeLabel;
  termination: TerminationReason;
  customer_turns: number;
  /** The evaluator's verdict, whole (reward, success, components, hand-off facts). */
  evaluation: Evaluation;
  /** The hand-off as carried out: the customer turn it answered, why, to whom, and who decided. */
  handoff: EpisodeResult['handoff'];
  packet: Record<string, unknown> | null;
  messages: readonly TrajectoryMessage[];
  /** Wall time of the episode (ms); not part of any metric, so runs stay comparable byte for byte without it. */
  wall_ms?: number;
}

/** A record's key: domain, task, variant kind, style and trial. */
export function recordKey(domain: string, taskId: string, variant: HandoffVariant | null, style: string, trial: number): string {
  return `${domain}/${taskId}${variant ? `/${variant.kind}` : ''}#${style}#${trial}`;
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
    evaluation: result.evaluation,
    handoff: result.handoff,
    packet: result.packet,
    messages: result.trajectory.messages,
  };
}
