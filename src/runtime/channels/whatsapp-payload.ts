import { z } from 'zod';
import { MAX_MESSAGE_CHARS, storableText } from '../../core/index.js';
import type { InboundMessage } from './channel-port.js';

// The subset of the Cloud API's webhook payload Baton reads (developers.facebook.com/docs/
// whatsapp/cloud-api/webhooks/payload-examples). Unknown fields are allowed: Meta adds them.
const WaMessageSchema = z.looseObject({
  from: z.string().regex(/^[0-9]{1,20}$/),
  id: storableText(z.string().min(1).max(150)),
  timestamp: z.string().regex(/^\d{1,12}$/),
  type: z.string().regex(/^[a-z_]{1,40}$/),
  text: z.looseObject({ body: storableText(z.string().max(MAX_MESSAGE_CHARS)) }).optional(),
  button: z.looseObject({ text: storableText(z.string().max(4096)) }).optional(),
  interactive: z
    .looseObject({
      button_reply: z.looseObject({ title: storableText(z.string().max(4096)) }).optional(),
      list_reply: z.looseObject({ title: storableText(z.string().max(4096)) }).optional(),
    })
    .optional(),
});

const WaStatusSchema = z.looseObject({
  id: storableText(z.string().min(1).max(150)),
  status: z.string().min(1).max(40),
  timestamp: z.string().regex(/^\d{1,12}$/),
  recipient_id: z.string().max(40).optional(),
  errors: z
    .array(z.looseObject({ code: z.union([z.number().int(), z.string().regex(/^[0-9A-Za-z_]{1,40}$/)]) }))
    .max(20)
    .optional(),
});

/** A Cloud API webhook body (`object: whatsapp_business_account`). */
export const WhatsAppWebhookSchema = z.looseObject({
  object: z.literal('whatsapp_business_account'),
  entry: z
    .array(
      z.looseObject({
        id: z.string().max(100),
        changes: z
          .array(
            z.looseObject({
              field: z.string().max(100),
              value: z.looseObject({
                metadata: z.looseObject({ phone_number_id: z.string().regex(/^[0-9]{1,30}$/) }).optional(),
                messages: z.array(WaMessageSchema).max(1000).optional(),
                statuses: z.array(WaStatusSchema).max(1000).optional(),
              }),
            }),
          )
          .max(1000),
      }),
    )
    .max(1000),
});
export type WhatsAppWebhook = z.infer<typeof WhatsAppWebhookSchema>;

/** A status callback: what happened to a message we sent. */
export interface WhatsAppStatus {
  providerMessageId: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  errorCode: string | null;
  reportedAt: string;
}

const STATUSES = new Set(['sent', 'delivered', 'read', 'failed']);

/** The address of a customer on WhatsApp: the business number that was written to, and the customer's wa_id. */
export const whatsappAddress = (phoneNumberId: string, waId: string): string => `${phoneNumberId}:${waId}`;

/** The business number and the customer's wa_id of an address. */
export function parseWhatsappAddress(address: string): { phoneNumberId: string; waId: string } | null {
  const match = /^([^:]+):([^:]+)$/.exec(address);
  return match ? { phoneNumberId: match[1]!, waId: match[2]! } : null;
}

const secondsToIso = (s: string): string => new Date(Number(s) * 1000).toISOString();

/** What a message says, as text; other kinds are named, so no one mistakes them for silence. */
function textOf(m: z.infer<typeof WaMessageSchema>): string {
  if (m.type === 'text' && m.text) return m.text.body;
  if (m.type === 'button' && m.button) return m.button.text;
  if (m.type === 'interactive') {
    const title = m.interactive?.button_reply?.title ?? m.interactive?.list_reply?.title;
    if (title !== undefined) return title;
  }
  return `(the customer sent a message of type ${m.type}, which this channel does not carry as text)`;
}

/**
 * The customer messages and the status callbacks in a webhook body. Changes to business numbers
 * not in `phoneNumberIds` (when given) are left out: they are another deployment's.
 */
export function readWhatsAppWebhook(
  body: WhatsAppWebhook,
  phoneNumberIds: ReadonlySet<string> | null,
): { messages: InboundMessage[]; statuses: WhatsAppStatus[] } {
  const messages: InboundMessage[] = [];
  const statuses: WhatsAppStatus[] = [];
  for (const entry of body.entry) {
    for (const change of entry.changes) {
      if (change.field !== 'messages') continue;
      const phoneNumberId = change.value.metadata?.phone_number_id;
      if (phoneNumberId === undefined || (phoneNumberIds && !phoneNumberIds.has(phoneNumberId))) continue;
      for (const m of change.value.messages ?? []) {
        const text = textOf(m).trim();
        if (text === '') continue;
        messages.push({
          channel: 'whatsapp',
          address: whatsappAddress(phoneNumberId, m.from),
          providerMessageId: m.id,
          text,
          sentAt: secondsToIso(m.timestamp),
        });
      }
      for (const s of change.value.statuses ?? []) {
        if (!STATUSES.has(s.status)) continue;
        const code = s.errors?.[0]?.code;
        statuses.push({
          providerMessageId: s.id,
          status: s.status as WhatsAppStatus['status'],
          errorCode: code === undefined ? null : String(code),
          reportedAt: secondsToIso(s.timestamp),
        });
      }
    }
  }
  return { messages, statuses };
}
