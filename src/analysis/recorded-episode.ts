/**
 * The part of a lab episode record that the analysis and the rewards read: a finished dialogue
 * (the trajectory, how it ended, the evaluator's verdict), the label it is measured against and
 * the hand-off as the harness carried it out. The lab's `EpisodeRecord` (`src/lab/records.ts`)
 * is one; a trainer's own dialogue can be another, without the lab.
 */
import type { HandoffReason } from '../core/index.js';
import type { Evaluation } from '../domains/evaluator.js';
import type { TerminationReason, TrajectoryMessage } from '../domains/trajectory.js';

/** The label an episode is measured against (a plain task's comes from the task). */
export interface EpisodeLabel {
  should_transfer: boolean;
  expected_target: string | null;
  expected_reason: string | null;
  /** The customer turn from which a hand-off is due (null: none due, or not known). */
  due_turn: number | null;
  label_rule: string | null;
}

/**
 * Who decided a hand-off: the agent's own hand-off action (`model`), the hand-off decider on the
 * conversation's signals (`decider`), or the harness's own limits and guardrails (`harness`).
 */
export type HandoffDecider = 'model' | 'decider' | 'harness';

/** A hand-off as the harness carried it out: the customer turn it answered, why, to whom, and who decided. */
export interface RecordedHandoff {
  turn: number;
  reason: HandoffReason;
  target: string;
  decidedBy: HandoffDecider;
  evidence: string | null;
}

/** One finished episode, as the analysis and the rewards read it. */
export interface RecordedEpisode {
  /** `<domain>/<task>[/<variant kind>]#<style>#<trial>`: unique within a run, stable across runs. */
  key: string;
  task_id: string;
  /** The hand-off variant's kind, or `task` for a plain task. */
  kind: string;
  style: string;
  trial: number;
  label: EpisodeLabel;
  termination: TerminationReason;
  /** The evaluator's verdict, whole (reward, success, components, hand-off facts). */
  evaluation: Evaluation;
  /** The hand-off as carried out (null: none, or a trajectory recorded without Baton's harness). */
  handoff: RecordedHandoff | null;
  packet: Record<string, unknown> | null;
  messages: readonly TrajectoryMessage[];
}
