import type { ConversationId, MessageId } from '../core/index.js';

/** Where a customer's channel address leads: their conversation now, and what the channel needs to know of it. */
export interface ChannelBinding {
  /** The configured channel: `whatsapp`, `webhook:<id>`. */
  channel: string;
  /** The customer's address on it, e.g. `<phone number id>:<wa_id>` on WhatsApp. */
  address: string;
  conversationId: ConversationId;
  /** When the customer last wrote here (ISO-8601), null before their first message. */
  lastCustomerAt: string | null;
  /** The log position up to which outbound messages have been handed to the channel. */
  deliveredSeq: number;
  boundAt: string;
}

/** A provider's message id, and the message of ours it is. */
export interface ProviderMessage {
  channel: string;
  providerMessageId: string;
  conversationId: ConversationId;
  /** Our message id (null while an inbound message is being stored). */
  messageId: MessageId | null;
  direction: 'inbound' | 'outbound';
}

/**
 * Channel addresses and what is known of them, beside the conversations in the same database
 * (tables of migration 5). No secret is ever stored here. One adapter per store kind; every one
 * passes `test/channel-store.test.ts`.
 */
export interface ChannelStore {
  /** Binds an address to a conversation, or returns the binding that won (another request bound it first). */
  bind(binding: Omit<ChannelBinding, 'deliveredSeq' | 'lastCustomerAt'>): Promise<ChannelBinding>;
  /** Moves an address to a new conversation if it still leads to `from`; false when someone else moved it. */
  rebind(channel: string, address: string, from: ConversationId, to: ConversationId, at: string): Promise<boolean>;
  bindingOf(channel: string, address: string): Promise<ChannelBinding | null>;
  bindingFor(conversationId: ConversationId): Promise<ChannelBinding | null>;
  /** Every binding, oldest first, at most `limit` (start-up: resume deliveries). */
  listBindings(limit: number): Promise<ChannelBinding[]>;
  /** The customer wrote at `at`: the window opens from the latest such time (never moves back). */
  noteCustomerMessage(conversationId: ConversationId, at: string): Promise<void>;
  /**
   * Takes (or renews) the right to deliver a conversation's messages until `until`, for `owner`
   * (one outbox): false while another owner's lease has not run out at `now`. ISO-8601 times.
   */
  lease(conversationId: ConversationId, owner: string, now: string, until: string): Promise<boolean>;
  /** Gives the lease up, if `owner` holds it. */
  release(conversationId: ConversationId, owner: string): Promise<void>;
  /** Outbound delivery has dealt with the log up to `seq` (never moves back). */
  advanceDelivered(conversationId: ConversationId, seq: number): Promise<void>;
  /** Remembers a provider's message id; `exists` when it was already known (a redelivery). */
  rememberMessage(message: ProviderMessage): Promise<'added' | 'exists'>;
  messageByProviderId(channel: string, providerMessageId: string): Promise<ProviderMessage | null>;
  /** Records that the provider reported `status` for a message; `exists` when it had said so before. */
  addStatus(channel: string, providerMessageId: string, status: string): Promise<'added' | 'exists'>;
}

const later = (a: string | null, b: string): string => (a !== null && a >= b ? a : b);

/** The reference ChannelStore: maps in one process. */
export class MemoryChannelStore implements ChannelStore {
  readonly #bindings = new Map<string, ChannelBinding>();
  readonly #messages = new Map<string, ProviderMessage>();
  readonly #statuses = new Set<string>();
  readonly #leases = new Map<ConversationId, { owner: string; until: string }>();

  async bind(input: Omit<ChannelBinding, 'deliveredSeq' | 'lastCustomerAt'>): Promise<ChannelBinding> {
    const key = `${input.channel}\n${input.address}`;
    const known = this.#bindings.get(key);
    if (known) return { ...known };
    const binding: ChannelBinding = { ...input, lastCustomerAt: null, deliveredSeq: 0 };
    this.#bindings.set(key, binding);
    return { ...binding };
  }
  async rebind(channel: string, address: string, from: ConversationId, to: ConversationId, at: string): Promise<boolean> {
    const key = `${channel}\n${address}`;
    const known = this.#bindings.get(key);
    if (!known || known.conversationId !== from) return false;
    this.#bindings.set(key, { channel, address, conversationId: to, lastCustomerAt: null, deliveredSeq: 0, boundAt: at });
    return true;
  }
  async bindingOf(channel: string, address: string): Promise<ChannelBinding | null> {
    const known = this.#bindings.get(`${channel}\n${address}`);
    return known ? { ...known } : null;
  }
  async bindingFor(conversationId: ConversationId): Promise<ChannelBinding | null> {
    for (const b of this.#bindings.values()) if (b.conversationId === conversationId) return { ...b };
    return null;
  }
  async listBindings(limit: number): Promise<ChannelBinding[]> {
    return [...this.#bindings.values()]
      .sort((a, b) => a.boundAt.localeCompare(b.boundAt))
      .slice(0, limit)
      .map((b) => ({ ...b }));
  }
  async noteCustomerMessage(conversationId: ConversationId, at: string): Promise<void> {
    for (const b of this.#bindings.values()) if (b.conversationId === conversationId) b.lastCustomerAt = later(b.lastCustomerAt, at);
  }
  async lease(conversationId: ConversationId, owner: string, now: string, until: string): Promise<boolean> {
    if (!(await this.bindingFor(conversationId))) return false;
    const held = this.#leases.get(conversationId);
    if (held && held.owner !== owner && held.until > now) return false;
    this.#leases.set(conversationId, { owner, until });
    return true;
  }
  async release(conversationId: ConversationId, owner: string): Promise<void> {
    if (this.#leases.get(conversationId)?.owner === owner) this.#leases.delete(conversationId);
  }
  async advanceDelivered(conversationId: ConversationId, seq: number): Promise<void> {
    for (const b of this.#bindings.values()) if (b.conversationId === conversationId) b.deliveredSeq = Math.max(b.deliveredSeq, seq);
  }
  async rememberMessage(message: ProviderMessage): Promise<'added' | 'exists'> {
    const key = `${message.channel}\n${message.providerMessageId}`;
    if (this.#messages.has(key)) return 'exists';
    this.#messages.set(key, { ...message });
    return 'added';
  }
  async messageByProviderId(channel: string, providerMessageId: string): Promise<ProviderMessage | null> {
    const known = this.#messages.get(`${channel}\n${providerMessageId}`);
    return known ? { ...known } : null;
  }
  async addStatus(channel: string, providerMessageId: string, status: string): Promise<'added' | 'exists'> {
    const key = `${channel}\n${providerMessageId}\n${status}`;
    if (this.#statuses.has(key)) return 'exists';
    this.#statuses.add(key);
    return 'added';
  }
}
