import { describe, expect, it } from 'vitest';
import { createConversationRedactor, redactTranscript } from './redact-conversation.js';
import { redactArguments, redactText, redactValue } from './redact.js';
import type { TranscriptItem } from './transcript.js';

describe('redactArguments', () => {
  it('replaces secrets by field name, keeps ids, amounts and dates', () => {
    const args = {
      customer_id: 'cus_1001',
      order_id: '#W2378156',
      amount: 49.99,
      date: '2024-05-15',
      code: '482913',
      otp: 771920,
      cvv: '737',
      card_number: '4111-1111-1111-1111',
      password: 'hunter2',
      pwd: 'Liverpool_7',
      pin: '4821',
      tracking_number: '9400111899223100001234',
      promo_code: 'SAVE20',
      zip_code: '19122',
    };
    const { arguments: out, counts, total } = redactArguments(args);
    expect(out).toEqual({
      customer_id: 'cus_1001',
      order_id: '#W2378156',
      amount: 49.99,
      date: '2024-05-15',
      code: '[otp]',
      otp: '[otp]',
      cvv: '[cvv]',
      card_number: '[card ••••1111]',
      password: '[password]',
      pwd: '[password]',
      pin: '[password]',
      tracking_number: '9400111899223100001234',
      promo_code: 'SAVE20',
      zip_code: '19122',
    });
    expect(counts).toMatchObject({ otp: 2, cvv: 1, card: 1, password: 3 });
    expect(total).toBe(7);
  });

  it('replaces secrets by value in any field, by name part, and by a descriptor sibling', () => {
    const { arguments: out } = redactArguments({
      note: 'customer read 4111 1111 1111 1111 and cvv 737',
      otp_sent: '48 29 13',
      last_cvv: 737,
      payout: { account: 'DE89370400440532013000' },
      factors: [
        { type: 'otp', value: '551203' },
        { field: 'password', input: 'blue-Moon_77' },
      ],
      error: { code: 'E_TIMEOUT', status_code: 404 },
    });
    expect(out).toEqual({
      note: 'customer read [card ••••1111] and cvv [cvv]',
      otp_sent: '[otp]',
      last_cvv: '[cvv]',
      payout: { account: '[iban ••••3000]' },
      factors: [
        { type: 'otp', value: '[otp]' },
        { field: 'password', input: '[password]' },
      ],
      error: { code: 'E_TIMEOUT', status_code: 404 },
    });
  });

  it('does not take an id field for a card', () => {
    // Luhn-valid and card-shaped, but under an id's name and with no card label.
    expect(redactArguments({ order_id: '4111111111111111' }).arguments).toEqual({ order_id: '4111111111111111' });
    expect(redactArguments({ note: '4111111111111111' }).arguments).toEqual({ note: '[card ••••1111]' });
  });
});

describe('a conversation remembers what it hid', () => {
  const items: TranscriptItem[] = [
    { role: 'customer', text: '2FA code 2 0 6 0 1 3' },
    { role: 'agent', text: 'Thanks, entering 206013 now.' },
    { role: 'customer', text: 'SSN: 558780620' },
    { role: 'agent', text: "I've matched 558-78-0620 to your account." },
    { role: 'tool', name: 'update_account', arguments: { customer_id: 'cus_1', pwd: 'Liverpool_7' }, ok: true, output: '{"status": "ok"}' },
    { role: 'agent', text: 'Thanks, password Liverpool_7 received.' },
    { role: 'customer', text: 'the cvv is nine nine three' },
    { role: 'agent', text: 'CVV 993 noted, order 7731 is next.' },
  ];

  it('hides the echoes, regrouped or spelled differently, and nothing else', () => {
    const { items: out } = redactTranscript(items);
    const text = JSON.stringify(out);
    for (const secret of ['206013', '2 0 6 0 1 3', '558780620', '558-78-0620', 'Liverpool_7', 'nine nine three', '993']) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('cus_1');
    expect(text).toContain('order 7731 is next');
  });

  it('is idempotent: a stored conversation redacted again is unchanged and counts nothing', () => {
    const once = redactTranscript(items);
    const twice = redactTranscript(once.items);
    expect(twice.items).toEqual(once.items);
    expect(Object.values(twice.counts).every((n) => n === 0)).toBe(true);
  });

  it('never eats into a marker', () => {
    const redactor = createConversationRedactor();
    redactor.text('my pin is 4242');
    expect(redactor.text('card 4000 0566 5566 4242 is fine, pin 4242').text).toBe('card [card ••••4242] is fine, pin [password]');
  });

  it('forgets one conversation in the next', () => {
    createConversationRedactor().text('SSN: 558780620');
    expect(createConversationRedactor().text('order 558780620').text).toBe('order 558780620');
  });
});

describe('idempotence of the stateless functions', () => {
  const texts = [
    'my card is 4111.1111.1111.1111, cvv seven three seven, code 4 8 2 9 1 3',
    'pw: hunter22; NI number AB 12 34 56 C; IBAN GB82 WEST 1234 5698 7654 32; SSN 123-45-6789',
    'I regenerated the key, new one is d7adc277-256d-7b81-a204-153eef66d0f4',
    '{"password": "x", "otp": "482913", "card_number": "4111111111111111"}',
  ];
  it.each(texts)('%s', (text) => {
    const once = redactText(text).text;
    expect(once).not.toBe(text);
    const twice = redactText(once);
    expect(twice.text).toBe(once);
    expect(Object.values(twice.counts).every((n) => n === 0)).toBe(true);
    const value = redactValue({ text, nested: [text] }).value;
    expect(redactValue(value).value).toEqual(value);
  });
});

describe('the question a reply answers', () => {
  const reply = (items: TranscriptItem[]) => JSON.stringify(redactTranscript(items).items.at(-1));
  it('is the agent turn before it, even with one customer turn between', () => {
    const items: TranscriptItem[] = [
      { role: 'agent', text: 'What is the code we just texted you?' },
      { role: 'customer', text: 'one sec' },
      { role: 'customer', text: '4 8 2 9 1 3' },
    ];
    expect(reply(items)).toContain('[otp]');
    expect(reply([...items.slice(0, 2), { role: 'customer', text: 'ok' }, { role: 'customer', text: '482913' }])).toContain('482913');
  });

  it('is the code a tool just sent', () => {
    const sent: TranscriptItem = {
      role: 'tool',
      name: 'send_verification_code',
      arguments: { customer_id: 'cus_1' },
      ok: true,
      output: '{"sent": true}',
    };
    expect(reply([sent, { role: 'customer', text: 'got it: 482913' }])).toContain('[otp]');
    const lookup: TranscriptItem = { role: 'tool', name: 'get_order', arguments: { order_id: '482913' }, ok: true, output: '{}' };
    expect(reply([lookup, { role: 'customer', text: 'order 482913' }])).toContain('482913');
  });
});
