import type { Conversation, Policy, RecordEventDraft, StoredEvent } from '../../core/index.js';
import type { AgentConfig } from '../agent-config.js';
import { runTurn, type TurnResult } from '../agent-loop.js';
import { transcriptFromLog } from '../transcript-from-log.js';
import type { TurnDeps } from './agent-turn.js';
import { turnRecords } from './turn-records.js';

/** The decider's verdict when there is nothing for it to decide: a person owns the conversation or a hand-off is under way. */
const NO_HANDOFF = async () => ({ handoff: false, reason: null, target: null, evidence: null });

/**
 * A turn beside the agent's own work — holding the customer company while a person is awaited,
 * or drafting for the person who owns the conversation: `agent` (already narrowed to its
 * read-only tools) runs on the log with no decider, and its records are ready to store with what
 * the turn says or proposes. Nothing is sent here.
 */
export async function sideTurn(
  deps: TurnDeps,
  input: { conversation: Conversation; events: readonly StoredEvent[]; agent: AgentConfig; policy: Policy },
): Promise<{ result: TurnResult; records: RecordEventDraft[]; upTo: number }> {
  const { conversation, events, agent } = input;
  const transcript = transcriptFromLog(events, deps.raw);
  const before = transcript.length;
  const result = await runTurn(agent, { conversation, transcript }, { policy: input.policy, decide: NO_HANDOFF, clock: deps.clock });
  const upTo = events.at(-1)?.seq ?? 0;
  const records = turnRecords({
    conversationId: conversation.id,
    agent: agent.id,
    before,
    result,
    spentBefore: { modelCalls: 0, tokens: 0, wallMs: 0 },
    redact: deps.redact,
    upTo,
  });
  return { result, records, upTo };
}
