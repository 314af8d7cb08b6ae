import { describe, expect, it } from 'vitest';
import { buildContextPacket, ContextPacketSchema, type ContextPacket } from './context-packet.js';
import { inferToolKind } from './packet-tools.js';
import type { TranscriptItem } from './transcript.js';

const tool = (name: string, args: Record<string, unknown>, output: unknown, ok = true): TranscriptItem => ({
  role: 'tool',
  name,
  arguments: args,
  ok,
  output: typeof output === 'string' ? output : JSON.stringify(output),
});
const customer = (text: string): TranscriptItem => ({ role: 'customer', text });
const agent = (text: string): TranscriptItem => ({ role: 'agent', text });

// A retail conversation as tau2-bench's tools produce it (outputs abridged from the gold replay).
const RETAIL: TranscriptItem[] = [
  customer('Hi!'),
  customer('I want to exchange the keyboard from my order #W2378156 for a clicky one.'),
  agent('Could you give me your name and zip code?'),
  customer('Yusuf Rossi, 19122'),
  tool('find_user_id_by_name_zip', { first_name: 'Yusuf', last_name: 'Rossi', zip: '19122' }, 'yusuf_rossi_9620'),
  tool(
    'get_order_details',
    { order_id: '#W2378156' },
    {
      order_id: '#W2378156',
      user_id: 'yusuf_rossi_9620',
      status: 'delivered',
      items: [{ name: 'Mechanical Keyboard', item_id: '1151293680', price: 272.33 }],
      payment_history: [{ transaction_type: 'payment', amount: 1819.92, payment_method_id: 'credit_card_9513926' }],
      cancel_reason: null,
    },
  ),
  tool(
    'exchange_delivered_order_items',
    { order_id: '#W2378156', item_ids: ['1151293680'], new_item_ids: ['7706410293'], payment_method_id: 'credit_card_9513926' },
    'Error: Order status is not delivered',
    false,
  ),
  customer('Can I just talk to a real person please?'),
];

// The billing domain: lookup, a one-time code, charges, a refund above the autonomous limit.
const BILLING: TranscriptItem[] = [
  customer('I was charged twice for my plan. My card is 4242 4242 4242 4242.'),
  tool('lookup_customer', { email: 'ana@example.com' }, { customer_id: 'cus_1001', name: 'Ana Diaz', plan: 'pro' }),
  tool('send_otp', { customer_id: 'cus_1001' }, { sent: true }),
  agent('I have sent a verification code to your phone. What is it?'),
  customer('482913'),
  tool('verify_otp', { customer_id: 'cus_1001', code: '482913' }, { verified: true }),
  tool('get_charges', { customer_id: 'cus_1001' }, [
    { charge_id: 'ch_1', amount: 250.0, date: '2024-05-15', card_last4: '4242' },
    { charge_id: 'ch_2', amount: 250.0, date: '2024-05-15', card_last4: '4242' },
  ]),
  customer('ok so refund it. and the code was 482913 if you need it again'),
];

function build(items: TranscriptItem[], extra: Partial<Parameters<typeof buildContextPacket>[0]> = {}): ContextPacket {
  return buildContextPacket({ items, ...extra });
}

describe('buildContextPacket on a tau2 retail log', () => {
  const packet = build(RETAIL, {
    decision: { reason: 'customer_request', evidence: 'talk to a real person' },
    transcriptRef: 'conv_01HX/messages',
  });

  it('is a valid, versioned packet', () => {
    expect(ContextPacketSchema.parse(JSON.parse(JSON.stringify(packet)))).toEqual(packet);
    expect(packet.schemaVersion).toBe(1);
    expect(packet.transcript_ref).toBe('conv_01HX/messages');
  });

  it('reads a packet stored before a redaction kind was added, with that kind at 0', () => {
    const stored = JSON.parse(JSON.stringify(packet)) as { redactions: Record<string, number> };
    delete stored.redactions['nino'];
    expect(ContextPacketSchema.parse(stored).redactions.nino).toBe(0);
  });

  it('identifies and verifies the customer from the identity lookup', () => {
    expect(packet.customer).toEqual({ id: 'yusuf_rossi_9620', verified: true, verified_by: 'find_user_id_by_name_zip' });
  });

  it('takes the intent from the customer, skipping small talk', () => {
    expect(packet.intent).toEqual({
      stated: 'I want to exchange the keyboard from my order #W2378156 for a clicky one.',
      latest: 'Can I just talk to a real person please?',
    });
  });

  it('lists facts with their source tool, top-level fields first, nulls skipped', () => {
    expect(packet.facts).toContainEqual({ source: 'get_order_details', field: 'status', value: 'delivered', at: 5 });
    expect(packet.facts).toContainEqual({ source: 'get_order_details', field: 'items.0.price', value: 272.33, at: 5 });
    expect(packet.facts).toContainEqual({ source: 'find_user_id_by_name_zip', field: 'result', value: 'yusuf_rossi_9620', at: 4 });
    expect(packet.facts.some((f) => f.field === 'cancel_reason')).toBe(false);
    const fields = packet.facts.filter((f) => f.source === 'get_order_details').map((f) => f.field);
    expect(fields.indexOf('status')).toBeLessThan(fields.indexOf('items.0.name'));
  });

  it('lists every call with its status and kind, and asks about the failed write', () => {
    expect(packet.actions.map((a) => [a.tool, a.status, a.kind])).toEqual([
      ['find_user_id_by_name_zip', 'succeeded', 'read'],
      ['get_order_details', 'succeeded', 'read'],
      ['exchange_delivered_order_items', 'failed', 'write'],
    ]);
    const failed = packet.actions[2];
    expect(failed?.status === 'failed' && failed.error).toBe('Error: Order status is not delivered');
    expect(packet.open_questions.some((q) => q.startsWith('exchange_delivered_order_items failed'))).toBe(true);
    expect(packet.open_questions.some((q) => q.includes("customer's last message has no reply"))).toBe(true);
  });

  it('suggests the next step from the reason and has no model summary when none was given', () => {
    expect(packet.handoff).toEqual({ reason: 'customer_request', evidence: 'talk to a real person' });
    expect(packet.suggested_next_step).toMatch(/^Greet the customer.*real person/);
    expect(packet.summary).toBeNull();
  });
});

describe('buildContextPacket on a billing log', () => {
  const packet = build(BILLING, {
    decision: { reason: 'value_threshold', evidence: 'refund_charge amount 250 exceeds the autonomous limit 100' },
    summary: 'Customer was double charged 250.00 on 2024-05-15;\nwants a refund.',
  });
  const stored = JSON.stringify(packet);

  it('verifies by the one-time code, not by the lookup', () => {
    expect(packet.customer).toEqual({ id: 'cus_1001', verified: true, verified_by: 'verify_otp' });
  });

  it('hides the code wherever it appears, and the card except its last four', () => {
    expect(stored).not.toContain('482913');
    expect(stored).not.toContain('4242 4242 4242 4242');
    expect(packet.intent?.stated).toBe('I was charged twice for my plan. My card is [card ••••4242].');
    expect(packet.intent?.latest).toBe('ok so refund it. and the code was [otp] if you need it again');
    expect(packet.actions.find((a) => a.tool === 'verify_otp')).toMatchObject({ arguments: { customer_id: 'cus_1001', code: '[otp]' } });
    expect(packet.redactions.otp).toBeGreaterThanOrEqual(3);
    expect(packet.redactions.card).toBe(1);
  });

  it('keeps ordinary numbers: amounts, dates, last four', () => {
    expect(packet.facts).toContainEqual({ source: 'get_charges', field: '0.amount', value: 250, at: 6 });
    expect(packet.facts).toContainEqual({ source: 'get_charges', field: '0.date', value: '2024-05-15', at: 6 });
    expect(packet.facts).toContainEqual({ source: 'get_charges', field: '0.card_last4', value: '4242', at: 6 });
  });

  it('says the refund above the limit was planned but not called, and why', () => {
    expect(packet.actions.at(-1)).toEqual({
      status: 'planned',
      tool: 'refund_charge',
      kind: 'write',
      arguments: null,
      why: "above the agent's autonomous limit: refund_charge amount 250 exceeds the autonomous limit 100; needs a human's approval",
    });
    expect(packet.suggested_next_step).toBe("Review refund_charge above the agent's limit and approve or refuse it.");
    expect(packet.open_questions.some((q) => q.startsWith('refund_charge was not carried out'))).toBe(true);
  });

  it('labels the one model-written line, on one line', () => {
    expect(packet.summary).toEqual({ text: 'Customer was double charged 250.00 on 2024-05-15; wants a refund.', written_by: 'model' });
  });
});

describe('verification', () => {
  it('a code sent but never checked leaves the customer unverified, even after a lookup', () => {
    const packet = build(BILLING.slice(0, 3));
    expect(packet.customer).toEqual({ id: 'cus_1001', verified: false, verified_by: null });
    expect(packet.open_questions[0]).toMatch(/send_otp was called but no check of the code followed/);
    expect(packet.suggested_next_step).toMatch(/^Verify the customer's identity/);
  });

  it('a bare reply is hidden when the agent asked for a code, and kept when it asked for a zip code', () => {
    const packet = build([
      agent('What is your zip code?'),
      customer('19122'),
      agent('Please read me the verification code we texted you.'),
      customer('551203'),
    ]);
    expect(packet.intent).toEqual({ stated: '19122', latest: '[otp]' });
  });

  it('a secret seen under a field name is hidden as a whole token elsewhere, not inside other ids', () => {
    const packet = build([
      customer('The code is 4821 for order #W4821993, I think: 4821'),
      tool('verify_otp', { code: '4821' }, { verified: true }),
    ]);
    expect(packet.intent?.stated).toBe('The code is [otp] for order #W4821993, I think: [otp]');
  });

  it('a failed check is named, whether the call failed or its output said no', () => {
    for (const attempt of [
      tool('verify_otp', { customer_id: 'cus_1001', code: '111111' }, 'Error: invalid code', false),
      tool('verify_otp', { customer_id: 'cus_1001', code: '111111' }, { verified: false }),
    ]) {
      const packet = build([...BILLING.slice(0, 3), attempt]);
      expect(packet.customer.verified).toBe(false);
      expect(packet.open_questions).toContain('Identity not verified: verify_otp did not succeed. Verify before acting on the account.');
      expect(JSON.stringify(packet)).not.toContain('111111');
    }
  });

  it('several customer ids are a question for the human', () => {
    const packet = build([
      tool('get_user_details', { user_id: 'raj_sanchez_7340' }, { user_id: 'raj_sanchez_7340' }),
      tool('get_user_details', { user_id: 'olivia_taylor_1' }, { user_id: 'olivia_taylor_1' }),
    ]);
    expect(packet.customer.id).toBe('raj_sanchez_7340');
    expect(packet.open_questions.some((q) => q.includes('raj_sanchez_7340, olivia_taylor_1'))).toBe(true);
  });
});

describe('redaction of everything stored', () => {
  it('no full secret survives anywhere in the packet', () => {
    const secrets = [
      '5555555555554444',
      '737',
      '9f8e7d6c5b4a3f2e1d0c',
      'DE89370400440532013000',
      '123-45-6789',
      'hunter2!',
      'sk-live0123456789abcdefXYZ',
    ];
    const packet = build(
      [
        customer('Update my card to 5555 5555 5555 4444 with CVV 737 and refund to DE89 3704 0044 0532 0130 00. SSN 123-45-6789.'),
        tool(
          'update_payment_method',
          { card_number: '5555555555554444', cvv: '737', user_id: 'u_7' },
          'Error: gateway said card 5555555555554444 declined',
          false,
        ),
        tool(
          'get_account',
          { user_id: 'u_7' },
          { api_key: '9f8e7d6c5b4a3f2e1d0c', password: 'hunter2!', iban: 'DE89370400440532013000', order: 7731 },
        ),
        agent('Your password hunter2! and key sk-live0123456789abcdefXYZ are on file.'),
      ],
      {
        summary: 'Customer gave CVV 737 and card 5555 5555 5555 4444',
        decision: { reason: 'tool_failures', evidence: 'update_payment_method failed: card 5555555555554444' },
      },
    );
    const stored = JSON.stringify(packet);
    for (const secret of secrets) expect(stored).not.toContain(secret);
    expect(stored).toContain('7731');
    expect(stored).toContain('[card ••••4444]');
    expect(packet.suggested_next_step).toMatch(/update_payment_method/);
  });
});

describe('shape and limits', () => {
  it('caps facts per call and counts what it left out', () => {
    const variants = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`v${i}`, { item_id: `${1000 + i}`, price: i + 0.5 }]));
    const packet = build([tool('get_product_details', { product_id: '1656367028' }, { name: 'Keyboard', variants })]);
    expect(packet.facts).toHaveLength(20);
    expect(packet.facts[0]).toMatchObject({ field: 'name', value: 'Keyboard' });
    expect(packet.facts_omitted).toBe(81);
  });

  it('says a repeated fact once, and lists scalar arrays as one value', () => {
    const user = { user_id: 'raj_sanchez_7340', reservations: ['MZDDS4', '60RX9E'] };
    const packet = build([
      tool('get_user_details', { user_id: 'raj_sanchez_7340' }, user),
      tool('get_user_details', { user_id: 'raj_sanchez_7340' }, user),
    ]);
    expect(packet.facts.map((f) => [f.field, f.value])).toEqual([
      ['user_id', 'raj_sanchez_7340'],
      ['reservations', 'MZDDS4, 60RX9E'],
    ]);
  });

  it('takes the hand-off tool out of the actions and its summary as the model line', () => {
    const packet = build([
      customer('I need to cancel my flight'),
      tool('transfer_to_human_agents', { summary: 'User wants to cancel Q69X3R.' }, 'Transfer successful'),
    ]);
    expect(packet.actions).toEqual([]);
    expect(packet.summary).toEqual({ text: 'User wants to cancel Q69X3R.', written_by: 'model' });
  });

  it('an empty conversation still gives a packet', () => {
    const packet = build([]);
    expect(packet).toMatchObject({ customer: { id: null, verified: false }, intent: null, handoff: null, facts: [], actions: [] });
    expect(packet.open_questions[0]).toMatch(/Who is the customer/);
  });

  it('explicit read/write lists win over the inference from names', () => {
    const packet = build(
      [tool('get_refund', { charge_id: 'ch_1' }, { ok: true }), tool('verify_otp', { code: '123456' }, { verified: true })],
      {
        writeTools: ['get_refund'],
      },
    );
    expect(packet.actions.map((a) => a.kind)).toEqual(['write', 'read']);
  });
});

describe('inferToolKind', () => {
  it.each([
    ['get_user_details', 'read'],
    ['find_user_id_by_email', 'read'],
    ['list_all_airports', 'read'],
    ['search_direct_flight', 'read'],
    ['calculate', 'read'],
    ['check_refund_eligibility', 'read'],
    ['lookupCustomer', 'read'],
    ['billing.get_charges', 'read'],
    ['verify_otp', 'read'],
    ['cancel_reservation', 'write'],
    ['refund_charge', 'write'],
    ['book_reservation', 'write'],
    ['send_otp', 'write'],
    ['update_email', 'write'],
    ['exchange_delivered_order_items', 'write'],
    ['frobnicate', 'write'],
  ] as const)('%s is a %s', (name, kind) => {
    expect(inferToolKind(name)).toBe(kind);
  });
});

describe('verification as the domain defines it', () => {
  const lookupOnly: TranscriptItem[] = [
    { role: 'customer', text: 'I was charged twice, my e-mail is ana@example.com' },
    { role: 'tool', name: 'find_customer_by_email', arguments: { email: 'ana@example.com' }, ok: true, output: 'cus_1' },
  ];
  it('a look-up alone is no authentication where the domain checks a code', () => {
    expect(buildContextPacket({ items: lookupOnly }).customer.verified).toBe(true);
    const checked = buildContextPacket({ items: lookupOnly, authentication: { mode: 'check' } });
    expect(checked.customer).toMatchObject({ id: 'cus_1', verified: false, verified_by: null });
  });

  it('a look-up the domain names as its authentication counts, whatever its name', () => {
    const items: TranscriptItem[] = [
      { role: 'customer', text: 'my user id is mia_li_3668' },
      { role: 'tool', name: 'get_user_details', arguments: { user_id: 'mia_li_3668' }, ok: true, output: '{"user_id": "mia_li_3668"}' },
    ];
    expect(buildContextPacket({ items }).customer.verified).toBe(false);
    const airline = buildContextPacket({ items, authentication: { mode: 'lookup', identityTools: ['get_user_details'] } });
    expect(airline.customer).toMatchObject({ id: 'mia_li_3668', verified: true, verified_by: 'get_user_details' });
  });
});
