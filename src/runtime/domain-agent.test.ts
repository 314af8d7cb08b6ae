import { describe, expect, it } from 'vitest';
import { loadDomain } from '../domains/load-domain.js';
import { domainPacketBuilder } from './domain-agent.js';

describe('domainPacketBuilder', () => {
  it("marks each action read or write as the domain's tools say, not as their names suggest", async () => {
    const billing = await loadDomain('billing');
    const packet = domainPacketBuilder(billing)({
      items: [
        { role: 'customer', text: 'I was charged twice. My e-mail is ana@example.com.' },
        { role: 'tool', name: 'find_customer_by_email', arguments: { email: 'ana@example.com' }, ok: true, output: 'cus_1' },
        { role: 'tool', name: 'send_verification_code', arguments: { customer_id: 'cus_1' }, ok: true, output: 'Code sent.' },
        {
          role: 'tool',
          name: 'verify_customer',
          arguments: { customer_id: 'cus_1', code: '123456' },
          ok: true,
          output: '{"customer_id": "cus_1", "verified": true}',
        },
      ],
    });
    const kinds = Object.fromEntries(packet.actions.map((a) => [a.tool, a.kind]));
    const declared = Object.fromEntries(billing.tools.map((t) => [t.name, t.kind]));
    expect(kinds).toEqual({
      find_customer_by_email: declared['find_customer_by_email'],
      send_verification_code: declared['send_verification_code'],
      verify_customer: declared['verify_customer'],
    });
    // The two whose names mislead a guess.
    expect(kinds['send_verification_code']).toBe('read');
    expect(kinds['verify_customer']).toBe('write');
  });
});
