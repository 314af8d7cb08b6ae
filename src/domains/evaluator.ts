/**
 * The evaluator, with tau2-bench's semantics (TAU2.md §5), for every domain:
 * - termination: in the current task version only a user or agent stop is scored (anything else
 *   is 0.0); in the release only `max_steps` and `too_many_errors` short-circuit;
 * - DB: the trajectory's writes replayed on a fresh episode versus the gold actions replayed on
 *   another (their failures swallowed), compared by canonical hash;
 * - COMMUNICATE: each string appears, case-insensitively, in some assistant text with its commas
 *   removed;
 * - NL_ASSERTION: one call to a configured judge; with no judge the task is **unscored** (unless
 *   another component of the basis already failed, which makes the product 0 whatever a judge says);
 * - ACTION: each gold action matched by some call (diagnostic unless in the basis);
 * - HANDOFF (Baton's, for its own tasks): handed off exactly when the label says, to its queue;
 * - the reward is the product over `reward_basis`, and a trial succeeds within 1e-6 of 1.0.
 * On top of upstream, it records the hand-off facts upstream ignores: whether, when, to whom and
 * why the agent transferred.
 */
import { isDeepStrictEqual } from 'node:util';
import { HANDOFF_TOOL_NAMES } from '../core/index.js';
import type { Domain, DomainTask, GoldAction, HandoffLabel, RewardComponent } from './domain.js';
import { driftingEpisode, type DriftEvent } from './drift.js';
import type { Judge, JudgeVerdict } from './judge.js';
import { toolCallsOf, type TerminationReason, type Trajectory, type TrajectoryMessage, type TrajectoryToolCall } from './trajectory.js';

/** Tool names that hand the customer to a human in any domain: the harness's action and tau2-bench's. */
/** The hand-off action's names (core's `HANDOFF_TOOL_NAMES`), as the evaluator counts a transfer. */
export const TRANSFER_TOOLS: ReadonlySet<string> = HANDOFF_TOOL_NAMES;

export interface DbCheck {
  reward: number;
  predictedHash: string | null;
  goldHash: string | null;
  /** Writes whose replayed output differed from the recorded tool message (upstream raises on these). */
  replayMismatches: { callId: string; name: string; recorded: string | null; replayed: string }[];
}

export interface CommunicateCheck {
  reward: number;
  missing: string[];
}

export interface ActionCheck {
  reward: number;
  /** Gold actions no call in the trajectory matched. */
  missing: string[];
}

/** Baton's HANDOFF component: the run handed off exactly when the label says, to the labelled queue. */
export interface HandoffCheck {
  reward: number;
  why: string;
}

export type NlCheck =
  | { status: 'scored'; reward: number; verdict: JudgeVerdict }
  | { status: 'unscored'; reward: null; why: string }
  | { status: 'not_needed'; reward: 1 };

/** What the agent did about handing off, for the lab's metrics (upstream records none of it). */
export interface HandoffFacts {
  transferred: boolean;
  /** Index in the trajectory's messages of the first transfer call, and its position among all tool calls. */
  message: number | null;
  toolCall: number | null;
  /** How many assistant messages came before the transfer. */
  assistantTurnsBefore: number | null;
  /** The customer turn the transfer answered: how many customer messages came before it. */
  customerTurn: number | null;
  /**
   * Handed off before the label's due turn, before anything called for it (an outage's hand-off
   * is due once a tool has failed, whatever the turn).
   */
  early: boolean;
  tool: string | null;
  target: string | null;
  reason: string | null;
  summary: string | null;
  /** What the task expects. */
  label: HandoffLabel;
}

export interface Evaluation {
  domain: string;
  taskId: string;
  /** The task version whose files and scoring rules were used. */
  taskVersion: string;
  source: string;
  termination: TerminationReason;
  /** `scored`, or `unscored` with the reason (a judge was needed and none is configured, …). */
  status: 'scored' | 'unscored';
  unscoredWhy: string | null;
  /** The product over the basis; null when unscored. */
  reward: number | null;
  success: boolean | null;
  rewardBasis: readonly RewardComponent[];
  /** Absent when the run ended before it could be scored (premature termination). */
  db?: DbCheck;
  communicate?: CommunicateCheck;
  action?: ActionCheck;
  nl?: NlCheck;
  handoffCheck?: HandoffCheck;
  handoff: HandoffFacts;
}

export interface EvaluateOptions {
  /** An LLM judge for NL assertions; without one, tasks that need it are unscored. */
  judge?: Judge;
  /**
   * A policy drift that fired in the run (src/domains/drift.ts): the run's writes replay with its
   * events fired from trajectory message `fromMessage` on, the gold actions with them fired first.
   */
  drift?: { events: readonly DriftEvent[]; fromMessage: number };
}

/** `abs(reward - 1) < 1e-6`, tau2-bench's success test. */
export const isSuccess = (reward: number): boolean => Math.abs(reward - 1) < 1e-6;

/** Whether a run that ended so is scored at all, by the task version's rules. */
export function isScoredTermination(termination: TerminationReason, taskVersion: string): boolean {
  if (taskVersion === 'release-37199f3') return termination !== 'max_steps' && termination !== 'too_many_errors';
  return termination === 'user_stop' || termination === 'agent_stop';
}

/** A replayed output equals the recorded one: as parsed JSON when both parse, else as text. */
function sameOutput(recorded: string, replayed: string): boolean {
  if (recorded === replayed) return true;
  try {
    return isDeepStrictEqual(JSON.parse(recorded), JSON.parse(replayed));
  } catch {
    return false;
  }
}

/**
 * Gold hashes per domain, by the gold actions' JSON: every episode starts from the domain's one
 * initial database and tools are deterministic, so replaying the same gold actions always ends in
 * the same state. An evaluation run scores each task many times (styles × trials); this replays
 * each task's gold actions once.
 */
const goldHashes = new WeakMap<Domain, Map<string, string>>();

function goldHashOf(domain: Domain, actions: readonly GoldAction[], drift: readonly DriftEvent[]): string {
  let known = goldHashes.get(domain);
  if (!known) goldHashes.set(domain, (known = new Map()));
  const key = JSON.stringify([drift.map((e) => e.id), actions.map((a) => [a.name, a.arguments])]);
  let hash = known.get(key);
  if (hash === undefined) {
    const gold = driftingEpisode(domain.newEpisode());
    for (const event of drift) gold.fire(event);
    for (const action of actions) gold.call(action.name, action.arguments);
    known.set(key, (hash = gold.hash()));
  }
  return hash;
}

function dbCheck(domain: Domain, task: DomainTask, messages: readonly TrajectoryMessage[], drift: EvaluateOptions['drift']): DbCheck {
  if (task.actions === null && task.envAssertions === null) {
    return { reward: 1, predictedHash: null, goldHash: null, replayMismatches: [] };
  }
  const recorded = new Map<string, string>();
  const refused = new Set<string>();
  for (const m of messages) {
    if (m.role !== 'tool') continue;
    recorded.set(m.id, m.content);
    if (m.executed === false) refused.add(m.id);
  }
  const predicted = driftingEpisode(domain.newEpisode());
  const replayMismatches: DbCheck['replayMismatches'] = [];
  for (const { call, message } of toolCallsOf(messages)) {
    if (drift && message >= drift.fromMessage) for (const event of drift.events) predicted.fire(event);
    if (!domain.isWrite(call.name) || refused.has(call.id)) continue;
    const replayed = predicted.call(call.name, call.arguments).output;
    const was = recorded.get(call.id) ?? null;
    if (was === null || !sameOutput(was, replayed)) replayMismatches.push({ callId: call.id, name: call.name, recorded: was, replayed });
  }
  // A drift that fired after the last call still changes the database the run ends with.
  if (drift && messages.length > drift.fromMessage) for (const event of drift.events) predicted.fire(event);
  const predictedHash = predicted.hash();
  const goldHash = goldHashOf(domain, task.actions ?? [], drift?.events ?? []);
  return { reward: predictedHash === goldHash ? 1 : 0, predictedHash, goldHash, replayMismatches };
}

function communicateCheck(task: DomainTask, messages: readonly TrajectoryMessage[]): CommunicateCheck {
  const texts = messages.flatMap((m) => (m.role === 'assistant' && m.content ? [m.content.toLowerCase().replaceAll(',', '')] : []));
  const missing = task.communicateInfo.filter((info) => !texts.some((text) => text.includes(info.toLowerCase())));
  return { reward: missing.length === 0 ? 1 : 0, missing };
}

/** Same name, and equal values on `compare_args`, or else on every argument the call itself has (TAU2.md §5). */
function matches(action: GoldAction, call: TrajectoryToolCall): boolean {
  if (action.name !== call.name) return false;
  const keys = action.compareArgs ?? Object.keys(call.arguments);
  return keys.every((k) => isDeepStrictEqual(call.arguments[k], action.arguments[k]));
}

function actionCheck(task: DomainTask, messages: readonly TrajectoryMessage[]): ActionCheck {
  const calls = toolCallsOf(messages).map((c) => c.call);
  const missing = (task.actions ?? []).filter((a) => !calls.some((c) => matches(a, c))).map((a) => a.actionId);
  return { reward: missing.length === 0 ? 1 : 0, missing };
}

/** The trajectory as the judge reads it: `role: content` lines, tool calls as `assistant: None`. */
export function renderForJudge(messages: readonly TrajectoryMessage[]): string {
  return messages.map((m) => `${m.role}: ${m.content ?? 'None'}`).join('\n');
}

async function nlCheck(task: DomainTask, messages: readonly TrajectoryMessage[], judge: Judge | undefined): Promise<NlCheck> {
  if (task.nlAssertions.length === 0) return { status: 'not_needed', reward: 1 };
  if (!judge) return { status: 'unscored', reward: null, why: 'the task has NL assertions and no judge is configured' };
  const verdict = await judge.judge({ trajectory: renderForJudge(messages), assertions: task.nlAssertions });
  if (!verdict.ok) return { status: 'unscored', reward: null, why: `the judge failed: ${verdict.error}` };
  return { status: 'scored', reward: verdict.results.every((r) => r.metExpectation) ? 1 : 0, verdict };
}

/** The hand-off facts of a trajectory: its first transfer call that went through, if any. */
export function handoffFacts(domain: Pick<Domain, 'transferTool'>, task: DomainTask, messages: readonly TrajectoryMessage[]): HandoffFacts {
  // A transfer the environment or the harness refused (an unknown queue, say) did not happen.
  const failed = new Set(messages.flatMap((m) => (m.role === 'tool' && (m.error || m.executed === false) ? [m.id] : [])));
  const first = toolCallsOf(messages).find(
    ({ call }) => (call.name === domain.transferTool || TRANSFER_TOOLS.has(call.name)) && !failed.has(call.id),
  );
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  if (!first) {
    return {
      transferred: false,
      message: null,
      toolCall: null,
      assistantTurnsBefore: null,
      customerTurn: null,
      early: false,
      tool: null,
      target: null,
      reason: null,
      summary: null,
      label: task.handoff,
    };
  }
  const args = first.call.arguments;
  const before = messages.slice(0, first.message);
  const customerTurn = before.filter((m) => m.role === 'user').length;
  const due = task.handoff.dueTurn ?? null;
  const outageDue = task.handoff.reason === 'tool_failures' && before.some((m) => m.role === 'tool' && m.error);
  return {
    transferred: true,
    message: first.message,
    toolCall: first.ordinal,
    assistantTurnsBefore: before.filter((m) => m.role === 'assistant').length,
    customerTurn,
    early: due !== null && customerTurn < due && !outageDue,
    tool: first.call.name,
    // The harness's `handoff` names its target; tau2-bench's transfer has one implicit team.
    target: text(args['target']),
    reason: text(args['reason']),
    summary: text(args['summary']),
    label: task.handoff,
  };
}

/** Baton's HANDOFF component from the facts and the task's label. */
export function handoffCheck(facts: HandoffFacts): HandoffCheck {
  const { label } = facts;
  if (!label.expected) {
    return facts.transferred
      ? { reward: 0, why: 'handed off, and the task should be finished without a hand-off' }
      : { reward: 1, why: 'no hand-off, as labelled' };
  }
  if (!facts.transferred) return { reward: 0, why: `no hand-off; the task should go to ${label.queue ?? 'a human'}` };
  if (facts.early) {
    return {
      reward: 0,
      why: `handed off at customer turn ${facts.customerTurn}, before anything called for it (due from turn ${label.dueTurn})`,
    };
  }
  if (label.queue !== null && facts.target !== null && facts.target !== label.queue) {
    return { reward: 0, why: `handed off to ${facts.target}; the task should go to ${label.queue}` };
  }
  return { reward: 1, why: 'handed off, as labelled' };
}

/** Scores one run of `task` in `domain`. */
export async function evaluate(
  domain: Domain,
  task: DomainTask,
  trajectory: Trajectory,
  options: EvaluateOptions = {},
): Promise<Evaluation> {
  const base = {
    domain: domain.name,
    taskId: task.id,
    taskVersion: task.version,
    source: domain.source,
    termination: trajectory.termination,
    rewardBasis: task.rewardBasis,
    handoff: handoffFacts(domain, task, trajectory.messages),
  };
  if (!isScoredTermination(trajectory.termination, task.version)) {
    return { ...base, status: 'scored', unscoredWhy: null, reward: 0, success: false };
  }
  const { messages } = trajectory;
  const db = dbCheck(domain, task, messages, options.drift);
  const communicate = communicateCheck(task, messages);
  const action = actionCheck(task, messages);
  const nl: NlCheck = task.rewardBasis.includes('NL_ASSERTION')
    ? await nlCheck(task, messages, options.judge)
    : { status: 'unscored', reward: null, why: 'not in the reward basis' };
  const handoff = handoffCheck(base.handoff);
  const component: Record<RewardComponent, number | null> = {
    DB: db.reward,
    COMMUNICATE: communicate.reward,
    ACTION: action.reward,
    NL_ASSERTION: nl.reward,
    // Named check functions on the environment: none to run is a pass, as upstream; no airline,
    // retail or billing task has any, and Baton does not run them.
    ENV_ASSERTION: (task.envAssertions ?? []).length === 0 ? 1 : null,
    HANDOFF: handoff.reward,
  };
  const missing = task.rewardBasis.filter((c) => component[c] === null);
  const scores = { db, communicate, action, nl, handoffCheck: handoff };
  // A component that failed decides the product whatever the missing ones would say.
  const failed = task.rewardBasis.some((c) => component[c] === 0);
  if (missing.length > 0 && !failed) {
    const why = missing.map((c) => (c === 'NL_ASSERTION' && nl.status === 'unscored' ? nl.why : `${c} is not supported`)).join('; ');
    return { ...base, ...scores, status: 'unscored', unscoredWhy: why, reward: null, success: null };
  }
  const reward = task.rewardBasis.reduce((product, c) => product * (component[c] ?? 1), 1);
  return { ...base, ...scores, status: 'scored', unscoredWhy: null, reward, success: isSuccess(reward) };
}
