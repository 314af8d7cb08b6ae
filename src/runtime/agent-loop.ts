import {
  ABUSE_RESPONSE,
  DEFAULT_OWNERSHIP_POLICY,
  blockingConstraint,
  detectAbuse,
  findingsFrom,
  HandoffReasonSchema,
  type Clock,
  type Conversation,
  type DeciderReason,
  type HandoffReason,
  type HandoffTarget,
  type Policy,
  type TokenUsage,
  type ToolCall,
  type TranscriptItem,
} from '../core/index.js';
import { DEFAULT_BUDGET, HOLDING_MESSAGE, type AgentConfig } from './agent-config.js';
import { buildChatMessages } from './chat-context.js';
import { HANDOFF_TOOL, handoffSchema, handoffToolSpecs, resolveTarget, TAU2_TRANSFER_TOOL, Tau2TransferSchema } from './handoff-tool.js';
import { DEFAULT_OUTPUT_GUARDRAILS } from './output-guardrails.js';
import { toolSpec, type Tool } from './tool.js';
import { DEFAULT_SANDBOX, executeToolCall, type ToolOutcome } from './tool-executor.js';

/** The decider's answer as the harness needs it. */
export interface DeciderVerdict {
  handoff: boolean;
  reason: DeciderReason | null;
  target: string | null;
  evidence: string | null;
  /** A fixed message to send instead of calling the model (safety). */
  response?: string | null;
}

/** When the harness consults the decider. */
export type DeciderPhase = 'input' | 'before_write' | 'after_tool';

/** Everything the harness consulted or did in one step, for the trajectory. */
export type StepRecord =
  | { type: 'decider'; phase: DeciderPhase; verdict: DeciderVerdict }
  | { type: 'model'; content: string | null; toolCalls: ToolCall[]; usage: TokenUsage }
  | { type: 'model_failed'; kind: string; message: string }
  | { type: 'tool'; call: ToolCall; outcome: ToolOutcome }
  | { type: 'guardrail'; guardrail: string; evidence: string };

/** What a conversation has spent so far; the caller keeps it between turns. */
export interface Spent {
  modelCalls: number;
  tokens: number;
  /** Wall time of the agent's turns (ms). */
  wallMs: number;
}

export interface TurnInput {
  conversation: Pick<Conversation, 'id' | 'constraints' | 'agentTransferCount'>;
  /** The conversation so far, ending with the customer's new message. */
  transcript: readonly TranscriptItem[];
  spent?: Spent;
  /** Where the decider's view starts: the first item since the agent last took the conversation over. */
  deciderFrom?: number;
  /** Resumes a turn that ended in `needs_approval`, with the human's decision on that call. */
  resume?: { call: ToolCall; approved: boolean; feedback?: string };
}

export interface HarnessDeps {
  policy: Policy;
  /**
   * The hand-off decider (see `harnessDecider`): run on the customer's turn before any model call,
   * on every proposed write before it runs, and after every tool call. It sees the conversation
   * since the agent last took it over (`deciderFrom`), so what a human already dealt with does
   * not fire again.
   */
  decide: (items: readonly TranscriptItem[], context: { phase: DeciderPhase }) => DeciderVerdict | Promise<DeciderVerdict>;
  clock: Clock;
}

interface Common {
  /** The transcript with this turn's tool calls (and reply) appended. */
  transcript: TranscriptItem[];
  steps: StepRecord[];
  spent: Spent;
}

/** How a turn ended: data, never a throw. */
export type TurnResult =
  | (Common & { type: 'reply'; text: string })
  | (Common & {
      type: 'needs_approval';
      /** The call waiting for a human; resume the turn with `resume: {call, approved}`. */
      call: ToolCall;
      args: Record<string, unknown>;
      why: string;
    })
  | (Common & {
      type: 'handoff';
      target: HandoffTarget;
      reason: HandoffReason;
      summary: string;
      evidence: string | null;
      /** A message for the customer before the hand-off (holding or safety message), if any. */
      message: string | null;
      /** Who decided: the model's hand-off action, the decider, or the harness's own limits. */
      decidedBy: 'model' | 'decider' | 'harness';
    });

/**
 * One agent turn. The model proposes; the harness disposes: the decider runs before any model
 * call (hard triggers skip the model entirely) and after every tool; tool calls are validated,
 * checked and sandboxed; the hand-off is a typed action that ends the turn at once; step, call,
 * token and time budgets, provider failures and output guardrails all end in a hand-off with a
 * reason rather than an exception.
 */
export async function runTurn(agent: AgentConfig, input: TurnInput, deps: HarnessDeps): Promise<TurnResult> {
  const budget = { ...DEFAULT_BUDGET, ...agent.budget };
  const sandbox = { ...DEFAULT_SANDBOX, ...agent.sandbox };
  const transcript = [...input.transcript];
  const steps: StepRecord[] = [];
  const turnStart = deps.clock.now();
  const before: Spent = input.spent ?? { modelCalls: 0, tokens: 0, wallMs: 0 };
  const spent = { modelCalls: before.modelCalls, tokens: before.tokens };
  const tools = new Map<string, Tool>(agent.tools.map((t) => [t.name, t]));
  const specs = [...agent.tools.map(toolSpec), ...handoffToolSpecs(agent.handoff, agent.tau2TransferAlias ?? false)];
  const elapsed = () => deps.clock.now() - turnStart;
  const timeLeft = () => Math.min(budget.maxTurnMs - elapsed(), budget.maxConversationMs - before.wallMs - elapsed());
  const common = () => ({ transcript, steps, spent: { ...spent, wallMs: before.wallMs + elapsed() } });

  const handoff = (
    reason: HandoffReason,
    decidedBy: 'model' | 'decider' | 'harness',
    extra: { target?: HandoffTarget; summary?: string; evidence?: string | null; message?: string | null } = {},
  ): TurnResult => ({
    ...common(),
    type: 'handoff',
    reason,
    decidedBy,
    target: extra.target ?? { type: 'queue', id: agent.defaultQueue },
    summary: extra.summary ?? `Handed off (${reason}).`,
    evidence: extra.evidence ?? null,
    message: extra.message ?? null,
  });
  const fromDecider = (verdict: DeciderVerdict): TurnResult => {
    const target = (verdict.target && resolveTarget(agent.handoff, verdict.target)) || undefined;
    return handoff(verdict.reason ?? 'agent_decision', 'decider', {
      ...(target ? { target } : {}),
      evidence: verdict.evidence,
      message: verdict.response ?? null,
    });
  };
  const consultDecider = async (phase: DeciderPhase, extra: readonly TranscriptItem[] = []) => {
    const verdict = await deps.decide([...transcript.slice(input.deciderFrom ?? 0), ...extra], { phase });
    steps.push({ type: 'decider', phase, verdict });
    return verdict;
  };
  // A write whose amount is above the autonomous limit goes to a person before it runs: the
  // decider sees the proposed call as if it were in the log, and only value_threshold counts here.
  const beforeWrite = async (call: ToolCall): Promise<TurnResult | null> => {
    if (tools.get(call.name)?.kind !== 'write') return null;
    let args: unknown;
    try {
      args = JSON.parse(call.arguments || '{}');
    } catch {
      return null;
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args)) return null;
    // A call a person ruled out is refused by the tool layer; it is no reason to escalate.
    if (blockingConstraint(input.conversation.constraints, call.name, args as Record<string, unknown>)) return null;
    const proposed: TranscriptItem = {
      role: 'tool',
      name: call.name,
      arguments: args as Record<string, unknown>,
      ok: true,
      output: '(proposed, not executed)',
    };
    const verdict = await consultDecider('before_write', [proposed]);
    return verdict.handoff && verdict.reason === 'value_threshold' ? fromDecider(verdict) : null;
  };

  const execute = async (call: ToolCall, approved?: boolean, feedback?: string): Promise<TurnResult | null> => {
    const stop = await beforeWrite(call);
    if (stop) return stop;
    const outcome = await executeToolCall(call, {
      conversationId: input.conversation.id,
      tools,
      transcript,
      constraints: input.conversation.constraints,
      rules: agent.rules ?? [],
      findings: findingsFrom(transcript),
      // A tool call may not outlast the turn's (or the conversation's) remaining time.
      limits: { ...sandbox, timeoutMs: Math.max(1, Math.min(sandbox.timeoutMs, timeLeft())) },
      ...(approved === undefined ? {} : { approved }),
      ...(feedback === undefined ? {} : { feedback }),
    });
    steps.push({ type: 'tool', call, outcome });
    if (outcome.status === 'needs_approval') return { ...common(), type: 'needs_approval', call, args: outcome.args, why: outcome.why };
    transcript.push({
      role: 'tool',
      name: call.name,
      arguments: outcome.args ?? {},
      ok: outcome.status === 'succeeded',
      output: outcome.output,
      ...(outcome.status === 'refused' ? { refused: outcome.why } : {}),
    });
    const verdict = await consultDecider('after_tool');
    return verdict.handoff ? fromDecider(verdict) : null;
  };

  if (input.resume) {
    const ended = await execute(input.resume.call, input.resume.approved, input.resume.feedback);
    if (ended) return ended;
  } else {
    // Input guardrails: before any model call. A hard trigger never reaches the model.
    const first = await consultDecider('input');
    if (first.handoff) return fromDecider(first);
    const abusive = abuseInLatestTurn(transcript);
    if (abusive) {
      steps.push({ type: 'guardrail', guardrail: 'abuse', evidence: abusive.evidence });
      // The first time, a fixed answer that sets a boundary; if it goes on, a person takes over.
      if (abusive.earlier > 0) return handoff('guardrail', 'harness', { evidence: `abuse: ${abusive.evidence}` });
      transcript.push({ role: 'agent', text: ABUSE_RESPONSE });
      return { ...common(), type: 'reply', text: ABUSE_RESPONSE };
    }
  }

  for (let step = 0; step < budget.maxSteps; step += 1) {
    if (spent.modelCalls >= budget.maxModelCalls || spent.tokens >= budget.maxTokens) {
      return handoff('budget_exhausted', 'harness', {
        message: HOLDING_MESSAGE,
        evidence: `spent ${spent.modelCalls} model calls, ${spent.tokens} tokens`,
      });
    }
    const remaining = timeLeft();
    if (remaining <= 0) {
      return handoff('budget_exhausted', 'harness', {
        message: HOLDING_MESSAGE,
        evidence: `time budget spent (turn ${elapsed()} ms of ${budget.maxTurnMs}; conversation ${before.wallMs + elapsed()} ms of ${budget.maxConversationMs})`,
      });
    }

    spent.modelCalls += 1;
    const response = await deps.policy.next({
      messages: buildChatMessages(agent, input.conversation.constraints, transcript),
      tools: specs,
      signal: AbortSignal.timeout(remaining),
    });
    if (!response.ok) {
      steps.push({ type: 'model_failed', kind: response.failure.kind, message: response.failure.message });
      return handoff('provider_down', 'harness', {
        message: HOLDING_MESSAGE,
        evidence: `${response.failure.kind}: ${response.failure.message}`,
      });
    }
    spent.tokens += response.usage.promptTokens + response.usage.completionTokens;
    steps.push({ type: 'model', content: response.content, toolCalls: response.toolCalls, usage: response.usage });

    // The hand-off action wins over everything else the model proposed in the same step.
    const transfer = response.toolCalls.find((c) => c.name === HANDOFF_TOOL || (agent.tau2TransferAlias && c.name === TAU2_TRANSFER_TOOL));
    if (transfer) {
      const result = modelHandoff(agent, input, transfer, handoff);
      if (result) return result;
      transcript.push({ role: 'tool', name: transfer.name, arguments: {}, ok: false, output: invalidHandoffText(agent, transfer) });
      continue;
    }

    if (response.toolCalls.length === 0) {
      const text = response.content ?? '';
      for (const guardrail of agent.outputGuardrails ?? DEFAULT_OUTPUT_GUARDRAILS) {
        const trip = guardrail(text, transcript);
        if (!trip) continue;
        steps.push({ type: 'guardrail', ...trip });
        return handoff('guardrail', 'harness', { message: HOLDING_MESSAGE, evidence: `${trip.guardrail}: ${trip.evidence}` });
      }
      transcript.push({ role: 'agent', text });
      return { ...common(), type: 'reply', text };
    }

    for (const call of response.toolCalls) {
      const ended = await execute(call);
      if (ended) return ended;
    }
  }
  return handoff('step_limit', 'harness', { message: HOLDING_MESSAGE, evidence: `no reply after ${budget.maxSteps} steps` });
}

/** Abuse in the customer's latest turn, and how many earlier customer turns were abusive. */
function abuseInLatestTurn(transcript: readonly TranscriptItem[]): { evidence: string; earlier: number } | null {
  const turns = transcript.filter((i): i is Extract<TranscriptItem, { role: 'customer' }> => i.role === 'customer');
  const latest = turns.at(-1);
  const evidence = latest ? detectAbuse(latest.text) : null;
  if (!evidence) return null;
  return { evidence, earlier: turns.slice(0, -1).filter((t) => detectAbuse(t.text) !== null).length };
}

/** The model's own hand-off, validated; null when its arguments are invalid (shown back to the model). */
function modelHandoff(
  agent: AgentConfig,
  input: TurnInput,
  call: ToolCall,
  handoff: (
    reason: HandoffReason,
    by: 'model',
    extra: { target?: HandoffTarget; summary?: string; evidence?: string | null },
  ) => TurnResult,
): TurnResult | null {
  let raw: unknown;
  try {
    raw = JSON.parse(call.arguments || '{}');
  } catch {
    return null;
  }
  if (call.name === TAU2_TRANSFER_TOOL) {
    const parsed = Tau2TransferSchema.safeParse(raw);
    return parsed.success
      ? handoff('agent_decision', 'model', { summary: parsed.data.summary, evidence: `${TAU2_TRANSFER_TOOL} called` })
      : null;
  }
  const parsed = handoffSchema(agent.handoff).safeParse(raw);
  if (!parsed.success) return null;
  let target = resolveTarget(agent.handoff, parsed.data.target);
  let evidence = `the model chose ${parsed.data.target}`;
  // Past the cap of agent-to-agent transfers the conversation goes to a human, whatever the model wants.
  if (
    target?.type === 'agent' &&
    input.conversation.agentTransferCount >= (agent.maxAgentTransfers ?? DEFAULT_OWNERSHIP_POLICY.maxAgentTransfers)
  ) {
    evidence = `agent-to-agent transfer cap reached; ${parsed.data.target} replaced by ${agent.defaultQueue}`;
    target = { type: 'queue', id: agent.defaultQueue };
  }
  return handoff(HandoffReasonSchema.parse(parsed.data.reason), 'model', {
    ...(target ? { target } : {}),
    summary: parsed.data.summary,
    evidence,
  });
}

function invalidHandoffText(agent: AgentConfig, call: ToolCall): string {
  const targets = [...agent.handoff.queues, ...agent.handoff.agents].join(', ');
  return `Error: invalid arguments for ${call.name}. It needs {target: one of ${targets}; reason; summary (non-empty)}. Nothing was done.`;
}
