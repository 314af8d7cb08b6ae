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
          { role: 'tool', name: 'issue_refund', arguments: { amount: 150 }, ok: true, output: 'done' },
        ],
      }),
      line({
        policy: { autonomous_limit: 100 },
        messages: [{ role: 'tool', name: 'issue_refund', arguments: { amount: 100 }, ok: true, output: 'done' }],
      }),
      line({ policy: { autonomusLimit: 100 }, messages: [] }),
      line({ messages: [{ role: 'customer', text: 'I want to kill myself' }] }),
    ]);
    expect(counts).toEqual({ lines: 8, errors: 3 });
    expect(answers).toHaveLength(8);
    expect(answers[0]).toEqual({ handoff: true, reason: 'customer_request', target: 'queue_general', evidence: 'let me speak to a human' });
    expect(answers[1]).toEqual({ error: expect.stringMatching(/^line 2: not valid JSON/) });
    expect(answers[2]).toEqual({ handoff: false, reason: null, target: null, evidence: null });
    expect(answers[3]).toEqual({ error: expect.stringMatching(/^line 4: /) });
    expect(answers[4]).toEqual({ handoff: true, reason: 'value_threshold', target: 'queue_refunds', evidence: 'issue_refund amount=150' });
    expect(answers[5]).toEqual({ handoff: false, reason: null, target: null, evidence: null });
    expect(answers[6]).toEqual({ error: expect.stringMatching(/^line 7: .*autonomusLimit/) });
    expect(answers[7]).toMatchObject({ handoff: true, reason: 'safety' });
  });

  it('writes exactly the four documented fields', async () => {
    const { answers } = await decide([line({ messages: [{ role: 'customer', text: 'Human!' }] })]);
    expect(Object.keys(answers[0]!).sort()).toEqual(['evidence', 'handoff', 'reason', 'target']);
  });

  it('accepts an unknown domain and ignores it for now', async () => {
    const { answers } = await decide([line({ domain: 'no_such_domain', messages: [{ role: 'customer', text: 'hello' }] })]);
    expect(answers).toEqual([{ handoff: false, reason: null, target: null, evidence: null }]);
  });
});
