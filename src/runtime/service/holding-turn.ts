import { type ChatMessage, type ConversationId, type Policy, type PolicyResponse } from '../../core/index.js';
import type { AgentConfig } from '../agent-config.js';
import type { TurnDeps, TurnOutcome } from './agent-turn.js';
import { UNKNOWN_WAIT, type WaitInfo } from './handoff-router.js';
import { sideTurn } from './side-turn.js';

/** Holding mode in words: what the agent may and may not do while the customer waits for a person. */
export function holdingInstructions(wait: WaitInfo): string {
  const estimate =
    wait.estimateMs === null
      ? 'Nobody can say yet how long the wait will be: do not guess or promise a time.'
      : `The estimated wait is about ${Math.max(1, Math.round(wait.estimateMs / 60_000))} minute(s).`;
  const position = wait.position === null ? '' : ` The customer is number ${wait.position} in the queue.`;
  const hours = wait.hours === null ? '' : ` The team's opening hours: ${wait.hours}.`;
  return (
    'HOLDING MODE. This conversation is waiting for a human colleague, who will see everything said so far. ' +
    'Keep the customer company: tell them the wait as it is, answer simple questions (opening hours, what is already known) ' +
    'with the read-only tools you have, and say that a colleague will take up everything else. Do not try to solve their problem ' +
    `and do not make changes: you have no tools that change anything.${position} ${estimate}${hours}`
  );
}

/** The read-only part of an agent: in holding mode the write tools are not there at all. */
export function holdingAgent(agent: AgentConfig, wait: WaitInfo): AgentConfig {
  return {
    ...agent,
    instructions: `${holdingInstructions(wait)}\n\n${agent.instructions}`,
    tools: agent.tools.filter((t) => t.kind === 'read'),
    // Holding is talk, not work: a few steps at most.
    budget: { ...agent.budget, maxSteps: 3 },
  };
}

const HOURS = /\b(?:open|opening|hours|close|closing|when (?:are|is) (?:you|someone|the team)|what time|business hours)\b/i;
const STATUS = /\b(?:how long|wait|waiting|still there|anyone|anybody|when will|position|queue)\b/i;

/**
 * The holding policy of a rule-based agent, which knows how to do its job but not how to wait:
 * the wait as it is known, the opening hours when asked, and that a colleague takes up the rest.
 * It reads its facts from the holding instructions, so it says nothing the router did not back.
 */
export function holdingPolicy(): Policy {
  return {
    name: 'holding',
    next: async ({ messages }): Promise<PolicyResponse> => {
      const system = messages.find((m): m is Extract<ChatMessage, { role: 'system' }> => m.role === 'system')?.content ?? '';
      const asked = messages.findLast((m) => m.role === 'user')?.content ?? '';
      const hours = /The team's opening hours: ([^.]+)\./.exec(system)?.[1];
      const estimate = /The estimated wait is about (\d+) minute/.exec(system)?.[1];
      const position = /number (\d+) in the queue/.exec(system)?.[1];
      const wait = estimate
        ? `The wait is about ${estimate} minute${estimate === '1' ? '' : 's'}${position ? ` and you are number ${position} in the queue` : ''}.`
        : `I can't tell you yet how long the wait will be${position ? `, but you are number ${position} in the queue` : ''}.`;
      let content: string;
      if (HOURS.test(asked)) content = hours ? `Our team is available ${hours}. ${wait}` : `I don't have the team's hours to hand. ${wait}`;
      else if (STATUS.test(asked)) content = `You're still in the queue for a colleague. ${wait}`;
      else content = `A colleague will take this up when they join; they will see everything you've written. ${wait}`;
      return { ok: true, content, toolCalls: [], usage: { promptTokens: 0, completionTokens: 0 } };
    },
  };
}

/**
 * The agent's turn while the conversation waits for a person (`HANDOFF_PENDING`, `QUEUED`): read-only
 * tools, the holding instructions with what the router knows of the wait, no hand-off (it is
 * under way), and the reply sent by the system, which is who may speak while a queue owns the
 * conversation. The same holding message is never sent twice in a row.
 */
export async function holdingTurn(
  deps: TurnDeps & { holdingPolicyFor: (agent: AgentConfig) => Policy },
  conversationId: ConversationId,
): Promise<TurnOutcome> {
  const { gateway } = deps;
  const conversation = await gateway.store.getConversation(conversationId);
  if (!conversation) return { type: 'not_found' };
  if (conversation.state !== 'QUEUED' && conversation.state !== 'HANDOFF_PENDING') return { type: 'not_agent', state: conversation.state };
  const events = await gateway.store.listEvents(conversationId);
  const agent = deps.agents.get(conversation.agentId);
  if (!agent) return { type: 'not_agent', state: conversation.state };
  const wait = (await deps.router.waitInfo?.(conversation)) ?? UNKNOWN_WAIT;
  // The hand-off is under way: the decider has nothing to add, and the model's own hand-off is refused below.
  const { result, records } = await sideTurn(deps, {
    conversation,
    events,
    agent: holdingAgent(agent, wait),
    policy: deps.holdingPolicyFor(agent),
  });
  const lastSaid = events.findLast((e) => e.type === 'message.sent')?.data;
  const text =
    result.type === 'reply' && result.text.trim() !== ''
      ? result.text
      : 'A colleague will take this up when they join; they will see everything you have written.';
  const said = lastSaid && 'message' in lastSaid ? lastSaid.message.text : null;
  // Never the same holding message twice in a row: say only that nothing has changed.
  const reply =
    said === deps.redact.outbound(text, conversationId) ? 'Nothing has changed yet: you are still in the queue for a colleague.' : text;
  const sent = await gateway.send(conversationId, { type: 'system' }, deps.redact.outbound(reply, conversationId), records);
  return { type: 'reply', delivered: sent.ok && sent.delivered, text: reply };
}
