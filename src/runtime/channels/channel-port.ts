import type { ConversationId, MessageId, Sender } from '../../core/index.js';
import type { ChannelBinding } from '../../store/channel-store.js';

/** A customer message as a channel received it, before Baton stores it. */
export interface InboundMessage {
  /** The configured channel: `whatsapp`, `webhook:<id>`. */
  channel: string;
  /** The customer's address on the channel (WhatsApp: `<phone number id>:<wa_id>`). */
  address: string;
  /** The provider's id of the message: it repeats when the provider redelivers, so it is the idempotency key. */
  providerMessageId: string;
  text: string;
  /** When the provider says the customer sent it (ISO-8601). */
  sentAt: string;
}

/** An approved template and what fills its placeholders. */
export interface TemplateChoice {
  name: string;
  language: string;
  parameters: string[];
}

/** A message of ours on its way to the customer's channel address. */
export interface OutboundMessage {
  messageId: MessageId;
  conversationId: ConversationId;
  sender: Sender;
  text: string;
  at: string;
  /** Set when the message goes out as an approved template (the only kind WhatsApp carries outside its window). */
  template: TemplateChoice | null;
}

/** What one delivery attempt came to. `retry`: worth trying again later (network, 429, 5xx). */
export type DeliveryAttempt = { ok: true; providerMessageId: string | null } | { ok: false; retry: boolean; reason: string };

/** Why a free-form message may not go out now, and until when it could have. */
export interface FreeFormRefusal {
  /** When the window closed (ISO-8601), null when the customer never wrote. */
  deadline: string | null;
  message: string;
}

/**
 * The channel port: what every channel adapter does for the runtime. Inbound is each adapter's own
 * route (signatures differ); it produces {@link InboundMessage}s. Outbound goes through
 * `freeFormRefusal` before a message is stored as sent (a refusal is an error the caller sees,
 * never a silent drop) and again before every delivery attempt, then through `deliver`.
 */
export interface ChannelAdapter {
  readonly channel: string;
  /** Null when a free-form (non-template) message may go to this address at `nowMs`. */
  freeFormRefusal(binding: ChannelBinding, nowMs: number): FreeFormRefusal | null;
  /** Whether the channel carries templates (and which): null when it does not. */
  template?(name: string, language: string): { body: string } | null;
  /** One attempt to hand the message to the provider. Never throws for the provider's answers. */
  deliver(binding: ChannelBinding, message: OutboundMessage, attempt: number): Promise<DeliveryAttempt>;
}
