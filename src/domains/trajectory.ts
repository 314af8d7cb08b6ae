/**
 * A run's trajectory as tau2-bench records it: assistant and user messages (text and/or tool
 * calls) and tool results, in order, and why the run ended. The evaluator scores this; the
 * oracle and the lab's runner produce it.
 */
export interface TrajectoryToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  requestor: 'assistant' | 'user';
}

export type TrajectoryMessage =
  | { role: 'assistant' | 'user'; content: string | null; toolCalls: readonly TrajectoryToolCall[] }
  | {
      role: 'tool';
      id: string;
      content: string;
      error: boolean;
      requestor: 'assistant' | 'user';
      /**
       * False when the call never reached the domain: Baton's harness refused it (a rule, a
       * missing confirmation, a guardrail) and `content` is its explanation. The DB check does not
       * replay such calls. tau2-bench executes every call, so its trajectories leave this unset.
       */
      executed?: boolean;
      /**
       * Why Baton's harness refused the call, when it did: `unknown_tool`, `invalid_arguments`
       * (not JSON, or not what the tool's schema takes), `needs_confirmation`, `constraint`,
       * `rule`, `declined`. Rewards count the first two as format errors.
       */
      refusal?: string;
    };

/** tau2-bench's termination reasons. */
export const TERMINATION_REASONS = [
  'user_stop',
  'agent_stop',
  'max_steps',
  'too_many_errors',
  'agent_error',
  'user_error',
  'timeout',
] as const;
export type TerminationReason = (typeof TERMINATION_REASONS)[number];

export interface Trajectory {
  messages: readonly TrajectoryMessage[];
  termination: TerminationReason;
}

/** The message every tau2-bench conversation opens with. */
export const OPENING_MESSAGE = 'Hi! How can I help you today?';

/** The user simulator's stop markers: goal done, transferred, scenario out of scope. */
export const USER_STOP_MARKERS = ['###STOP###', '###TRANSFER###', '###OUT-OF-SCOPE###'] as const;

/** Every tool call of a trajectory, in order, with its position. */
export function toolCallsOf(messages: readonly TrajectoryMessage[]): { call: TrajectoryToolCall; message: number; ordinal: number }[] {
  const calls: { call: TrajectoryToolCall; message: number; ordinal: number }[] = [];
  messages.forEach((m, message) => {
    if (m.role !== 'tool') for (const call of m.toolCalls) calls.push({ call, message, ordinal: calls.length });
  });
  return calls;
}
