/**
 * Rewards for training: pure functions of one finished dialogue on one task, each returning its
 * value and every component it was built from, so that a trainer's logs show why a dialogue
 * scored what it did. The input is what the lab records for every episode (the trajectory, the
 * evaluator's verdict, who decided the hand-off) plus what the episode analysis reads from it
 * (hand-off class, policy-rule violations), built once by {@link rewardInput}. Rewards import
 * nothing from the lab: the analysis they share with it lives below both (`src/analysis/`).
 */
import { analyseEpisode, isTransferCall, type Violation } from '../analysis/episode-analysis.js';
import type { RecordedEpisode } from '../analysis/recorded-episode.js';
import type { Domain } from '../domains/domain.js';
import { TRANSFER_TOOLS } from '../domains/evaluator.js';
import { OPENING_MESSAGE, type TerminationReason, type TrajectoryMessage } from '../domains/trajectory.js';

/**
 * Who handed the customer over: the agent, by its own hand-off action; the hand-off decider, on
 * the conversation's signals; or the harness, when its guardrails or limits stopped the agent.
 */
export type HandoffBy = 'agent' | 'decider' | 'harness';

/** One dialogue on one task, as every reward reads it. */
export interface RewardInput {
  messages: readonly TrajectoryMessage[];
  termination: TerminationReason;
  /** The evaluator's outcome: null when the task needed a judge and none was configured. */
  success: boolean | null;
  should_transfer: boolean;
  /** The customer was handed to a person, by whoever decided it. */
  transferred: boolean;
  /** Who decided that hand-off (null when there was none). Rewards pay only for the agent's own. */
  handoff_by: HandoffBy | null;
  /**
   * Trajectory messages the system wrote in the agent's place: the decider's or the harness's
   * hand-off, with the notice the customer was shown. Not the agent's text, nor one of its steps.
   */
  system_messages: ReadonlySet<number>;
  /** A due hand-off sent to another queue than the label's (null unless a due hand-off happened). */
  wrong_target: boolean | null;
  violations: readonly Violation[];
  /** The task's reference solution length in tool calls (null when it has none). */
  gold_actions: number | null;
  /** Of those, look-ups (reads). */
  gold_reads: number | null;
  /** Whether the task's reference solution changes the database. */
  needs_write: boolean;
  /** Tool calls that changed the database and succeeded. */
  successful_writes: number;
  /** The domain's tools that change the database, and the tools that hand off. */
  write_tools: ReadonlySet<string>;
  transfer_tools: ReadonlySet<string>;
}

/** A component's value: a number, or a note such as `judge: "absent"`. */
export type ComponentValue = number | boolean | string | null;

export interface RewardResult {
  value: number;
  components: Record<string, ComponentValue>;
  /** Per agent message, for rewards that shape steps as well (`dense`). */
  steps?: number[];
}

/** A named reward. `score` is pure; it is async only because a judge may be configured. */
export interface Reward {
  readonly name: string;
  score(input: RewardInput): RewardResult | Promise<RewardResult>;
}

const writeToolSets = new WeakMap<Domain, ReadonlySet<string>>();
function writeTools(domain: Domain): ReadonlySet<string> {
  let set = writeToolSets.get(domain);
  if (!set) writeToolSets.set(domain, (set = new Set(domain.tools.filter((t) => domain.isWrite(t.name)).map((t) => t.name))));
  return set;
}

const transferToolSets = new WeakMap<Domain, ReadonlySet<string>>();
function transferTools(domain: Domain): ReadonlySet<string> {
  let set = transferToolSets.get(domain);
  if (!set) transferToolSets.set(domain, (set = new Set([...TRANSFER_TOOLS, domain.transferTool])));
  return set;
}

/** Who decided a recorded hand-off; a transfer recorded without Baton's harness (tau2-bench's) is the agent's. */
function handoffBy(record: RecordedEpisode): HandoffBy | null {
  if (!record.evaluation.handoff.transferred) return null;
  const by = record.handoff?.decidedBy ?? 'model';
  return by === 'model' ? 'agent' : by;
}

const NONE: ReadonlySet<number> = new Set();

/** The reward input of a recorded episode, on its domain (which knows the tools and gold actions). */
export function rewardInput(record: RecordedEpisode, domain: Domain): RewardInput {
  const task = domain.tasks.find((t) => t.id === record.task_id);
  const gold = task?.actions ?? null;
  const analysis = analyseEpisode(record, domain, gold);
  const results = new Map(record.messages.flatMap((m) => (m.role === 'tool' ? [[m.id, m] as const] : [])));
  let successfulWrites = 0;
  for (const m of record.messages) {
    if (m.role === 'tool') continue;
    for (const call of m.toolCalls) {
      const result = results.get(call.id);
      if (domain.isWrite(call.name) && result && !result.error && result.executed !== false) successfulWrites++;
    }
  }
  const by = handoffBy(record);
  const at = record.evaluation.handoff.message;
  return {
    messages: record.messages,
    termination: record.termination,
    success: analysis.success,
    should_transfer: analysis.should_transfer,
    transferred: analysis.transferred,
    handoff_by: by,
    system_messages: by !== null && by !== 'agent' && at !== null ? new Set([at]) : NONE,
    wrong_target: analysis.wrong_target,
    violations: analysis.violations,
    gold_actions: gold ? gold.length : null,
    gold_reads: gold ? gold.filter((a) => !domain.isWrite(a.name) && !isTransferCall(domain, a.name)).length : null,
    needs_write: (gold ?? []).some((a) => domain.isWrite(a.name)),
    successful_writes: successfulWrites,
    write_tools: writeTools(domain),
    transfer_tools: transferTools(domain),
  };
}

/**
 * The outcome the agent earned: the evaluator's, except that a due hand-off the decider or the
 * harness made is not the agent's achievement. The conversation needed it and got it, so it is no
 * missed hand-off; but an agent that stalls, loops, calls tools it does not have or trips a
 * guardrail until the system steps in did nothing to earn it (docs/rl.md, "Whose hand-off").
 */
export function earnedOutcome(input: RewardInput): { task: number; withheld: boolean } {
  const task = input.success === true ? 1 : 0;
  const withheld = task === 1 && input.should_transfer && input.transferred && input.handoff_by !== 'agent';
  return { task: withheld ? 0 : task, withheld };
}

/**
 * Format errors of the agent: calls to tools it does not have, arguments that do not parse (as
 * JSON, or against the tool's schema), and text and a tool call in one turn. A hand-off is the
 * exception to the last: the words the customer is shown go with the transfer by design.
 */
export interface FormatErrors {
  unknown_tool: number;
  bad_arguments: number;
  text_with_tool_call: number;
  total: number;
}

/** Counts the agent's format errors in a trajectory. */
export function formatErrors(messages: readonly TrajectoryMessage[]): FormatErrors {
  let unknownTool = 0;
  let badArguments = 0;
  let textWithCall = 0;
  for (const m of messages) {
    if (m.role === 'tool') {
      if (m.requestor !== 'assistant') continue;
      if (m.refusal === 'unknown_tool') unknownTool++;
      if (m.refusal === 'invalid_arguments') badArguments++;
    } else if (m.role === 'assistant' && (m.content ?? '').trim() !== '' && m.toolCalls.some((c) => !TRANSFER_TOOLS.has(c.name))) {
      textWithCall++;
    }
  }
  return {
    unknown_tool: unknownTool,
    bad_arguments: badArguments,
    text_with_tool_call: textWithCall,
    total: unknownTool + badArguments + textWithCall,
  };
}

/** The agent's own text messages, in order (what the system wrote in its place, `skip`, left out). */
export const agentTexts = (messages: readonly TrajectoryMessage[], skip: ReadonlySet<number> = NONE): string[] =>
  messages.flatMap((m, i) => (m.role === 'assistant' && !skip.has(i) && m.content && m.content.trim() !== '' ? [m.content] : []));

/**
 * Agent steps: its messages (each text or tool-call message counts once), the harness's opening
 * greeting and what the system wrote in its place (`skip`) not among them.
 */
export const agentSteps = (messages: readonly TrajectoryMessage[], skip: ReadonlySet<number> = NONE): number =>
  messages.filter(
    (m, i) => m.role === 'assistant' && !skip.has(i) && !(i === 0 && m.content === OPENING_MESSAGE && m.toolCalls.length === 0),
  ).length;

/** The customer's messages. */
export const customerTurns = (messages: readonly TrajectoryMessage[]): number => messages.filter((m) => m.role === 'user').length;
