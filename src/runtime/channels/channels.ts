import { staleOutcome, type CommandOutcome, type Gateway, type SendOutcome } from '../gateway.js';
import type { Clock, Conversation, ConversationId, StaffId } from '../../core/index.js';
import type { ChannelBinding, ChannelStore } from '../../store/channel-store.js';
import type { ConversationService } from '../service/conversation-service.js';
import type { Redactor } from '../service/redactor.js';
import type { ChannelAdapter, InboundMessage, TemplateChoice } from './channel-port.js';
import { createChannelOutbox, type RetryPolicy } from './channel-outbox.js';
import { withChannelRules } from './channel-rules.js';
import { renderTemplate, templatePlaceholders } from './whatsapp-channel.js';
import type { WhatsAppStatus } from './whatsapp-payload.js';
import { windowDeadlineOf } from './whatsapp-window.js';

/** Options of {@link createChannels}. */
export interface ChannelsOptions {
  gateway: Gateway;
  channels: ChannelStore;
  adapters: readonly ChannelAdapter[];
  clock: Clock;
  retry?: RetryPolicy;
  /** What keeps secrets out of template parameters stored in the log (the service's redactor). */
  redact?: Redactor;
  random?: () => number;
}

/** What an inbound delivery came to. */
export type InboundOutcome =
  | { type: 'stored'; conversationId: ConversationId }
  | { type: 'duplicate'; conversationId: ConversationId }
  | { type: 'refused'; reason: string };

/** Why a template send was refused (besides the gateway's own refusals). */
export type TemplateOutcome =
  | SendOutcome
  | Extract<CommandOutcome, { ok: false }>
  | { ok: false; rejection: { code: 'not_a_template_channel' | 'unknown_template' | 'bad_parameters'; message: string } };

/** The part of the runtime service a channel calls. */
type ServiceForChannels = Pick<ConversationService, 'open' | 'receive' | 'wakeups'>;

/**
 * The channels of one runtime: the gateway with the channels' rules on every send (hand it to the
 * service), the outbox that delivers what the log says was sent, and what the routes call: an
 * inbound message to store once (by the provider's message id) in the conversation its address
 * leads to, status callbacks to record, templates to send, and each conversation's window.
 */
export function createChannels(options: ChannelsOptions) {
  const { channels, clock } = options;
  const adapters = new Map(options.adapters.map((a) => [a.channel, a]));
  const outbox = createChannelOutbox({
    gateway: options.gateway,
    channels,
    adapters,
    clock,
    ...(options.retry ? { retry: options.retry } : {}),
    ...(options.random ? { random: options.random } : {}),
  });
  const gateway = withChannelRules(options.gateway, { channels, adapters, outbox, clock });
  let service: ServiceForChannels | null = null;
  // First messages from one address are taken one at a time in this process, so two redeliveries
  // racing do not open two conversations; across processes the binding's primary key decides.
  const opening = new Map<string, Promise<unknown>>();

  const serviceOrThrow = (): ServiceForChannels => {
    if (!service) throw new Error('channels: attach the conversation service before receiving');
    return service;
  };

  /** The conversation an address leads to now: its open one, or a new one bound to it. */
  async function conversationFor(inbound: InboundMessage): Promise<ConversationId> {
    const known = await channels.bindingOf(inbound.channel, inbound.address);
    const current = known ? await options.gateway.store.getConversation(known.conversationId) : null;
    if (known && current && current.state !== 'CLOSED') return known.conversationId;
    const fresh = await serviceOrThrow().open({ channel: inbound.channel });
    const at = new Date(clock.now()).toISOString();
    if (!known) {
      const bound = await channels.bind({ channel: inbound.channel, address: inbound.address, conversationId: fresh.id, boundAt: at });
      return bound.conversationId;
    }
    if (await channels.rebind(inbound.channel, inbound.address, known.conversationId, fresh.id, at)) return fresh.id;
    return (await channels.bindingOf(inbound.channel, inbound.address))!.conversationId;
  }

  async function receive(inbound: InboundMessage): Promise<InboundOutcome> {
    const seen = await channels.messageByProviderId(inbound.channel, inbound.providerMessageId);
    if (seen) return { type: 'duplicate', conversationId: seen.conversationId };
    const key = `${inbound.channel}\n${inbound.address}`;
    const before = opening.get(key) ?? Promise.resolve();
    const mine = before.catch(() => {}).then(() => conversationFor(inbound));
    opening.set(key, mine);
    let conversationId: ConversationId;
    try {
      conversationId = await mine;
    } finally {
      if (opening.get(key) === mine) opening.delete(key);
    }
    // The window opens when the customer writes (never later than we hear of it), and before the
    // message is stored: the agent's answer, which runs as soon as it is, must find the window open.
    const sent = Date.parse(inbound.sentAt);
    const at = new Date(Number.isFinite(sent) ? Math.min(sent, clock.now()) : clock.now()).toISOString();
    await channels.noteCustomerMessage(conversationId, at);
    const received = await serviceOrThrow().receive(conversationId, {
      text: inbound.text,
      idempotencyKey: `${inbound.channel}:${inbound.providerMessageId}`,
    });
    if (!received.ok) return { type: 'refused', reason: received.rejection.message };
    void received.turn?.catch(() => {});
    await channels.rememberMessage({
      channel: inbound.channel,
      providerMessageId: inbound.providerMessageId,
      conversationId,
      messageId: received.message.id,
      direction: 'inbound',
    });
    return { type: received.duplicate ? 'duplicate' : 'stored', conversationId };
  }

  /** Records each status the provider reports, once per message and status; unknown messages are skipped. */
  async function recordStatuses(channel: string, statuses: readonly WhatsAppStatus[]): Promise<number> {
    let recorded = 0;
    for (const s of statuses) {
      const message = await channels.messageByProviderId(channel, s.providerMessageId);
      if (!message || message.direction !== 'outbound') continue;
      if ((await channels.addStatus(channel, s.providerMessageId, s.status)) === 'exists') continue;
      await options.gateway.record(message.conversationId, [
        {
          type: 'delivery.status_reported',
          data: {
            channel,
            messageId: message.messageId,
            providerMessageId: s.providerMessageId,
            status: s.status,
            errorCode: s.errorCode,
            reportedAt: s.reportedAt,
          },
        },
      ]);
      serviceOrThrow().wakeups.notify(message.conversationId);
      recorded += 1;
    }
    return recorded;
  }

  /**
   * Sends an approved template as the owning person, on the version they saw: the one kind of
   * message WhatsApp carries outside the window. The owner is checked at the moment of sending.
   */
  async function sendTemplate(
    conversationId: ConversationId,
    staff: StaffId,
    input: TemplateChoice & { version: number },
  ): Promise<TemplateOutcome> {
    const current = await options.gateway.store.getConversation(conversationId);
    if (!current) return { ok: false, rejection: { code: 'not_found', message: `no conversation ${conversationId}` } };
    if (current.version !== input.version) return staleOutcome(input.version, current);
    const binding = await channels.bindingFor(conversationId);
    const adapter = binding ? adapters.get(binding.channel) : undefined;
    const approved = adapter?.template?.(input.name, input.language);
    if (!adapter?.template) {
      return {
        ok: false,
        rejection: { code: 'not_a_template_channel', message: 'this conversation is not on a channel that sends templates' },
      };
    }
    if (!approved) {
      return {
        ok: false,
        rejection: {
          code: 'unknown_template',
          message: `there is no approved template ${input.name} (${input.language}) in the configuration's channels.whatsapp.templates`,
        },
      };
    }
    const wanted = templatePlaceholders(approved.body);
    if (input.parameters.length !== wanted) {
      return {
        ok: false,
        rejection: {
          code: 'bad_parameters',
          message: `template ${input.name} takes ${wanted} parameters; ${input.parameters.length} given`,
        },
      };
    }
    const redact = options.redact;
    const parameters = redact ? input.parameters.map((p) => redact.text(p, conversationId)) : input.parameters;
    const rendered = renderTemplate(approved.body, parameters);
    const text = redact ? redact.outbound(rendered, conversationId) : rendered;
    // The marker is stored first, in the same write as the message: the outbox reads it as this message's template.
    const sent = await options.gateway.send(conversationId, { type: 'human', id: staff }, text, [
      { type: 'template.chosen', data: { channel: adapter.channel, name: input.name, language: input.language, parameters } },
    ]);
    if (sent.ok && sent.delivered) outbox.kick(conversationId);
    serviceOrThrow().wakeups.notify(conversationId);
    return sent;
  }

  /** The binding of a conversation to its channel address, null when it is on no channel. */
  const bindingOf = (conversationId: ConversationId): Promise<ChannelBinding | null> => channels.bindingFor(conversationId);

  /**
   * When the conversation's free-form window closes (WhatsApp: 24 hours after the customer last
   * wrote), null when its channel has no window or the customer never wrote. A priority input for
   * the router: a conversation whose window closes soon should be answered first.
   */
  async function windowDeadline(conversation: Pick<Conversation, 'id'>): Promise<Date | null> {
    const binding = await channels.bindingFor(conversation.id);
    if (!binding || binding.channel !== 'whatsapp') return null;
    return windowDeadlineOf(binding.lastCustomerAt);
  }

  return {
    /** The gateway to give the conversation service: every send passes the channels' rules. */
    gateway,
    /** Connects the service that stores what channels receive (made with {@link gateway}). */
    attach(s: ServiceForChannels): void {
      service = s;
    },
    has: (channel: string): boolean => adapters.has(channel),
    receive,
    recordStatuses,
    sendTemplate,
    binding: bindingOf,
    windowDeadline,
    /** After a restart: resumes every delivery the log has and the cursors have not passed. */
    recover: () => outbox.recover(),
    /** Resolves once nothing is being delivered or waiting to be retried. */
    idle: () => outbox.idle(),
    onDeliveryError: outbox.onError,
    close: () => outbox.close(),
  };
}

export type Channels = ReturnType<typeof createChannels>;
