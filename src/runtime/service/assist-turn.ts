import type { ConversationId } from '../../core/index.js';
import type { AgentConfig } from '../agent-config.js';
import type { TurnDeps, TurnOutcome } from './agent-turn.js';
import { sideTurn } from './side-turn.js';

/** Assisted mode in words: the agent drafts for the person, who decides what is sent. */
export const ASSIST_INSTRUCTIONS =
  'ASSIST MODE. A human colleague owns this conversation and will read your reply as a draft: they edit it and decide whether to send it. ' +
  'Write the reply you would send the customer now. Look things up with the read-only tools you have; you cannot change anything, and you cannot hand off.';

/** The read-only part of an agent, drafting: write tools are not there at all. */
export function assistAgent(agent: AgentConfig): AgentConfig {
  return {
    ...agent,
    instructions: `${ASSIST_INSTRUCTIONS}\n\n${agent.instructions}`,
    tools: agent.tools.filter((t) => t.kind === 'read'),
  };
}

/**
 * The agent's turn while a person owns the conversation in assisted mode (`AGENT_ASSIST`): it
 * reads (read-only tools) and writes a draft, recorded in the log as `draft.proposed` beside the
 * turn's records. Nothing is sent to the customer, now or later: no timer sends a draft; only the
 * person's own reply does.
 */
export async function assistTurn(deps: TurnDeps, conversationId: ConversationId): Promise<TurnOutcome> {
  const { gateway } = deps;
  const conversation = await gateway.store.getConversation(conversationId);
  if (!conversation) return { type: 'not_found' };
  if (conversation.state !== 'AGENT_ASSIST') return { type: 'not_agent', state: conversation.state };
  const agent = deps.agents.get(conversation.agentId);
  if (!agent) return { type: 'not_agent', state: conversation.state };
  const events = await gateway.store.listEvents(conversationId);
  // A person owns the conversation: the decider's hand-off has nowhere to go.
  const { result, records, upTo } = await sideTurn(deps, {
    conversation,
    events,
    agent: assistAgent(agent),
    policy: deps.policyFor(agent),
  });
  // A draft a guardrail stopped is still shown, with the guardrail's name: the person decides.
  const lastModel = result.steps.findLast((step) => step.type === 'model');
  const tripped = result.steps.findLast((step) => step.type === 'guardrail');
  const text = result.type === 'reply' ? result.text : lastModel?.type === 'model' ? (lastModel.content ?? '') : '';
  await gateway.record(conversationId, [
    ...records,
    {
      type: 'draft.proposed',
      data: {
        agent: agent.id,
        text: deps.redact.outbound(text, conversationId),
        upTo,
        ...(tripped?.type === 'guardrail' ? { flagged: tripped.guardrail } : {}),
      },
    },
  ]);
  return { type: 'reply', delivered: false, text };
}
