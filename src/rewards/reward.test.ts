import { beforeAll, describe, expect, it } from 'vitest';
import type { RecordedEpisode, HandoffDecider } from '../analysis/recorded-episode.js';
import { loadBillingDomain } from '../domains/billing/index.js';
import type { Domain } from '../domains/domain.js';
import { handoffFacts, type Evaluation } from '../domains/evaluator.js';
import { OPENING_MESSAGE, type TrajectoryMessage } from '../domains/trajectory.js';
import { dense } from './dense.js';
import { r2Reward } from './outcome.js';
import { agentSteps, agentTexts, earnedOutcome, rewardInput } from './reward.js';
import { input } from '../../test/support/reward-input.js';

const A = (text: string): TrajectoryMessage => ({ role: 'assistant', content: text, toolCalls: [] });
const U = (text: string): TrajectoryMessage => ({ role: 'user', content: text, toolCalls: [] });
const NOTICE = "I'm passing you to a colleague now. They will see our whole conversation, so you won't need to repeat anything.";

/** A staller's dialogue ending in a hand-off to billing, as the harness records one the decider or the harness made. */
function stalled(domain: Domain, decidedBy: HandoffDecider, should: boolean): RecordedEpisode {
  const ask = 'I was charged twice for the same thing, please refund the duplicate.';
  const messages: TrajectoryMessage[] = [
    A(OPENING_MESSAGE),
    U(ask),
    A('One moment, please.'),
    U(ask),
    A('One moment, please.'),
    U(ask),
    {
      role: 'assistant',
      content: NOTICE,
      toolCalls: [
        {
          id: 'handoff_turn_3',
          name: 'handoff',
          arguments: { target: 'queue_billing', reason: 'loop_detected', summary: 'Handed off.' },
          requestor: 'assistant',
        },
      ],
    },
    { role: 'tool', id: 'handoff_turn_3', content: 'Transfer successful', error: false, requestor: 'assistant' },
    U('###TRANSFER###'),
  ];
  const task = domain.tasks[0];
  if (!task) throw new Error('a billing task');
  const labelled = {
    ...task,
    handoff: { expected: should, queue: should ? 'queue_billing' : null, reason: null, source: 'label' as const },
  };
  const evaluation: Evaluation = {
    domain: domain.name,
    taskId: task.id,
    taskVersion: task.version,
    source: domain.source,
    termination: 'user_stop',
    status: 'scored',
    unscoredWhy: null,
    // A due hand-off to the right queue is the whole outcome of a hand-off variant.
    reward: should ? 1 : 0,
    success: should,
    rewardBasis: ['HANDOFF'],
    handoff: handoffFacts(domain, labelled, messages),
  };
  return {
    key: `billing/${task.id}/over_limit_refund#neutral#0`,
    task_id: task.id,
    kind: 'over_limit_refund',
    style: 'neutral',
    trial: 0,
    label: { should_transfer: should, expected_target: labelled.handoff.queue, expected_reason: null, due_turn: 1, label_rule: null },
    termination: 'user_stop',
    evaluation,
    handoff: { turn: 3, reason: 'loop_detected', target: 'queue_billing', decidedBy, evidence: null },
    packet: null,
    messages,
  };
}

describe('rewardInput: whose hand-off', () => {
  let domain: Domain;
  beforeAll(async () => {
    domain = await loadBillingDomain();
  });

  it('reads who decided the hand-off from the record, and marks the message the system wrote in the agent’s place', () => {
    const byDecider = rewardInput(stalled(domain, 'decider', true), domain);
    expect(byDecider).toMatchObject({ transferred: true, handoff_by: 'decider', should_transfer: true, success: true });
    expect([...byDecider.system_messages]).toEqual([6]);
    expect(agentTexts(byDecider.messages, byDecider.system_messages)).toEqual([
      OPENING_MESSAGE,
      'One moment, please.',
      'One moment, please.',
    ]);
    expect(agentSteps(byDecider.messages, byDecider.system_messages)).toBe(2);
    expect(rewardInput(stalled(domain, 'harness', true), domain).handoff_by).toBe('harness');
    const byAgent = rewardInput(stalled(domain, 'model', true), domain);
    expect(byAgent.handoff_by).toBe('agent');
    expect(byAgent.system_messages.size).toBe(0);
    // A transfer recorded without Baton's harness (tau2-bench's own trajectories) is the agent's.
    expect(rewardInput({ ...stalled(domain, 'decider', true), handoff: null }, domain).handoff_by).toBe('agent');
  });

  it('pays r2 nothing for a due hand-off the decider made for a staller, and charges an unneeded one', () => {
    const due = r2Reward(rewardInput(stalled(domain, 'decider', true), domain));
    expect(due.value).toBe(0);
    expect(due.components).toMatchObject({ task: 0, task_withheld: true, handoff_by: 'decider', missed_transfer: 0 });
    expect(r2Reward(rewardInput(stalled(domain, 'model', true), domain)).value).toBe(1);
    const unneeded = r2Reward(rewardInput(stalled(domain, 'decider', false), domain));
    expect(unneeded.value).toBeCloseTo(-0.5, 12);
    expect(unneeded.components).toMatchObject({ false_transfer: 1, task_withheld: false });
  });

  it('does not count the notice the harness showed as the agent’s hand-off words in dense', async () => {
    const reward = dense();
    const system = await reward.score(rewardInput(stalled(domain, 'decider', true), domain));
    expect(system.components).toMatchObject({ task: 0, task_withheld: true, handoff_by: 'decider' });
    expect(system.components['resolution_category']).not.toBe('handed_off');
    const own = await reward.score(rewardInput(stalled(domain, 'model', true), domain));
    expect(own.components).toMatchObject({ task: 1, task_withheld: false, resolution_category: 'handed_off', resolution: 1 });
    expect(own.value).toBeGreaterThan(system.value);
  });
});

describe('earnedOutcome', () => {
  it('withholds only a due, successful hand-off someone other than the agent made', () => {
    expect(earnedOutcome(input())).toEqual({ task: 1, withheld: false });
    expect(earnedOutcome(input({ should_transfer: true, transferred: true }))).toEqual({ task: 1, withheld: false });
    for (const by of ['decider', 'harness'] as const) {
      expect(earnedOutcome(input({ should_transfer: true, transferred: true, handoff_by: by }))).toEqual({ task: 0, withheld: true });
      // Not due: the evaluator's outcome stands (r2 charges the hand-off itself).
      expect(earnedOutcome(input({ transferred: true, handoff_by: by }))).toEqual({ task: 1, withheld: false });
      expect(earnedOutcome(input({ success: false, should_transfer: true, transferred: true, handoff_by: by }))).toEqual({
        task: 0,
        withheld: false,
      });
    }
  });
});
