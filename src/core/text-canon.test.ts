import { describe, expect, it } from 'vitest';
import { canonicalize, withinOneEdit } from './text-canon.js';
import { isWriteTool, looksLikeWrite } from './tool-kind.js';
import { parseAmount } from './tool-signals.js';

describe('withinOneEdit', () => {
  it.each([
    ['human', 'humna', true],
    ['human', 'huma', true],
    ['human', 'humann', true],
    ['human', 'hxman', true],
    ['human', 'hmuan', true],
    ['human', 'hmuna', false],
    ['manager', 'manger', true],
    ['manager', 'mangr', false],
    ['agent', 'agent', true],
  ] as const)('%s ~ %s: %s', (a, b, expected) => {
    expect(withinOneEdit(a, b)).toBe(expected);
    expect(withinOneEdit(b, a)).toBe(expected);
  });
});

describe('canonicalize', () => {
  it.each([
    ['get me a humna', 'get me a human'],
    ['i need a supervisr', 'i need a supervisor'],
    ['tranfer me to an agnet', 'transfer me to an agent'],
    ['humaaan pleeease', 'human please'],
    ['gimmme a human', 'give me a human'],
    ['lemme talk 2 ur manager pls', 'let me talk to your manager please'],
    ['some1 w/ a brain', 'someone with a brain'],
    ['live agent 🤬', 'live agent  '],
  ])('%s → %s', (input, output) => {
    expect(canonicalize(input)).toBe(output);
  });

  it('leaves real words and inflections alone', () => {
    for (const text of [
      'i want this escalated',
      'i want to complain',
      'the court date',
      'my stuff is late',
      'three charges',
      'thank you',
      'a steak',
      'pci compliant',
    ]) {
      expect(canonicalize(text)).toBe(text);
    }
  });

  it('never rewrites short everyday words', () => {
    expect(canonicalize('the bill is a walk in the park, i talk a lot')).toBe('the bill is a walk in the park, i talk a lot');
  });
});

describe('tool kinds and amounts', () => {
  it('tells reads from writes by the leading verb when no write tools are listed', () => {
    expect(['get_charges', 'calculateFee', 'quote-refund', 'list_orders', 'check_balance'].map(looksLikeWrite)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(['issue_refund', 'refundCharge', 'apply_credit', 'cancel_subscription'].map(looksLikeWrite)).toEqual([true, true, true, true]);
  });

  it('with both lists, judges a tool in neither by its name; with write tools only, trusts that list', () => {
    const writes = ['refund_charge'];
    const reads = ['get_charges', 'send_verification_code'];
    expect(
      ['refund_charge', 'send_verification_code', 'issue_refund', 'get_refund_quote'].map((n) => isWriteTool(n, writes, reads)),
    ).toEqual([true, false, true, false]);
    expect(['refund_charge', 'issue_refund'].map((n) => isWriteTool(n, writes))).toEqual([true, false]);
    expect(['issue_refund', 'get_charges'].map((n) => isWriteTool(n, []))).toEqual([true, false]);
  });

  it('reads amounts in either decimal convention', () => {
    expect(['1.250,00', '1,250.00', '$1,250', '89,00', '€89', '89.00 USD', '12.5', 150].map(parseAmount)).toEqual([
      1250, 1250, 1250, 89, 89, 89, 12.5, 150,
    ]);
    expect(parseAmount('all of it')).toBeUndefined();
  });
});
