import { describe, expect, it } from 'vitest';
import { redactText } from '../../../core/index.js';
import { findSecrets, secretsMessage } from './dataset-secrets.js';

const COMMIT = 'be238ddab65feb1f7f750184edcfa507296f8ed0';

const found = (row: unknown) => findSecrets('episodes/dev.jsonl', [row]).findings.map((f) => [f.field, f.kinds]);

describe('findSecrets', () => {
  it('finds secrets in text, by field name, inside JSON-text columns and in integers, naming where', () => {
    expect(found({ messages: [{ content: 'ok' }, { content: 'my card is 4111 1111 1111 1111' }] })).toEqual([
      ['messages[1].content', ['card']],
    ]);
    expect(found({ profile: { password: 'Sunshine2024' } })).toEqual([['profile.password', ['password']]]);
    expect(found({ tool_calls: [{ arguments_json: JSON.stringify({ user: 'u1', cvv: '123' }) }] })).toEqual([
      ['tool_calls[0].arguments_json → cvv', ['cvv']],
    ]);
    expect(found({ evaluation_json: JSON.stringify({ seen: [4111111111111111] }) })).toEqual([['evaluation_json → seen[0]', ['card']]]);
  });

  it('finds nothing in redacted rows, nor in counts under sensitive names', () => {
    const packet = { redactions: { card: 0, cvv: 0, otp: 0, password: 0 } };
    // Read as text, the packet's counts look like labelled values; parsed, they are numbers.
    expect(redactText(JSON.stringify(packet)).counts.password).toBeGreaterThan(0);
    expect(found({ packet_json: JSON.stringify(packet), content: 'The code is [otp], card [card ••••4242].' })).toEqual([]);
  });

  it('judges a whole hex digest by its field name only: a real commit passes the IBAN checksum as text', () => {
    expect(redactText(COMMIT).counts.iban).toBe(1);
    expect(found({ git_sha: COMMIT, run_json: JSON.stringify({ git_sha: COMMIT }) })).toEqual([]);
    // Under a sensitive name it is still a secret, and inside text it is judged as text.
    expect(found({ run_json: JSON.stringify({ api_token: COMMIT }) })).toEqual([['run_json → api_token', ['token']]]);
    expect(found({ content: `sha ${COMMIT}` })).toEqual([['content', ['iban']]]);
  });

  it('says where, never what', () => {
    const { findings } = findSecrets('tasks/dev.jsonl', [{}, { facts: [{ key: 'code', value: '482913' }] }]);
    expect(findings).toEqual([{ file: 'tasks/dev.jsonl', line: 2, field: 'facts[0].value', kinds: ['otp'] }]);
    const message = secretsMessage(findings);
    expect(message).toContain('tasks/dev.jsonl line 2, field facts[0].value: otp');
    expect(message).toContain('nothing was written');
    expect(message).not.toContain('482913');
  });
});
