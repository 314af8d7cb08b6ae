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
import { openingRequest, runOracle } from '../src/domains/oracle.js';
import { OPENING_MESSAGE, type Trajectory, type TrajectoryMessage } from '../src/domains/trajectory.js';

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

/**
 * A run that makes `calls` in order on a fresh episode, each result recorded as the environment
 * gave it (an error result has `error: true`), then lets the customer end the chat.
 */
function run(task: DomainTask, calls: { name: string; arguments: Record<string, unknown> }[]): Trajectory {
  const episode = domain.newEpisode();
  const messages: TrajectoryMessage[] = [
    { role: 'assistant', content: OPENING_MESSAGE, toolCalls: [] },
    { role: 'user', content: openingRequest(task), toolCalls: [] },
  ];
  let transferred = false;
  calls.forEach((c, i) => {
    const id = `call_${i}`;
    messages.push({ role: 'assistant', content: null, toolCalls: [{ id, name: c.name, arguments: c.arguments, requestor: 'assistant' }] });
    const result = episode.call(c.name, c.arguments);
    messages.push({ role: 'tool', id, content: result.output, error: result.error, requestor: 'assistant' });
    transferred ||= c.name === 'handoff' && !result.error;
  });
  messages.push({ role: 'user', content: transferred ? '###TRANSFER###' : '###STOP###', toolCalls: [] });
  return { messages, termination: 'user_stop' };
}
/** A run whose only act is a hand-off to `target`. */
const handoffOnly = (task: DomainTask, target: string) =>
  run(task, [
    { name: 'handoff', arguments: { target, reason: task.handoff.reason ?? 'agent_decision', summary: 'Customer handed off at once.' } },
  ]);

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

  it('has at least 90 tasks with unique ids in order, version v1, scored on DB, COMMUNICATE and HANDOFF without a judge', () => {
    expect(tasks.length).toBeGreaterThanOrEqual(90);
    expect(tasks.map((t) => t.id)).toEqual(tasks.map((_, i) => `billing_${String(i + 1).padStart(3, '0')}`));
    expect(new Set(tasks.map((t) => t.id)).size).toBe(tasks.length);
    for (const task of tasks) {
      expect(task).toMatchObject({
        domain: 'billing',
        version: 'v1',
        rewardBasis: ['DB', 'COMMUNICATE', 'HANDOFF'],
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

  it('open with a request for a person only where the gold hands off at once for it', () => {
    const asksForPerson = /\b(human|person|staff|bot)\b/i;
    let opening = 0;
    for (const task of tasks) {
      const actions = task.actions ?? [];
      const immediate = actions.length === 1 && actions[0]!.name === 'handoff';
      const forPerson = task.handoff.reason === 'customer_request';
      // An opening that asks for a person must be handed off before anything else, so the gold
      // cannot verify first; a request for a person after verification must not be in the opening.
      expect(asksForPerson.test(openingRequest(task)), `${task.id}: ${openingRequest(task)}`).toBe(forPerson && immediate);
      if (forPerson && immediate) opening++;
    }
    expect(opening).toBeGreaterThan(0);
    expect(tasks.filter((t) => t.handoff.reason === 'customer_request').length).toBeGreaterThan(opening);
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

  it('score 1.0 through the oracle and the evaluator, handing off exactly as labelled', async () => {
    for (const task of tasks) {
      const evaluation = await evaluate(domain, task, runOracle(domain, task));
      expect(evaluation.reward, task.id).toBe(1);
      expect(evaluation.handoffCheck?.reward, task.id).toBe(1);
      expect(evaluation.handoff.transferred, task.id).toBe(task.handoff.expected);
      if (task.handoff.expected)
        expect([evaluation.handoff.target, evaluation.handoff.reason]).toEqual([task.handoff.queue, task.handoff.reason]);
    }
  });
});

describe('the reward prices the hand-off', () => {
  const initial = domain.newEpisode().hash();
  /** Whether the gold trajectory leaves the database as it found it. */
  const goldChangesNothing = (task: DomainTask) => replay(task).episode.hash() === initial;
  const handoffTasks = tasks.filter((t) => t.handoff.expected);
  const otherTasks = tasks.filter((t) => !t.handoff.expected);

  it('has hand-off tasks on both sides of the DB check, so each case below is exercised', () => {
    expect(handoffTasks.filter(goldChangesNothing).length).toBeGreaterThan(10);
    expect(handoffTasks.filter((t) => !goldChangesNothing(t)).length).toBeGreaterThan(5);
    expect(otherTasks.length).toBeGreaterThan(40);
  });

  it('gives 0 to a do-nothing run on every hand-off task (HANDOFF fails) and wherever the gold writes (DB fails)', async () => {
    for (const task of tasks) {
      const idle = await evaluate(domain, task, { messages: [], termination: 'agent_stop' });
      const writes = (task.actions ?? []).some((a) => domain.isWrite(a.name));
      expect(idle.handoffCheck?.reward, task.id).toBe(task.handoff.expected ? 0 : 1);
      expect(idle.db?.reward, task.id).toBe(writes ? 0 : 1);
      expect(idle.reward, task.id).toBe(0);
      expect(task.handoff.expected || writes, task.id).toBe(true);
    }
  });

  it('gives an immediate hand-off to the right queue 1.0 exactly on the hand-off tasks whose gold changes nothing', async () => {
    for (const task of tasks) {
      const evaluation = await evaluate(domain, task, handoffOnly(task, task.handoff.queue ?? 'queue_billing'));
      expect(evaluation.handoff.transferred, task.id).toBe(true);
      expect(evaluation.handoffCheck?.reward, task.id).toBe(task.handoff.expected ? 1 : 0);
      expect(evaluation.reward, task.id).toBe(task.handoff.expected && goldChangesNothing(task) ? 1 : 0);
    }
  });

  it('fails HANDOFF for a hand-off to the wrong queue', async () => {
    for (const task of handoffTasks) {
      for (const target of BILLING_QUEUE_IDS.filter((q) => q !== task.handoff.queue)) {
        const evaluation = await evaluate(domain, task, handoffOnly(task, target));
        expect(evaluation.handoff, `${task.id} ${target}`).toMatchObject({ transferred: true, target });
        expect(evaluation.handoffCheck?.reward, `${task.id} ${target}`).toBe(0);
        expect(evaluation.reward, `${task.id} ${target}`).toBe(0);
      }
    }
  });

  it('counts a rejected hand-off (an unknown queue, an error result) as no hand-off', async () => {
    for (const task of tasks) {
      const trajectory = handoffOnly(task, 'queue_general');
      const result = trajectory.messages.find((m) => m.role === 'tool');
      expect(result, task.id).toMatchObject({ error: true });
      expect(result?.content, task.id).toMatch(/^Error: Unknown hand-off target queue_general/);
      const evaluation = await evaluate(domain, task, trajectory);
      expect(evaluation.handoff.transferred, task.id).toBe(false);
      expect(evaluation.handoffCheck?.reward, task.id).toBe(task.handoff.expected ? 0 : 1);
      if (task.handoff.expected) expect(evaluation.reward, task.id).toBe(0);
    }
    // A rejected hand-off before the right one does not hide the right one.
    const task = handoffTasks.find(goldChangesNothing)!;
    const retried = run(task, [
      { name: 'handoff', arguments: { target: 'queue_general', reason: task.handoff.reason, summary: 'First try.' } },
      { name: 'handoff', arguments: { target: task.handoff.queue, reason: task.handoff.reason, summary: 'Second try.' } },
    ]);
    const evaluation = await evaluate(domain, task, retried);
    expect(evaluation.handoff).toMatchObject({ transferred: true, target: task.handoff.queue, summary: 'Second try.' });
    expect(evaluation.reward).toBe(1);
  });
});
