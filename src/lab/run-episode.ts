/**
 * One lab episode: a simulated customer talks to an agent through the same gateway and harness
 * production runs (`createConversationService` over `createGateway`, `runTurn`), on the domain's tools over
 * the episode's own database. What is measured is what is deployed. The episode ends when the
 * customer stops (tau2-bench's tokens), after a hand-off, or at the turn or error limits, and is
 * scored by the evaluator.
 */
import {
  createIdGenerator,
  isHandoffToolName,
  DEFAULT_OWNERSHIP_POLICY,
  sanitizeGenerated,
  seededRandom,
  type AgentId,
  type Clock,
  type DeciderPolicy,
  type HandoffReason,
  type Policy,
  DeciderReasonSchema,
  type DeciderReason,
  type TranscriptItem,
} from '../core/index.js';
import type { Domain, DomainTask } from '../domains/domain.js';
import {
  driftedDeciderPolicy,
  driftingEpisode,
  driftingRules,
  withDriftNotices,
  type DriftEvent,
  type ScheduledDrift,
} from '../domains/drift.js';
import { evaluate, type EvaluateOptions, type Evaluation } from '../domains/evaluator.js';
import { OPENING_MESSAGE, type TerminationReason, type Trajectory, type TrajectoryMessage } from '../domains/trajectory.js';
import type { DeciderPhase, DeciderVerdict, TurnResult } from '../runtime/agent-loop.js';
import type { ToolContext } from '../runtime/tool.js';
import { createGateway } from '../runtime/gateway.js';
import { HANDOFF_TOOL } from '../runtime/handoff-tool.js';
import { agentDomainTools, defaultQueueOf, domainAgentConfig, domainHarnessTools, domainPacketBuilder } from '../runtime/domain-agent.js';
import { harnessDecider } from '../runtime/harness-decider.js';
import { createConversationService } from '../runtime/service/conversation-service.js';
import { TRANSFER_NOTICE } from '../runtime/service/handoff-router.js';
import { MemoryStore } from '../store/memory-store.js';
import type { Store } from '../store/store.js';
import type { CustomerView, UserSimulator } from './user.js';
import type { HandoffVariant } from './variant.js';

/** The agent's id in every lab conversation. */
export const LAB_AGENT = 'agent_lab' as AgentId;

export interface EpisodeAgent {
  /** `rule`, `llm`, `oracle`, … as results name it. */
  name: string;
  policy: Policy;
  /** False: the harness's decider never hands off and the agent has no hand-off (`never-transfer`). */
  handoff: boolean;
  /**
   * The harness asks for the customer's explicit yes before writes (production's setting). The
   * oracle, which replays a task's gold actions without a dialogue, runs with it off.
   */
  confirmWrites: boolean;
  /**
   * The harness checks replies before they reach the customer (production's setting: default on).
   * The oracle says what a task expects communicated without the dialogue that would back it, so
   * it runs with them off.
   */
  outputGuardrails?: boolean;
}

/** How the harness treats a reference agent: the oracle replays answers it was given, so checks meant for models are off. */
export function episodeAgent(name: string, policy: Policy): EpisodeAgent {
  const oracle = name === 'oracle';
  return { name, policy, handoff: !oracle && name !== 'never-transfer', confirmWrites: !oracle, outputGuardrails: !oracle };
}

export interface RunEpisodeOptions {
  domain: Domain;
  task: DomainTask;
  /** The hand-off variant the customer plays, or null for the plain task. */
  variant: HandoffVariant | null;
  agent: EpisodeAgent;
  user: UserSimulator;
  /** Where the conversation is kept (a fresh in-memory store by default). */
  store?: Store;
  /** Seeds the conversation's ids; the same seed gives the same run. */
  seed: number;
  /** The customer's turns at most (tau2-bench's step limit, counted in customer turns). */
  maxCustomerTurns?: number;
  /** Model steps in one agent turn at most (default 40). */
  maxStepsPerTurn?: number;
  /** Tool errors over the whole run that end it (`too_many_errors`; tau2-bench's default is 10). */
  maxErrors?: number;
  evaluate?: EvaluateOptions;
  /**
   * True once the agent has ended the conversation (an environment's `end` action): the turn in
   * progress keeps its tool calls and last words, but neither a hand-off the harness made after
   * them (the agent gave no further step) nor another customer turn; the episode ends as `agent_stop`.
   */
  endedByAgent?: () => boolean;
  /**
   * A policy drift the task schedules (src/domains/drift.ts): from its customer turn on, the agent's
   * system prompt carries the notice, the tools and rules are the new policy's, and the evaluator
   * scores against it.
   */
  drift?: ScheduledDrift;
  /**
   * A supervisor who reviews the agent's high-risk actions (writes that need the customer's yes)
   * before they run: an approved call runs, a rejected one does not and its feedback is the
   * tool result the agent reads (src/lab/hierarchy/). The answer may take its time (a trainer
   * playing the supervisor): the call waits for it, with no tool time limit.
   */
  review?: (call: ProposedReview) => ReviewAnswer | Promise<ReviewAnswer>;
}

/** A call put to the supervisor: the tool, its arguments, and the customer turn it came in. */
export interface ProposedReview {
  name: string;
  args: Readonly<Record<string, unknown>>;
  turn: number;
}

/**
 * A supervisor's answer to one proposed action: approve (it runs), reject with feedback (the agent
 * reads it), or take over (it does not run, and the conversation goes to people at once: the
 * queue the task's label names, else the domain's default). `escalation`: the supervisor passed
 * the call to the manager (with its reason), whose decision this is.
 */
export type ReviewAnswer = ({ verdict: 'approve' } | { verdict: 'reject'; feedback: string } | { verdict: 'take_over' }) & {
  escalation?: { reason: string };
};

/** How long a reviewed call may wait for its answer: a day (the environment's idle timeout ends a silent trainer first). */
const REVIEW_WAIT_MS = 24 * 60 * 60 * 1000;

/** One review made in an episode: the call (by its id in the trajectory) and the answer. */
export interface EpisodeReview {
  callId: string;
  name: string;
  args: Readonly<Record<string, unknown>>;
  turn: number;
  answer: ReviewAnswer;
}

/** The tool result the agent reads for a rejected call. */
export const REVIEW_REJECTED = 'Not approved by your supervisor:';
/** The tool result the agent reads for a call its supervisor answered by taking the conversation over. */
export const REVIEW_TAKEN_OVER = 'Not executed: your supervisor has taken this conversation over.';

export interface EpisodeResult {
  domain: string;
  taskId: string;
  variantId: string | null;
  agent: string;
  style: string;
  termination: TerminationReason;
  trajectory: Trajectory;
  evaluation: Evaluation;
  /** Customer turns written (the stop token included). */
  customerTurns: number;
  /** The hand-off, as the harness carried it out: the customer turn it answered, why and to whom. */
  handoff: {
    turn: number;
    reason: HandoffReason;
    target: string;
    decidedBy: 'model' | 'decider' | 'harness';
    evidence: string | null;
  } | null;
  /** The context packet built for the person who takes over. */
  packet: Record<string, unknown> | null;
  conversationId: string;
  /** Why the simulated customer failed, when the episode ended with `user_error`. */
  userError: string | null;
  /** The drift the task scheduled: its event, its turn, and whether the episode reached that turn. */
  drift: { event: string; turn: number; fired: boolean } | null;
  /** The supervisor's reviews, in order (empty without one). */
  reviews: EpisodeReview[];
}

/**
 * The policy with the notices of the events fired so far at the end of its system prompt: what
 * the agent is told when the rules change.
 */
function noticedPolicy(policy: Policy, fired: () => readonly DriftEvent[]): Policy {
  return {
    name: policy.name,
    next: (request) => {
      const events = fired();
      if (events.length === 0) return policy.next(request);
      const messages = request.messages.map((m, i) =>
        i === 0 && m.role === 'system' ? { ...m, content: withDriftNotices(m.content, events) } : m,
      );
      return policy.next({ ...request, messages });
    },
  };
}

export { agentDomainTools };

const parseArgs = (text: string): Record<string, unknown> => {
  try {
    const value: unknown = JSON.parse(text || '{}');
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

/**
 * Appends one agent turn to the trajectory: each model step's tool calls with their results (a
 * call the harness refused, or that an injected outage failed, is marked `executed: false` so the
 * evaluator does not replay it), then the hand-off as a `handoff` call, or the reply the customer
 * received.
 */
function appendTurn(
  messages: TrajectoryMessage[],
  result: TurnResult,
  executed: ReadonlyMap<string, { injected: boolean }>,
  turn: number,
  applied: boolean,
  endedByAgent = false,
): void {
  const outcomes = new Map(result.steps.flatMap((s) => (s.type === 'tool' ? [[s.call.id, s.outcome] as const] : [])));
  const modelSteps = result.steps.filter((s) => s.type === 'model' && s.toolCalls.length > 0);
  // The hand-off that happened is in the step that ended the turn; an invalid one earlier was refused.
  const last = modelSteps.at(-1);
  const applied_call =
    result.type === 'handoff' && result.decidedBy === 'model' && last?.type === 'model'
      ? last.toolCalls.find((c) => isHandoffCall(c.name))
      : undefined;
  let handoffCallId: string | null = null;
  for (const step of modelSteps) {
    if (step.type !== 'model') continue;
    messages.push({
      role: 'assistant',
      content: step.content,
      toolCalls: step.toolCalls.map((c) => ({
        id: c.id,
        name: c.name,
        arguments: parseArgs(c.arguments),
        requestor: 'assistant' as const,
      })),
    });
    for (const call of step.toolCalls) {
      const outcome = outcomes.get(call.id);
      if (outcome) {
        const ran = executed.get(call.id);
        const reached = (outcome.status === 'succeeded' || outcome.status === 'failed') && ran !== undefined && !ran.injected;
        messages.push({
          role: 'tool',
          id: call.id,
          content: outcome.output,
          error: outcome.status !== 'succeeded',
          requestor: 'assistant',
          executed: reached,
          ...(outcome.status === 'refused' ? { refusal: outcome.why } : {}),
        });
      } else if (call === applied_call) {
        handoffCallId = call.id;
        messages.push({
          role: 'tool',
          id: call.id,
          content: applied ? 'Transfer successful' : 'Error: the hand-off was refused',
          error: !applied,
          requestor: 'assistant',
        });
      } else if (isHandoffCall(call.name)) {
        messages.push({
          role: 'tool',
          id: call.id,
          content: 'Error: invalid hand-off',
          error: true,
          requestor: 'assistant',
          executed: false,
          refusal: 'invalid_arguments',
        });
      } else {
        // Proposed with the hand-off, which ends the turn: never run, and no fault of the tool.
        const withHandoff = applied_call !== undefined && step === last;
        const content = withHandoff ? 'Not executed: the hand-off ended the turn' : 'Error: not executed';
        messages.push({ role: 'tool', id: call.id, content, error: !withHandoff, requestor: 'assistant', executed: false });
      }
    }
  }
  if (result.type === 'reply') {
    messages.push({ role: 'assistant', content: result.text, toolCalls: [] });
  } else if (result.type === 'handoff' && handoffCallId === null && !endedByAgent) {
    // The decider or the harness's own limits handed off: recorded as the hand-off action it is.
    const id = `handoff_turn_${turn}`;
    const args = { target: result.target.id, reason: result.reason, summary: result.summary };
    // The text is what the customer was shown with it: the harness's message, or the transfer notice.
    messages.push({
      role: 'assistant',
      content: result.message ?? (applied ? TRANSFER_NOTICE : null),
      toolCalls: [{ id, name: HANDOFF_TOOL, arguments: args, requestor: 'assistant' }],
    });
    messages.push({
      role: 'tool',
      id,
      content: applied ? 'Transfer successful' : 'Error: the hand-off was refused',
      error: !applied,
      requestor: 'assistant',
    });
  }
}

const isHandoffCall = isHandoffToolName;

type Decide = (items: readonly TranscriptItem[], context: { phase: DeciderPhase }) => Promise<DeciderVerdict>;

/** The decider, except that a supervisor's take-over (`taken` gives its evidence, once) hands off first. */
function takeOverFirst(decide: Decide, taken: () => string | null, target: { queue: string; reason: DeciderReason | null }): Decide {
  return async (items, context) => {
    const evidence = taken();
    if (evidence === null) return decide(items, context);
    return { handoff: true, reason: target.reason, target: target.queue, evidence, response: null };
  };
}

/** Where a take-over sends the conversation: the queue and reason the task's label names, else the domain's default queue. */
function takeOverTarget(domain: Domain, task: DomainTask): { queue: string; reason: DeciderReason | null } {
  const labelled = task.handoff.expected && domain.queues.some((q) => q.id === task.handoff.queue) ? task.handoff.queue : null;
  const reason = DeciderReasonSchema.safeParse(task.handoff.reason);
  return { queue: labelled ?? defaultQueueOf(domain), reason: labelled !== null && reason.success ? reason.data : null };
}

/** Never hands off: the decider of a `never-transfer` run. */
const silentDecider = async () => ({ handoff: false, reason: null, target: null, evidence: null, response: null });

/** The task as scored for a variant: the source's criteria, the variant's label. */
export function variantTask(task: DomainTask, variant: HandoffVariant | null): DomainTask {
  if (!variant) return task;
  const handoff = {
    expected: variant.should_transfer,
    queue: variant.expected_target,
    reason: variant.expected_reason,
    source: 'label' as const,
    dueTurn: variant.due_turn,
  };
  // A hand-off is the outcome: only it is scored. Otherwise the source task must be done, without one.
  const rewardBasis = variant.should_transfer
    ? (['HANDOFF'] as const)
    : ([...task.rewardBasis.filter((c) => c !== 'HANDOFF'), 'HANDOFF'] as const);
  return { ...task, handoff, rewardBasis, needsJudge: rewardBasis.includes('NL_ASSERTION') && task.nlAssertions.length > 0 };
}

/** Runs one episode and scores it. */
export async function runEpisode(options: RunEpisodeOptions): Promise<EpisodeResult> {
  const { domain, task, variant, agent, user } = options;
  const maxCustomerTurns = options.maxCustomerTurns ?? 30;
  const maxErrors = options.maxErrors ?? 10;
  const random = seededRandom(options.seed);
  let tick = Date.UTC(2026, 0, 1);
  // A clock that moves by a millisecond per reading: ordered, and the same in every run.
  const clock: Clock = { now: () => (tick += 1) };
  const gateway = createGateway({
    store: options.store ?? new MemoryStore(),
    clock,
    ids: createIdGenerator({ now: clock.now, random: random.next }),
    policy: DEFAULT_OWNERSHIP_POLICY,
    defaultAgent: LAB_AGENT,
  });

  const episode = driftingEpisode(domain.newEpisode());
  const drift = options.drift ?? null;
  // The trajectory message from which the drift holds (the customer's message of its turn).
  let driftFrom: number | null = null;
  let customerTurn = 0;
  const outageFrom = variant?.outage?.fromTurn ?? null;
  const executed = new Map<string, { injected: boolean }>();
  const reviews: EpisodeReview[] = [];
  const review = options.review;
  // A supervisor's take-over, until the decider carries it out: its evidence.
  let takenOver: string | null = null;
  const harnessTools = domainHarnessTools(domain, episode, {
    confirmWrites: agent.confirmWrites,
    // Tools of the domain fail while an injected outage lasts.
    beforeCall: (name, context) => {
      const record = { injected: false };
      executed.set(context.callId, record);
      if (outageFrom !== null && customerTurn >= outageFrom) {
        record.injected = true;
        throw new Error(`${name} is unavailable: the service did not respond. Try again later.`);
      }
    },
  });
  const highRisk = (name: string) => domain.isWrite(name) && domain.tools.find((t) => t.name === name)?.needsConfirmation !== false;
  // The review gate: a high-risk call waits for the supervisor's answer before the domain sees it.
  const tools = review
    ? harnessTools.map((tool) =>
        highRisk(tool.name)
          ? {
              ...tool,
              execute: async (args: Record<string, unknown>, context: ToolContext) => {
                const turn = customerTurn;
                const answer = await review({ name: tool.name, args, turn });
                reviews.push({ callId: context.callId, name: tool.name, args, turn, answer });
                if (answer.verdict === 'approve') return tool.execute(args, context);
                // Never reached the domain: the evaluator does not replay it.
                executed.set(context.callId, { injected: true });
                if (answer.verdict === 'take_over') {
                  // The decider, consulted after this call, hands the conversation to people.
                  takenOver = `the supervisor took the conversation over on reviewing ${tool.name}`;
                  throw new Error(REVIEW_TAKEN_OVER);
                }
                throw new Error(`${REVIEW_REJECTED} ${answer.feedback}`);
              },
            }
          : tool,
      )
    : harnessTools;
  const config = domainAgentConfig(domain, tools, {
    id: LAB_AGENT,
    ...(agent.outputGuardrails === false ? { outputGuardrails: [] } : {}),
    // Domain outputs are shown whole (a flight search can run long); a turn may take many steps
    // (tau2-bench bounds a whole run at 200).
    sandbox: { maxOutputChars: 1_000_000, ...(review ? { timeoutMs: REVIEW_WAIT_MS } : {}) },
    budget: { maxSteps: options.maxStepsPerTurn ?? 40 },
    ...(drift ? { rules: driftingRules(domain.rules, [drift.event], () => episode.fired) } : {}),
  });
  const deciderPolicy: DeciderPolicy = domain.deciderPolicy;
  let lastTurn: TurnResult | null = null;
  // The lab's conversation goes through the production service; only the customer is simulated.
  const runner = createConversationService({
    gateway,
    agents: new Map([[LAB_AGENT, config]]),
    policyFor: () => (drift ? noticedPolicy(agent.policy, () => episode.fired) : agent.policy),
    // After a drift, the decider reads the new policy (a closed queue's topics go elsewhere).
    decide: takeOverFirst(
      !agent.handoff
        ? silentDecider
        : drift
          ? (items, context) => harnessDecider(driftedDeciderPolicy(deciderPolicy, episode.fired))(items, context)
          : harnessDecider(deciderPolicy),
      () => {
        const evidence = takenOver;
        takenOver = null;
        return evidence;
      },
      takeOverTarget(domain, variantTask(task, variant)),
    ),
    buildPacket: domainPacketBuilder(domain),
    clock,
    observe: ({ result }) => {
      lastTurn = result;
    },
  });

  const conversation = await gateway.open({ agent: LAB_AGENT, channel: 'lab' });
  await gateway.send(conversation.id, { type: 'agent', id: LAB_AGENT }, OPENING_MESSAGE);
  const messages: TrajectoryMessage[] = [{ role: 'assistant', content: OPENING_MESSAGE, toolCalls: [] }];
  const view: CustomerView['messages'][number][] = [{ from: 'agent', text: OPENING_MESSAGE }];
  let transferred = false;
  let termination: TerminationReason = 'max_steps';
  let handoff: EpisodeResult['handoff'] = null;
  let packet: Record<string, unknown> | null = null;
  let userError: string | null = null;

  // After a hand-off the customer gets one more turn to leave, whatever the limits.
  while (customerTurn < maxCustomerTurns || transferred) {
    customerTurn += 1;
    let said: Awaited<ReturnType<UserSimulator['next']>>;
    try {
      // A simulated customer is a model: what it wrote is repaired to storable text, as an agent's is.
      said = sanitizeGenerated(await user.next({ messages: [...view], turn: customerTurn, transferred }));
    } catch (error) {
      // The simulated customer failed (an LLM user's endpoint, say): the episode ends as tau2-bench's user_error.
      userError = error instanceof Error ? error.message : String(error);
      termination = 'user_error';
      break;
    }
    messages.push({ role: 'user', content: said.text, toolCalls: [] });
    view.push({ from: 'customer', text: said.text });
    if (said.stop) {
      termination = 'user_stop';
      break;
    }
    if (transferred) {
      // A person owns the conversation now; the customer kept writing instead of leaving.
      termination = 'user_stop';
      break;
    }
    if (drift && driftFrom === null && customerTurn >= drift.turn) {
      episode.fire(drift.event);
      driftFrom = messages.length - 1;
    }
    lastTurn = null;
    const outcome = await runner.handleCustomerMessage(conversation.id, { text: said.text, idempotencyKey: `turn-${customerTurn}` });
    const result = lastTurn as TurnResult | null;
    const ended = options.endedByAgent?.() ?? false;
    if (result) appendTurn(messages, result, executed, customerTurn, outcome.type === 'handoff' && outcome.applied, ended);
    executed.clear();
    if (ended) {
      termination = 'agent_stop';
      break;
    }
    if (outcome.type === 'reply') view.push({ from: 'agent', text: outcome.text });
    else if (outcome.type === 'handoff') {
      transferred = outcome.applied;
      packet = outcome.packet;
      const decidedBy = result?.type === 'handoff' ? result.decidedBy : 'harness';
      handoff = { turn: customerTurn, reason: outcome.reason, target: outcome.target, decidedBy, evidence: outcome.evidence };
      if (outcome.applied)
        view.push({ from: 'system', text: result?.type === 'handoff' ? (result.message ?? TRANSFER_NOTICE) : TRANSFER_NOTICE });
    } else if (outcome.type === 'needs_approval') {
      // No person approves in the lab: the request is declined, and the agent goes on.
      const resumed = await runner.resume(conversation.id, { approved: false });
      if (resumed.type === 'reply') view.push({ from: 'agent', text: resumed.text });
    } else {
      termination = 'agent_error';
      break;
    }
    const errors = messages.filter((m) => m.role === 'tool' && m.error).length;
    if (errors >= maxErrors && !transferred) {
      termination = 'too_many_errors';
      break;
    }
  }

  const trajectory: Trajectory = { messages, termination };
  const scored = variantTask(task, variant);
  const evaluation = await evaluate(domain, scored, trajectory, {
    ...options.evaluate,
    ...(drift && driftFrom !== null ? { drift: { events: [drift.event], fromMessage: driftFrom } } : {}),
  });
  return {
    domain: domain.name,
    taskId: task.id,
    variantId: variant?.id ?? null,
    agent: agent.name,
    style: user.style,
    termination,
    trajectory,
    evaluation,
    customerTurns: customerTurn,
    handoff,
    packet,
    conversationId: conversation.id,
    userError,
    drift: drift ? { event: drift.event.id, turn: drift.turn, fired: driftFrom !== null } : null,
    reviews,
  };
}
