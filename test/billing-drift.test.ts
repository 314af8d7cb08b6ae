/**
 * Policy drift on billing, end to end through the gateway and the harness with the scripted
 * customer: for each of the five events, an agent that keeps the old rule (the oracle of the task
 * as committed) fails the drift task, and one that follows the notice (the oracle of the new
 * policy) passes it; the rule agent, told by the rules, hands off where the lowered limit says so;
 * the notice reaches the agent's prompt from the drift's turn on, never before.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Policy } from '../src/core/index.js';
import {
  BILLING_DRIFT_EVENTS,
  BILLING_TASKS_FILE,
  billingDriftTasks,
  loadBillingDomain,
  parseBillingTasks,
  type DriftTask,
} from '../src/domains/billing/index.js';
import type { DomainTask } from '../src/domains/domain.js';
import { DRIFT_NOTICE_HEADING } from '../src/domains/drift.js';
import { createOraclePolicy } from '../src/domains/oracle.js';
import { createRuleAgent } from '../src/lab/agents/index.js';
import { runEpisode, type EpisodeAgent } from '../src/lab/run-episode.js';
import { taskScript } from '../src/lab/task-scripts.js';
import { createScriptedUser } from '../src/lab/users/scripted-user.js';
import { generateVariants, HANDOFF_VARIANT_SEED } from '../src/lab/variants/index.js';

const domain = loadBillingDomain();
const records = parseBillingTasks(readFileSync(BILLING_TASKS_FILE, 'utf8'));
const variants = generateVariants([domain], { seed: HANDOFF_VARIANT_SEED });

const customer = (task: DomainTask) => createScriptedUser(taskScript(domain, task, variants), { style: 'neutral', seed: 1 });
const oracle = (task: DomainTask): EpisodeAgent => ({
  name: 'oracle',
  policy: createOraclePolicy(domain, task),
  handoff: true,
  confirmWrites: false,
  outputGuardrails: false,
});

/** Plays `agent` on the drift pair's after-task with the event scheduled at `turn`. */
const play = (pair: DriftTask, agent: EpisodeAgent, turn = pair.turn) =>
  runEpisode({ domain, task: pair.after, variant: null, agent, user: customer(pair.before), seed: 3, drift: { event: pair.event, turn } });

describe('billing policy drift', () => {
  const pairs = billingDriftTasks(records, domain.tasks);

  it('ships five events, each with tasks whose right outcome differs before and after', () => {
    expect(BILLING_DRIFT_EVENTS.map((e) => e.id)).toEqual([
      'refund_limit_lowered',
      'email_changes_suspended',
      'complaints_queue_closed',
      'plan_price_rise',
      'plan_recalled',
    ]);
    for (const event of BILLING_DRIFT_EVENTS) expect(pairs.filter((p) => p.event === event).length).toBeGreaterThan(0);
    for (const pair of pairs) {
      const differs =
        JSON.stringify(pair.before.actions) !== JSON.stringify(pair.after.actions) ||
        JSON.stringify(pair.before.communicateInfo) !== JSON.stringify(pair.after.communicateInfo) ||
        pair.before.handoff.queue !== pair.after.handoff.queue;
      expect(differs).toBe(true);
    }
    expect(() => billingDriftTasks(records, domain.tasks, 0)).toThrow(/customer turn ≥ 1/);
  });

  it.each(BILLING_DRIFT_EVENTS.map((e) => e.id))('%s: the old rule fails the drift task, the notice followed passes it', async (id) => {
    const pair = pairs.find((p) => p.event.id === id) as DriftTask;
    // The oracle does the whole task in its first turn: the drift holds from turn 1.
    const old = await play(pair, oracle(pair.before), 1);
    const followed = await play(pair, oracle(pair.after), 1);
    expect(old.drift).toEqual({ event: id, turn: 1, fired: true });
    // The old rule does not earn the outcome: it fails, or the system (the decider, which reads
    // the new policy too) had to hand off in its place — a rescue the rewards pay nothing for.
    expect(old.evaluation.success === false || (old.handoff !== null && old.handoff.decidedBy !== 'model')).toBe(true);
    expect(followed.evaluation.success).toBe(true);
    if (pair.after.handoff.expected) expect(followed.evaluation.handoff.target).toBe(pair.after.handoff.queue);
    // Without the drift the old rule is the right one.
    const before = await runEpisode({
      domain,
      task: pair.before,
      variant: null,
      agent: oracle(pair.before),
      user: customer(pair.before),
      seed: 3,
    });
    expect(before.evaluation.success).toBe(true);
    expect(before.drift).toBeNull();
  });

  it('tells the agent from the drift turn on, and the rules make the rule agent hand off to the right queue', async () => {
    const pair = pairs.find((p) => p.event.id === 'refund_limit_lowered' && p.before.id !== undefined) as DriftTask;
    const prompts: { turnCustomerMessages: number; noticed: boolean }[] = [];
    const rule = createRuleAgent(domain);
    const recording: Policy = {
      name: 'rule',
      next: (request) => {
        const system = request.messages[0]?.content ?? '';
        prompts.push({
          turnCustomerMessages: request.messages.filter((m) => m.role === 'user').length,
          noticed: system.includes(DRIFT_NOTICE_HEADING) && system.includes('now 20.00'),
        });
        return rule.next(request);
      },
    };
    const result = await play(pair, { name: 'rule', policy: recording, handoff: true, confirmWrites: true, outputGuardrails: true }, 2);
    expect(result.drift).toEqual({ event: 'refund_limit_lowered', turn: 2, fired: true });
    expect(prompts.filter((p) => p.turnCustomerMessages < 2).every((p) => !p.noticed)).toBe(true);
    expect(prompts.filter((p) => p.turnCustomerMessages >= 2).every((p) => p.noticed)).toBe(true);
    expect(prompts.some((p) => p.turnCustomerMessages < 2)).toBe(true);
    expect(result.evaluation.handoff).toMatchObject({ transferred: true, target: 'queue_billing', reason: 'value_threshold' });
    expect(result.evaluation.success).toBe(true);
    // The same agent on the task as committed refunds it.
    const before = await runEpisode({
      domain,
      task: pair.before,
      variant: null,
      agent: { name: 'rule', policy: rule, handoff: true, confirmWrites: true, outputGuardrails: true },
      user: customer(pair.before),
      seed: 3,
    });
    expect(before.evaluation.success).toBe(true);
    expect(before.evaluation.handoff.transferred).toBe(false);
  });
});
