import {
  isTransitionEvent,
  sanitizeGenerated,
  type AgentId,
  type Clock,
  type ContextPacketInput,
  type ConversationId,
  type HandoffReason,
  type MessageId,
  type Policy,
  type StoredEvent,
  type ToolCall,
} from '../../core/index.js';
import type { AgentConfig } from '../agent-config.js';
import { runTurn, type HarnessDeps, type TurnResult } from '../agent-loop.js';
import type { Gateway } from '../gateway.js';
import { agentWindowStart, spentFromLog, transcriptFromLog } from '../transcript-from-log.js';
import { carryOutHandoff } from './carry-out-handoff.js';
import type { HandoffRouter } from './handoff-router.js';
import type { Redactor } from './redactor.js';
import { turnRecords } from './turn-records.js';

/** How an agent's turn on a conversation ended. */
export type TurnOutcome =
  | { type: 'not_found' }
  | { type: 'duplicate' }
  /** The conversation's log is at its cap: the message was not stored. */
  | { type: 'conversation_full' }
  /** A queue or a human owns the conversation: the agent stays silent. */
  | { type: 'not_agent'; state: string }
  /** Every customer message already has its answer (another turn took them). */
  | { type: 'nothing_pending' }
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
  | { type: 'no_pending_approval' }
  /** The waiting call held a secret, which is never stored, and this process no longer has it. */
  | { type: 'approval_details_lost' };

/** What an agent turn needs; the service builds it once. */
export interface TurnDeps {
  gateway: Gateway;
  agents: ReadonlyMap<AgentId, AgentConfig>;
  policyFor: (agent: AgentConfig) => Policy;
  decide: HarnessDeps['decide'];
  buildPacket: (input: ContextPacketInput) => Record<string, unknown>;
  router: HandoffRouter;
  redact: Redactor;
  clock: Clock;
  /** Raw texts of customer messages stored redacted, by message id: in memory, for the turn that answers them. */
  raw: ReadonlyMap<MessageId, string>;
  /** Calls waiting for approval whose stored arguments were redacted, as they must run: in memory only. */
  pendingCalls: PendingCalls;
  /** Sees every turn's full result after it is recorded (the lab builds trajectories from it). */
  observe?: (turn: { conversationId: ConversationId; agent: AgentId; result: TurnResult }) => void;
}

/** The call that waits for approval: requested in the log and not decided yet. */
export function pendingApproval(events: readonly StoredEvent[]): ToolCall | null {
  return pendingApprovalRequest(events)?.call ?? null;
}

/** The request of the call that waits for approval, with whether its stored arguments were redacted. */
export function pendingApprovalRequest(events: readonly StoredEvent[]): { call: ToolCall; redacted: boolean } | null {
  let pending: { call: ToolCall; redacted: boolean } | null = null;
  for (const event of events) {
    if (event.type === 'approval.requested') pending = { call: event.data.call, redacted: event.data.redacted ?? false };
    if (event.type === 'approval.decided' && pending?.call.id === event.data.callId) pending = null;
  }
  return pending;
}

/** The most calls waiting for approval with their secrets one process keeps; the oldest is forgotten first. */
const MAX_PENDING_CALLS = 10_000;

/**
 * Calls waiting for a person's approval whose arguments held a secret, kept as they must run, by
 * conversation (one waits at a time): in memory only, never stored, forgotten once decided.
 */
export class PendingCalls {
  private readonly calls = new Map<ConversationId, ToolCall>();

  set(conversationId: ConversationId, call: ToolCall): void {
    this.calls.delete(conversationId);
    if (this.calls.size >= MAX_PENDING_CALLS) this.calls.delete(this.calls.keys().next().value!);
    this.calls.set(conversationId, call);
  }

  /** The call with this id waiting in this conversation, if this process still has it; forgotten once taken. */
  take(conversationId: ConversationId, callId: string): ToolCall | null {
    const call = this.calls.get(conversationId);
    if (call === undefined || call.id !== callId) return null;
    this.calls.delete(conversationId);
    return call;
  }
}

/**
 * Whether the log holds a customer message the agent has not answered: one after everything the
 * agent's last turn had read (a message that came in while a turn ran is still to answer), and
 * after the last time a human handed the conversation back (what a human already dealt with is
 * not the agent's to answer).
 */
export function hasUnansweredMessage(events: readonly StoredEvent[]): boolean {
  let answered = 0;
  let lastReceived = 0;
  // A turn that decided to hand off answers once its hand-off is in the log: a process killed
  // between the turn's record and the ownership change leaves the message still to answer.
  let handingOff: number | null = null;
  for (const event of events) {
    if (event.type === 'message.received') lastReceived = event.seq;
    // A turn recorded before `upTo` existed read everything before its own record.
    else if (event.type === 'turn.completed') {
      if (event.data.outcome === 'handoff') handingOff = event.data.upTo ?? event.seq;
      else answered = Math.max(answered, event.data.upTo ?? event.seq);
    } else if (event.type === 'conversation.handed_back' || event.type === 'approval.requested') answered = Math.max(answered, event.seq);
    if (handingOff !== null && isTransitionEvent(event)) {
      answered = Math.max(answered, handingOff);
      handingOff = null;
    }
  }
  return lastReceived > answered;
}

/**
 * Handles a message: reads the conversation, runs the owning agent's turn on it (decider,
 * harness, tools, guardrails), records the turn, then sends the reply with the owner checked at
 * the moment of sending, or carries out the hand-off. `force` runs the turn even when every
 * message looks answered (a hand-over note from another agent, a resumed approval).
 */
export async function agentTurn(
  deps: TurnDeps,
  conversationId: ConversationId,
  options: { note?: string; resume?: { call: ToolCall; approved: boolean; feedback?: string }; force?: boolean } = {},
): Promise<TurnOutcome> {
  const { gateway } = deps;
  const conversation = await gateway.store.getConversation(conversationId);
  if (!conversation) return { type: 'not_found' };
  const events = await gateway.store.listEvents(conversationId);
  if (conversation.state !== 'AGENT_ACTIVE') return { type: 'not_agent', state: conversation.state };
  if (!options.force && !options.resume && !hasUnansweredMessage(events)) return { type: 'nothing_pending' };
  const agentId = conversation.owner.id;
  const agent = deps.agents.get(agentId);
  if (!agent) throw new Error(`no agent is configured as ${agentId}: add it to the agents of the configuration`);
  const transcript = transcriptFromLog(events, deps.raw);
  if (options.note) transcript.push({ role: 'agent', text: options.note });
  const before = transcript.length;
  const spentBefore = spentFromLog(events);
  // What the model wrote (replies, summaries, tool arguments) is made storable here, before any
  // of it is recorded or sent: a bad byte from a model must not make a send or a record throw.
  const result = sanitizeGenerated(
    await runTurn(
      agent,
      {
        conversation,
        transcript,
        spent: spentBefore,
        deciderFrom: agentWindowStart(events),
        ...(options.resume ? { resume: options.resume } : {}),
      },
      { policy: deps.policyFor(agent), decide: deps.decide, clock: deps.clock },
    ),
  );
  const records = turnRecords({
    conversationId,
    agent: agentId,
    before,
    result,
    spentBefore,
    redact: deps.redact,
    upTo: events.at(-1)?.seq ?? 0,
  });
  const me = { type: 'agent', id: agentId } as const;
  if (result.type === 'reply') {
    // The turn's record and its reply are stored together: a crash never leaves a turn marked
    // answered whose answer was not stored.
    const sent = await gateway.send(conversationId, me, deps.redact.outbound(result.text, conversationId), records);
    deps.observe?.({ conversationId, agent: agentId, result });
    return { type: 'reply', delivered: sent.ok && sent.delivered, text: result.text };
  }
  await gateway.record(conversationId, records);
  deps.observe?.({ conversationId, agent: agentId, result });
  if (result.type === 'needs_approval') {
    const args = safeArgs(result.call.arguments);
    const call = { ...result.call, arguments: JSON.stringify(deps.redact.args(args, conversationId)) };
    const redacted = call.arguments !== JSON.stringify(args);
    if (redacted) deps.pendingCalls.set(conversationId, result.call);
    await gateway.record(conversationId, [
      { type: 'approval.requested', data: { agent: agentId, call, why: deps.redact.text(result.why, conversationId), redacted } },
    ]);
    return { type: 'needs_approval', call: result.call, why: result.why };
  }
  const done = await carryOutHandoff(deps, conversationId, {
    agent: agentId,
    target: result.target,
    fallbackQueue: agent.defaultQueue,
    reason: result.reason,
    summary: result.summary,
    evidence: result.evidence,
    message: result.message,
    basis: conversation,
    items: result.transcript,
  });
  const outcome = { type: 'handoff' as const, reason: result.reason, target: done.target.id, evidence: result.evidence };
  if (done.type === 'refused') return { ...outcome, packet: null, applied: false };
  // The next agent gets the transcript and the summary, and answers now.
  if (done.type === 'to_agent')
    return agentTurn(deps, conversationId, { note: `(Hand-over note from ${agentId}: ${result.summary})`, force: true });
  return { ...outcome, packet: done.packet, applied: true };
}

function safeArgs(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text || '{}');
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
