import {
  buildContextPacket,
  HandoffReasonSchema,
  type AgentId,
  type Clock,
  type Constraint,
  type ContextPacketInput,
  type Conversation,
  type ConversationId,
  type Message,
  type MessageRequest,
  type MessageId,
  type Policy,
  type QueueId,
  type ReviewInput,
  type StaffId,
  type StaffRole,
} from '../../core/index.js';
import type { AgentConfig } from '../agent-config.js';
import type { HarnessDeps } from '../agent-loop.js';
import { staleOutcome, type CommandOutcome, type Gateway, type SendOutcome } from '../gateway.js';
import { agentTurn, hasUnansweredMessage, pendingApprovalRequest, PendingCalls, type TurnDeps, type TurnOutcome } from './agent-turn.js';
import { transcriptFromLog } from '../transcript-from-log.js';
import { placeInQueue } from './carry-out-handoff.js';
import { holdingTurn } from './holding-turn.js';
import { assistTurn } from './assist-turn.js';
import { withTurnLease, type LeaseOptions } from './turn-lease.js';
import { readCustomerFeed, type CustomerPage } from './customer-feed.js';
import { queueRouter, type HandoffRouter } from './handoff-router.js';
import { createRuntimeRedactor, type Redactor } from './redactor.js';
import { recordReview, type ReviewOutcome } from './record-review.js';
import { createTurnScheduler, type TurnScheduler } from './turn-scheduler.js';
import { createWakeups, type Wakeups } from './wakeups.js';

/** Options of {@link createConversationService}. */
export interface ConversationServiceOptions {
  gateway: Gateway;
  agents: ReadonlyMap<AgentId, AgentConfig>;
  policyFor: (agent: AgentConfig) => Policy;
  decide: HarnessDeps['decide'];
  /** Builds the redacted context packet for whoever takes over (`buildContextPacket` by default). */
  buildPacket?: (input: ContextPacketInput) => Record<string, unknown>;
  /** Where applied hand-offs go (the queue asked for, by default). */
  router?: HandoffRouter;
  /** Keeps secrets out of everything stored (core's redaction by default). */
  redact?: Redactor;
  clock: Clock;
  /** Runs scheduled turns (one per conversation at a time, 256 at once by default). */
  scheduler?: TurnScheduler;
  /** Told of a scheduled turn that threw; the default writes nothing (the composition root logs). */
  onTurnError?: (conversationId: string, error: unknown) => void;
  observe?: TurnDeps['observe'];
  /**
   * The policy that keeps a waiting customer company (holding mode; read-only tools). Default:
   * the agent's own policy; a rule-based agent, which knows its job but not how to wait, gets
   * `holdingPolicy()`. `false`: no holding turns, the customer's messages wait for the person.
   */
  holdingPolicyFor?: ((agent: AgentConfig) => Policy) | false;
  /**
   * Several processes on one database: each turn first takes the conversation's turn lease, so
   * one turn at a time runs for a conversation across all of them. Absent: this process only.
   */
  turnLease?: LeaseOptions;
}

/** A customer message, stored; `turn` is the agent's answer to it, running off the caller's path. */
export type ReceiveResult =
  | {
      ok: true;
      duplicate: boolean;
      conversation: Conversation;
      message: Message;
      /** The customer's cursor at this message: read after it for the answer. */
      cursor: string;
      turn: Promise<TurnOutcome> | null;
    }
  | { ok: false; rejection: { code: 'not_found' | 'conversation_full'; message: string } };

/** The text of the customer's message when they press "Talk to a person" (it stands for the press). */
export const TALK_TO_PERSON_TEXT = 'I would like to talk to a person, please.';

/** The most entries one conversation's log may hold (messages, tool calls, verdicts): reads stay bounded. */
export const MAX_LOG_ENTRIES = 5_000;

/**
 * The runtime service: what happens to a conversation, for production (`baton serve`) and the
 * lab alike. A customer message is stored once (redacted; the raw text lives in memory for the
 * turn that answers it), the owning agent's turn runs off the request path, one at a time per
 * conversation, and ends in a reply sent with the owner checked at the moment of sending or in a
 * hand-off carried out in crash-safe order. Staff act on the version they saw.
 */
export function createConversationService(options: ConversationServiceOptions) {
  const { gateway, clock } = options;
  const agents = checkedAgents(gateway, options.agents);
  const redact = options.redact ?? createRuntimeRedactor();
  const router = options.router ?? queueRouter;
  const wakeups: Wakeups = createWakeups();
  let closing = false;
  const raw = new Map<MessageId, string>();
  const pendingCalls = new PendingCalls();
  const scheduler = options.scheduler ?? createTurnScheduler({ onError: (key, error) => options.onTurnError?.(key, error) });
  const deps: TurnDeps = {
    gateway,
    agents,
    policyFor: options.policyFor,
    decide: options.decide,
    buildPacket: options.buildPacket ?? buildContextPacket,
    router,
    redact,
    clock,
    raw,
    pendingCalls,
    ...(options.observe ? { observe: options.observe } : {}),
  };
  /** Every write the service makes wakes the conversation's waiting readers. */
  const written = <T>(conversationId: ConversationId, result: T): T => {
    wakeups.notify(conversationId);
    return result;
  };
  const lease = options.turnLease;
  /** Schedules a turn of any kind: one at a time per conversation here, and across processes under the lease. */
  const scheduled = (conversationId: ConversationId, work: () => Promise<TurnOutcome>) =>
    scheduler.schedule(conversationId, async () =>
      written(conversationId, await (lease ? withTurnLease(lease, conversationId, work) : work())),
    );
  const turnOf = (conversationId: ConversationId, turnOptions: Parameters<typeof agentTurn>[2] = {}) =>
    scheduled(conversationId, () => agentTurn(deps, conversationId, turnOptions));
  const holdingPolicyFor = options.holdingPolicyFor === false ? null : (options.holdingPolicyFor ?? options.policyFor);
  const holdingOf = (conversationId: ConversationId, policyFor: (agent: AgentConfig) => Policy) =>
    scheduled(conversationId, () => holdingTurn({ ...deps, holdingPolicyFor: policyFor }, conversationId));

  async function receive(
    conversationId: ConversationId,
    input: { text: string; idempotencyKey: string; request?: MessageRequest },
  ): Promise<ReceiveResult> {
    // A conversation's log is bounded: past the cap it takes no more messages (one indexed probe).
    const full = await gateway.store.listEvents(conversationId, { afterSeq: MAX_LOG_ENTRIES - 1, limit: 1 });
    if (full.length > 0) {
      return {
        ok: false,
        rejection: {
          code: 'conversation_full',
          message: `this conversation holds ${MAX_LOG_ENTRIES} log entries, the most one may: open a new conversation`,
        },
      };
    }
    const stored = redact.inbound(input.text, conversationId);
    const received = await gateway.receive(conversationId, {
      text: stored,
      idempotencyKey: input.idempotencyKey,
      ...(input.request === undefined ? {} : { request: input.request }),
    });
    if (!received.ok) return received;
    written(conversationId, null);
    const { message, duplicate, conversation } = received;
    const base = { ok: true as const, duplicate, conversation, message, cursor: String(received.seq) };
    const waiting = conversation.state === 'QUEUED' || conversation.state === 'HANDOFF_PENDING';
    const assisting = conversation.state === 'AGENT_ASSIST';
    // A retry of a stored message (its first post's process may have died before the turn ran,
    // or before it answered): the agent's turn runs again, and answers only what is unanswered.
    if (duplicate) return { ...base, turn: conversation.state === 'AGENT_ACTIVE' ? turnOf(conversationId) : null };
    if (!(conversation.state === 'AGENT_ACTIVE' || assisting || (waiting && holdingPolicyFor))) return { ...base, turn: null };
    if (stored !== input.text) raw.set(message.id, input.text);
    const running = assisting
      ? scheduled(conversationId, () => assistTurn(deps, conversationId))
      : waiting && holdingPolicyFor
        ? holdingOf(conversationId, holdingPolicyFor)
        : turnOf(conversationId);
    const turn = running.finally(() => raw.delete(message.id));
    return { ...base, turn };
  }

  /** A staff action on the version the person saw; every such action is in the log with their id. */
  const staffCommand = async (conversationId: ConversationId, version: number, command: Parameters<Gateway['commandAt']>[1]) => {
    const outcome = await gateway.commandAt(conversationId, command, version);
    if (outcome.ok) await router.conversationChanged?.(outcome.conversation);
    return written(conversationId, outcome);
  };

  return {
    gateway,
    wakeups,

    /** Whether `agent` is one of the configured agents. */
    hasAgent: (agent: AgentId): boolean => agents.has(agent),

    /** Opens a conversation served by `agent` (or the default agent). */
    open: (input: Parameters<Gateway['open']>[0] = {}) => gateway.open(input),

    /** Stores a customer message once per idempotency key and schedules the agent's answer. */
    receive,

    /**
     * The customer pressed "Talk to a person": stored once per idempotency key as their message
     * (`request: 'person'`, with {@link TALK_TO_PERSON_TEXT}), so the transcript, the packet and
     * the console show it where it happened; the decider reads the flag as a request for a person,
     * and the agent's turn hands off through the normal path (decider verdict, ownership change,
     * packet, router, the customer's notice). Waiting or with a person already, it is recorded
     * and the holding agent or the person sees it.
     */
    requestPerson: (conversationId: ConversationId, input: { idempotencyKey: string }): Promise<ReceiveResult> =>
      receive(conversationId, { text: TALK_TO_PERSON_TEXT, idempotencyKey: input.idempotencyKey, request: 'person' }),

    /** Stores a customer message and waits for the agent's answer to it (the lab, tests). */
    async handleCustomerMessage(conversationId: ConversationId, input: { text: string; idempotencyKey: string }): Promise<TurnOutcome> {
      const received = await receive(conversationId, input);
      if (!received.ok) return received.rejection.code === 'not_found' ? { type: 'not_found' } : { type: 'conversation_full' };
      if (received.duplicate) {
        // Its retry turn (if any) answers in the background; the caller sent nothing new.
        void received.turn?.catch(() => {});
        return { type: 'duplicate' };
      }
      if (!received.turn) return { type: 'not_agent', state: received.conversation.state };
      return received.turn;
    },

    /**
     * Resumes the turn that waits for a person's approval, with their decision. Only the call the
     * log says is waiting can be resumed, and only once.
     */
    async resume(conversationId: ConversationId, decision: { approved: boolean; by?: StaffId; feedback?: string }): Promise<TurnOutcome> {
      const read = await gateway.read(conversationId);
      if (!read) return { type: 'not_found' };
      const request = pendingApprovalRequest(read.events);
      if (!request) return { type: 'no_pending_approval' };
      if (read.conversation.state !== 'AGENT_ACTIVE') return { type: 'not_agent', state: read.conversation.state };
      // Stored arguments with a secret removed must not run: the call runs as the agent asked it,
      // which only the process that asked still has (a restart or another process: reject it, and
      // the agent asks the customer again).
      const raw = request.redacted ? pendingCalls.take(conversationId, request.call.id) : null;
      if (request.redacted && raw === null && decision.approved) return { type: 'approval_details_lost' };
      const pending = raw ?? request.call;
      const feedback = decision.feedback ? redact.text(decision.feedback, conversationId) : undefined;
      await gateway.record(conversationId, [
        {
          type: 'approval.decided',
          data: { callId: pending.id, approved: decision.approved, by: decision.by ?? null, ...(feedback ? { feedback } : {}) },
        },
      ]);
      return turnOf(conversationId, { resume: { call: pending, approved: decision.approved, ...(feedback ? { feedback } : {}) } });
    },

    /** What the customer may see after a cursor, waiting up to `waitMs` for something new. */
    customerFeed(
      conversationId: ConversationId,
      input: { after: number; limit: number; waitMs: number; signal?: AbortSignal },
    ): Promise<CustomerPage> {
      return readCustomerFeed({ store: gateway.store, wakeups, closing: () => closing }, conversationId, input);
    },

    /** A person takes the conversation (from its queue, or over from the agent). */
    claim: (conversationId: ConversationId, staff: StaffId, version: number): Promise<CommandOutcome> =>
      staffCommand(conversationId, version, { type: 'ClaimConversation', staff }),

    /** The owning person replies; the owner is checked at the moment of sending. */
    async reply(
      conversationId: ConversationId,
      staff: StaffId,
      input: { text: string; version: number },
    ): Promise<SendOutcome | CommandOutcome> {
      const current = await gateway.store.getConversation(conversationId);
      if (!current) return { ok: false, rejection: { code: 'not_found', message: `no conversation ${conversationId}` } };
      if (current.version !== input.version) return staleOutcome(input.version, current);
      return written(
        conversationId,
        await gateway.send(conversationId, { type: 'human', id: staff }, redact.outbound(input.text, conversationId)),
      );
    },

    /** Hands back to the agent: the notes go into its context, the constraints bind its tools. */
    handBack: (
      conversationId: ConversationId,
      staff: StaffId,
      input: { version: number; notes: string | null; constraints: Constraint[]; agent?: AgentId },
    ): Promise<CommandOutcome> =>
      staffCommand(conversationId, input.version, {
        type: 'HandBack',
        staff,
        agent: input.agent ?? null,
        notes: input.notes === null ? null : redact.text(input.notes, conversationId),
        constraints: input.constraints,
      }),

    /** Records a person's verdict on the conversation's hand-off, or on its being kept (checked, redacted). */
    review: async (conversationId: ConversationId, input: ReviewInput, caller: { id: StaffId; role: StaffRole }): Promise<ReviewOutcome> =>
      written(conversationId, await recordReview({ gateway, redact }, conversationId, input, caller)),

    /** Passes the conversation on, cold: to a queue or to another person. */
    transfer: (
      conversationId: ConversationId,
      staff: StaffId,
      input: { version: number; to: { type: 'queue'; id: QueueId } | { type: 'human'; id: StaffId } },
    ): Promise<CommandOutcome> => staffCommand(conversationId, input.version, { type: 'TransferConversation', staff, to: input.to }),

    /**
     * The customer leaves (they gave up waiting, or are done): the conversation closes, and the
     * router withdraws whatever it had offered or reserved for it.
     */
    async leave(conversationId: ConversationId): Promise<CommandOutcome> {
      const outcome = await gateway.close(conversationId, { type: 'customer' }, 'customer_left');
      if (outcome.ok) await router.conversationChanged?.(outcome.conversation);
      return written(conversationId, outcome);
    },

    /** Assisted mode on or off: while on, the agent drafts replies for the person (never sent by themselves). */
    assist: (conversationId: ConversationId, staff: StaffId, input: { version: number; on: boolean }): Promise<CommandOutcome> =>
      staffCommand(conversationId, input.version, { type: input.on ? 'StartAssist' : 'EndAssist', staff }),

    close: (conversationId: ConversationId, staff: StaffId, input: { version: number; reason: string }): Promise<CommandOutcome> =>
      staffCommand(conversationId, input.version, { type: 'CloseConversation', by: { type: 'human', id: staff }, reason: input.reason }),

    /**
     * After a restart: answers customer messages a crash left unanswered, and finishes hand-offs a
     * crash left pending (the ownership change was the checkpoint, so no agent plan resumes).
     */
    async recover(limit = 10_000): Promise<{ turns: number; handoffs: number }> {
      let turns = 0;
      let handoffs = 0;
      for (const c of await gateway.store.listConversations({ states: ['AGENT_ACTIVE', 'HANDOFF_PENDING'], limit })) {
        const events = await gateway.store.listEvents(c.id);
        if (c.state === 'AGENT_ACTIVE' && hasUnansweredMessage(events)) {
          turns += 1;
          void turnOf(c.id).catch(() => {});
        } else if (c.state === 'HANDOFF_PENDING') {
          const at = events.findLastIndex((e) => e.type === 'handoff.requested');
          const requested = events[at];
          const data = requested?.type === 'handoff.requested' ? requested.data : null;
          const reason = HandoffReasonSchema.safeParse(data?.reason ?? null);
          handoffs += 1;
          // The crash came before the packet was stored: build it from the log (already redacted).
          if (!events.slice(at).some((e) => e.type === 'packet.built')) {
            const packet = deps.buildPacket({
              items: transcriptFromLog(events),
              decision: { reason: reason.success ? reason.data : 'agent_decision', evidence: null },
              ...(data?.summary ? { summary: data.summary } : {}),
              transcriptRef: c.id,
            });
            await gateway.record(c.id, [{ type: 'packet.built', data: { packet: redact.scrub(packet, c.id) } }]);
          }
          await placeInQueue({ gateway, router, redact }, c, c.owner.id, reason.success ? reason.data : 'agent_decision', null);
        }
      }
      return { turns, handoffs };
    },

    /** Resolves once no turn is queued or running. */
    idle: () => scheduler.idle(),

    /** Shutdown: long-polls answer what they have at once, so the server can close without waiting them out. */
    stopWaiting(): void {
      closing = true;
      wakeups.close();
    },
  };
}

export type ConversationService = ReturnType<typeof createConversationService>;

/** The agents, checked against the ownership policy before anything runs. */
function checkedAgents(gateway: Gateway, configured: ReadonlyMap<AgentId, AgentConfig>): Map<AgentId, AgentConfig> {
  // One source of truth for agent-to-agent edges and their cap: the ownership policy. An agent
  // configured with an edge the policy lacks would have every such transfer refused.
  const agents = new Map<AgentId, AgentConfig>();
  for (const [id, agent] of configured) {
    const allowed = gateway.policy.agentEdges[id] ?? [];
    const missing = agent.handoff.agents.filter((a) => !allowed.includes(a));
    if (missing.length > 0) {
      throw new Error(
        `agent ${id} may hand off to ${missing.join(', ')}, but the ownership policy's agentEdges do not allow it: add the edges or remove them from the agent`,
      );
    }
    agents.set(id, { ...agent, maxAgentTransfers: gateway.policy.maxAgentTransfers });
  }
  return agents;
}
