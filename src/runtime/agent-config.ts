import type { AgentId, DecisionRule, QueueId } from '../core/index.js';
import type { HandoffGraph } from './handoff-tool.js';
import type { OutputGuardrail } from './output-guardrails.js';
import type { Tool } from './tool.js';
import type { SandboxLimits } from './tool-executor.js';

/** Budgets of one conversation; past any of them the conversation goes to a human. */
export interface AgentBudget {
  /** Policy proposals per customer turn before `step_limit`. */
  maxSteps: number;
  /** Model calls over the whole conversation. */
  maxModelCalls: number;
  /** Prompt plus completion tokens over the whole conversation. */
  maxTokens: number;
  /** Wall time of one turn (ms); the model call in flight is aborted when it passes. */
  maxTurnMs: number;
  /** Wall time the agent may spend over the whole conversation (ms). */
  maxConversationMs: number;
}

export const DEFAULT_BUDGET: AgentBudget = {
  maxSteps: 12,
  maxModelCalls: 200,
  maxTokens: 400_000,
  maxTurnMs: 120_000,
  maxConversationMs: 30 * 60_000,
};

/** One support agent: what it is told, what it may call, where it may hand off. */
export interface AgentConfig {
  id: AgentId;
  /** The domain policy text the agent works under. */
  instructions: string;
  tools: readonly Tool[];
  /** Its edges in the hand-off graph. */
  handoff: HandoffGraph;
  /** Where a hand-off goes when no better target is known (budgets, provider failure, caps). */
  defaultQueue: QueueId;
  /** Accept tau2-bench's `transfer_to_human_agents {summary}` as the hand-off action. */
  tau2TransferAlias?: boolean;
  rules?: readonly DecisionRule[];
  outputGuardrails?: readonly OutputGuardrail[];
  budget?: Partial<AgentBudget>;
  sandbox?: Partial<SandboxLimits>;
  /** Agent-to-agent transfers allowed per conversation; past it the hand-off goes to a human. */
  maxAgentTransfers?: number;
}

/** What the customer is told when the conversation goes to a person for a reason of the harness's own. */
export const HOLDING_MESSAGE =
  "I'm having trouble completing this myself, so I'm passing you to a colleague. They will see everything we've discussed, so you won't need to repeat yourself.";
