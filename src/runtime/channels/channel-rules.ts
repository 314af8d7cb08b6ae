import type { Clock, ConversationId, RecordEventDraft, Sender } from '../../core/index.js';
import type { ChannelStore } from '../../store/channel-store.js';
import type { Gateway, SendOutcome } from '../gateway.js';
import type { ChannelAdapter } from './channel-port.js';
import type { ChannelOutbox } from './channel-outbox.js';

/**
 * The gateway as the runtime service sees it when channels are configured: every `send` to a
 * conversation bound to a channel is first checked against the channel's rules (WhatsApp's
 * window): a free-form message the channel may not carry is refused before it is stored as sent
 * (`template_required`, logged as `delivery.refused`, with the turn's records kept), and one that
 * is stored wakes the outbox that delivers it. Everything else is the gateway itself.
 *
 * This is the one hook between the service and the channels: the service is unchanged, and
 * whatever it sends (the agent's reply, a holding message, a notice, a person's reply) passes here.
 */
export function withChannelRules(
  gateway: Gateway,
  deps: { channels: ChannelStore; adapters: ReadonlyMap<string, ChannelAdapter>; outbox: ChannelOutbox; clock: Clock },
): Gateway {
  async function send(
    conversationId: ConversationId,
    sender: Sender,
    text: string,
    records: RecordEventDraft[] = [],
  ): Promise<SendOutcome> {
    const binding = await deps.channels.bindingFor(conversationId);
    const adapter = binding ? deps.adapters.get(binding.channel) : undefined;
    if (binding && adapter) {
      const refusal = adapter.freeFormRefusal(binding, deps.clock.now());
      if (refusal) {
        await gateway.record(conversationId, [
          ...records,
          { type: 'delivery.refused', data: { channel: adapter.channel, sender, reason: 'template_required', deadline: refusal.deadline } },
        ]);
        return { ok: false, rejection: { code: 'template_required', message: refusal.message } };
      }
    }
    const sent = await gateway.send(conversationId, sender, text, records);
    if (adapter && sent.ok && sent.delivered) deps.outbox.kick(conversationId);
    return sent;
  }
  return { ...gateway, send };
}
