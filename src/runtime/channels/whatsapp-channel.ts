import { z } from 'zod';
import type { ChannelBinding } from '../../store/channel-store.js';
import type { ChannelAdapter, DeliveryAttempt, FreeFormRefusal, OutboundMessage } from './channel-port.js';
import { postJson, type Fetch } from './post-json.js';
import { parseWhatsappAddress } from './whatsapp-payload.js';
import { insideWindow, windowDeadlineOf } from './whatsapp-window.js';

/** An approved message template, as registered with Meta: its body with `{{1}}`… placeholders. */
export interface ApprovedTemplate {
  name: string;
  language: string;
  body: string;
}

/** Options of {@link createWhatsAppChannel}. */
export interface WhatsAppChannelOptions {
  /** The Graph API base, version included: `https://graph.facebook.com/v21.0`. */
  graphBaseUrl: string;
  /** The system user's access token (from the environment, never stored). */
  accessToken: string;
  templates: readonly ApprovedTemplate[];
  /** A free-form message is refused this long before the window closes (default 60 s). */
  windowMarginMs?: number;
  fetch?: Fetch;
}

const SendAnswerSchema = z.looseObject({ messages: z.array(z.looseObject({ id: z.string().min(1).max(200) })).min(1) });

/** WhatsApp caps a text message's body at 4096 characters. */
export const WHATSAPP_TEXT_MAX = 4096;

/** The placeholders `{{1}}`, `{{2}}`… of a template body, in order. */
export function templatePlaceholders(body: string): number {
  const seen = new Set([...body.matchAll(/\{\{(\d{1,2})\}\}/g)].map((m) => Number(m[1])));
  return seen.size;
}

/** A template's body with its placeholders filled. */
export const renderTemplate = (body: string, parameters: readonly string[]): string =>
  body.replace(/\{\{(\d{1,2})\}\}/g, (whole, n: string) => parameters[Number(n) - 1] ?? whole);

/**
 * The WhatsApp Cloud API adapter: the 24-hour customer-service window decides what may leave,
 * and a message leaves as `POST {graphBaseUrl}/{phone number id}/messages` with the access token.
 * Free-form text only inside the window; outside it, only an approved template.
 */
export function createWhatsAppChannel(options: WhatsAppChannelOptions): ChannelAdapter {
  const marginMs = options.windowMarginMs ?? 60_000;
  const fetchFn = options.fetch ?? fetch;
  const base = options.graphBaseUrl.replace(/\/+$/, '');
  const templates = new Map(options.templates.map((t) => [`${t.name}\n${t.language}`, t]));

  function freeFormRefusal(binding: ChannelBinding, nowMs: number): FreeFormRefusal | null {
    if (insideWindow(binding, nowMs, marginMs)) return null;
    const deadline = windowDeadlineOf(binding.lastCustomerAt);
    const when = deadline ? `the window closed at ${deadline.toISOString()}` : 'the customer has not written on WhatsApp yet';
    return {
      deadline: deadline?.toISOString() ?? null,
      message: `a template is needed: WhatsApp carries free-form messages only within 24 hours of the customer's last message, and ${when}; send an approved template (POST /v1/conversations/:id/templates) or wait for the customer to write`,
    };
  }

  async function deliver(binding: ChannelBinding, message: OutboundMessage): Promise<DeliveryAttempt> {
    const to = parseWhatsappAddress(binding.address);
    if (!to) return { ok: false, retry: false, reason: `the address ${binding.address} is not <phone number id>:<wa_id>` };
    let payload: Record<string, unknown>;
    if (message.template) {
      const { name, language, parameters } = message.template;
      payload = {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: to.waId,
        type: 'template',
        template: {
          name,
          language: { code: language },
          components: parameters.length ? [{ type: 'body', parameters: parameters.map((text) => ({ type: 'text', text })) }] : [],
        },
      };
    } else {
      if (message.text.length > WHATSAPP_TEXT_MAX) {
        return { ok: false, retry: false, reason: `WhatsApp carries at most ${WHATSAPP_TEXT_MAX} characters in a text message` };
      }
      payload = {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: to.waId,
        type: 'text',
        text: { body: message.text, preview_url: false },
      };
    }
    const answer = await postJson(
      fetchFn,
      `${base}/${encodeURIComponent(to.phoneNumberId)}/messages`,
      { authorization: `Bearer ${options.accessToken}` },
      JSON.stringify(payload),
    );
    if (!answer.ok) return answer;
    const parsed = SendAnswerSchema.safeParse(answer.body);
    return { ok: true, providerMessageId: parsed.success ? parsed.data.messages[0]!.id : null };
  }

  return {
    channel: 'whatsapp',
    freeFormRefusal,
    template: (name, language) => templates.get(`${name}\n${language}`) ?? null,
    deliver,
  };
}
