/**
 * The trainer as L2 (the supervisor) or L3 (the manager) of a support team (docs/hierarchy.md):
 * one lab episode — the real gateway, harness and simulated customer of `runEpisode` — whose L1
 * agent is scripted (`rule` or `oracle`), with the other role scripted too.
 *
 * Playing L2, each high-risk action L1 proposes waits, before it reaches the domain, for the
 * trainer's verdict (an observation's `review`, answered by the next step): approve, reject with
 * feedback (L1 reads it), take over (the conversation goes to people at once), or escalate with
 * a reason (the scripted manager decides). When L1 has
 * handed the conversation off, the trainer keeps the hand-off with its queue or escalates it.
 * Playing L3, the scripted supervisor reviews, and each hand-off it escalates is put to the trainer
 * to take or to return. At the end the trainer is paid its role's reward at the stage's density and
 * guard severity, with every component and every role's value. An episode in which nothing came to
 * the trainer is over at reset, and says so.
 */
import { z } from 'zod';
import { clipEchoes, type ChatMessage, type Policy } from '../../core/index.js';
import type { DomainTask } from '../../domains/domain.js';
import type { ScheduledDrift } from '../../domains/drift.js';
import { createOraclePolicy } from '../../domains/oracle.js';
import type { TrajectoryMessage } from '../../domains/trajectory.js';
import { atDensity, roleReward, HIERARCHY_REWARD_DEFAULTS } from '../../rewards/hierarchy/index.js';
import { createRuleAgent } from '../agents/index.js';
import type { Planned } from '../eval/run-eval.js';
import { hierarchyEpisodeOf, hierarchyRewards, type TeamDecisions } from '../hierarchy/hierarchy-episode-of.js';
import { createManager, createSupervisor, type Manager, type Supervisor } from '../hierarchy/supervisors.js';
import { taskPriority } from '../hierarchy/task-priority.js';
import { toRecord } from '../records.js';
import { episodeAgent, runEpisode, variantTask, type EpisodeAgent, type EpisodeResult, type ReviewAnswer } from '../run-episode.js';
import { L2ActionSchema, L3ActionSchema, type L2Action, type L3Action, type ReviewLine, type ReviewRequest } from './review-wire.js';
import {
  driftNoticeOf,
  EnvError,
  EnvSession,
  pickPlanned,
  systemPromptOf,
  withoutStopMarkers,
  type EnvResult,
  type EnvSessionLike,
  type EnvSessionOptions,
  type EnvState,
  type ResetData,
} from './session.js';

type Answer = L2Action | L3Action;
/** A request put to the trainer; `null` answers it when the session was reset or closed. */
interface Ask {
  request: ReviewRequest;
  resolve(answer: Answer | null): void;
}
type Event =
  { kind: 'ask'; ask: Ask } | { kind: 'ended'; result: EpisodeResult; decisions: TeamDecisions } | { kind: 'failed'; error: unknown };

const ANSWERS = {
  l2: { action: ['approve', 'reject', 'take_over', 'escalate'], handoff: ['approve', 'escalate'] },
  l3: { action: ['decide'], handoff: ['decide'] },
} as const;

/** A chat message (what L1 was asked with) as a line of the conversation the reviewer reads. */
function lineOfChat(m: ChatMessage): ReviewLine | null {
  if (m.role === 'user') return { from: 'customer', text: withoutStopMarkers(m.content) };
  if (m.role === 'tool') return { from: 'tool', text: m.content, tool: m.name };
  if (m.role === 'system') return null;
  const calls = m.toolCalls.map((c) => ({ name: c.name, arguments: argsOf(c.arguments) }));
  return { from: 'agent', text: m.content, ...(calls.length > 0 ? { calls } : {}) };
}

/** A trajectory message (the episode as recorded) as a line of the conversation. */
function lineOfTrajectory(m: TrajectoryMessage, names: ReadonlyMap<string, string>): ReviewLine {
  if (m.role === 'user') return { from: 'customer', text: withoutStopMarkers(m.content) };
  if (m.role === 'tool') return { from: 'tool', text: m.content, ...(names.has(m.id) ? { tool: names.get(m.id) as string } : {}) };
  const calls = m.toolCalls.map((c) => ({ name: c.name, arguments: c.arguments }));
  return { from: 'agent', text: m.content, ...(calls.length > 0 ? { calls } : {}) };
}

function argsOf(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text || '{}');
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export class TeamSession implements EnvSessionLike {
  readonly #options: EnvSessionOptions;
  readonly #hierarchy: NonNullable<EnvSessionOptions['hierarchy']> & { role: 'l2' | 'l3' };
  #planned: Planned | null = null;
  #task: DomainTask | null = null;
  #supervisor: Supervisor | null = null;
  #episodeId: string | null = null;
  #steps = 0;
  #done = false;
  #generation = 0;
  #resets = 0;
  #asked = 0;
  #pending: Ask | null = null;
  #events: Event[] = [];
  #wake: (() => void) | null = null;
  /** What L1 was last asked with: the conversation it saw, its system prompt first. */
  #l1Seen: readonly ChatMessage[] = [];
  #noticeShown = '';

  constructor(options: EnvSessionOptions) {
    const h = options.hierarchy;
    if (!h || h.role === 'l1') throw new Error('TeamSession plays L2 or L3: use EnvSession for L1');
    this.#options = options;
    this.#hierarchy = { ...h, role: h.role };
  }

  state(): EnvState {
    return { episode_id: this.#episodeId, step_count: this.#steps, task: this.#planned?.key ?? null, done: this.#done };
  }

  async reset(data: ResetData = {}): Promise<EnvResult> {
    const planned = pickPlanned(this.#options.plan, data, this.#resets);
    this.#abandon();
    this.#resets++;
    const generation = ++this.#generation;
    const live = () => generation === this.#generation;
    const { domain } = this.#options;
    const task = variantTask(planned.task, planned.variant);
    this.#planned = planned;
    this.#task = task;
    this.#episodeId = data.episode_id ?? `${planned.key}@${this.#resets}`;
    this.#steps = 0;
    this.#done = false;
    this.#events = [];
    this.#l1Seen = [];
    this.#noticeShown = '';
    const supervisor = createSupervisor(this.#hierarchy.supervisor, task);
    const manager = createManager(task);
    this.#supervisor = supervisor;
    const review =
      this.#hierarchy.role === 'l2'
        ? async (call: { name: string; args: Readonly<Record<string, unknown>>; turn: number }): Promise<ReviewAnswer> => {
            const answer = await this.#ask(generation, {
              kind: 'action',
              turn: call.turn,
              action: { name: call.name, arguments: { ...call.args } },
            });
            if (answer === null) return { verdict: 'reject', feedback: 'the session was reset or closed' };
            if (answer.type === 'approve') return { verdict: 'approve' };
            if (answer.type === 'reject') return { verdict: 'reject', feedback: answer.feedback };
            if (answer.type === 'take_over') return { verdict: 'take_over' };
            // An escalation: the manager decides.
            return { ...manager.decide(call), escalation: { reason: 'reason' in answer ? answer.reason : '' } };
          }
        : (call: { name: string; args: Readonly<Record<string, unknown>> }) => supervisor.review(call);
    const drift = this.#options.drifts?.get(planned.key);
    runEpisode({
      domain,
      task: planned.task,
      variant: planned.variant,
      agent: this.#l1(task, live),
      user: this.#options.userFor(planned),
      seed: planned.seed,
      review,
      ...(drift ? { drift: drift satisfies ScheduledDrift } : {}),
    })
      .then(async (result) => {
        const decisions = await this.#afterEpisode(generation, result, task, supervisor, manager);
        if (live() && decisions !== null) this.#push({ kind: 'ended', result, decisions });
      })
      .catch((error: unknown) => live() && this.#push({ kind: 'failed', error }));
    const first = await this.#next();
    return {
      ...first,
      observation: {
        task: planned.key,
        policy: this.#policy(),
        ...(first.done
          ? {
              over_at_reset: true,
              why_over:
                this.#hierarchy.role === 'l2'
                  ? 'nothing came to the supervisor in this episode (the scripted L1 proposed no high-risk action and handed nothing off); reset for another'
                  : 'nothing came to the manager in this episode (the scripted supervisor escalated nothing: L1 handed nothing off, or not a case it escalates); reset for another',
            }
          : {}),
        ...first.observation,
      },
    };
  }

  async step(data: unknown): Promise<EnvResult> {
    const schema: z.ZodType<Answer> = this.#hierarchy.role === 'l2' ? L2ActionSchema : L3ActionSchema;
    const parsed = schema.safeParse(data);
    if (!parsed.success) {
      const issues = clipEchoes(parsed.error.issues);
      throw new EnvError('VALIDATION_ERROR', `invalid ${this.#hierarchy.role} action: ${z.prettifyError(new z.ZodError(issues))}`, issues);
    }
    const pending = this.#pending;
    if (this.#done || !pending) {
      throw new EnvError(
        'EXECUTION_ERROR',
        this.#done ? 'the episode is over: reset to start another' : 'no episode in progress: reset first',
      );
    }
    const answer = parsed.data;
    if (!(pending.request.answers as readonly string[]).includes(answer.type))
      throw new EnvError(
        'VALIDATION_ERROR',
        `a ${pending.request.kind} review takes ${pending.request.answers.join(' or ')}, not ${answer.type}`,
      );
    this.#pending = null;
    this.#steps++;
    pending.resolve(answer);
    return this.#next();
  }

  close(): void {
    this.#abandon();
    this.#generation++;
  }

  #abandon(): void {
    const pending = this.#pending;
    this.#pending = null;
    pending?.resolve(null);
  }

  #push(event: Event): void {
    this.#events.push(event);
    const wake = this.#wake;
    this.#wake = null;
    wake?.();
  }

  /** The scripted L1, its requests recorded (they are the reviewer's context). */
  #l1(task: DomainTask, live: () => boolean): EpisodeAgent {
    const { domain } = this.#options;
    const name = this.#hierarchy.l1 ?? 'rule';
    const agent: EpisodeAgent =
      name === 'oracle'
        ? { name, policy: createOraclePolicy(domain, task), handoff: true, confirmWrites: false, outputGuardrails: false }
        : episodeAgent(name, createRuleAgent(domain));
    const inner: Policy = agent.policy;
    return {
      ...agent,
      policy: {
        name: inner.name,
        next: (request) => {
          if (live()) this.#l1Seen = request.messages;
          return inner.next(request);
        },
      },
    };
  }

  /** Puts a request to the trainer and waits for its answer (null at once for a stale episode). */
  #ask(
    generation: number,
    request: Omit<ReviewRequest, 'id' | 'conversation' | 'answers'>,
    conversation?: ReviewLine[],
  ): Promise<Answer | null> {
    if (generation !== this.#generation) return Promise.resolve(null);
    const full: ReviewRequest = {
      id: `review_${++this.#asked}`,
      ...request,
      conversation: conversation ?? this.#l1Seen.flatMap((m) => lineOfChat(m) ?? []),
      answers: [...ANSWERS[this.#hierarchy.role][request.kind]],
    };
    return new Promise((resolve) => this.#push({ kind: 'ask', ask: { request: full, resolve } }));
  }

  /** After the conversation: L1's hand-off put to L2, or (escalated by the scripted supervisor) to L3. Null when abandoned. */
  async #afterEpisode(
    generation: number,
    result: EpisodeResult,
    task: DomainTask,
    supervisor: Supervisor,
    manager: Manager,
  ): Promise<TeamDecisions | null> {
    const facts = result.evaluation.handoff;
    if (!facts.transferred) return {};
    const priority = taskPriority(this.#options.domain, task);
    const names = new Map(
      result.trajectory.messages.flatMap((m) => (m.role === 'assistant' ? m.toolCalls.map((c) => [c.id, c.name] as const) : [])),
    );
    const conversation = result.trajectory.messages.map((m) => lineOfTrajectory(m, names));
    const handoff = { target: facts.target, reason: facts.reason ?? result.handoff?.reason ?? null, summary: facts.summary };
    const turn = facts.customerTurn ?? result.customerTurns;
    if (this.#hierarchy.role === 'l2') {
      const answer = await this.#ask(generation, { kind: 'handoff', turn, handoff }, conversation);
      if (answer === null) return null;
      return answer.type === 'escalate' ? { handoffEscalated: true, managerTakes: manager.takes() } : { handoffEscalated: false };
    }
    if (!supervisor.escalates(priority)) return {};
    const escalation = { reason: `the ${supervisor.name} supervisor sends a ${priority}-priority hand-off to the manager` };
    const answer = await this.#ask(generation, { kind: 'handoff', turn, handoff, escalation }, conversation);
    if (answer === null) return null;
    return { handoffEscalated: true, managerTakes: answer.type === 'decide' && answer.verdict === 'approve' };
  }

  /** L1's system prompt as it now stands (the domain's, before L1 was first asked). */
  #policy(): string {
    const first = this.#l1Seen[0];
    return first?.role === 'system' ? first.content : systemPromptOf(this.#options.domain);
  }

  async #next(): Promise<EnvResult> {
    while (this.#events.length === 0) await new Promise<void>((resolve) => (this.#wake = resolve));
    const event = this.#events.shift() as Event;
    if (event.kind === 'ask') {
      this.#pending = event.ask;
      return { observation: { review: event.ask.request, ...this.#newNotice(), ...this.#meta() }, reward: null, done: false };
    }
    this.#done = true;
    if (event.kind === 'failed') throw new EnvError('EXECUTION_ERROR', `the episode failed: ${String(event.error)}`);
    const { result } = event;
    const planned = this.#planned as Planned;
    const record = toRecord(result, {
      variant: planned.variant,
      split: planned.split,
      user: this.#options.user,
      trial: planned.trial,
      seed: planned.seed,
    });
    const scored = this.#score(result, event.decisions);
    const said = record.messages.flatMap((m) => (m.role === 'user' ? [withoutStopMarkers(m.content)] : [])).filter((t) => t !== null);
    return {
      observation: {
        customer_message: said.at(-1) ?? null,
        termination: record.termination,
        success: record.evaluation.success,
        handed_off: record.evaluation.handoff.transferred,
        reward_name: `hierarchy:${this.#hierarchy.role}`,
        reward_components: scored.components,
        ...this.#meta(scored.roles),
      },
      reward: scored.value,
      done: true,
    };
  }

  /** The role's reward at the stage's guard severity and density, with every role's value beside it. */
  #score(result: EpisodeResult, decisions: TeamDecisions) {
    const h = this.#hierarchy;
    const task = this.#task as DomainTask;
    const episode = hierarchyEpisodeOf(result, this.#options.domain, task, this.#supervisor as Supervisor, decisions);
    const config = { ...HIERARCHY_REWARD_DEFAULTS, guard: { ...HIERARCHY_REWARD_DEFAULTS.guard, severity: h.stage.guard_severity } };
    const own = roleReward(h.role, episode, config);
    const all = hierarchyRewards(episode, config);
    return {
      value: atDensity(h.stage, own.value, result.evaluation.success === true),
      components: { ...own.components, density: h.stage.density, guard_severity: h.stage.guard_severity, undensified: own.value },
      roles: { l1: all.l1.value, l2: all.l2.value, l3: all.l3.value, team: all.team.value },
    };
  }

  /** The policy update L1 now reads, when it is new since the last observation. */
  #newNotice(): Record<string, unknown> {
    const notice = driftNoticeOf(this.#policy());
    if (notice === this.#noticeShown) return {};
    this.#noticeShown = notice;
    return notice === '' ? {} : { policy_notice: notice };
  }

  #meta(roles?: Record<string, number>): Record<string, unknown> {
    const h = this.#hierarchy;
    const task = this.#task;
    if (!task) return {};
    return {
      hierarchy: {
        role: h.role,
        supervisor: h.role === 'l2' ? 'trainer' : h.supervisor,
        l1: h.l1 ?? 'rule',
        stage: h.stage.stage,
        priority: taskPriority(this.#options.domain, task),
        ...(roles ? { roles } : {}),
      },
    };
  }
}

/** The session of the role the trainer plays: L1 (or a single agent) in `EnvSession`, L2 or L3 in `TeamSession`. */
export function createEnvSession(options: EnvSessionOptions): EnvSessionLike {
  return options.hierarchy && options.hierarchy.role !== 'l1' ? new TeamSession(options) : new EnvSession(options);
}
