import {
  buildContextPacket,
  redactText,
  type AgentId,
  type Clock,
  type ContextPacketInput,
  type ConversationId,
  type HandoffReason,
  type Policy,
  type RecordEventDraft,
  type ToolCall,
  type TranscriptItem,
} from '../core/index.js';
import type { AgentConfig } from './agent-config.js';
import { runTurn, type DeciderVerdict, type StepRecord, type TurnResult } from './agent-loop.js';
import type { Gateway } from './gateway.js';
import { spentFromLog, transcriptFromLog } from './transcript-from-log.js';

/** Options of {@link createAgentRunner}. */
export interface AgentRunnerOptions {
  gateway: Gateway;
  agents: ReadonlyMap<AgentId, AgentConfig>;
  policyFor: (agent: AgentConfig) => Policy;
  decide: (items: readonly TranscriptItem[]) => DeciderVerdict | Promise<DeciderVerdict>;
  /** Builds the redacted context packet for whoever takes over (`buildContextPacket` by default). */
  buildPacket?: (input: ContextPacketInput) => Record<string, unknown>;
  /** Redacts a tool's output before it is stored in the log (`redactText` by default). */
  redact?: (text: string) => string;
  clock: Clock;
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
  | { type: 'needs_approval'; call: ToolCall; why: string };

/**
 * Joins the gateway and the harness: stores the customer's message, runs the owning agent's turn
 * on the conversation rebuilt from the log, records what the agent did, and sends the reply
 * (the owner is checked at the moment of sending) or carries out the hand-off.
 */
export function createAgentRunner(options: AgentRunnerOptions) {
  const { gateway } = options;
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
    const agent = options.agents.get(agentId);
    if (!agent) throw new Error(`no agent is configured as ${agentId}`);
    const transcript = transcriptFromLog(events);
    if (note) transcript.push({ role: 'agent', text: note });
    const before = transcript.length;
    const spentBefore = spentFromLog(events);
    const result = await runTurn(
      agent,
      { conversation, transcript, spent: spentBefore, ...(resume ? { resume } : {}) },
      { policy: options.policyFor(agent), decide: options.decide, clock: options.clock },
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
    const me = { type: 'agent', id: agentId } as const;
    if (result.type === 'reply') {
      const sent = await gateway.send(conversationId, me, result.text);
      return { type: 'reply', delivered: sent.ok && sent.delivered, text: result.text };
    }
    if (result.type === 'needs_approval') return { type: 'needs_approval', call: result.call, why: result.why };

    if (result.message) await gateway.send(conversationId, me, result.message);
    const moved = await gateway.transfer(
      conversationId,
      { agent: agentId, target: result.target, reason: result.reason, summary: result.summary },
      conversation,
    );
    const outcome = { type: 'handoff' as const, reason: result.reason, target: result.target.id, evidence: result.evidence };
    if (!moved.ok) return { ...outcome, packet: null, applied: false };
    if (result.target.type === 'agent') {
      // The next agent gets the transcript and the summary, and answers now.
      return turn(conversationId, result.target.id, `(Hand-over note from ${agentId}: ${result.summary})`);
    }
    const packet = buildPacket({
      items: result.transcript,
      decision: { reason: result.reason, evidence: result.evidence },
      summary: result.summary,
      transcriptRef: conversationId,
    });
    await gateway.record(conversationId, [{ type: 'packet.built', data: { packet } }]);
    if (moved.conversation.state === 'HANDOFF_PENDING') await gateway.enqueue(conversationId, result.target.id, moved.conversation);
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

    /** Resumes a turn that waited for a human's approval of one call. */
    async resume(conversationId: ConversationId, call: ToolCall, approved: boolean): Promise<RunnerOutcome> {
      const conversation = await gateway.read(conversationId);
      if (!conversation) return { type: 'not_found' };
      if (conversation.conversation.owner.type !== 'agent') return { type: 'not_agent', state: conversation.conversation.state };
      return turn(conversationId, conversation.conversation.owner.id, null, { call, approved });
    },
  };
}

export type AgentRunner = ReturnType<typeof createAgentRunner>;
