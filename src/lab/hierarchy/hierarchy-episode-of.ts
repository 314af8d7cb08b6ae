/**
 * A lab episode played with a supervisor, read as the hierarchical rewards read it
 * ({@link HierarchyEpisode}). Everything comes from the episode's record: the single-agent signals
 * (tone, SLA, loops, guards, injection) from `dense`'s own computation, the reviews from the
 * episode's review log with the right verdict from the reference solution, and the manager's part
 * from the scripted supervisor's escalation rule and the task's label. Without a judge, empathy is
 * the tone (VADER), and the judged resolution is the evaluator's outcome.
 */
import { isTransferCall } from '../../analysis/trajectory-calls.js';
import type { Domain, DomainTask } from '../../domains/domain.js';
import type { TrajectoryMessage } from '../../domains/trajectory.js';
import { agentSteps, denseConfig, denseScore, rewardInput } from '../../rewards/index.js';
import {
  contentWords,
  HierarchyEpisodeSchema,
  l1Reward,
  l2Reward,
  l3Reward,
  teamReward,
  HIERARCHY_REWARD_DEFAULTS,
  type HierarchyEpisode,
  type HierarchyRewardConfig,
  type ReviewFact,
  type RewardResultOf,
} from '../../rewards/hierarchy/index.js';
import { toRecord } from '../records.js';
import type { EpisodeResult } from '../run-episode.js';
import { rightVerdict, type Supervisor } from './supervisors.js';
import { idealSteps, taskPriority } from './task-priority.js';

const DENSE = denseConfig();
const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/** An assistant message as text: its words and its calls. */
const asText = (m: TrajectoryMessage): string =>
  m.role === 'tool' ? m.content : [m.content ?? '', ...m.toolCalls.map((c) => `${c.name} ${JSON.stringify(c.arguments)}`)].join(' ').trim();

/** What the agent did after the tool result of `callId`: its next message, as text. */
function responseAfter(messages: readonly TrajectoryMessage[], callId: string): string | null {
  const at = messages.findIndex((m) => m.role === 'tool' && m.id === callId);
  if (at < 0) return null;
  const next = messages.slice(at + 1).find((m) => m.role === 'assistant');
  return next ? asText(next) : null;
}

/**
 * The content words of what L1 did next that the rejected call did not already have: proposing
 * the same call again takes up nothing of the feedback, whatever words they share.
 */
function newWords(response: string | null, rejected: string): string | null {
  if (response === null) return null;
  const old = contentWords(rejected);
  return [...contentWords(response)].filter((w) => !old.has(w)).join(' ');
}

/**
 * What the supervisor and the manager decided where they were not the scripted ones (a trainer
 * playing L2 or L3): whether L1's hand-off went on to the manager, and whether the manager took it.
 */
export interface TeamDecisions {
  /** Else the scripted supervisor's rule on the task's priority. */
  handoffEscalated?: boolean;
  /** Else the scripted manager's: it takes every hand-off escalated to it. */
  managerTakes?: boolean;
}

/**
 * The hierarchical view of one episode played on `task` (the task as scored) under `supervisor`.
 * The manager is involved when the supervisor escalated a review or L1's hand-off to it; its
 * decision quality is the share of its decisions that were right: an escalated call decided as the
 * policy in force says, a hand-off taken exactly when the label wants the manager.
 */
export function hierarchyEpisodeOf(
  result: EpisodeResult,
  domain: Domain,
  task: DomainTask,
  supervisor: Supervisor,
  team: TeamDecisions = {},
): HierarchyEpisode {
  const record = toRecord(result, { variant: null, split: task.split, user: 'scripted', trial: 0, seed: 0 });
  const input = rewardInput(record, domain);
  // rewardInput reads the domain's task by id; a drift task is not among them, so its own criteria are used here.
  const dense = denseScore(input, DENSE, null).components;
  const messages = result.trajectory.messages;
  const priority = taskPriority(domain, task);
  const steps = agentSteps(messages, input.system_messages);
  const ideal = idealSteps(task, messages.filter((m) => m.role === 'user').length);
  const escalated = input.transferred && input.handoff_by === 'agent';
  const handoffAt = escalated ? (result.evaluation.handoff.message ?? messages.length) : messages.length;
  const results = new Map(messages.flatMap((m) => (m.role === 'tool' ? [[m.id, m] as const] : [])));
  const calls = messages.flatMap((m) => (m.role === 'assistant' ? m.toolCalls.filter((c) => !isTransferCall(domain, c.name)) : []));
  const bad = calls.filter((c) => {
    const r = results.get(c.id);
    return !r || r.error;
  }).length;
  const reviews: ReviewFact[] = result.reviews.map((r) => ({
    action: r.name,
    verdict: r.answer.verdict,
    right: rightVerdict(task, r, r.answer.verdict),
    feedback: r.answer.verdict === 'reject' ? r.answer.feedback : null,
    response: r.answer.verdict === 'reject' ? newWords(responseAfter(messages, r.callId), `${r.name} ${JSON.stringify(r.args)}`) : null,
  }));
  const handoffEscalated = input.transferred && (team.handoffEscalated ?? supervisor.escalates(priority));
  const escalatedReviews = result.reviews.filter((r) => r.answer.escalation !== undefined);
  const managerEscalated = handoffEscalated || escalatedReviews.length > 0;
  const managerDue = task.handoff.expected && (priority === 'high' || priority === 'critical');
  const decisions = [
    ...escalatedReviews.map((r) => r.answer.verdict === rightVerdict(task, r, r.answer.verdict)),
    ...(handoffEscalated ? [(team.managerTakes ?? true) === managerDue] : []),
  ];
  return HierarchyEpisodeSchema.parse({
    priority,
    terminal: result.termination === 'user_stop' || result.termination === 'agent_stop',
    resolution_rule: result.evaluation.success === true ? 1 : 0,
    resolution_judge: null,
    empathy: dense['tone'],
    accuracy: calls.length === 0 ? (input.needs_write ? 0 : 1) : 1 - bad / calls.length,
    tone: dense['tone'],
    efficiency: steps === 0 ? 0 : Math.min(1, ideal / steps),
    sla: dense['sla'],
    policy_adherence: clamp01(1 - 0.25 * input.violations.length),
    l1_actions: agentSteps(messages.slice(0, handoffAt), input.system_messages),
    l1_escalated: escalated,
    reviews,
    manager_escalated: managerEscalated,
    manager_escalation_due: managerDue,
    decision_quality: decisions.length === 0 ? null : decisions.filter(Boolean).length / decisions.length,
    steps,
    ideal_steps: ideal,
    reward_guard: dense['multiplier'],
    loops: dense['loops'],
    contradictions: dense['contradictions'],
    keyword_stuffing: dense['keyword_stuffing'],
    injection: dense['injection'] === false ? [] : ['l1'],
  });
}

/** Every role's reward and the team's, for one hierarchical episode. */
export function hierarchyRewards(
  episode: HierarchyEpisode,
  config: HierarchyRewardConfig = HIERARCHY_REWARD_DEFAULTS,
): { l1: RewardResultOf; l2: RewardResultOf; l3: RewardResultOf; team: RewardResultOf } {
  return {
    l1: l1Reward(episode, config),
    l2: l2Reward(episode, config),
    l3: l3Reward(episode, config),
    team: teamReward(episode, undefined, config),
  };
}
