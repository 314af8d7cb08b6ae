import type { TrajectoryMessage } from '../../src/domains/trajectory.js';
import type { RewardInput } from '../../src/rewards/reward.js';

const say = (role: 'assistant' | 'user', content: string): TrajectoryMessage => ({ role, content, toolCalls: [] });

/**
 * A reward input with everything right (a successful dialogue needing one write), changed by
 * `over`. A hand-off (`transferred: true`) is the agent's unless `handoff_by` says otherwise.
 */
export function input(over: Partial<RewardInput> = {}): RewardInput {
  return {
    handoff_by: over.transferred ? 'agent' : null,
    system_messages: new Set(),
    messages: [say('user', 'hi'), say('assistant', 'Hello')],
    termination: 'user_stop',
    success: true,
    should_transfer: false,
    transferred: false,
    wrong_target: null,
    violations: [],
    gold_actions: 2,
    gold_reads: 1,
    needs_write: true,
    successful_writes: 1,
    write_tools: new Set(['refund_charge']),
    transfer_tools: new Set(['handoff', 'transfer_to_human_agents']),
    ...over,
  };
}
