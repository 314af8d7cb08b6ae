import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runDecide } from '../src/cli/decide-command.js';

/** Feeds `lines` to `runDecide` on in-memory streams and returns what it wrote, parsed line by line. */
async function decide(lines: string[]) {
  const input = new PassThrough();
  const output = new PassThrough();
  let written = '';
  output.on('data', (chunk: Buffer) => (written += chunk.toString('utf8')));
  input.end(lines.join('\n') + '\n');
  const counts = await runDecide(input, output);
  return {
    counts,
    answers: written
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

const line = (value: unknown) => JSON.stringify(value);

describe('baton decide --jsonl', () => {
  it('answers each line in order, with an error on malformed lines and the rest going on', async () => {
    const { counts, answers } = await decide([
      line({ messages: [{ role: 'customer', text: 'let me speak to a human' }] }),
      '{"messages": [',
      line({ messages: [{ role: 'customer', text: 'I do NOT want a human, just fix it' }] }),
      line({ messages: [{ role: 'robot', text: 'hi' }] }),
      '',
      line({
        domain: 'billing',
        policy: { autonomousLimit: 100, targets: { value_threshold: 'queue_refunds' } },
        messages: [
          { role: 'customer', text: 'refund my duplicate charge' },
          // billing's own refund tool: under billing, only its write tools count.
          { role: 'tool', name: 'refund_charge', arguments: { amount: 150 }, ok: true, output: 'done' },
        ],
      }),
      line({
        policy: { autonomous_limit: 100 },
        messages: [{ role: 'tool', name: 'issue_refund', arguments: { amount: 100 }, ok: true, output: 'done' }],
      }),
      line({ policy: { autonomusLimit: 100 }, messages: [] }),
      line({ messages: [{ role: 'customer', text: 'I want to kill myself' }] }),
    ]);
    expect(counts).toEqual({ lines: 9, errors: 4 });
    expect(answers).toHaveLength(9);
    expect(answers[0]).toEqual({ handoff: true, reason: 'customer_request', target: 'queue_general', evidence: 'let me speak to a human' });
    expect(answers[1]).toEqual({ error: expect.stringMatching(/^line 2: not valid JSON/) });
    expect(answers[2]).toEqual({ handoff: false, reason: null, target: null, evidence: null });
    expect(answers[3]).toEqual({ error: expect.stringMatching(/^line 4: /) });
    // A blank line is answered with an error, so output line N answers input line N.
    expect(answers[4]).toEqual({ error: expect.stringMatching(/^line 5: blank line/) });
    expect(answers[5]).toEqual({ handoff: true, reason: 'value_threshold', target: 'queue_refunds', evidence: 'refund_charge amount=150' });
    expect(answers[6]).toEqual({ handoff: false, reason: null, target: null, evidence: null });
    expect(answers[7]).toEqual({ error: expect.stringMatching(/^line 8: .*autonomusLimit/) });
    expect(answers[8]).toMatchObject({ handoff: true, reason: 'safety' });
  });

  it('writes exactly the four documented fields', async () => {
    const { answers } = await decide([line({ messages: [{ role: 'customer', text: 'Human!' }] })]);
    expect(Object.keys(answers[0]!).sort()).toEqual(['evidence', 'handoff', 'reason', 'target']);
  });

  it('refuses an unknown domain, naming the known ones', async () => {
    const { answers } = await decide([line({ domain: 'no_such_domain', messages: [{ role: 'customer', text: 'hello' }] })]);
    expect(answers).toEqual([{ error: expect.stringMatching(/^line 1: .*unknown domain "no_such_domain".*billing/) }]);
  });

  it("applies the domain's decider policy: its autonomous limit, write tools and queues", async () => {
    const refund = (amount: number) => ({
      role: 'tool',
      name: 'refund_charge',
      arguments: { charge_id: 'ch_1', amount },
      ok: true,
      output: 'ok',
    });
    const { answers } = await decide([
      line({ domain: 'billing', messages: [{ role: 'customer', text: 'refund the duplicate' }, refund(89)] }),
      line({ domain: 'billing', messages: [{ role: 'customer', text: 'refund the duplicate' }, refund(49)] }),
      line({ domain: 'billing', messages: [{ role: 'customer', text: "I'm going to sue you" }] }),
      line({ domain: 'billing', messages: [{ role: 'customer', text: 'get me a human' }] }),
      line({ domain: 'airline', messages: [{ role: 'customer', text: 'get me a human' }] }),
      // The line's policy is laid over the domain's: here a higher limit, billing's queues kept.
      line({ domain: 'billing', policy: { autonomous_limit: 100 }, messages: [refund(89)] }),
    ]);
    expect(answers[0]).toEqual({ handoff: true, reason: 'value_threshold', target: 'queue_billing', evidence: 'refund_charge amount=89' });
    expect(answers[1]).toEqual({ handoff: false, reason: null, target: null, evidence: null });
    expect(answers[2]).toMatchObject({ handoff: true, reason: 'policy_topic', target: 'queue_legal' });
    expect(answers[3]).toMatchObject({ handoff: true, reason: 'customer_request', target: 'queue_billing' });
    expect(answers[4]).toMatchObject({ handoff: true, reason: 'customer_request', target: 'queue_human_agents' });
    expect(answers[5]).toEqual({ handoff: false, reason: null, target: null, evidence: null });
  });

  it('counts only writes against the limit: a read with an amount argument is not flagged', async () => {
    const call = (name: string) => ({ role: 'tool', name, arguments: { amount: 500 }, ok: true, output: '{"fee": 12}' });
    const { answers } = await decide([
      line({ policy: { autonomousLimit: 100 }, messages: [call('calculate_fee')] }),
      line({ policy: { autonomousLimit: 100 }, messages: [call('issue_refund')] }),
      line({ domain: 'billing', messages: [call('get_charges')] }),
    ]);
    expect(answers.map((a) => a['reason'])).toEqual([null, 'value_threshold', null]);
  });
});
