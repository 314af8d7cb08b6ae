import { describe, expect, it } from 'vitest';
import type { TrajectoryMessage } from '../domains/trajectory.js';
import { r2, r2Reward, R2_DEFAULTS, taskReward } from './outcome.js';
import { input } from '../../test/support/reward-input.js';
import { formatErrors } from './reward.js';

const say = (role: 'assistant' | 'user', content: string): TrajectoryMessage => ({ role, content, toolCalls: [] });
const call = (id: string, name: string, content: string | null = null): TrajectoryMessage => ({
  role: 'assistant',
  content,
  toolCalls: [{ id, name, arguments: {}, requestor: 'assistant' }],
});
const result = (id: string, extra: { error?: boolean; refusal?: string } = {}): TrajectoryMessage => ({
  role: 'tool',
  id,
  content: extra.refusal ? `Error: ${extra.refusal}` : '{}',
  error: extra.error ?? extra.refusal !== undefined,
  requestor: 'assistant',
  ...(extra.refusal ? { executed: false, refusal: extra.refusal } : {}),
});

describe('task', () => {
  it('is the evaluator outcome, 0 or 1, and says when the dialogue could not be scored', () => {
    expect(taskReward(input())).toEqual({ value: 1, components: { task: 1, unscored: false } });
    expect(taskReward(input({ success: false }))).toEqual({ value: 0, components: { task: 0, unscored: false } });
    expect(taskReward(input({ success: null }))).toEqual({ value: 0, components: { task: 0, unscored: true } });
  });
});

describe('formatErrors', () => {
  it('counts unknown tools, arguments that do not parse, and text with a tool call (a hand-off excepted)', () => {
    const messages: TrajectoryMessage[] = [
      say('user', 'refund please'),
      call('c1', 'refund_everything'),
      result('c1', { refusal: 'unknown_tool' }),
      call('c2', 'get_charges'),
      result('c2', { refusal: 'invalid_arguments' }),
      call('c3', 'get_charges', 'Let me look that up.'),
      result('c3'),
      call('c4', 'refund_charge'),
      result('c4', { refusal: 'needs_confirmation' }),
      call('c5', 'handoff', "I'm passing you to a colleague."),
    ];
    expect(formatErrors(messages)).toEqual({ unknown_tool: 1, bad_arguments: 1, text_with_tool_call: 1, total: 3 });
    expect(formatErrors([say('user', 'hi'), say('assistant', 'Hello')]).total).toBe(0);
  });
});

describe('r2', () => {
  it('is the outcome when nothing is wrong', () => {
    const scored = r2Reward(input());
    expect(scored.value).toBe(1);
    expect(scored.components).toMatchObject({ task: 1, violations: 0, false_transfer: 0, missed_transfer: 0, format_errors: 0 });
  });

  it('charges each violation, an unneeded hand-off, a missed one and each format error with the default weights', () => {
    expect(R2_DEFAULTS).toEqual({ violation: 0.25, false_transfer: 0.5, missed_transfer: 1.0, format_error: 0.1 });
    const violations = [
      { rule: 'write_without_confirmation' as const, message: 3, tool: 'refund_charge' },
      { rule: 'several_actions_in_one_turn' as const, message: 3, tool: null },
    ];
    expect(r2Reward(input({ violations })).value).toBeCloseTo(1 - 0.5, 12);
    // The transfer loophole: a hand-off nobody needed, on a task whose outcome it does not spoil.
    const falseTransfer = r2Reward(input({ transferred: true, should_transfer: false }));
    expect(falseTransfer.value).toBeCloseTo(0.5, 12);
    expect(falseTransfer.components).toMatchObject({ false_transfer: 1, penalty_false_transfer: -0.5 });
    const missed = r2Reward(input({ success: false, should_transfer: true, transferred: false }));
    expect(missed.value).toBeCloseTo(-1, 12);
    expect(missed.components).toMatchObject({ missed_transfer: 1, penalty_missed_transfer: -1 });
    // A due hand-off made is neither.
    expect(r2Reward(input({ should_transfer: true, transferred: true })).value).toBe(1);
    const sloppy = r2Reward(input({ messages: [say('user', 'x'), call('c1', 'nope'), result('c1', { refusal: 'unknown_tool' })] }));
    expect(sloppy.value).toBeCloseTo(0.9, 12);
    expect(sloppy.components).toMatchObject({ format_errors: 1, unknown_tool: 1 });
  });

  it('takes its weights from the configuration', () => {
    const custom = r2({ false_transfer: 2 });
    expect(custom.name).toBe('r2');
    expect(custom.score(input({ transferred: true, should_transfer: false }))).toMatchObject({ value: -1 });
  });
});

describe('r2 pays for the agent’s own decisions', () => {
  it('withholds the outcome of a due hand-off the decider or the harness made, without calling it missed', () => {
    for (const by of ['decider', 'harness'] as const) {
      const scored = r2Reward(input({ should_transfer: true, transferred: true, handoff_by: by }));
      expect(scored.value).toBe(0);
      expect(scored.components).toMatchObject({ task: 0, task_withheld: true, handoff_by: by, missed_transfer: 0, false_transfer: 0 });
      // An unneeded one costs what the agent's own would.
      expect(r2Reward(input({ success: false, transferred: true, handoff_by: by })).value).toBeCloseTo(-0.5, 12);
    }
  });

  it('scores an unknown tool that ended in the decider’s hand-off as the format error it is, not as a hand-off', () => {
    const messages: TrajectoryMessage[] = [
      say('user', 'I was charged twice.'),
      call('c1', 'resolve_customer_issue'),
      result('c1', { refusal: 'unknown_tool' }),
      call('handoff_turn_1', 'handoff'),
      { role: 'tool', id: 'handoff_turn_1', content: 'Transfer successful', error: false, requestor: 'assistant' },
    ];
    const due = r2Reward(
      input({ messages, should_transfer: true, transferred: true, handoff_by: 'decider', system_messages: new Set([3]) }),
    );
    expect(due.value).toBeCloseTo(-0.1, 12);
    expect(due.components).toMatchObject({ task: 0, task_withheld: true, unknown_tool: 1, format_errors: 1 });
    const unneeded = r2Reward(input({ messages, success: false, transferred: true, handoff_by: 'decider', system_messages: new Set([3]) }));
    expect(unneeded.value).toBeCloseTo(-0.6, 12);
  });
});
