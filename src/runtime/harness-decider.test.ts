import { describe, expect, it } from 'vitest';
import { DeciderPolicySchema, SAFETY_RESPONSE, type TranscriptItem } from '../core/index.js';
import { harnessDecider } from './harness-decider.js';

const decide = harnessDecider(DeciderPolicySchema.parse({ autonomousLimit: 50 }));
const refund = (amount: number): TranscriptItem => ({ role: 'tool', name: 'refund_charge', arguments: { amount }, ok: true, output: 'ok' });
const ask: TranscriptItem = { role: 'customer', text: 'please refund the duplicate' };

describe('the decider as the harness consults it', () => {
  it('judges the autonomous limit on the proposed write only, before it runs', async () => {
    expect(await decide([ask, refund(900)], { phase: 'before_write' })).toMatchObject({ handoff: true, reason: 'value_threshold' });
    expect(await decide([ask, refund(50)], { phase: 'before_write' })).toMatchObject({ handoff: false });
    // An earlier write that ran (approved by a person) does not stop a later small one…
    expect(await decide([ask, refund(900), refund(10)], { phase: 'before_write' })).toMatchObject({ handoff: false });
    // …nor hand the conversation off once it has run.
    expect(await decide([ask, refund(900)], { phase: 'after_tool' })).toMatchObject({ handoff: false });
  });

  it('sends the fixed safety response with a safety hand-off', async () => {
    expect(await decide([{ role: 'customer', text: 'I want to kill myself' }], { phase: 'input' })).toMatchObject({
      handoff: true,
      reason: 'safety',
      response: SAFETY_RESPONSE,
    });
    expect(await decide([{ role: 'customer', text: 'get me a manager' }], { phase: 'input' })).toMatchObject({
      reason: 'customer_request',
      response: null,
    });
  });
});
