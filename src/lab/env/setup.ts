/**
 * The session options an environment server is built from: one domain's tasks (main tasks or
 * hand-off variants, one split, some styles), the simulated customer (scripted, or an LLM when an
 * endpoint is given), and a named reward. Used by `baton env serve`, the benchmark and the tests.
 */
import type { ChatMessage, Policy } from '../../core/index.js';
import type { Domain, DomainTask } from '../../domains/domain.js';
import { rewardByName, type RewardName, type RewardOptions } from '../../rewards/index.js';
import { createUserFactory, planEpisodes, type ModelEndpoint } from '../eval/run-eval.js';
import type { Style } from '../user.js';
import type { VariantSplit } from '../variant.js';
import { generateVariants, HANDOFF_VARIANT_SEED } from '../variants/index.js';
import type { EnvAction, EnvSessionOptions } from './session.js';
import { CURRICULUM, servesPriority, type Role, type Stage } from '../../rewards/hierarchy/index.js';
import { createSupervisor, type SupervisorName } from '../hierarchy/supervisors.js';
import type { ScriptedL1Name } from './review-wire.js';
import { taskPriority } from '../hierarchy/task-priority.js';
import { variantTask } from '../run-episode.js';
import { driftTasksOf } from '../../domains/drift-tasks.js';
import type { ScheduledDrift } from '../../domains/drift.js';
import type { Planned } from '../eval/run-eval.js';

export interface EnvSetup {
  tasks: 'main' | 'handoff';
  split: VariantSplit;
  reward: RewardName;
  rewardOptions?: RewardOptions;
  checks: 'production' | 'off';
  styles?: readonly Style[];
  /**
   * Hierarchy mode: the trainer plays L1 under a scripted supervisor, or L2 or L3 over the scripted
   * L1 `l1`; the stage filters tasks by priority.
   */
  hierarchy?: { role: Role; supervisor: SupervisorName; stage: Stage; l1?: ScriptedL1Name };
  /** An LLM customer on this endpoint (with tau2-bench's user guidelines); the scripted one without. */
  userModel?: { endpoint: ModelEndpoint; guidelines: string; concurrency: number };
}

export function envSessionOptions(domain: Domain, setup: EnvSetup): EnvSessionOptions {
  const variants = generateVariants([domain], { seed: HANDOFF_VARIANT_SEED });
  const plan = planEpisodes(domain, variants, {
    tasks: setup.tasks,
    split: setup.split,
    styles: setup.styles ?? ['neutral'],
    trials: 1,
    seed: 1,
  });
  const stage = setup.hierarchy ? CURRICULUM[setup.hierarchy.stage] : null;
  // A stage with drift adds, after each main task a drift event changes, the same task with the
  // event scheduled (the domain's drift pairs: billing's, airline's, retail's).
  const drifts = new Map<string, { drift: ScheduledDrift; before: Planned }>();
  const withDrift: Planned[] = [];
  const pairs = stage?.drift && setup.tasks === 'main' ? driftTasksOf(domain) : [];
  for (const p of plan) {
    withDrift.push(p);
    for (const pair of pairs.filter((d) => d.before.id === p.task.id && p.variant === null)) {
      const key = `${p.key}@${pair.event.id}`;
      withDrift.push({ ...p, key, task: pair.after });
      drifts.set(key, { drift: { event: pair.event, turn: pair.turn }, before: p });
    }
  }
  const served = stage ? withDrift.filter((p) => servesPriority(stage, taskPriority(domain, variantTask(p.task, p.variant)))) : plan;
  const h = setup.hierarchy;
  // The trainer playing L2 or L3 gets the tasks where something comes to its role.
  const role = h?.role ?? 'l1';
  const forRole = h && role !== 'l1' ? served.filter((p) => comesTo(role, h.supervisor, domain, variantTask(p.task, p.variant))) : served;
  const llm = setup.userModel;
  const users = llm
    ? createUserFactory({ user: 'llm', userModel: llm.endpoint, concurrency: llm.concurrency }, domain, variants, llm.guidelines)
    : createUserFactory({ user: 'scripted', concurrency: 1 }, domain, variants, '');
  // The customer of a drift task is the committed task's: the drift changes the policy, not the request.
  const userFor = (planned: Planned) => users(drifts.get(planned.key)?.before ?? planned);
  return {
    domain,
    plan: forRole,
    ...(h && stage ? { hierarchy: { role: h.role, supervisor: h.supervisor, stage, ...(h.l1 ? { l1: h.l1 } : {}) } } : {}),
    ...(drifts.size > 0 ? { drifts: new Map([...drifts].map(([key, d]) => [key, d.drift])) } : {}),
    reward: rewardByName(setup.reward, setup.rewardOptions),
    userFor,
    user: llm ? 'llm' : 'scripted',
    checks: setup.checks,
  };
}

/**
 * Whether a task brings work to a role played over a scripted L1: to L2, a reference solution
 * with a high-risk write (a review) or a hand-off; to L3, a hand-off the scripted supervisor
 * escalates at the task's priority.
 */
function comesTo(role: 'l2' | 'l3', supervisor: SupervisorName, domain: Domain, task: DomainTask): boolean {
  if (role === 'l3') return task.handoff.expected && createSupervisor(supervisor, task).escalates(taskPriority(domain, task));
  const reviewed = (task.actions ?? []).some(
    (a) => domain.isWrite(a.name) && domain.tools.find((t) => t.name === a.name)?.needsConfirmation !== false,
  );
  return reviewed || task.handoff.expected;
}

/**
 * The next action of a policy that is not behind the harness (the oracle, replayed by a client):
 * asks it with the assistant messages it has sent so far, records its answer among them, and turns
 * the answer into one environment action.
 */
export async function nextAction(policy: Policy, sent: ChatMessage[]): Promise<EnvAction> {
  const answer = await policy.next({ messages: sent, tools: [] });
  if (!answer.ok) throw new Error(`${policy.name} failed: ${answer.failure.message}`);
  sent.push({ role: 'assistant', content: answer.content, toolCalls: answer.toolCalls });
  const call = answer.toolCalls[0];
  if (!call) return { type: 'message', content: answer.content ?? '' };
  return {
    type: 'tool_call',
    name: call.name,
    arguments: JSON.parse(call.arguments) as Record<string, unknown>,
    ...(answer.content ? { content: answer.content } : {}),
  };
}
