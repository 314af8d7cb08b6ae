import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runPacket } from '../src/cli/packet-command.js';
import { ContextPacketSchema } from '../src/core/context-packet.js';

/** Feeds `lines` to `baton packet --jsonl` and returns what it wrote, one parsed value per line. */
async function packet(lines: string[]): Promise<{ out: unknown[]; result: { lines: number; errors: number } }> {
  const input = new PassThrough();
  const output = new PassThrough();
  let written = '';
  output.on('data', (chunk: Buffer) => (written += chunk.toString()));
  input.end(lines.join('\n') + '\n');
  const result = await runPacket(input, output);
  output.end();
  return {
    out: written
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as unknown),
    result,
  };
}

const conversation = {
  domain: 'billing',
  policy: { autonomous_refund_limit: 100 },
  messages: [
    { role: 'customer', text: 'Refund the duplicate charge please, my code is 482913' },
    { role: 'tool', name: 'verify_otp', arguments: { customer_id: 'cus_1001', code: '482913' }, ok: true, output: '{"verified": true}' },
    {
      role: 'tool',
      name: 'get_charges',
      arguments: { customer_id: 'cus_1001' },
      ok: true,
      output: '[{"charge_id": "ch_2", "amount": 250.0}]',
    },
  ],
  summary: 'Duplicate charge of 250.00; refund above the limit.',
};

describe('baton packet --jsonl', () => {
  it('answers each line in order, and a malformed line with an error while the rest go on', async () => {
    const { out, result } = await packet([
      JSON.stringify(conversation),
      '{"messages": [ this is not json',
      JSON.stringify({ messages: [{ role: 'robot', text: 'beep' }] }),
      '',
      JSON.stringify({
        messages: [{ role: 'customer', text: 'Where is order #W2378156?' }],
        decision: { reason: 'customer_request', evidence: 'a person' },
      }),
    ]);
    expect(result).toEqual({ lines: 5, errors: 3 });
    expect(out).toHaveLength(5);

    const first = ContextPacketSchema.parse(out[0]);
    expect(first.customer).toEqual({ id: 'cus_1001', verified: true, verified_by: 'verify_otp' });
    expect(first.summary).toEqual({ text: 'Duplicate charge of 250.00; refund above the limit.', written_by: 'model' });
    expect(first.facts).toContainEqual({ source: 'get_charges', field: '0.amount', value: 250, at: 2 });
    expect(JSON.stringify(first)).not.toContain('482913');

    expect(out[1]).toEqual({ error: expect.stringMatching(/^line 2: not valid JSON/) });
    expect(out[2]).toEqual({ error: expect.stringMatching(/^line 3: /) });
    // A blank line is answered too, so output line N always answers input line N.
    expect(out[3]).toEqual({ error: expect.stringMatching(/^line 4: blank line/) });

    const last = ContextPacketSchema.parse(out[4]);
    expect(last.intent).toEqual({ stated: 'Where is order #W2378156?', latest: null });
    expect(last.handoff).toEqual({ reason: 'customer_request', evidence: 'a person' });
  });

  it('writes nothing for empty input', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    input.end();
    expect(await runPacket(input, output)).toEqual({ lines: 0, errors: 0 });
  });
});
