import { describe, expect, it } from 'vitest';
import type { GoldAction } from '../../domains/domain.js';
import type { Evaluation } from '../../domains/evaluator.js';
import { failureReasons } from './failure-reasons.js';

const handoffFacts: Evaluation['handoff'] = {
  transferred: false,
  message: null,
  toolCall: null,
  assistantTurnsBefore: null,
  customerTurn: null,
  early: false,
  tool: null,
  target: null,
  reason: null,
  summary: null,
  label: { expected: true, queue: 'queue_billing', reason: 'no_capability', source: 'label', dueTurn: 1 },
};

function evaluation(over: Partial<Evaluation>): Evaluation {
  return {
    domain: 'billing',
    taskId: 'billing_001',
    taskVersion: 'v1',
    source: 'test',
    termination: 'user_stop',
    status: 'scored',
    unscoredWhy: null,
    reward: 0,
    success: false,
    rewardBasis: ['DB', 'COMMUNICATE', 'ACTION', 'HANDOFF'],
    handoff: handoffFacts,
    ...over,
  };
}

const episode = (e: Evaluation, extra: { termination?: 'user_stop' | 'user_error' } = {}) => ({
  evaluation: e,
  termination: extra.termination ?? e.termination,
  handoff: null,
});

describe('failureReasons', () => {
  it('gives none for a success', () => {
    expect(failureReasons(episode(evaluation({ reward: 1, success: true })))).toEqual([]);
  });

  it('reads each failed component of the basis, in its order, and leaves diagnostics out', () => {
    const gold: GoldAction[] = [
      {
        actionId: 'a0',
        name: 'refund_charge',
        arguments: { charge_id: 'ch_1', amount: '5.00' },
        requestor: 'assistant',
        compareArgs: null,
      },
    ];
    const reasons = failureReasons(
      episode(
        evaluation({
          rewardBasis: ['DB', 'COMMUNICATE', 'HANDOFF'],
          db: { reward: 0, predictedHash: 'x', goldHash: 'y', replayMismatches: [] },
          communicate: { reward: 0, missing: ['ch_1'] },
          // Not in the basis: a diagnostic, not a reason.
          action: { reward: 0, missing: ['a0'] },
          handoffCheck: { reward: 0, why: 'no hand-off; the task should go to queue_billing' },
        }),
      ),
      gold,
    );
    expect(reasons).toEqual([
      { code: 'db', text: 'the database ended differently from the reference solution' },
      { code: 'communicate', text: 'never told the customer “ch_1”' },
      { code: 'handoff', text: 'no hand-off; the task should go to queue_billing' },
    ]);
    const action = failureReasons(episode(evaluation({ rewardBasis: ['ACTION'], action: { reward: 0, missing: ['a0', 'a9'] } })), gold);
    expect(action).toEqual([{ code: 'action', text: 'reference actions not taken: refund_charge(charge_id=ch_1, amount=5.00); a9' }]);
  });

  it("names the judge's unmet assertions with its reasoning", () => {
    const reasons = failureReasons(
      episode(
        evaluation({
          rewardBasis: ['NL_ASSERTION'],
          nl: {
            status: 'scored',
            reward: 0,
            verdict: {
              ok: true,
              model: 'm',
              results: [
                { expectedOutcome: 'Agent apologises', reasoning: 'it did', metExpectation: true },
                { expectedOutcome: 'Agent refuses the refund', reasoning: 'it refunded', metExpectation: false },
              ],
            },
          },
        }),
      ),
    );
    expect(reasons).toEqual([{ code: 'nl', text: 'the judge found not met: “Agent refuses the refund” (it refunded)' }]);
  });

  it('says when an ending is not scored, an episode is unscored, or the infrastructure failed', () => {
    expect(failureReasons(episode(evaluation({ termination: 'max_steps' })))).toEqual([
      { code: 'termination', text: 'the episode ended because it reached the step limit (max_steps); such an ending scores 0' },
    ]);
    expect(
      failureReasons(episode(evaluation({ status: 'unscored', reward: null, success: null, unscoredWhy: 'no judge is configured' }))),
    ).toEqual([{ code: 'unscored', text: 'unscored: no judge is configured' }]);
    const infra = failureReasons(episode(evaluation({ termination: 'user_error' }), { termination: 'user_error' }));
    expect(infra.map((r) => r.code)).toEqual(['infrastructure']);
    expect(infra[0]?.text).toContain('user_error');
  });

  it('says so when the reward is below 1 with no component at 0', () => {
    expect(failureReasons(episode(evaluation({ reward: 0.5, rewardBasis: ['HANDOFF'], handoffCheck: { reward: 1, why: 'ok' } })))).toEqual([
      { code: 'other', text: 'reward 0.5: below 1 with no component of the basis at 0' },
    ]);
  });
});
