import { describe, expect, it } from 'vitest';
import type { TranscriptItem } from '../core/index.js';
import { forbiddenPromises, foreignPersonalData, unbackedClaim } from './output-guardrails.js';

const refunded: TranscriptItem = { role: 'tool', name: 'refund_charge', arguments: { charge_id: 'ch_1' }, ok: true, output: 'ok' };
const failedRefund: TranscriptItem = { ...refunded, ok: false };

describe('output guardrails', () => {
  it.each([
    ['Your refund has been issued.', [], true],
    ["I've processed your refund, it's on its way.", [], true],
    ['Your reservation has been cancelled.', [], true],
    ['Your e-mail address has been updated.', [], true],
    ['Your refund has been issued.', [failedRefund], true],
    ['Your refund has been issued.', [refunded], false],
    ['I have not issued a refund yet.', [], false],
    ['I can issue a refund once you confirm.', [], false],
    ['Your reservation has been cancelled.', [refunded], true],
    ['Your refund has been issued, not to worry.', [], true],
    ['Your refund has been issued.', [{ role: 'tool', name: 'get_refund_policy', arguments: {}, ok: true, output: '{}' }], true],
    ['Your refund has not been issued yet.', [], false],
    ["I couldn't process the refund.", [], false],
    ["Unfortunately I wasn't able to get your reservation cancelled.", [], false],
  ] as const)('unbacked claim: %s (log %#) → trips %s', (reply, log, trips) => {
    expect(unbackedClaim(reply, log as readonly TranscriptItem[]) !== null).toBe(trips);
  });

  it('stops personal data of another customer, allows the customer’s own', () => {
    const log: TranscriptItem[] = [
      { role: 'customer', text: 'my e-mail is ana@example.com' },
      {
        role: 'tool',
        name: 'find_user',
        arguments: { email: 'ana@example.com' },
        ok: true,
        output: '{"user_id": "u1", "phone": "+1 555 010 2030"}',
      },
      {
        role: 'tool',
        name: 'find_user',
        arguments: { email: 'bob@example.com' },
        ok: true,
        output: '{"user_id": "u2", "phone": "+1 555 999 8888"}',
      },
    ];
    expect(foreignPersonalData('We will write to ana@example.com.', log)).toBeNull();
    expect(foreignPersonalData('We will call +1 555 010 2030.', log)).toBeNull();
    expect(foreignPersonalData('Bob can be reached at bob@example.com.', log)).toMatchObject({
      guardrail: 'foreign_personal_data',
      evidence: 'bob@example.com',
    });
    expect(foreignPersonalData('Call +1 555 999 8888.', log)).toMatchObject({ guardrail: 'foreign_personal_data' });
    expect(foreignPersonalData('Your order total is 1250.00 for order 20240515.', log)).toBeNull();
    // Ids and amounts side by side are not phone numbers.
    expect(foreignPersonalData('Charge ch_100446 (24.00 on 2025-05-14) repeats ch_100445.', log)).toBeNull();
    expect(foreignPersonalData('Refund re_1004461234 of 24.00 is done.', log)).toBeNull();
  });

  it('lets a reply report an earlier action that a look-up shows, not one it did not take', () => {
    const log: TranscriptItem[] = [
      { role: 'customer', text: 'was my duplicate charge refunded?' },
      {
        role: 'tool',
        name: 'get_charge_details',
        arguments: { charge_id: 'ch_1' },
        ok: true,
        output: '{"charge_id": "ch_1", "status": "refunded", "refund_id": "re_1"}',
      },
    ];
    expect(unbackedClaim('That charge was already refunded on 2025-03-02 (refund re_1).', log)).toBeNull();
    expect(unbackedClaim('I have refunded the charge.', log)).toMatchObject({ guardrail: 'unbacked_claim' });
    expect(unbackedClaim('Your booking has been cancelled previously.', log)).toMatchObject({ guardrail: 'unbacked_claim' });
  });

  it('follows the customer from a look-up by e-mail to the id it answered with', () => {
    const log: TranscriptItem[] = [
      { role: 'customer', text: 'I am ana@example.com and I want my e-mail changed to ana.new@example.com' },
      { role: 'tool', name: 'find_customer_by_email', arguments: { email: 'ana@example.com' }, ok: true, output: 'cus_1' },
      {
        role: 'tool',
        name: 'get_customer_details',
        arguments: { customer_id: 'cus_1' },
        ok: true,
        output: '{"customer_id": "cus_1", "phone": "+1 555 010 2030"}',
      },
      {
        role: 'tool',
        name: 'get_customer_details',
        arguments: { customer_id: 'cus_2' },
        ok: true,
        output: '{"customer_id": "cus_2", "phone": "+1 555 999 8888"}',
      },
    ];
    expect(foreignPersonalData('Your number on file is +1 555 010 2030.', log)).toBeNull();
    expect(foreignPersonalData('Their number is +1 555 999 8888.', log)).toMatchObject({ guardrail: 'foreign_personal_data' });
  });

  it('stops promises the policy forbids', () => {
    const check = forbiddenPromises([/\bguarantee[sd]?\b/i, /\bcompensation\b/i]);
    expect(check('I guarantee it arrives tomorrow.', [])).toMatchObject({ guardrail: 'forbidden_promise', evidence: 'guarantee' });
    expect(check('It should arrive tomorrow.', [])).toBeNull();
  });
});
