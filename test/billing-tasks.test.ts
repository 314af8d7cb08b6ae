import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderBillingTasks } from '../scripts/generate-billing-tasks.js';
import { buildBillingTasks } from '../src/domains/billing/billing-task-builder.js';
import {
  BILLING_HANDOFF_REASONS,
  BILLING_QUEUE_IDS,
  BILLING_SEED,
  BILLING_TASKS_FILE,
  generateBillingDb,
  loadBillingDomain,
  parseBillingTasks,
} from '../src/domains/billing/index.js';
import type { DomainTask } from '../src/domains/domain.js';
import { evaluate } from '../src/domains/evaluator.js';
import { runOracle } from '../src/domains/oracle.js';

const domain = loadBillingDomain();
const tasks = domain.tasks;
const committed = readFileSync(BILLING_TASKS_FILE, 'utf8');
const records = parseBillingTasks(committed);
const kindOf = new Map(records.map((r) => [r.id, r.kind]));

const RESOLVED = ['refund_duplicate', 'refund_at_limit', 'update_email', 'change_plan', 'cancel_subscription', 'explain_charge'];
const HANDED_OFF = [
  'refund_over_limit',
  'refund_just_over_limit',
  'formal_complaint',
  'bereavement',
  'legal_threat',
  'customer_request',
  'cannot_verify',
];
const HARD_NEGATIVES = ['angry_resolvable', 'lawyer_in_passing', 'non_duplicate_charge', 'already_refunded', 'own_account_after_loss'];

/** Replays a task's gold actions on a fresh episode; returns the episode and every result. */
function replay(task: DomainTask) {
  const episode = domain.newEpisode();
  const results = (task.actions ?? []).map((a) => ({ action: a, ...episode.call(a.name, a.arguments) }));
  return { episode, results };
}

describe('the committed task file', () => {
  it('is what the generator writes, byte for byte', async () => {
    expect(await renderBillingTasks()).toBe(committed);
  });

  it('is built deterministically from the seeded database', () => {
    const db = generateBillingDb(BILLING_SEED);
    expect(buildBillingTasks(db)).toEqual(records);
    expect(buildBillingTasks(db, 1).map((t) => t.user_scenario)).not.toEqual(records.map((t) => t.user_scenario));
  });

  it('has at least 80 tasks with unique ids in order, version v1, scored on DB and COMMUNICATE without a judge', () => {
    expect(tasks.length).toBeGreaterThanOrEqual(90);
    expect(tasks.map((t) => t.id)).toEqual(tasks.map((_, i) => `billing_${String(i + 1).padStart(3, '0')}`));
    expect(new Set(tasks.map((t) => t.id)).size).toBe(tasks.length);
    for (const task of tasks) {
      expect(task).toMatchObject({
        domain: 'billing',
        version: 'v1',
        rewardBasis: ['DB', 'COMMUNICATE'],
        needsJudge: false,
        nlAssertions: [],
      });
      expect(task.handoff.source).toBe('label');
      const instructions = task.userScenario.instructions;
      expect(typeof instructions === 'object' && instructions.domain).toBe('billing');
    }
  });

  it('mixes resolvable cases, hand-offs and hard negatives in the planned proportions', () => {
    const count = (kinds: string[]) => records.filter((r) => kinds.includes(r.kind)).length;
    expect(count(RESOLVED) + count(HANDED_OFF) + count(HARD_NEGATIVES)).toBe(records.length);
    expect(count(RESOLVED) / records.length).toBeGreaterThan(0.4);
    expect(count(HANDED_OFF) / records.length).toBeGreaterThan(0.3);
    expect(count(HANDED_OFF) / records.length).toBeLessThan(0.4);
    expect(count(HARD_NEGATIVES)).toBeGreaterThanOrEqual(15);
    for (const r of records) expect(r.handoff.expected, r.id).toBe(HANDED_OFF.includes(r.kind));
  });

  it('splits about 60/40, every kind and both outcomes in both splits', () => {
    const test = tasks.filter((t) => t.split === 'test');
    expect(test.length / tasks.length).toBeGreaterThan(0.35);
    expect(test.length / tasks.length).toBeLessThan(0.45);
    for (const split of ['train', 'test'] as const) {
      const inSplit = tasks.filter((t) => t.split === split);
      expect(inSplit.some((t) => t.handoff.expected)).toBe(true);
      expect(inSplit.some((t) => !t.handoff.expected)).toBe(true);
      expect(new Set(inSplit.map((t) => kindOf.get(t.id)))).toEqual(new Set([...RESOLVED, ...HANDED_OFF, ...HARD_NEGATIVES]));
    }
  });

  it('labels hand-offs with a domain queue and a harness reason, and nothing else', () => {
    for (const task of tasks) {
      const { expected, queue, reason } = task.handoff;
      if (expected) {
        expect(BILLING_QUEUE_IDS, task.id).toContain(queue);
        expect(BILLING_HANDOFF_REASONS as readonly string[], task.id).toContain(reason);
      } else {
        expect([queue, reason], task.id).toEqual([null, null]);
      }
    }
    const labels = new Set(tasks.filter((t) => t.handoff.expected).map((t) => `${t.handoff.queue}/${t.handoff.reason}`));
    expect(labels).toEqual(
      new Set([
        'queue_billing/value_threshold',
        'queue_billing/customer_request',
        'queue_complaints/policy_topic',
        'queue_bereavement/policy_topic',
        'queue_legal/policy_topic',
        'queue_account_security/no_capability',
      ]),
    );
  });
});

describe('gold trajectories', () => {
  it('replay from the initial database with no error output', () => {
    for (const task of tasks) {
      expect(task.actions?.length, task.id).toBeGreaterThan(0);
      for (const { action, output, error } of replay(task).results) expect(error, `${task.id} ${action.name}: ${output}`).toBe(false);
    }
  });

  it('end with the labelled hand-off exactly when one is expected, and hand off nowhere else', () => {
    for (const task of tasks) {
      const actions = task.actions ?? [];
      const handoffs = actions.filter((a) => a.name === 'handoff');
      if (task.handoff.expected) {
        expect(handoffs, task.id).toHaveLength(1);
        const last = actions.at(-1)!;
        expect(last.name, task.id).toBe('handoff');
        expect(last.arguments, task.id).toMatchObject({ target: task.handoff.queue, reason: task.handoff.reason });
        expect(String(last.arguments['summary']).length, task.id).toBeGreaterThan(20);
        expect(last.compareArgs).toEqual(['target', 'reason']);
      } else {
        expect(handoffs, task.id).toEqual([]);
      }
      expect(actions.every((a) => a.requestor === 'assistant' && a.actionId.startsWith(`${task.id}_`))).toBe(true);
    }
  });

  it('never refund above the limit, and refund only duplicates', () => {
    for (const task of tasks) {
      for (const action of task.actions ?? []) {
        if (action.name !== 'refund_charge') continue;
        expect(action.arguments['amount'] as number, task.id).toBeLessThanOrEqual(50);
        expect(domain.initialDb.charges[action.arguments['charge_id'] as string]?.duplicate_of, task.id).not.toBeNull();
      }
    }
  });

  it('change the database where the DB check should tell a right outcome from doing nothing', () => {
    const initial = domain.newEpisode().hash();
    for (const task of tasks) {
      const writes = (task.actions ?? []).filter((a) => domain.isWrite(a.name));
      const changed = replay(task).episode.hash() !== initial;
      expect(changed, task.id).toBe(writes.length > 0);
      // Topic hand-offs and the immediate requests for a person verify no one (the policy says hand off at once).
      const immediate = ['formal_complaint', 'bereavement', 'legal_threat', 'cannot_verify'].includes(kindOf.get(task.id)!);
      if (immediate) expect(writes, task.id).toEqual([]);
      else if (kindOf.get(task.id) !== 'customer_request') expect(writes.map((w) => w.name)[0], task.id).toBe('verify_customer');
    }
  });

  it('show the agent everything the customer must be told (comma-free, as COMMUNICATE compares it)', () => {
    for (const task of tasks) {
      const outputs = replay(task)
        .results.map((r) => r.output.toLowerCase())
        .join('\n');
      for (const info of task.communicateInfo) {
        expect(info, task.id).not.toContain(',');
        expect(outputs, `${task.id}: ${info}`).toContain(info.toLowerCase());
      }
    }
  });

  it('score 1.0 through the oracle and the evaluator, and a do-nothing run fails wherever the gold writes', async () => {
    for (const task of tasks) {
      const evaluation = await evaluate(domain, task, runOracle(domain, task));
      expect(evaluation.reward, task.id).toBe(1);
      expect(evaluation.handoff.transferred, task.id).toBe(task.handoff.expected);
      if (task.handoff.expected)
        expect([evaluation.handoff.target, evaluation.handoff.reason]).toEqual([task.handoff.queue, task.handoff.reason]);
      const idle = await evaluate(domain, task, { messages: [], termination: 'agent_stop' });
      const writes = (task.actions ?? []).some((a) => domain.isWrite(a.name));
      expect(idle.db?.reward, task.id).toBe(writes ? 0 : 1);
    }
  });
});
