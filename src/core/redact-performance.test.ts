import { describe, expect, it } from 'vitest';
import { redactTranscript } from './redact-conversation.js';
import { redactArguments, redactText } from './redact.js';

// Redaction runs on every stored message. These inputs are built to trip regular expressions
// that backtrack (a label repeated with nothing after it, separators with no digits, quotes that
// never close): each must finish. No time is asserted; the test timeout bounds them, and a
// backtracking pattern takes minutes on 256 KiB, not the milliseconds these take.
const SIZE = 256 * 1024;
const fill = (unit: string) => unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE);

const ADVERSARIAL = [
  'code ',
  'code the ',
  'code is one ',
  'is my code ',
  'password ',
  'password is ',
  'password for ',
  'pw ',
  'cvv on the back of ',
  'key ',
  'secret key ',
  'token ',
  'card number ',
  '4242 ',
  '4242.',
  '4 ',
  '1-',
  'seven ',
  'DE89 ',
  'AB 12 ',
  '123 45 ',
  '"',
  '"a": "',
  "'a': '",
  'a: ',
  'a=b&',
  'Bearer ',
  'http://a:',
  '[card ••••4242] ',
  'pw: x1 code 4 8 cvv seven ',
  'a',
  '4',
];

describe('redaction on 256 KiB adversarial inputs', () => {
  it.each(ADVERSARIAL)('finishes on %j repeated', (unit) => {
    const text = fill(unit);
    const out = redactText(text);
    expect(typeof out.text).toBe('string');
    // What it produced is already redacted.
    expect(redactText(out.text).text).toBe(out.text);
  });

  it('finishes on a private key block that never ends', () => {
    const text = `-----BEGIN RSA PRIVATE KEY-----${fill('A')}`;
    expect(redactText(text).text).toBe('[secret]');
  });

  it('finishes on arguments and a conversation of that size', () => {
    const big = fill('pw: x1 code 4 8 cvv seven ');
    expect(redactArguments({ note: big, code: '482913' }).arguments['code']).toBe('[otp]');
    const items = redactTranscript([
      { role: 'customer', text: fill('4111 1111 1111 1111 ') },
      { role: 'agent', text: fill('code is 48 ') },
    ]).items;
    expect(items).toHaveLength(2);
  });
});
