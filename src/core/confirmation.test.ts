import { describe, expect, it } from 'vitest';
import { blockingConstraint } from './constraints.js';
import { hasExplicitConfirmation } from './confirmation.js';
import { findingsFrom } from './findings.js';
import type { TranscriptItem } from './transcript.js';

const agentAsks: TranscriptItem = { role: 'agent', text: 'I can refund 30.00 to your card ending 4242. Shall I go ahead?' };

describe('explicit confirmation', () => {
  it.each([
    ['yes', true],
    ['Yes please, go ahead.', true],
    ['ok do it', true],
    ['Confirmed.', true],
    ['that’s right', true],
    ["that's right", true],
    ['no', false],
    ['not yet, wait', false],
    ['hmm, maybe', false],
    ['yes... actually no', false],
    ['what would that cost?', false],
  ])('%s → %s', (text, expected) => {
    expect(hasExplicitConfirmation([{ role: 'customer', text: 'refund me' }, agentAsks, { role: 'customer', text }])).toBe(expected);
  });

  it('a yes before the agent’s proposal does not confirm it', () => {
    expect(hasExplicitConfirmation([{ role: 'customer', text: 'yes refund me' }, agentAsks])).toBe(false);
    expect(hasExplicitConfirmation([{ role: 'customer', text: 'yes' }])).toBe(false);
  });
});

describe('hand-back constraints', () => {
  const constraints = [
    { tool: 'refund_charge', args: { order_id: '7731' }, note: 'no refund for order 7731' },
    { tool: 'change_email', args: {}, note: 'e-mail changes only in person' },
  ];
  it('block the matching call only, comparing arguments as text', () => {
    expect(blockingConstraint(constraints, 'refund_charge', { order_id: 7731, amount: 5 })?.note).toBe('no refund for order 7731');
    expect(blockingConstraint(constraints, 'refund_charge', { order_id: '7732' })).toBeNull();
    expect(blockingConstraint(constraints, 'refund_charge', {})).toBeNull();
    expect(blockingConstraint(constraints, 'change_email', { email: 'a@b.c' })?.note).toMatch(/in person/);
    expect(blockingConstraint(constraints, 'get_charges', { order_id: '7731' })).toBeNull();
  });
});

describe('findings from the tool log', () => {
  it('collect scalar fields of successful calls only, from arguments and JSON outputs', () => {
    const findings = findingsFrom([
      {
        role: 'tool',
        name: 'get_user',
        arguments: { user_id: 'u1' },
        ok: true,
        output: '{"name": "Ana", "orders": [{"order_id": "#W1", "total": 12.5}]}',
      },
      { role: 'tool', name: 'get_order', arguments: { order_id: '#W9' }, ok: false, output: '{"order_id": "#W9"}' },
      { role: 'tool', name: 'note', arguments: {}, ok: true, output: 'plain text' },
    ]);
    expect(findings.get('user_id')).toEqual(['u1']);
    expect(findings.get('order_id')).toEqual(['#W1']);
    expect(findings.get('total')).toEqual([12.5]);
    expect(findings.has('plain')).toBe(false);
  });
});
