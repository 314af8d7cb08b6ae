import type { AgentId, RecordEventDraft, TranscriptItem } from '../../core/index.js';
import type { Spent, TurnResult } from '../agent-loop.js';
import type { Redactor } from './redactor.js';

/**
 * What one agent turn leaves in the log, redacted: each tool call with its arguments and its
 * result as the model saw them, each decider verdict with its evidence, and what the turn spent.
 * Raw values (a one-time code, a card number) lived only in memory for the call that needed them.
 */
export function turnRecords(input: {
  conversationId: string;
  agent: AgentId;
  /** Transcript items before this turn: the turn's own items follow them. */
  before: number;
  result: TurnResult;
  spentBefore: Spent;
  redact: Redactor;
  /** The last log position the turn read. */
  upTo: number;
}): RecordEventDraft[] {
  const { agent, result, redact } = input;
  const drafts: RecordEventDraft[] = [];
  for (const item of result.transcript.slice(input.before)) {
    if (item.role !== 'tool') continue;
    drafts.push({
      type: 'tool.called',
      data: {
        agent,
        name: item.name,
        arguments: redact.args(item.arguments, input.conversationId),
        ok: item.ok,
        output: redact.text(item.output, input.conversationId),
        ...(item.refused === undefined ? {} : { refused: item.refused }),
      },
    });
  }
  for (const step of result.steps) {
    if (step.type !== 'decider') continue;
    const { verdict } = step;
    drafts.push({
      type: 'decider.evaluated',
      data: {
        phase: step.phase,
        handoff: verdict.handoff,
        reason: verdict.reason,
        target: verdict.target,
        evidence: verdict.evidence === null ? null : redact.text(verdict.evidence, input.conversationId),
      },
    });
  }
  drafts.push({
    type: 'turn.completed',
    data: {
      agent,
      outcome: result.type,
      modelCalls: result.spent.modelCalls - input.spentBefore.modelCalls,
      tokens: result.spent.tokens - input.spentBefore.tokens,
      wallMs: result.spent.wallMs - input.spentBefore.wallMs,
      upTo: input.upTo,
    },
  });
  return drafts;
}

/** The transcript items a turn added (its tool calls and reply), for observers. */
export const turnItems = (result: TurnResult, before: number): TranscriptItem[] => result.transcript.slice(before);
