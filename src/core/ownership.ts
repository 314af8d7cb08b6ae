import type { Command } from './commands.js';
import { ownershipOf, type Conversation, type ConversationState } from './conversation.js';
import type { EventDraft, TransitionEventDraft } from './events.js';
import { describeOwner, type Actor, type Owner } from './owner.js';
import type { OwnershipPolicy } from './ownership-policy.js';

/** Why a command was refused. A refusal is an expected outcome, returned, never thrown. */
export type RejectionCode =
  'closed' | 'invalid_state' | 'not_owner' | 'already_claimed' | 'edge_not_allowed' | 'transfer_cap' | 'pingpong_cap';

export interface Rejection {
  code: RejectionCode;
  message: string;
}

export type Decision = { ok: true; events: TransitionEventDraft[] } | { ok: false; rejection: Rejection };

const reject = (code: RejectionCode, message: string): Decision => ({ ok: false, rejection: { code, message } });

const to = (conversation: Conversation, state: ConversationState, owner: Owner) => ({
  version: conversation.version + 1,
  state,
  owner,
  from: { state: conversation.state, owner: conversation.owner },
});

function isOwnedBy(conversation: Conversation, actor: Actor): boolean {
  const { owner } = conversation;
  return (actor.type === 'agent' || actor.type === 'human') && owner.type === actor.type && owner.id === actor.id;
}

/**
 * The ownership state machine's decision: given the conversation as it is and a command,
 * the events that the command produces, or why it is refused. Pure; the gateway applies the
 * events with a compare-and-set on the conversation's version.
 */
export function decide(conversation: Conversation, command: Command, policy: OwnershipPolicy): Decision {
  const { state } = conversation;
  if (state === 'CLOSED') return reject('closed', `conversation ${conversation.id} is closed`);
  const wrongState = (allowed: string) => reject('invalid_state', `${command.type} needs ${allowed}; the conversation is ${state}`);

  switch (command.type) {
    case 'RequestHandoff': {
      if (state !== 'AGENT_ACTIVE') return wrongState('AGENT_ACTIVE');
      if (!isOwnedBy(conversation, { type: 'agent', id: command.agent })) {
        return reject('not_owner', `agent ${command.agent} does not own the conversation (${describeOwner(conversation.owner)} does)`);
      }
      const { target } = command;
      const base = { reason: command.reason, summary: command.summary };
      if (target.type === 'agent') {
        const edges = policy.agentEdges[conversation.agentId] ?? [];
        if (!edges.includes(target.id)) {
          return reject('edge_not_allowed', `agent ${conversation.agentId} has no hand-off edge to ${target.id}`);
        }
        if (conversation.agentTransferCount >= policy.maxAgentTransfers) {
          return reject('transfer_cap', `the cap of ${policy.maxAgentTransfers} agent-to-agent transfers is reached`);
        }
        return {
          ok: true,
          events: [{ type: 'handoff.requested', data: { ...to(conversation, 'AGENT_ACTIVE', target), route: 'agent', ...base } }],
        };
      }
      const capped = conversation.handoffCount >= policy.maxHandoffs;
      const previous = policy.pingPong === 'return_to_previous_human' ? conversation.lastHumanId : null;
      if (capped && previous !== null && command.previousHumanOnShift !== false) {
        const human: Owner = { type: 'human', id: previous };
        return {
          ok: true,
          events: [{ type: 'handoff.requested', data: { ...to(conversation, 'HUMAN_ACTIVE', human), route: 'previous_human', ...base } }],
        };
      }
      return {
        ok: true,
        events: [{ type: 'handoff.requested', data: { ...to(conversation, 'HANDOFF_PENDING', target), route: 'queue', ...base } }],
      };
    }
    case 'EnqueueConversation': {
      if (state !== 'HANDOFF_PENDING' && state !== 'QUEUED') return wrongState('HANDOFF_PENDING or QUEUED');
      const queue: Owner = { type: 'queue', id: command.queue };
      return { ok: true, events: [{ type: 'conversation.queued', data: { ...to(conversation, 'QUEUED', queue), queue: command.queue } }] };
    }
    case 'ClaimConversation': {
      if (state === 'HUMAN_ACTIVE' || state === 'AGENT_ASSIST') {
        return reject('already_claimed', `already owned by ${describeOwner(conversation.owner)}`);
      }
      const human: Owner = { type: 'human', id: command.staff };
      return {
        ok: true,
        events: [{ type: 'conversation.claimed', data: { ...to(conversation, 'HUMAN_ACTIVE', human), staff: command.staff } }],
      };
    }
    case 'HandBack': {
      if (state !== 'HUMAN_ACTIVE' && state !== 'AGENT_ASSIST') return wrongState('HUMAN_ACTIVE or AGENT_ASSIST');
      if (!isOwnedBy(conversation, { type: 'human', id: command.staff })) {
        return reject('not_owner', `${command.staff} does not own the conversation (${describeOwner(conversation.owner)} does)`);
      }
      if (policy.pingPong === 'stay_with_human' && conversation.handoffCount >= policy.maxHandoffs) {
        return reject('pingpong_cap', `handed off ${conversation.handoffCount} times: it stays with a human until closed`);
      }
      const agent = command.agent ?? conversation.agentId;
      return {
        ok: true,
        events: [
          {
            type: 'conversation.handed_back',
            data: {
              ...to(conversation, 'AGENT_ACTIVE', { type: 'agent', id: agent }),
              staff: command.staff,
              agent,
              notes: command.notes,
              constraints: command.constraints,
            },
          },
        ],
      };
    }
    case 'TransferConversation': {
      if (state !== 'HUMAN_ACTIVE' && state !== 'AGENT_ASSIST') return wrongState('HUMAN_ACTIVE or AGENT_ASSIST');
      if (!isOwnedBy(conversation, { type: 'human', id: command.staff })) {
        return reject('not_owner', `${command.staff} does not own the conversation (${describeOwner(conversation.owner)} does)`);
      }
      const { to: target } = command;
      if (target.type === 'human' && target.id === command.staff) {
        return reject('invalid_state', `${command.staff} already owns the conversation`);
      }
      const next = target.type === 'queue' ? ('QUEUED' as const) : ('HUMAN_ACTIVE' as const);
      return {
        ok: true,
        events: [{ type: 'conversation.transferred', data: { ...to(conversation, next, target), staff: command.staff } }],
      };
    }
    case 'StartAssist':
    case 'EndAssist': {
      const [from, next, type] =
        command.type === 'StartAssist'
          ? (['HUMAN_ACTIVE', 'AGENT_ASSIST', 'assist.started'] as const)
          : (['AGENT_ASSIST', 'HUMAN_ACTIVE', 'assist.ended'] as const);
      if (state !== from) return wrongState(from);
      if (!isOwnedBy(conversation, { type: 'human', id: command.staff })) {
        return reject('not_owner', `${command.staff} does not own the conversation (${describeOwner(conversation.owner)} does)`);
      }
      return { ok: true, events: [{ type, data: { ...to(conversation, next, conversation.owner), staff: command.staff } }] };
    }
    case 'CloseConversation': {
      const { by } = command;
      if ((by.type === 'agent' || by.type === 'human') && !isOwnedBy(conversation, by)) {
        return reject('not_owner', `${by.type} ${by.id} does not own the conversation (${describeOwner(conversation.owner)} does)`);
      }
      return {
        ok: true,
        events: [{ type: 'conversation.closed', data: { ...to(conversation, 'CLOSED', { type: 'none' }), by, reason: command.reason } }],
      };
    }
  }
}

/** The minimum of an event that `evolve` reads. */
export type EvolvableEvent = EventDraft & { at: string };

/**
 * Applies one event to a conversation. Pure and total over the event vocabulary: replaying a
 * conversation's log from `conversation.created` reproduces its stored state exactly.
 */
export function evolve(conversation: Conversation | null, event: EvolvableEvent): Conversation {
  if (event.type === 'conversation.created') return structuredClone(event.data.conversation);
  if (conversation === null) throw new Error(`cannot apply ${event.type} before conversation.created`);
  switch (event.type) {
    case 'message.received':
    case 'message.sent':
    case 'message.suppressed':
    case 'tool.called':
    case 'decider.evaluated':
    case 'turn.completed':
    case 'approval.requested':
    case 'approval.decided':
    case 'packet.built':
    case 'routing.noted':
    case 'draft.proposed':
    case 'delivery.refused':
    case 'delivery.succeeded':
    case 'delivery.failed':
    case 'delivery.status_reported':
    case 'template.chosen':
    case 'review.recorded':
      return conversation;
    default: {
      const { data } = event;
      const ownership = ownershipOf(data.state, data.owner);
      if (ownership === null)
        throw new Error(`${event.type} leaves ${data.state} owned by ${describeOwner(data.owner)}, which no state allows`);
      const next: Conversation = {
        ...conversation,
        ...ownership,
        version: data.version,
        updatedAt: event.at,
        queuedAt: data.state === 'QUEUED' ? conversation.queuedAt : null,
      };
      switch (event.type) {
        case 'handoff.requested':
          if (event.data.route === 'agent') {
            next.agentTransferCount += 1;
            if (event.data.owner.type === 'agent') next.agentId = event.data.owner.id;
          } else {
            next.handoffCount += 1;
          }
          break;
        case 'conversation.queued':
          next.queuedAt = event.at;
          break;
        case 'conversation.claimed':
          next.lastHumanId = event.data.staff;
          break;
        case 'conversation.transferred':
          if (event.data.owner.type === 'queue') next.queuedAt = event.at;
          if (event.data.owner.type === 'human') next.lastHumanId = event.data.owner.id;
          break;
        case 'conversation.handed_back':
          next.agentId = event.data.agent;
          next.constraints = [...conversation.constraints, ...event.data.constraints];
          break;
        case 'assist.started':
        case 'assist.ended':
        case 'conversation.closed':
          break;
      }
      return next;
    }
  }
}

/** Decides a command and applies the resulting events: the conversation after it, or the refusal. */
export function plan(
  conversation: Conversation,
  command: Command,
  policy: OwnershipPolicy,
  at: string,
): { ok: true; next: Conversation; events: TransitionEventDraft[] } | { ok: false; rejection: Rejection } {
  const decision = decide(conversation, command, policy);
  if (!decision.ok) return decision;
  const next = decision.events.reduce<Conversation>((c, e) => evolve(c, { ...e, at }), conversation);
  return { ok: true, next, events: decision.events };
}
