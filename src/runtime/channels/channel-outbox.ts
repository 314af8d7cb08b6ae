import { randomUUID } from 'node:crypto';
import type { Clock, ConversationId, StoredEvent } from '../../core/index.js';
import type { ChannelBinding, ChannelStore } from '../../store/channel-store.js';
import type { Gateway } from '../gateway.js';
import type { ChannelAdapter, OutboundMessage, TemplateChoice } from './channel-port.js';
import { DELIVERY_TIMEOUT_MS } from './post-json.js';

/** How deliveries are retried: `attempts` in all, waiting `baseMs·2^(n−1)` (capped at `maxMs`, with jitter) between them. */
export interface RetryPolicy {
  attempts: number;
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 8, baseMs: 1_000, maxMs: 60_000 };

/** Options of {@link createChannelOutbox}. */
export interface ChannelOutboxOptions {
  gateway: Pick<Gateway, 'store' | 'record'>;
  channels: ChannelStore;
  adapters: ReadonlyMap<string, ChannelAdapter>;
  clock: Clock;
  retry?: RetryPolicy;
  /** Uniform in [0, 1), for the jitter (Math.random by default). */
  random?: () => number;
  /** How long a drain holds a conversation's delivery lease between renewals (default: a retry's longest wait plus an attempt, at least a minute). */
  leaseMs?: number;
  /** How soon to look again when another process holds the lease (default 1 s). */
  busyRetryMs?: number;
}

/** The wait before attempt `n + 1` after `n` failures: exponential, capped, with "equal jitter" (half fixed, half random). */
export function backoffMs(policy: RetryPolicy, failures: number, random: () => number): number {
  const full = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, failures - 1));
  return Math.round(full / 2 + (full / 2) * random());
}

const PAGE = 100;

/**
 * Delivers what the log says was sent to a conversation bound to a channel: it reads the
 * conversation's `message.sent` entries after the binding's cursor (the log is the outbox, so a
 * restart resumes where delivery stopped and nothing is lost), hands each to its adapter in order,
 * retrying with exponential back-off, and records the outcome (`delivery.succeeded` or
 * `delivery.failed`) before moving the cursor past it. A free-form message is checked against the
 * channel's window again before every attempt: one that would arrive after the window closed is
 * failed, never sent. One drain per conversation at a time, in this process.
 */
export function createChannelOutbox(options: ChannelOutboxOptions) {
  const { gateway, channels, adapters, clock } = options;
  const retry = options.retry ?? DEFAULT_RETRY;
  const random = options.random ?? Math.random;
  const running = new Map<ConversationId, Promise<void>>();
  const again = new Set<ConversationId>();
  // One lease per conversation across processes: only its holder delivers, so a message is never sent twice.
  const owner = `outbox_${randomUUID()}`;
  const leaseMs = options.leaseMs ?? Math.max(60_000, retry.maxMs + DELIVERY_TIMEOUT_MS + 15_000);
  const busyRetryMs = options.busyRetryMs ?? 1_000;
  const later = new Map<ConversationId, { timer: NodeJS.Timeout; fired: Promise<void>; fire: () => void }>();
  const takeLease = (conversationId: ConversationId) => {
    const now = clock.now();
    return channels.lease(conversationId, owner, new Date(now).toISOString(), new Date(now + leaseMs).toISOString());
  };
  const timers = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  let closed = false;
  let onError: (conversationId: ConversationId, error: unknown) => void = () => {};

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      // A retry decided after close() began (its attempt was in flight) waits for nothing.
      if (closed) return resolve();
      const entry = { timer: setTimeout(() => (timers.delete(entry), resolve()), ms), resolve };
      timers.add(entry);
    });

  async function deliverOne(binding: ChannelBinding, adapter: ChannelAdapter, message: OutboundMessage): Promise<void> {
    const record = (drafts: Parameters<typeof gateway.record>[1]) => gateway.record(message.conversationId, drafts);
    let failures = 0;
    let reason = 'not attempted';
    while (failures < retry.attempts && !closed) {
      // Renewed before every attempt: a drain that lost it (it waited past the lease) stops, and the holder delivers.
      if (!(await takeLease(message.conversationId))) throw new LeaseLost();
      if (!message.template) {
        // The customer may have written meanwhile (the window reopened): read the binding afresh.
        const current = (await channels.bindingFor(message.conversationId)) ?? binding;
        const refusal = adapter.freeFormRefusal(current, clock.now());
        if (refusal) {
          await record([
            {
              type: 'delivery.failed',
              data: { channel: adapter.channel, messageId: message.messageId, attempts: failures, reason: refusal.message.slice(0, 500) },
            },
          ]);
          return;
        }
      }
      const attempt = await adapter.deliver(binding, message, failures + 1);
      if (attempt.ok) {
        if (attempt.providerMessageId !== null) {
          await channels.rememberMessage({
            channel: adapter.channel,
            providerMessageId: attempt.providerMessageId,
            conversationId: message.conversationId,
            messageId: message.messageId,
            direction: 'outbound',
          });
        }
        await record([
          {
            type: 'delivery.succeeded',
            data: {
              channel: adapter.channel,
              messageId: message.messageId,
              providerMessageId: attempt.providerMessageId,
              attempts: failures + 1,
            },
          },
        ]);
        return;
      }
      failures += 1;
      reason = attempt.reason;
      if (!attempt.retry) break;
      if (failures < retry.attempts) await pause(backoffMs(retry, failures, random));
    }
    // Shutting down mid-retry leaves the cursor where it is: the next start tries again.
    if (closed) throw new OutboxClosed();
    await record([
      {
        type: 'delivery.failed',
        data: { channel: adapter.channel, messageId: message.messageId, attempts: failures, reason: reason.slice(0, 500) },
      },
    ]);
  }

  /** Delivers what is after the cursor; `busy` when another process holds the conversation's lease. */
  async function drain(conversationId: ConversationId): Promise<'done' | 'busy'> {
    if (!(await takeLease(conversationId))) return (await channels.bindingFor(conversationId)) ? 'busy' : 'done';
    try {
      // Read after taking the lease: the cursor is where the last holder left it.
      const binding = await channels.bindingFor(conversationId);
      const adapter = binding ? adapters.get(binding.channel) : undefined;
      if (!binding || !adapter) return 'done';
      await deliverAfterCursor(conversationId, binding, adapter);
      return 'done';
    } finally {
      await channels.release(conversationId, owner);
    }
  }

  async function deliverAfterCursor(conversationId: ConversationId, binding: ChannelBinding, adapter: ChannelAdapter): Promise<void> {
    let cursor = binding.deliveredSeq;
    // The entry before each message (its template, if any), across page boundaries.
    let previous: StoredEvent | undefined;
    for (;;) {
      const page = await gateway.store.listEvents(conversationId, {
        afterSeq: cursor,
        limit: PAGE,
        types: ['message.sent', 'template.chosen'],
      });
      if (page.length === 0) return;
      for (const event of page) {
        const marker = previous;
        previous = event;
        const sender = event.type === 'message.sent' ? event.data.message.sender : null;
        if (event.type === 'message.sent' && sender && sender.type !== 'customer') {
          const { message } = event.data;
          await deliverOne(binding, adapter, {
            messageId: message.id,
            conversationId,
            sender,
            text: message.text,
            at: message.at,
            template: templateOf(marker, event),
          });
        }
        cursor = event.seq;
        await channels.advanceDelivered(conversationId, cursor);
      }
    }
  }

  /** Another process is delivering: look again soon, so a message it read past is still delivered. */
  function lookAgainLater(conversationId: ConversationId): void {
    if (closed || later.has(conversationId)) return;
    let fire = () => {};
    const fired = new Promise<void>((resolve) => (fire = resolve));
    const timer = setTimeout(() => {
      later.delete(conversationId);
      kick(conversationId);
      fire();
    }, busyRetryMs);
    later.set(conversationId, { timer, fired, fire });
  }

  function kick(conversationId: ConversationId): void {
    if (closed) return;
    if (running.has(conversationId)) {
      again.add(conversationId);
      return;
    }
    const run = (async () => {
      do {
        again.delete(conversationId);
        if ((await drain(conversationId)) === 'busy') lookAgainLater(conversationId);
      } while (again.has(conversationId) && !closed);
    })()
      .catch((error: unknown) => {
        // The lease moved on: its new holder delivers from the cursor, which this drain did not pass.
        if (error instanceof LeaseLost) return lookAgainLater(conversationId);
        if (!(error instanceof OutboxClosed)) onError(conversationId, error);
      })
      .finally(() => running.delete(conversationId));
    running.set(conversationId, run);
  }

  return {
    /** Delivers what is new in the conversation's log (a no-op for a conversation on no channel). */
    kick,
    /** After a restart: resumes delivery for every bound conversation. */
    async recover(limit = 10_000): Promise<void> {
      for (const b of await channels.listBindings(limit)) kick(b.conversationId);
    },
    /** Resolves once no delivery is running, waiting to retry, or waiting for another process's lease. */
    async idle(): Promise<void> {
      while (running.size > 0 || later.size > 0) await Promise.race([...running.values(), ...[...later.values()].map((l) => l.fired)]);
    },
    /** Told of a drain that failed (the store refused); the default says nothing. */
    onError(handler: (conversationId: ConversationId, error: unknown) => void): void {
      onError = handler;
    },
    /** Stops: waiting retries end now and leave their messages for the next start. */
    async close(): Promise<void> {
      closed = true;
      for (const t of timers) {
        clearTimeout(t.timer);
        t.resolve();
      }
      timers.clear();
      for (const l of later.values()) {
        clearTimeout(l.timer);
        l.fire();
      }
      later.clear();
      await Promise.all([...running.values()]);
    },
  };
}

export type ChannelOutbox = ReturnType<typeof createChannelOutbox>;

class OutboxClosed extends Error {}
class LeaseLost extends Error {}

/** The template of a message: the `template.chosen` entry stored with it, right before it in the log. */
function templateOf(marker: StoredEvent | undefined, sent: StoredEvent): TemplateChoice | null {
  if (marker?.type !== 'template.chosen' || marker.seq !== sent.seq - 1) return null;
  const { name, language, parameters } = marker.data;
  return { name, language, parameters };
}
