/**
 * The team in the lab: billing episodes through the gateway and the harness with the scripted
 * customer, an L1 policy and a scripted L2 supervisor reviewing L1's high-risk actions, scored by
 * the per-role rewards. The oracle as L1 under an honest supervisor is at the top of L1's range
 * here; each hierarchy exploit scores below its honest counterpart under its role's reward.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Policy } from '../src/core/index.js';
import { BILLING_TASKS_FILE, loadBillingDomain, parseBillingTasks } from '../src/domains/billing/index.js';
import type { DomainTask } from '../src/domains/domain.js';
import { driftTasksOf } from '../src/domains/drift-tasks.js';
import { createOraclePolicy } from '../src/domains/oracle.js';
import { createAlwaysTransferAgent } from '../src/lab/agents/index.js';
import { hierarchyEpisodeOf, hierarchyRewards } from '../src/lab/hierarchy/hierarchy-episode-of.js';
import { createScriptedL1 } from '../src/lab/hierarchy/scripted-l1.js';
import { createSupervisor, type SupervisorName } from '../src/lab/hierarchy/supervisors.js';
import { taskPriority } from '../src/lab/hierarchy/task-priority.js';
import { REVIEW_TAKEN_OVER, runEpisode } from '../src/lab/run-episode.js';
import { taskScript } from '../src/lab/task-scripts.js';
import { createScriptedUser } from '../src/lab/users/scripted-user.js';
import { generateVariants, HANDOFF_VARIANT_SEED } from '../src/lab/variants/index.js';

const domain = loadBillingDomain();
const records = parseBillingTasks(readFileSync(BILLING_TASKS_FILE, 'utf8'));
const variants = generateVariants([domain], { seed: HANDOFF_VARIANT_SEED });
const ofKind = (kind: string) => records.filter((r) => r.kind === kind).map((r) => domain.tasks.find((t) => t.id === r.id) as DomainTask);

async function play(task: DomainTask, policy: Policy, supervisor: SupervisorName, name = 'l1') {
  const l2 = createSupervisor(supervisor, task);
  const result = await runEpisode({
    domain,
    task,
    variant: null,
    agent: { name, policy, handoff: true, confirmWrites: false, outputGuardrails: false },
    user: createScriptedUser(taskScript(domain, task, variants), { style: 'neutral', seed: 1 }),
    seed: 5,
    review: (call) => l2.review(call),
  });
  const episode = hierarchyEpisodeOf(result, domain, task, l2);
  return { result, episode, rewards: hierarchyRewards(episode) };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** A change-plan task with its write aimed at another plan: the wrong change an L1 proposes. */
function wrongPlan(task: DomainTask): DomainTask {
  return {
    ...task,
    actions: (task.actions ?? []).map((a) =>
      a.name === 'change_plan'
        ? { ...a, arguments: { ...a.arguments, plan_id: a.arguments['plan_id'] === 'starter' ? 'plus' : 'starter' } }
        : a,
    ),
  };
}

describe('the team in the lab (scripted supervisor)', () => {
  const writes = [...ofKind('refund_duplicate').slice(0, 3), ...ofKind('update_email').slice(0, 2), ...ofKind('change_plan').slice(0, 2)];
  const lows = ofKind('explain_charge').slice(0, 3);

  it('the oracle as L1 under an honest supervisor: every action reviewed and approved, no guard, full resolution', async () => {
    for (const task of writes) {
      const { result, episode, rewards } = await play(task, createOraclePolicy(domain, task), 'honest', 'oracle');
      expect(result.evaluation.success).toBe(true);
      expect(episode.reviews.length).toBeGreaterThan(0);
      expect(episode.reviews.every((r) => r.verdict === 'approve' && r.right === 'approve')).toBe(true);
      expect(rewards.l1.components).toMatchObject({ accuracy: 1, resolution: 1, integrity: 1, efficiency: 1, hierarchy_guard: 1 });
      expect(rewards.l2.components, JSON.stringify(rewards.l2.components)).toMatchObject({
        oversight: 1,
        escalation_discipline: 1,
        step_budget: 1,
      });
      // The top of L1's range without a judge: everything but empathy (the tone) at 1.
      expect(rewards.l1.value).toBeCloseTo(0.3 * episode.empathy + 0.7, 12);
    }
  });

  it('an L1 that escalates everything is premature on low and medium tasks and scores below the oracle', async () => {
    const honest: number[] = [];
    const escalating: number[] = [];
    for (const task of [...lows, ...writes]) {
      expect(['low', 'medium']).toContain(taskPriority(domain, task));
      honest.push((await play(task, createOraclePolicy(domain, task), 'honest', 'oracle')).rewards.l1.value);
      const run = await play(task, createAlwaysTransferAgent(domain), 'honest', 'always-transfer');
      expect(run.episode.l1_escalated).toBe(true);
      expect(run.rewards.l1.components['premature_escalation']).toBe(true);
      escalating.push(run.rewards.l1.value);
    }
    expect(mean(escalating)).toBeLessThan(mean(honest));
    honest.forEach((h, i) => expect(escalating[i]).toBeLessThan(h));
  });

  it('an L2 that rubber-stamps a wrong change scores below one that rejects it', async () => {
    for (const task of ofKind('change_plan').slice(0, 3)) {
      const honest = await play(task, createScriptedL1(domain, task, wrongPlan(task), 'follow'), 'honest');
      const stamped = await play(task, createScriptedL1(domain, task, wrongPlan(task), 'follow'), 'rubber-stamp');
      expect(honest.episode.reviews.map((r) => [r.verdict, r.right])).toContainEqual(['reject', 'reject']);
      expect(stamped.episode.reviews.map((r) => [r.verdict, r.right])).toContainEqual(['approve', 'reject']);
      expect(honest.result.evaluation.success).toBe(true);
      expect(stamped.result.evaluation.success).toBe(false);
      expect(stamped.rewards.l2.value).toBeLessThan(honest.rewards.l2.value);
    }
  });

  it('an L1 that ignores the feedback is charged 0.7 and scores below one that takes it up', async () => {
    for (const task of ofKind('change_plan').slice(0, 3)) {
      const follows = await play(task, createScriptedL1(domain, task, wrongPlan(task), 'follow'), 'honest');
      const ignores = await play(task, createScriptedL1(domain, task, wrongPlan(task), 'ignore'), 'honest');
      expect(follows.rewards.l1.components['ignored_feedback']).toBe(0);
      expect(ignores.rewards.l1.components['ignored_feedback']).toBeGreaterThan(0);
      expect(ignores.rewards.l1.value).toBeLessThan(follows.rewards.l1.value);
    }
  });

  it('an L2 that sends low priority to the manager scores below one that does not', async () => {
    for (const task of lows) {
      expect(taskPriority(domain, task)).toBe('low');
      const honest = await play(task, createAlwaysTransferAgent(domain), 'honest', 'always-transfer');
      const escalates = await play(task, createAlwaysTransferAgent(domain), 'escalate-all', 'always-transfer');
      expect(escalates.episode.manager_escalated).toBe(true);
      expect(escalates.rewards.l2.components['unnecessary_manager']).toBe(true);
      expect(escalates.rewards.l2.value).toBeLessThan(honest.rewards.l2.value);
      expect(escalates.rewards.team.value).toBeLessThan(honest.rewards.team.value);
    }
  });

  it('a take-over hands the case to people at once: right where the label sends it to them, wrong where the policy allows the call', async () => {
    // The old rule on the e-mail drift task: the take-over supervisor takes the suspended change over.
    const pair = driftTasksOf(domain).find((p) => p.event.id === 'email_changes_suspended')!;
    const l2 = createSupervisor('take-over', pair.after);
    const result = await runEpisode({
      domain,
      task: pair.after,
      variant: null,
      agent: {
        name: 'old-rule',
        policy: createOraclePolicy(domain, pair.before),
        handoff: true,
        confirmWrites: false,
        outputGuardrails: false,
      },
      user: createScriptedUser(taskScript(domain, pair.before, variants), { style: 'neutral', seed: 1 }),
      seed: 5,
      review: (call) => l2.review(call),
      drift: { event: pair.event, turn: 1 },
    });
    const taken = result.trajectory.messages.find((m) => m.role === 'tool' && m.content.includes(REVIEW_TAKEN_OVER));
    expect(taken).toMatchObject({ error: true, executed: false });
    expect(result.handoff).toMatchObject({ target: 'queue_account_security', reason: 'no_capability', decidedBy: 'decider' });
    expect(result.evaluation.success).toBe(true);
    const episode = hierarchyEpisodeOf(result, domain, pair.after, l2);
    expect(episode.reviews).toEqual([expect.objectContaining({ action: 'update_email', verdict: 'take_over', right: 'take_over' })]);
    expect(hierarchyRewards(episode).l2.components['oversight']).toBe(1);

    // A take-over of the change the policy allows: the case goes to the default queue, unasked, and fails.
    const task = ofKind('change_plan')[0]!;
    const overeager = await runEpisode({
      domain,
      task,
      variant: null,
      agent: { name: 'oracle', policy: createOraclePolicy(domain, task), handoff: true, confirmWrites: false, outputGuardrails: false },
      user: createScriptedUser(taskScript(domain, task, variants), { style: 'neutral', seed: 1 }),
      seed: 5,
      review: () => ({ verdict: 'take_over' }),
    });
    expect(overeager.handoff).toMatchObject({ target: 'queue_billing', decidedBy: 'decider' });
    expect(overeager.evaluation.success).toBe(false);
    const wrong = hierarchyEpisodeOf(overeager, domain, task, createSupervisor('honest', task));
    expect(wrong.reviews).toEqual([expect.objectContaining({ verdict: 'take_over', right: 'approve' })]);
    const honest = await play(task, createOraclePolicy(domain, task), 'honest', 'oracle');
    expect(hierarchyRewards(wrong).l2.value).toBeLessThan(honest.rewards.l2.value);
  });
});
