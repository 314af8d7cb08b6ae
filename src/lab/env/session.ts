/**
 * One environment session for RL trainers (OpenEnv's reset / step / state): a lab episode — the
 * real gateway, harness and simulated customer of `runEpisode` — whose agent is the trainer.
 *
 * The agent's policy is external: when the harness asks it for the next step, the request waits
 * until the trainer sends an action, and what the harness asked with (the customer's new message,
 * or the result of the last tool call) is the observation. An action is one assistant message or
 * one tool call (a hand-off may carry the words the customer is shown). A malformed action is
 * refused with an error and changes nothing. When the episode ends, the observation is `done`,
 * with the configured reward and all its components.
 */
import { z } from 'zod';
import {
  clipEcho,
  clipEchoes,
  TAU2_TRANSFER_TOOL,
  type ChatMessage,
  type Policy,
  type PolicyRequest,
  type PolicyResponse,
  type ToolSpec,
} from '../../core/index.js';
import type { Domain } from '../../domains/domain.js';
import { DRIFT_NOTICE_HEADING, type ScheduledDrift } from '../../domains/drift.js';
import { TERMINATION_REASONS, USER_STOP_MARKERS } from '../../domains/trajectory.js';
import { buildChatMessages } from '../../runtime/chat-context.js';
import { agentDomainTools, domainAgentConfig, handoffGraphOf } from '../../runtime/domain-agent.js';
import { handoffToolSpecs } from '../../runtime/handoff-tool.js';
import { toolSpec } from '../../runtime/tool.js';
import { toOpenAiTools } from '../../llm/openai-wire.js';
import { rewardInput, type Reward } from '../../rewards/index.js';
import { toRecord } from '../records.js';
import { LAB_AGENT, runEpisode, variantTask, type EpisodeResult } from '../run-episode.js';
import { atDensity, l1Reward, HIERARCHY_REWARD_DEFAULTS, type Role, type StageConfig } from '../../rewards/hierarchy/index.js';
import { ReviewRequestSchema, type ScriptedL1Name } from './review-wire.js';
import { hierarchyEpisodeOf, hierarchyRewards } from '../hierarchy/hierarchy-episode-of.js';
import { createSupervisor, type Supervisor, type SupervisorName } from '../hierarchy/supervisors.js';
import type { Planned } from '../eval/run-eval.js';
import type { UserSimulator } from '../user.js';
import { monitoredEpisode } from '../monitor/monitored-episode.js';
import type { EpisodeWatch } from '../monitor/training-monitor.js';
import { taskPriority as taskPriorityOf } from '../hierarchy/task-priority.js';

/** What the trainer sends as `step` data. Unknown fields are refused, as OpenEnv's actions do. */
export const EnvActionSchema = z.discriminatedUnion('type', [
  z
    .strictObject({
      type: z.literal('message'),
      content: z.string().min(1).describe('What the agent says to the customer; the turn ends and the customer answers.'),
      metadata: z.record(z.string(), z.unknown()).optional(),
    })
    .describe('A reply to the customer.'),
  z
    .strictObject({
      type: z.literal('tool_call'),
      name: z.string().min(1).describe("One of the reset observation's tools (a domain tool, or the hand-off)."),
      arguments: z.record(z.string(), z.unknown()).default({}).describe("The call's arguments, as the tool's JSON Schema says."),
      /** Words shown to the customer with the call (a hand-off's message). */
      content: z.string().optional().describe("Words shown to the customer with the call (a hand-off's message)."),
      metadata: z.record(z.string(), z.unknown()).optional(),
    })
    .describe('One tool call; the observation is its result.'),
  z
    .strictObject({
      type: z.literal('end'),
      content: z.string().min(1).optional().describe('Last words to the customer, if any.'),
      metadata: z.record(z.string(), z.unknown()).optional(),
    })
    .describe('The agent ends the conversation: the episode is over (agent_stop) and scored.'),
]);
export type EnvAction = z.infer<typeof EnvActionSchema>;

/** A tool as OpenEnv's MCP observations list it. */
const McpToolSchema = z.object({ name: z.string(), description: z.string(), input_schema: z.record(z.string(), z.unknown()) });

const OpenAiToolSchema = z.object({
  type: z.literal('function'),
  function: z.object({ name: z.string(), description: z.string().optional(), parameters: z.record(z.string(), z.unknown()) }),
});

/**
 * Every field an observation can carry (OpenEnv's `observation` of a result, `reward` and `done`
 * beside it). The tests parse every observation the server sends with it, so `/schema` is what is sent.
 */
export const EnvObservationSchema = z.strictObject({
  task: z.string().optional().describe('On reset: the plan key of the episode (domain/task#style#trial, or a variant).'),
  policy: z.string().optional().describe("On reset: the agent's system prompt (the domain's policy): a trainer's system turn."),
  tools: z
    .array(z.union([OpenAiToolSchema, McpToolSchema]))
    .optional()
    .describe("On reset: the agent's tools as OpenAI function tools (hand-off included); for a list_tools action: the MCP tools."),
  customer_message: z.string().nullable().optional().describe("The customer's new message (never a simulator's stop marker)."),
  tool_result: z
    .object({ tool_call_id: z.string().optional(), name: z.string().optional(), content: z.string() })
    .optional()
    .describe("The result of the agent's last tool call, or the harness's refusal of it."),
  harness_note: z.string().optional().describe('The harness speaking to the agent (a refused reply to rewrite, say).'),
  policy_notice: z
    .string()
    .optional()
    .describe('A policy drift: the update now at the end of the system prompt (sent once, on the step it takes effect).'),
  tool_name: z.string().optional().describe('For a call_tool action (OpenEnv MCP): the tool called.'),
  result: z
    .object({
      content: z.array(z.object({ type: z.literal('text'), text: z.string() })),
      structuredContent: z.unknown(),
      isError: z.boolean(),
    })
    .optional()
    .describe("For a call_tool action: the MCP result (text for the model; the step's result beside it)."),
  over_at_reset: z.boolean().optional().describe("On reset: the episode ended before the agent's first turn."),
  why_over: z.string().optional().describe('With over_at_reset: why.'),
  termination: z.enum(TERMINATION_REASONS).optional().describe("When done: how the episode ended (tau2-bench's reasons)."),
  success: z.boolean().optional().describe("When done: the evaluator's verdict."),
  handed_off: z.boolean().optional().describe('When done: whether the conversation was handed to a person.'),
  reward_name: z.string().optional().describe('When done: the reward the server pays (task, r2 or dense).'),
  reward_components: z.record(z.string(), z.unknown()).optional().describe('When done: every component the reward was built from.'),
  review: ReviewRequestSchema.optional().describe(
    'Playing L2 or L3: what is put to the trainer (a proposed high-risk action, a hand-off, an escalation); the step answers it.',
  ),
  hierarchy: z
    .strictObject({
      role: z.enum(['l1', 'l2', 'l3']),
      supervisor: z.string().describe('The scripted L2 supervisor, or `trainer` when the trainer plays L2.'),
      l1: z.string().optional().describe('Playing L2 or L3: the scripted L1 agent.'),
      stage: z.string(),
      priority: z.string().nullable(),
      roles: z.record(z.string(), z.number()).optional(),
    })
    .optional()
    .describe(
      'In hierarchy mode, in every observation: the role played, the supervisor (and the scripted L1 when the trainer plays L2 or L3), the curriculum stage, the task priority; when done, every role’s reward.',
    ),
});

/** OpenEnv's state (`episode_id`, `step_count`) with the episode's task and whether it is over. */
export const EnvStateSchema = z.strictObject({
  episode_id: z.string().nullable(),
  step_count: z.number().int().nonnegative(),
  task: z.string().nullable(),
  done: z.boolean(),
});

/** The tools an agent of this domain has, as the harness offers them: the domain's own, then the hand-off. */
export function envToolSpecs(domain: Domain): ToolSpec[] {
  return [
    ...agentDomainTools(domain).map(toolSpec),
    ...handoffToolSpecs(handoffGraphOf(domain), domain.transferTool === TAU2_TRANSFER_TOOL),
  ];
}

/** OpenEnv's wire shape of a result: the observation's own fields, then reward and done. */
export interface EnvResult {
  observation: Record<string, unknown>;
  reward: number | null;
  done: boolean;
}

export type EnvState = z.infer<typeof EnvStateSchema>;

/** An error the trainer caused (bad action, no episode): the session stays usable. */
export class EnvError extends Error {
  constructor(
    readonly code: 'VALIDATION_ERROR' | 'EXECUTION_ERROR',
    message: string,
    readonly errors?: unknown,
  ) {
    super(message);
  }
}

export interface EnvSessionOptions {
  domain: Domain;
  plan: readonly Planned[];
  reward: Reward;
  userFor(planned: Planned): UserSimulator;
  /** Which kind of customer `userFor` makes, for the episode's record. */
  user: 'scripted' | 'llm';
  /** Production's checks (confirmation before writes, output guardrails), or none — as the lab replays the oracle. */
  checks: 'production' | 'off';
  /**
   * Hierarchy mode (docs/hierarchy.md): the trainer plays L1 under a scripted supervisor who
   * reviews its high-risk actions, or L2 or L3 over a scripted L1 (`l1`; src/lab/env/team-session.ts),
   * and is paid its role's reward at the stage's density and guard severity.
   */
  hierarchy?: { role: Role; supervisor: SupervisorName; stage: StageConfig; l1?: ScriptedL1Name };
  /** Policy drift scheduled per plan key (a curriculum stage with drift). */
  drifts?: ReadonlyMap<string, ScheduledDrift>;
  /**
   * The training monitor (docs/training-monitor.md): told of each episode at its reset, and of how
   * it ended — finished, with what it scored, or abandoned (reset or closed before its end, failed).
   */
  monitor?: { started(): EpisodeWatch };
}

type Event = { kind: 'request'; request: PolicyRequest } | { kind: 'ended'; result: EpisodeResult } | { kind: 'failed'; error: unknown };

const NO_USAGE = { promptTokens: 0, completionTokens: 0 };
const ENDED_BY_AGENT = 'the agent ended the conversation';

/** What the environment server drives: one environment per connection or MCP session. */
export interface EnvSessionLike {
  state(): EnvState;
  reset(data?: ResetData): Promise<EnvResult>;
  step(data: unknown): Promise<EnvResult>;
  close(): void;
}

export class EnvSession implements EnvSessionLike {
  readonly #options: EnvSessionOptions;
  #planned: Planned | null = null;
  #episodeId: string | null = null;
  #steps = 0;
  #calls = 0;
  #done = false;
  /** The agent sent `end`: the episode stops after the turn in progress. */
  #ended = false;
  #generation = 0;
  #pending: ((response: PolicyResponse) => void) | null = null;
  #events: Event[] = [];
  #wake: (() => void) | null = null;
  #resets = 0;
  /** The harness's latest request: its system prompt and tools are the reset observation's. */
  #lastRequest: PolicyRequest | null = null;
  /** The scripted supervisor of the episode in progress (hierarchy mode). */
  #supervisor: Supervisor | null = null;
  /** The policy update last shown to the trainer (a drift's notices). */
  #noticeShown = '';
  /** The monitor's handle on the episode in progress. */
  #watch: EpisodeWatch | null = null;

  constructor(options: EnvSessionOptions) {
    this.#options = options;
  }

  state(): EnvState {
    return { episode_id: this.#episodeId, step_count: this.#steps, task: this.#planned?.key ?? null, done: this.#done };
  }

  /** Starts an episode: `task` names one (a plan key, or a task id), else `seed` picks one, else the next in order. */
  async reset(data: ResetData = {}): Promise<EnvResult> {
    const planned = pickPlanned(this.#options.plan, data, this.#resets);
    this.#abandon();
    this.#resets++;
    const generation = ++this.#generation;
    this.#planned = planned;
    this.#episodeId = data.episode_id ?? `${planned.key}@${this.#resets}`;
    this.#steps = 0;
    this.#calls = 0;
    this.#done = false;
    this.#ended = false;
    this.#events = [];
    this.#noticeShown = '';
    const policy: Policy = {
      name: 'external',
      next: (request) =>
        new Promise<PolicyResponse>((resolve) => {
          if (generation !== this.#generation)
            return resolve({ ok: false, failure: { kind: 'aborted', message: 'the session was reset' } });
          // After `end` the harness asks again only when it refused the last words (a guardrail): nothing more is said.
          if (this.#ended) return resolve({ ok: false, failure: { kind: 'aborted', message: ENDED_BY_AGENT } });
          this.#pending = resolve;
          this.#push({ kind: 'request', request });
        }),
    };
    const production = this.#options.checks === 'production';
    const hierarchy = this.#options.hierarchy;
    const scored = variantTask(planned.task, planned.variant);
    const supervisor = hierarchy ? createSupervisor(hierarchy.supervisor, scored) : null;
    this.#supervisor = supervisor;
    this.#watch = this.#options.monitor?.started() ?? null;
    runEpisode({
      domain: this.#options.domain,
      task: planned.task,
      variant: planned.variant,
      agent: { name: 'external', policy, handoff: true, confirmWrites: production, outputGuardrails: production },
      user: this.#options.userFor(planned),
      seed: planned.seed,
      endedByAgent: () => generation === this.#generation && this.#ended,
      ...(supervisor ? { review: (call) => supervisor.review(call) } : {}),
      ...(this.#options.drifts?.has(planned.key) ? { drift: this.#options.drifts.get(planned.key) as ScheduledDrift } : {}),
    }).then(
      (result) => generation === this.#generation && this.#push({ kind: 'ended', result }),
      (error: unknown) => generation === this.#generation && this.#push({ kind: 'failed', error }),
    );
    const first = await this.#next();
    if (first.done) {
      // The harness handed off before the agent's first turn (the customer's opening asked for a
      // person, say): the episode is over at reset, and says so, with what it was.
      return {
        ...first,
        observation: {
          task: planned.key,
          policy: systemPromptOf(this.#options.domain),
          tools: toOpenAiTools(envToolSpecs(this.#options.domain)),
          over_at_reset: true,
          why_over:
            "the harness ended the episode before the agent's first turn (a hand-off the decider made on the customer's opening); reset for another",
          ...first.observation,
        },
      };
    }
    const system = this.#lastRequest?.messages.find((m) => m.role === 'system');
    return {
      ...first,
      observation: {
        task: planned.key,
        policy: system?.content ?? this.#options.domain.policy,
        tools: toOpenAiTools(this.#lastRequest?.tools ?? []),
        ...first.observation,
      },
    };
  }

  async step(data: unknown): Promise<EnvResult> {
    const parsed = EnvActionSchema.safeParse(data);
    if (!parsed.success) {
      // What the trainer sent is quoted at most MAX_ECHO_CHARS characters at a time.
      const issues = clipEchoes(parsed.error.issues);
      throw new EnvError('VALIDATION_ERROR', `invalid action: ${z.prettifyError(new z.ZodError(issues))}`, issues);
    }
    if (this.#done || !this.#pending) {
      throw new EnvError(
        'EXECUTION_ERROR',
        this.#done ? 'the episode is over: reset to start another' : 'no episode in progress: reset first',
      );
    }
    const action = parsed.data;
    const respond = this.#pending;
    this.#pending = null;
    this.#steps++;
    if (action.type === 'end') this.#ended = true;
    respond(
      action.type === 'end'
        ? action.content
          ? { ok: true, content: action.content, toolCalls: [], usage: NO_USAGE }
          : { ok: false, failure: { kind: 'aborted', message: ENDED_BY_AGENT } }
        : action.type === 'message'
          ? { ok: true, content: action.content, toolCalls: [], usage: NO_USAGE }
          : {
              ok: true,
              content: action.content ?? null,
              toolCalls: [{ id: `call_${this.#calls++}`, name: action.name, arguments: JSON.stringify(action.arguments) }],
              usage: NO_USAGE,
            },
    );
    return this.#next();
  }

  /** Ends the episode in progress, if any (its result is ignored). */
  close(): void {
    this.#abandon();
    this.#generation++;
  }

  #abandon(): void {
    const watch = this.#watch;
    this.#watch = null;
    watch?.abandoned();
    const pending = this.#pending;
    this.#pending = null;
    pending?.({ ok: false, failure: { kind: 'aborted', message: 'the session was reset or closed' } });
  }

  #push(event: Event): void {
    this.#events.push(event);
    const wake = this.#wake;
    this.#wake = null;
    wake?.();
  }

  /** Waits for the harness's next request, or the end of the episode, and turns it into a result. */
  async #next(): Promise<EnvResult> {
    while (this.#events.length === 0) await new Promise<void>((resolve) => (this.#wake = resolve));
    const event = this.#events.shift() as Event;
    if (event.kind === 'request') {
      this.#lastRequest = event.request;
      return {
        observation: { ...observationOf(event.request.messages), ...this.#newNotice(event.request.messages), ...this.#hierarchyMeta() },
        reward: null,
        done: false,
      };
    }
    this.#done = true;
    const watch = this.#watch;
    this.#watch = null;
    if (event.kind === 'failed') {
      watch?.abandoned();
      throw new EnvError('EXECUTION_ERROR', `the episode failed: ${String(event.error)}`);
    }
    const planned = this.#planned as Planned;
    const record = toRecord(event.result, {
      variant: planned.variant,
      split: planned.split,
      user: this.#options.user,
      trial: planned.trial,
      seed: planned.seed,
    });
    const score = async () =>
      this.#options.hierarchy
        ? this.#hierarchyScore(event.result, planned)
        : await this.#options.reward.score(rewardInput(record, this.#options.domain));
    // An episode that cannot be scored is not a finished one for the monitor.
    const scored = await score().catch((error: unknown) => {
      watch?.abandoned();
      throw error;
    });
    watch?.finished(monitoredEpisode(record, this.#options.domain, scored));
    // The customer's last words: the simulator's stop markers (###STOP###, ###TRANSFER###) are for
    // the runner, never for an agent, and a turn that was only a marker is passed over.
    const said = record.messages.flatMap((m) => (m.role === 'user' ? [withoutStopMarkers(m.content)] : [])).filter((t) => t !== null);
    return {
      observation: {
        customer_message: said.at(-1) ?? null,
        termination: record.termination,
        success: record.evaluation.success,
        handed_off: record.evaluation.handoff.transferred,
        reward_name: this.#options.hierarchy ? 'hierarchy:l1' : this.#options.reward.name,
        reward_components: scored.components,
        ...this.#hierarchyMeta('roles' in scored ? scored.roles : undefined),
      },
      reward: scored.value,
      done: true,
    };
  }

  /** The policy update at the end of the system prompt, when it is new since the last observation. */
  #newNotice(messages: readonly ChatMessage[]): Record<string, unknown> {
    const notice = driftNoticeOf(messages[0]?.role === 'system' ? messages[0].content : '');
    if (notice === this.#noticeShown) return {};
    this.#noticeShown = notice;
    return notice === '' ? {} : { policy_notice: notice };
  }

  /** The hierarchy metadata every observation carries in hierarchy mode (nothing otherwise). */
  #hierarchyMeta(roles?: Record<string, number>): Record<string, unknown> {
    const h = this.#options.hierarchy;
    const planned = this.#planned;
    if (!h || !planned) return {};
    const task = variantTask(planned.task, planned.variant);
    return {
      hierarchy: {
        role: h.role,
        supervisor: h.supervisor,
        stage: h.stage.stage,
        priority: taskPriorityOf(this.#options.domain, task),
        ...(roles ? { roles } : {}),
      },
    };
  }

  /** L1's reward at the stage's guard severity and density, with every role's value beside it. */
  #hierarchyScore(
    result: EpisodeResult,
    planned: Planned,
  ): { value: number; components: Record<string, unknown>; roles: Record<string, number> } {
    const h = this.#options.hierarchy as NonNullable<EnvSessionOptions['hierarchy']>;
    const task = variantTask(planned.task, planned.variant);
    const episode = hierarchyEpisodeOf(result, this.#options.domain, task, this.#supervisor ?? createSupervisor(h.supervisor, task));
    const config = { ...HIERARCHY_REWARD_DEFAULTS, guard: { ...HIERARCHY_REWARD_DEFAULTS.guard, severity: h.stage.guard_severity } };
    const l1 = l1Reward(episode, config);
    const all = hierarchyRewards(episode, config);
    const value = atDensity(h.stage, l1.value, result.evaluation.success === true);
    return {
      value,
      components: { ...l1.components, density: h.stage.density, guard_severity: h.stage.guard_severity, undensified: l1.value },
      roles: { l1: all.l1.value, l2: all.l2.value, l3: all.l3.value, team: all.team.value },
    };
  }
}

/** What a reset may say: a task by key or id, a seed, the episode's id. */
export type ResetData = { seed?: number | undefined; episode_id?: string | undefined; task?: string | undefined };

/** The episode a reset asks for: `task` names one (a plan key, or a task id), else `seed` picks one, else the next in order. */
export function pickPlanned(plan: readonly Planned[], data: ResetData, resets: number): Planned {
  let planned: Planned | undefined;
  if (data.task !== undefined) {
    planned = plan.find((p) => p.key === data.task) ?? plan.find((p) => p.task.id === data.task);
    if (!planned) throw new EnvError('VALIDATION_ERROR', `no task ${JSON.stringify(clipEcho(data.task))} in this environment's task set`);
  } else if (data.seed !== undefined) planned = plan[Math.abs(Math.trunc(data.seed)) % plan.length];
  else planned = plan[resets % plan.length];
  if (!planned) throw new EnvError('EXECUTION_ERROR', 'this environment has no tasks');
  return planned;
}

/** The policy update at the end of a system prompt (the drift notices), or '' when there is none. */
export function driftNoticeOf(system: string): string {
  const at = system.indexOf(DRIFT_NOTICE_HEADING);
  return at < 0 ? '' : system.slice(at);
}

/** The agent's system prompt as the harness builds it (the policy, then its rules for tool output), with no turn yet. */
export function systemPromptOf(domain: Domain): string {
  const [system] = buildChatMessages(domainAgentConfig(domain, [], { id: LAB_AGENT }), [], []);
  return system?.content ?? domain.policy;
}

/** A customer's text without the simulator's stop markers, or null when nothing else is left. */
export function withoutStopMarkers(text: string | null): string | null {
  if (text === null) return null;
  let out = text;
  for (const marker of USER_STOP_MARKERS) out = out.split(marker).join('');
  out = out.trim();
  return out === '' ? null : out;
}

/** What the harness asked with: the customer's new message, or the result of the agent's last call. */
function observationOf(messages: readonly ChatMessage[]): Record<string, unknown> {
  const last = messages.at(-1);
  if (last?.role === 'tool') return { tool_result: { tool_call_id: last.toolCallId, name: last.name, content: last.content } };
  if (last?.role === 'user') return { customer_message: withoutStopMarkers(last.content) };
  // The harness speaking to the agent (a refused reply to rewrite, say).
  if (last?.role === 'system') return { harness_note: last.content };
  return {};
}
