import type {
  AgentId,
  ContextPacketInput,
  Conversation,
  ConversationId,
  HandoffReason,
  HandoffTarget,
  QueueId,
  TranscriptItem,
} from '../../core/index.js';
import type { Gateway } from '../gateway.js';
import type { HandoffRouter } from './handoff-router.js';
import type { Redactor } from './redactor.js';

/** A hand-off as the harness (or a recovery after a crash) asks for it. */
export interface HandoffIntent {
  agent: AgentId;
  target: HandoffTarget;
  /** The queue a person takes over in when the agent edge is refused. */
  fallbackQueue: QueueId;
  reason: HandoffReason;
  summary: string | null;
  evidence: string | null;
  /** A message for the customer (the holding or safety message), if the harness wrote one. */
  message: string | null;
  /** The conversation as the agent's turn saw it, the basis of the compare-and-set. */
  basis: Conversation;
  /** What the packet is built from: the conversation with this turn's work (raw; the packet redacts). */
  items: readonly TranscriptItem[];
}

/** How a hand-off ended. */
export type HandoffOutcome =
  /** Refused: someone else (a human) owns the conversation now; nothing was handed off. */
  | { type: 'refused'; target: HandoffTarget }
  /** Another agent owns the conversation now and answers next. */
  | { type: 'to_agent'; target: Extract<HandoffTarget, { type: 'agent' }> }
  | { type: 'to_queue'; target: Extract<HandoffTarget, { type: 'queue' }>; packet: Record<string, unknown>; queue: QueueId };

/** What carrying out a hand-off needs. */
export interface HandoffDeps {
  gateway: Gateway;
  router: HandoffRouter;
  redact: Redactor;
  buildPacket: (input: ContextPacketInput) => Record<string, unknown>;
}

/**
 * Carries out a hand-off in the order that survives a crash at any point: the ownership change
 * first (the checkpoint: from then on no retry resumes the agent's plan), then the packet, then
 * the router's placement, then the one true notice to the customer. A safety message goes out
 * while the agent still owns the conversation, before anything else.
 */
export async function carryOutHandoff(deps: HandoffDeps, conversationId: ConversationId, intent: HandoffIntent): Promise<HandoffOutcome> {
  const { gateway } = deps;
  const me = { type: 'agent', id: intent.agent } as const;
  const urgent = intent.reason === 'safety' && intent.message !== null;
  if (urgent) await gateway.send(conversationId, me, deps.redact.outbound(intent.message!, conversationId));
  // Past the ping-pong cap it would go back to the person who had it: only if they are on shift.
  const previous = intent.basis.lastHumanId;
  const previousHumanOnShift = previous !== null && deps.router.onShift ? await deps.router.onShift(previous) : undefined;
  const transfer = (target: HandoffTarget) =>
    gateway.transfer(
      conversationId,
      {
        agent: intent.agent,
        target,
        reason: intent.reason,
        summary: intent.summary === null ? null : deps.redact.text(intent.summary, conversationId),
        ...(previousHumanOnShift === undefined ? {} : { previousHumanOnShift }),
      },
      intent.basis,
    );
  let target = intent.target;
  let moved = await transfer(target);
  if (!moved.ok && target.type === 'agent' && ['edge_not_allowed', 'transfer_cap'].includes(moved.rejection.code)) {
    // The ownership rules refuse this agent edge: a person takes over, whatever the model wanted.
    target = { type: 'queue', id: intent.fallbackQueue };
    moved = await transfer(target);
  }
  if (!moved.ok) return { type: 'refused', target };
  if (target.type === 'agent') return { type: 'to_agent', target };
  // The ping-pong cap sent it straight back to the person who had it: they hold it again.
  if (moved.conversation.owner.type === 'human') await deps.router.conversationChanged?.(moved.conversation);
  // The packet builder redacts on its own; the conversation's memory then removes any value that
  // only context showed to be a secret (a bare code typed after "read me the code").
  const built = deps.buildPacket({
    items: [...intent.items],
    decision: { reason: intent.reason, evidence: intent.evidence },
    ...(intent.summary === null ? {} : { summary: intent.summary }),
    transcriptRef: conversationId,
  });
  const packet = deps.redact.scrub(built, conversationId);
  await gateway.record(conversationId, [{ type: 'packet.built', data: { packet } }]);
  // After a safety message the customer has been told; nothing more is sent on top of it.
  const queue = await placeInQueue(deps, moved.conversation, target.id, intent.reason, urgent ? false : intent.message);
  return { type: 'to_queue', target, packet, queue };
}

/**
 * The router places a conversation whose hand-off was applied (`HANDOFF_PENDING`) and the system
 * tells the customer what happens next. Also the recovery step for a hand-off a crash left pending.
 */
export async function placeInQueue(
  deps: Pick<HandoffDeps, 'gateway' | 'router' | 'redact'>,
  conversation: Conversation,
  asked: QueueId,
  reason: HandoffReason,
  /** The harness's own message for the customer, null for the router's notice, false to say nothing. */
  message: string | null | false,
): Promise<QueueId> {
  if (conversation.state !== 'HANDOFF_PENDING') return asked;
  const decision = await deps.router.route({ conversation, queue: asked, reason });
  const queued = await deps.gateway.enqueue(conversation.id, decision.queue, conversation);
  if (queued.ok && message !== false) {
    await deps.gateway.send(conversation.id, { type: 'system' }, deps.redact.outbound(message ?? decision.notice, conversation.id));
  }
  return decision.queue;
}
