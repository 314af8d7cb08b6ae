/**
 * `task` and `r2`: the outcome reward and the outcome reward with hand-off mistakes priced.
 *
 * `task` is the evaluator's verdict, 0 or 1. On tau2-bench it has a known loophole: a transfer
 * leaves the database unchanged, which scores full marks whenever the correct outcome changes
 * nothing (TAU2.md §5), so "transfer when unsure" never loses. `r2` charges that:
 *
 *   r2 = earned − λv·violations − λFP·[transferred ∧ ¬should] − λFN·[¬transferred ∧ should] − λf·format_errors
 *
 * with λv = 0.25 per policy-rule violation, λFP = 0.5, λFN = 1.0, λf = 0.1 per format error.
 * `earned` is the evaluator's outcome, except for a due hand-off that the decider or the harness
 * made rather than the agent: the customer reached a person, so it is not missed, but the agent
 * did nothing to earn it (a staller, an unknown-tool caller or a guardrail farmer would otherwise
 * be paid for what the system does when an agent fails). An unneeded hand-off costs λFP whoever
 * made it: the system makes one only on what the conversation shows, and the agent's part in it
 * is what the reward can teach. It is not clamped: a dialogue that does the task but breaks three
 * rules is worth less than one that fails honestly, and a trainer sees by how much.
 */
import { earnedOutcome, formatErrors, type Reward, type RewardInput, type RewardResult } from './reward.js';

/** The evaluator's outcome; a dialogue that could not be scored (no judge) is 0 and says so. */
export function taskReward(input: RewardInput): RewardResult {
  const value = input.success === true ? 1 : 0;
  return { value, components: { task: value, unscored: input.success === null } };
}

/** r2's prices. */
export interface R2Weights {
  /** Per policy-rule violation. */
  violation: number;
  /** A hand-off that was not due (over-escalation). */
  false_transfer: number;
  /** A due hand-off not made. */
  missed_transfer: number;
  /** Per format error. */
  format_error: number;
}

/** r2's default prices. */
export const R2_DEFAULTS: Readonly<R2Weights> = { violation: 0.25, false_transfer: 0.5, missed_transfer: 1.0, format_error: 0.1 };

/** `r2` with the given weights. */
export function r2Reward(input: RewardInput, weights: R2Weights = R2_DEFAULTS): RewardResult {
  const { task, withheld } = earnedOutcome(input);
  const violations = input.violations.length;
  const falseTransfer = input.transferred && !input.should_transfer ? 1 : 0;
  const missedTransfer = !input.transferred && input.should_transfer ? 1 : 0;
  const format = formatErrors(input.messages);
  const value =
    task -
    weights.violation * violations -
    weights.false_transfer * falseTransfer -
    weights.missed_transfer * missedTransfer -
    weights.format_error * format.total;
  return {
    value,
    components: {
      task,
      unscored: input.success === null,
      handoff_by: input.handoff_by,
      task_withheld: withheld,
      violations,
      false_transfer: falseTransfer,
      missed_transfer: missedTransfer,
      format_errors: format.total,
      unknown_tool: format.unknown_tool,
      bad_arguments: format.bad_arguments,
      text_with_tool_call: format.text_with_tool_call,
      penalty_violations: -weights.violation * violations,
      penalty_false_transfer: -weights.false_transfer * falseTransfer,
      penalty_missed_transfer: -weights.missed_transfer * missedTransfer,
      penalty_format: -weights.format_error * format.total,
    },
  };
}

/** The `task` reward. */
export const TASK_REWARD: Reward = { name: 'task', score: taskReward };

/** The `r2` reward, with any of its weights changed. */
export function r2(weights: Partial<R2Weights> = {}): Reward {
  const w = { ...R2_DEFAULTS, ...weights };
  return { name: 'r2', score: (input) => r2Reward(input, w) };
}
