import {
  buildContextPacket,
  redactText,
  sanitizeGenerated,
  type AgentId,
  type Clock,
  type ContextPacketInput,
  type ConversationId,
  type HandoffReason,
  type HandoffTarget,
  type Policy,
  type RecordEventDraft,
  type StaffId,
  type StoredEvent,
  type ToolCall,
} from '../core/index.js';
import type { AgentConfig } from './agent-config.js';
import { runTurn, type HarnessDeps, type StepRecord, type TurnResult } from './agent-loop.js';
import type { Gateway } from './gateway.js';
import { agentWindowStart, spentFromLog, transcriptFromLog } from './transcript-from-log.js';

/** What the customer is told, by the system, when their conversation starts waiting for a person. */
export const TRANSFER_NOTICE =
  "I'm passing you to a colleague now. They will see our whole conversation, so you won't need to repeat anything.";

/** Options of {@link createAgentRunner}. */
export interface AgentRunnerOptions {
  gateway: Gateway;
  agents: ReadonlyMap<AgentId, AgentConfig>;
  policyFor: (agent: AgentConfig) => Policy;
  decide: HarnessDeps['decide'];
  /** Builds the redacted context packet for whoever takes over (`buildContextPacket` by default). */
  buildPacket?: (input: ContextPacketInput) => Record<string, unknown>;
  /** Redacts a tool's output before it is stored in the log (`redactText` by default). */
  redact?: (text: string) => string;
  clock: Clock;
  /**
   * Sees every turn's full result (each model step and tool outcome) after it is recorded. The
   * lab builds its trajectories from it; it changes nothing about the turn.
   */
  observe?: (turn: { conversationId: ConversationId; agent: AgentId; result: TurnResult }) => void;
}

/** How handling a customer message ended. */
export type RunnerOutcome =
  | { type: 'not_found' }
  | { type: 'duplicate' }
  /** A queue or a human owns the conversation: the agent stays silent. */
  | { type: 'not_agent'; state: string }
  | { type: 'reply'; delivered: boolean; text: string }
  | {
      type: 'handoff';
      reason: HandoffReason;
      target: string;
      evidence: string | null;
      packet: Record<string, unknown> | null;
      applied: boolean;
    }
  | { type: 'needs_approval'; call: ToolCall; why: string }
  | { type: 'no_pending_approval' };

/** The call that waits for approval: requested in the log and not decided yet. */
function pendingApproval(events: readonly StoredEvent[]): ToolCall | null {
  let pending: ToolCall | null = null;
  for (const event of events) {
    if (event.type === 'approval.requested') pending = event.data.call;
    if (event.type === 'approval.decided' && pending?.id === event.data.callId) pending = null;
  }
  return pending;
}

/**
 * Joins the gateway and the harness: stores the customer's message, runs the owning agent's turn
 * on the conversation rebuilt from the log, records what the agent did, and sends the reply
 * (the owner is checked at the moment of sending) or carries out the hand-off.
 */
export function createAgentRunner(options: AgentRunnerOptions) {
  const { gateway } = options;
  // One source of truth for agent-to-agent edges and their cap: the ownership policy. An agent
  // configured with an edge the policy lacks would have every such transfer refused.
  const agents = new Map<AgentId, AgentConfig>();
  for (const [id, agent] of options.agents) {
    const allowed = gateway.policy.agentEdges[id] ?? [];
    const missing = agent.handoff.agents.filter((a) => !allowed.includes(a));
    if (missing.length > 0) {
      throw new Error(
        `agent ${id} may hand off to ${missing.join(', ')}, but the ownership policy's agentEdges do not allow it: add the edges or remove them from the agent`,
      );
    }
    agents.set(id, { ...agent, maxAgentTransfers: gateway.policy.maxAgentTransfers });
  }
  const buildPacket = options.buildPacket ?? buildContextPacket;
  const redact = options.redact ?? ((text: string) => redactText(text).text);

  function records(agent: AgentId, before: number, result: TurnResult): RecordEventDraft[] {
    const drafts: RecordEventDraft[] = [];
    for (const item of result.transcript.slice(before)) {
      if (item.role !== 'tool') continue;
      drafts.push({
        type: 'tool.called',
        data: { agent, name: item.name, arguments: item.arguments, ok: item.ok, output: redact(item.output) },
      });
    }
    for (const step of result.steps as StepRecord[]) {
      if (step.type !== 'decider') continue;
      const { verdict } = step;
      drafts.push({
        type: 'decider.evaluated',
        data: { phase: step.phase, handoff: verdict.handoff, reason: verdict.reason, target: verdict.target, evidence: verdict.evidence },
      });
    }
    return drafts;
  }

  async function turn(
    conversationId: ConversationId,
    agentId: AgentId,
    note: string | null,
    resume?: { call: ToolCall; approved: boolean },
  ): Promise<RunnerOutcome> {
    const read = await gateway.read(conversationId);
    if (!read) return { type: 'not_found' };
    const { conversation, events } = read;
    if (conversation.state !== 'AGENT_ACTIVE' || conversation.owner.type !== 'agent')
      return { type: 'not_agent', state: conversation.state };
    const agent = agents.get(agentId);
    if (!agent) throw new Error(`no agent is configured as ${agentId}`);
    const transcript = transcriptFromLog(events);
    if (note) transcript.push({ role: 'agent', text: note });
    const before = transcript.length;
    const spentBefore = spentFromLog(events);
    // What the model wrote (replies, summaries, tool arguments) is made storable here, before any
    // of it is recorded or sent: a bad byte from a model must not make a send or a record throw.
    const result = sanitizeGenerated(
      await runTurn(
        agent,
        { conversation, transcript, spent: spentBefore, deciderFrom: agentWindowStart(events), ...(resume ? { resume } : {}) },
        { policy: options.policyFor(agent), decide: options.decide, clock: options.clock },
      ),
    );
    await gateway.record(conversationId, [
      ...records(agentId, before, result),
      {
        type: 'turn.completed',
        data: {
          agent: agentId,
          outcome: result.type,
          modelCalls: result.spent.modelCalls - spentBefore.modelCalls,
          tokens: result.spent.tokens - spentBefore.tokens,
          wallMs: result.spent.wallMs - spentBefore.wallMs,
        },
      },
    ]);
    options.observe?.({ conversationId, agent: agentId, result });
    const me = { type: 'agent', id: agentId } as const;
    if (result.type === 'reply') {
      const sent = await gateway.send(conversationId, me, result.text);
      return { type: 'reply', delivered: sent.ok && sent.delivered, text: result.text };
    }
    if (result.type === 'needs_approval') {
      await gateway.record(conversationId, [{ type: 'approval.requested', data: { agent: agentId, call: result.call, why: result.why } }]);
      return { type: 'needs_approval', call: result.call, why: result.why };
    }

    // A safety response is urgent: the agent sends it while it still owns the conversation.
    // Other notices come from the system once the conversation waits for a person.
    const urgent = result.reason === 'safety' && result.message !== null;
    if (urgent) await gateway.send(conversationId, me, result.message!);
    const transfer = (target: HandoffTarget) =>
      gateway.transfer(conversationId, { agent: agentId, target, reason: result.reason, summary: result.summary }, conversation);
    let target = result.target;
    let moved = await transfer(target);
    if (!moved.ok && target.type === 'agent' && ['edge_not_allowed', 'transfer_cap'].includes(moved.rejection.code)) {
      // The ownership rules refuse this agent edge: a person takes over, whatever the model wanted.
      target = { type: 'queue', id: agent.defaultQueue };
      moved = await transfer(target);
    }
    const outcome = { type: 'handoff' as const, reason: result.reason, target: target.id, evidence: result.evidence };
    // Refused otherwise: someone else (a human) owns the conversation now; there is nothing to hand off.
    if (!moved.ok) return { ...outcome, packet: null, applied: false };
    if (target.type === 'agent') {
      // The next agent gets the transcript and the summary, and answers now.
      return turn(conversationId, target.id, `(Hand-over note from ${agentId}: ${result.summary})`);
    }
    const packet = buildPacket({
      items: result.transcript,
      decision: { reason: result.reason, evidence: result.evidence },
      summary: result.summary,
      transcriptRef: conversationId,
    });
    await gateway.record(conversationId, [{ type: 'packet.built', data: { packet } }]);
    if (moved.conversation.state === 'HANDOFF_PENDING') {
      await gateway.enqueue(conversationId, target.id, moved.conversation);
      if (!urgent) await gateway.send(conversationId, { type: 'system' }, result.message ?? TRANSFER_NOTICE);
    }
    return { ...outcome, packet, applied: true };
  }

  return {
    /** Stores a customer message and, if an agent owns the conversation, lets it act on it. */
    async handleCustomerMessage(conversationId: ConversationId, message: { text: string; idempotencyKey: string }): Promise<RunnerOutcome> {
      const received = await gateway.receive(conversationId, message);
      if (!received.ok) return { type: 'not_found' };
      if (received.duplicate) return { type: 'duplicate' };
      const { conversation } = received;
      if (conversation.owner.type !== 'agent') return { type: 'not_agent', state: conversation.state };
      return turn(conversationId, conversation.owner.id, null);
    },

    /**
     * Resumes the turn that waits for a person's approval, with their decision. Only the call the
     * log says is waiting can be resumed, and only once.
     */
    async resume(conversationId: ConversationId, decision: { approved: boolean; by?: StaffId }): Promise<RunnerOutcome> {
      const read = await gateway.read(conversationId);
      if (!read) return { type: 'not_found' };
      const pending = pendingApproval(read.events);
      if (!pending) return { type: 'no_pending_approval' };
      if (read.conversation.owner.type !== 'agent') return { type: 'not_agent', state: read.conversation.state };
      await gateway.record(conversationId, [
        { type: 'approval.decided', data: { callId: pending.id, approved: decision.approved, by: decision.by ?? null } },
      ]);
      return turn(conversationId, read.conversation.owner.id, null, { call: pending, approved: decision.approved });
    },
  };
}

export type AgentRunner = ReturnType<typeof createAgentRunner>;
