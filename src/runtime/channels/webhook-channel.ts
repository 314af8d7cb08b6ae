import { z } from 'zod';
import type { ChannelBinding } from '../../store/channel-store.js';
import type { ChannelAdapter, DeliveryAttempt, OutboundMessage } from './channel-port.js';
import { postJson, type Fetch } from './post-json.js';
import { signWebhook, WEBHOOK_DELIVERY_HEADER, WEBHOOK_SIGNATURE_HEADER } from './signatures.js';

/** Options of {@link createWebhookChannel}. */
export interface WebhookChannelOptions {
  /** The channel's id in the configuration; the channel is `webhook:<id>`. */
  id: string;
  /** Where outbound messages are POSTed. */
  deliverTo: string;
  /** The shared secret that signs both directions (from the environment, never stored). */
  secret: string;
  clock: { now(): number };
  fetch?: Fetch;
}

/** What a webhook channel's outbound POST carries. The delivery id is the message id: the same on every retry. */
export const WebhookDeliverySchema = z.strictObject({
  deliveryId: z.string(),
  to: z.string(),
  message: z.strictObject({
    id: z.string(),
    from: z.enum(['agent', 'human', 'system']),
    text: z.string(),
    at: z.string(),
  }),
});
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

/**
 * A generic signed-webhook channel: outbound messages are POSTed to the configured URL, signed
 * like inbound ones (`X-Baton-Signature: t=…,v1=…`, HMAC-SHA256 over `t.body`), with
 * `X-Baton-Delivery` naming the delivery so a receiver that sees a retry keeps it once. No window:
 * any message may go at any time.
 */
export function createWebhookChannel(options: WebhookChannelOptions): ChannelAdapter {
  const fetchFn = options.fetch ?? fetch;
  async function deliver(binding: ChannelBinding, message: OutboundMessage): Promise<DeliveryAttempt> {
    const delivery: WebhookDelivery = {
      deliveryId: message.messageId,
      to: binding.address,
      message: { id: message.messageId, from: message.sender.type, text: message.text, at: message.at },
    };
    const body = JSON.stringify(delivery);
    const answer = await postJson(
      fetchFn,
      options.deliverTo,
      { [WEBHOOK_SIGNATURE_HEADER]: signWebhook(options.secret, body, options.clock.now()), [WEBHOOK_DELIVERY_HEADER]: message.messageId },
      body,
    );
    return answer.ok ? { ok: true, providerMessageId: null } : answer;
  }
  return { channel: `webhook:${options.id}`, freeFormRefusal: () => null, deliver };
}
