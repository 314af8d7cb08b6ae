import { describe, expect, it } from 'vitest';
import { readWhatsAppWebhook, WhatsAppWebhookSchema } from './whatsapp-payload.js';

const change = (value: Record<string, unknown>, phoneNumberId = '1098') => ({
  object: 'whatsapp_business_account',
  entry: [
    {
      id: 'WABA',
      changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { phone_number_id: phoneNumberId }, ...value } }],
    },
  ],
});

describe('reading a Cloud API webhook', () => {
  it("reads text, button and interactive replies as the customer's words, and names other kinds", () => {
    const body = WhatsAppWebhookSchema.parse(
      change({
        messages: [
          { from: '4477', id: 'wamid.1', timestamp: '1764590400', type: 'text', text: { body: 'hello' } },
          { from: '4477', id: 'wamid.2', timestamp: '1764590401', type: 'button', button: { text: 'Yes', payload: 'Y' } },
          {
            from: '4477',
            id: 'wamid.3',
            timestamp: '1764590402',
            type: 'interactive',
            interactive: { type: 'list_reply', list_reply: { id: 'a', title: 'Billing' } },
          },
          { from: '4477', id: 'wamid.4', timestamp: '1764590403', type: 'image', image: { id: 'media' } },
        ],
      }),
    );
    const { messages } = readWhatsAppWebhook(body, null);
    expect(messages.map((m) => [m.providerMessageId, m.text])).toEqual([
      ['wamid.1', 'hello'],
      ['wamid.2', 'Yes'],
      ['wamid.3', 'Billing'],
      ['wamid.4', '(the customer sent a message of type image, which this channel does not carry as text)'],
    ]);
    expect(messages[0]).toMatchObject({ channel: 'whatsapp', address: '1098:4477', sentAt: '2025-12-01T12:00:00.000Z' });
  });

  it('reads status callbacks with their error code, and leaves out other business numbers', () => {
    const body = WhatsAppWebhookSchema.parse(
      change({
        statuses: [
          {
            id: 'wamid.9',
            status: 'failed',
            timestamp: '1764590400',
            recipient_id: '4477',
            errors: [{ code: 131047, title: 'Re-engagement message' }],
          },
          { id: 'wamid.9', status: 'deleted', timestamp: '1764590400' },
        ],
      }),
    );
    expect(readWhatsAppWebhook(body, null).statuses).toEqual([
      { providerMessageId: 'wamid.9', status: 'failed', errorCode: '131047', reportedAt: '2025-12-01T12:00:00.000Z' },
    ]);
    expect(readWhatsAppWebhook(body, new Set(['2000']))).toEqual({ messages: [], statuses: [] });
  });

  it('refuses a body that is not a Cloud API webhook', () => {
    expect(WhatsAppWebhookSchema.safeParse({ object: 'page', entry: [] }).success).toBe(false);
    expect(WhatsAppWebhookSchema.safeParse(change({ messages: [{ from: 'x', id: 'i', timestamp: '1', type: 'text' }] })).success).toBe(
      false,
    );
    expect(
      WhatsAppWebhookSchema.safeParse(change({ messages: [{ from: '1', id: 'i\u0000', timestamp: '1', type: 'text' }] })).success,
    ).toBe(false);
  });
});
