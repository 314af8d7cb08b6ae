import {
  isoAt,
  newConversation,
  plan,
  SCHEMA_VERSION,
  type Actor,
  type AgentId,
  type Clock,
  type Command,
  type Constraint,
  type Conversation,
  type ConversationId,
  type HandoffTarget,
  type IdGenerator,
  type Message,
  type MessageRequest,
  type NewEvent,
  type OwnershipPolicy,
  type QueueId,
  type RecordEventDraft,
  type Rejection,
  type Sender,
  type StaffId,
  type StoredEvent,
  type TransitionEventDraft,
} from '../core/index.js';
import type { Store } from '../store/store.js';

/** Options of {@link createGateway}. */
export interface GatewayOptions {
  store: Store;
  ids: IdGenerator;
  clock: Clock;
  policy: OwnershipPolicy;
  /** The agent that serves new conversations unless one is named. */
  defaultAgent: AgentId;
  /** How often a command is re-decided after losing a compare-and-set race. */
  maxCasRetries?: number;
}

/** The outcome of a command: the conversation after it, or why it was refused. */
export type CommandOutcome =
  | { ok: true; conversation: Conversation; events: StoredEvent[] }
  | { ok: false; rejection: Rejection | { code: 'not_found' | 'contention'; message: string } }
  /** The caller acted on a version that is no longer current: nothing changed; here is what is. */
  | { ok: false; rejection: { code: 'stale'; message: string }; current: Conversation };

export type ReceiveOutcome =
  | { ok: true; message: Message; duplicate: boolean; conversation: Conversation; seq: number }
  | { ok: false; rejection: { code: 'not_found'; message: string } };

export type SendOutcome =
  | { ok: true; delivered: true; message: Message }
  | { ok: true; delivered: false; reason: 'not_speaker'; event: StoredEvent }
  | { ok: false; rejection: { code: 'not_found'; message: string } }
  /** The conversation's channel may not carry a free-form message now (WhatsApp's 24-hour window closed; see runtime/channels). */
  | { ok: false; rejection: { code: 'template_required'; message: string } };

/** The refusal of an action taken on a version that is no longer current, with the conversation as it is. */
export function staleOutcome(expectedVersion: number, now: Conversation): Extract<CommandOutcome, { current: Conversation }> {
  return {
    ok: false,
    rejection: {
      code: 'stale',
      message: `you acted on version ${expectedVersion}; the conversation is at version ${now.version} (${now.state})`,
    },
    current: now,
  };
}

const notFound = (id: string) => ({ ok: false as const, rejection: { code: 'not_found' as const, message: `no conversation ${id}` } });

/**
 * The conversation gateway: the only way messages and ownership changes reach the store.
 * Built from the pure core (`plan`) and the Store port; it holds no state of its own, so any
 * number of gateway processes may share one database.
 */
export function createGateway(options: GatewayOptions) {
  const { store, ids, clock, policy } = options;
  const maxRetries = options.maxCasRetries ?? 8;

  const envelope = (conversationId: ConversationId, at: string) =>
    ({ schemaVersion: SCHEMA_VERSION, id: ids.event(), conversationId, at }) as const;
  const toEvents = (conversationId: ConversationId, drafts: TransitionEventDraft[], at: string): NewEvent[] =>
    drafts.map((d) => ({ ...envelope(conversationId, at), ...d }) as NewEvent);

  /** A message as stored: inbound ones carry the customer's idempotency key. */
  const newMessage = (conversationId: ConversationId, sender: Message['sender'], text: string, idempotencyKey: string | null): Message => ({
    schemaVersion: SCHEMA_VERSION,
    id: ids.message(),
    conversationId,
    direction: sender.type === 'customer' ? 'inbound' : 'outbound',
    sender,
    text,
    idempotencyKey,
    at: isoAt(clock),
  });

  /**
   * Decide against the conversation as last seen, compare-and-set on its version; on a lost
   * race, load and decide again. `basis`, when given, is the caller's copy (e.g. the one its
   * last command returned): a fresh copy saves the read; a stale one costs one retry.
   */
  async function command(conversationId: ConversationId, cmd: Command, basis?: Conversation): Promise<CommandOutcome> {
    let known = basis?.id === conversationId ? basis : undefined;
    for (let attempt = 0; attempt <= maxRetries; attempt += 1) {
      const fromCaller = known !== undefined && known === basis;
      const current = known ?? (await store.getConversation(conversationId));
      known = undefined;
      if (!current) return notFound(conversationId);
      const at = isoAt(clock);
      const planned = plan(current, cmd, policy, at);
      // A refusal decided on the caller's copy may only mean the copy is stale: read, decide again.
      if (!planned.ok && fromCaller) continue;
      if (!planned.ok) return planned;
      const result = await store.transition({
        conversationId,
        expectedVersion: current.version,
        next: planned.next,
        events: toEvents(conversationId, planned.events, at),
      });
      if (result.ok) return { ok: true, conversation: result.conversation, events: result.events };
      if (result.reason === 'not_found') return notFound(conversationId);
      // Lost the race: decide again against the version that won, which the store returned.
      known = result.current ?? undefined;
    }
    return { ok: false, rejection: { code: 'contention', message: `gave up after ${maxRetries + 1} lost races` } };
  }

  /**
   * A command decided on the version the caller saw, and applied only if that version is still
   * current: never re-decided on a newer one (a person acting on a view that changed under them
   * is refused and shown what is, instead).
   */
  async function commandAt(conversationId: ConversationId, cmd: Command, expectedVersion: number): Promise<CommandOutcome> {
    const current = await store.getConversation(conversationId);
    if (!current) return notFound(conversationId);
    const stale = (now: Conversation) => staleOutcome(expectedVersion, now);
    if (current.version !== expectedVersion) return stale(current);
    const at = isoAt(clock);
    const planned = plan(current, cmd, policy, at);
    if (!planned.ok) return planned;
    const result = await store.transition({
      conversationId,
      expectedVersion,
      next: planned.next,
      events: toEvents(conversationId, planned.events, at),
    });
    if (result.ok) return { ok: true, conversation: result.conversation, events: result.events };
    if (result.reason === 'not_found' || !result.current) return notFound(conversationId);
    return stale(result.current);
  }

  return {
    policy,
    /** The store underneath, for reads the gateway does not wrap (pages, queue views). */
    store,

    /** Applies `cmd` if the conversation is still at `expectedVersion` (staff actions). */
    commandAt,

    /** Opens a conversation, served by `agent` (or the default agent). */
    async open(input: { agent?: AgentId; channel?: string; customerId?: string | null } = {}): Promise<Conversation> {
      const at = isoAt(clock);
      const conversation = newConversation({
        id: ids.conversation(),
        agentId: input.agent ?? options.defaultAgent,
        channel: input.channel ?? 'api',
        customerId: input.customerId ?? null,
        at,
      });
      await store.createConversation(conversation, {
        ...envelope(conversation.id, at),
        type: 'conversation.created',
        data: { conversation },
      });
      return conversation;
    },

    /** Stores a customer message once per idempotency key, whoever owns the conversation. */
    async receive(
      conversationId: ConversationId,
      input: { text: string; idempotencyKey: string; request?: MessageRequest },
    ): Promise<ReceiveOutcome> {
      const conversation = await store.getConversation(conversationId);
      if (!conversation) return notFound(conversationId);
      const plain = newMessage(conversationId, { type: 'customer' }, input.text, input.idempotencyKey);
      const message = input.request === undefined ? plain : { ...plain, request: input.request };
      const result = await store.appendInbound(message, ids.event());
      if (!result.ok) return notFound(conversationId);
      return { ok: true, message: result.message, duplicate: result.duplicate, conversation, seq: result.seq };
    },

    /**
     * Sends a message to the customer if, at this moment, `sender` may speak. A reply generated
     * while a human took over is suppressed and logged (`message.suppressed`), never delivered.
     */
    async send(conversationId: ConversationId, sender: Sender, text: string, records: RecordEventDraft[] = []): Promise<SendOutcome> {
      const message = newMessage(conversationId, sender, text, null);
      const at = isoAt(clock);
      const result = await store.appendOutbound(
        message,
        ids.event(),
        records.map((d) => ({ ...envelope(conversationId, at), ...d }) as NewEvent),
      );
      if (!result.ok) return notFound(conversationId);
      if (result.delivered) return { ok: true, delivered: true, message: result.message };
      return { ok: true, delivered: false, reason: 'not_speaker', event: result.event };
    },

    /** An agent hands the conversation to another agent or to a human queue. */
    transfer(
      conversationId: ConversationId,
      input: { agent: AgentId; target: HandoffTarget; reason: string; summary: string | null; previousHumanOnShift?: boolean },
      basis?: Conversation,
    ): Promise<CommandOutcome> {
      return command(conversationId, { type: 'RequestHandoff', ...input }, basis);
    },

    /** The router places a pending hand-off in a queue. */
    enqueue(conversationId: ConversationId, queue: QueueId, basis?: Conversation): Promise<CommandOutcome> {
      return command(conversationId, { type: 'EnqueueConversation', queue }, basis);
    },

    /** A human takes a specific conversation (from its queue, or over from the agent). */
    claim(conversationId: ConversationId, staff: StaffId, basis?: Conversation): Promise<CommandOutcome> {
      return command(conversationId, { type: 'ClaimConversation', staff }, basis);
    },

    /** A human takes the oldest conversation waiting in `queue`; null when it is empty. */
    async claimNext(queue: QueueId, staff: StaffId): Promise<CommandOutcome | null> {
      const result = await store.claimOldestQueued(queue, (conversation) => {
        const at = isoAt(clock);
        const planned = plan(conversation, { type: 'ClaimConversation', staff }, policy, at);
        return planned.ok ? { next: planned.next, events: toEvents(conversation.id, planned.events, at) } : null;
      });
      if (result === null) return null;
      return result.ok
        ? { ok: true, conversation: result.conversation, events: result.events }
        : { ok: false, rejection: { code: 'contention', message: 'the claimed conversation changed under the claim' } };
    },

    /** The human hands back to an agent; constraints in the notes bind the agent from now on. */
    handBack(
      conversationId: ConversationId,
      input: { staff: StaffId; agent?: AgentId; notes?: string | null; constraints?: Constraint[] },
      basis?: Conversation,
    ): Promise<CommandOutcome> {
      return command(
        conversationId,
        {
          type: 'HandBack',
          staff: input.staff,
          agent: input.agent ?? null,
          notes: input.notes ?? null,
          constraints: input.constraints ?? [],
        },
        basis,
      );
    },

    startAssist(conversationId: ConversationId, staff: StaffId, basis?: Conversation): Promise<CommandOutcome> {
      return command(conversationId, { type: 'StartAssist', staff }, basis);
    },

    endAssist(conversationId: ConversationId, staff: StaffId, basis?: Conversation): Promise<CommandOutcome> {
      return command(conversationId, { type: 'EndAssist', staff }, basis);
    },

    close(conversationId: ConversationId, by: Actor, reason: string, basis?: Conversation): Promise<CommandOutcome> {
      return command(conversationId, { type: 'CloseConversation', by, reason }, basis);
    },

    /** Records the agent's work (tool calls, decider verdicts, packets) in the conversation's log. */
    async record(conversationId: ConversationId, drafts: RecordEventDraft[]): Promise<StoredEvent[] | null> {
      const at = isoAt(clock);
      const stored = await store.appendRecords(
        conversationId,
        drafts.map((d) => ({ ...envelope(conversationId, at), ...d }) as NewEvent),
      );
      return stored === 'not_found' ? null : stored;
    },

    /** A conversation with its messages and its event log, or null. */
    async read(conversationId: ConversationId) {
      const conversation = await store.getConversation(conversationId);
      if (!conversation) return null;
      const [messages, events] = await Promise.all([store.listMessages(conversationId), store.listEvents(conversationId)]);
      return { conversation, messages, events };
    },
  };
}

export type Gateway = ReturnType<typeof createGateway>;
