import { z } from 'zod';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DeciderPolicy } from '../src/core/index.js';
import { loadBillingDomain } from '../src/domains/billing/index.js';
import type { Domain, DomainName, DomainTask, GoldAction } from '../src/domains/domain.js';
import { handoffFacts, type Evaluation } from '../src/domains/evaluator.js';
import { OPENING_MESSAGE, type TrajectoryMessage } from '../src/domains/trajectory.js';
import {
  analyseEpisode,
  authenticationOrdinal,
  bootstrap,
  bootstrapRatio,
  computeMetrics,
  f1Of,
  isRefusal,
  pairedDifference,
  passHatK,
  percentile,
  pooled,
  refusalCitedTerms,
  resampleStatistics,
  sentencesOf,
  taskSuccess,
  termsIn,
  type Ratio,
  type RunMetrics,
} from '../src/lab/metrics/index.js';
import { RECORD_VERSION, type EpisodeRecord } from '../src/lab/records.js';

// ---- building blocks: trajectories and records by hand ----

type Msg = TrajectoryMessage;
const A = (text: string): Msg => ({ role: 'assistant', content: text, toolCalls: [] });
const U = (text: string): Msg => ({ role: 'user', content: text, toolCalls: [] });
/** An assistant message with tool calls (and optional text). */
const C = (calls: [id: string, name: string, args?: Record<string, unknown>][], text: string | null = null): Msg => ({
  role: 'assistant',
  content: text,
  toolCalls: calls.map(([id, name, args]) => ({ id, name, arguments: args ?? {}, requestor: 'assistant' as const })),
});
const R = (id: string, content: string, opts: { error?: boolean; executed?: boolean } = {}): Msg => ({
  role: 'tool',
  id,
  content,
  error: opts.error ?? false,
  requestor: 'assistant',
  ...(opts.executed === undefined ? {} : { executed: opts.executed }),
});
/** A hand-off call and its successful result. */
const H = (id: string, target: string, text: string | null = null): Msg[] => [
  C([[id, 'handoff', { target, reason: 'customer_request', summary: 'Handed off.' }]], text),
  R(id, 'Transfer successful'),
];
const TRANSFER_STOP = U('###TRANSFER###');

interface RecordSpec {
  task: string;
  kind?: EpisodeRecord['kind'];
  style?: string;
  trial?: number;
  agent?: string;
  /** true/false: scored with that outcome; null: unscored. */
  success?: boolean | null;
  should?: boolean;
  expectedTarget?: string | null;
  due?: number | null;
  messages?: Msg[];
  /** The customer turn the hand-off answered (the harness's record); omitted: taken from the messages. */
  handoffTurn?: number;
  packet?: Record<string, unknown> | null;
}

function record(domain: Domain, spec: RecordSpec): EpisodeRecord {
  const kind = spec.kind ?? 'task';
  const style = spec.style ?? 'neutral';
  const trial = spec.trial ?? 0;
  const should = spec.should ?? false;
  const expectedTarget = spec.expectedTarget === undefined ? (should ? 'queue_billing' : null) : spec.expectedTarget;
  const messages = spec.messages ?? [A(OPENING_MESSAGE), U('Hello, a question.'), A('Here is the answer.'), U('###STOP###')];
  const task = domain.tasks.find((t) => t.id === spec.task);
  if (!task) throw new Error(`no task ${spec.task}`);
  const labelled: DomainTask = { ...task, handoff: { expected: should, queue: expectedTarget, reason: null, source: 'label' } };
  const facts = handoffFacts(domain, labelled, messages);
  const success = spec.success === undefined ? true : spec.success;
  const evaluation: Evaluation = {
    domain: domain.name,
    taskId: task.id,
    taskVersion: task.version,
    source: domain.source,
    termination: 'user_stop',
    status: success === null ? 'unscored' : 'scored',
    unscoredWhy: success === null ? 'no judge' : null,
    reward: success === null ? null : success ? 1 : 0,
    success,
    rewardBasis: task.rewardBasis,
    handoff: facts,
  };
  const key = `${domain.name}/${task.id}${kind === 'task' ? '' : `/${kind}`}#${style}#${trial}`;
  return {
    version: RECORD_VERSION,
    key,
    domain: domain.name,
    task_id: task.id,
    variant_id: kind === 'task' ? null : `${domain.name}/${task.id}/${kind}`,
    kind,
    split: 'dev',
    agent: spec.agent ?? 'test-agent',
    user: 'scripted',
    style,
    trial,
    seed: 1,
    label: {
      should_transfer: should,
      expected_target: expectedTarget,
      expected_reason: null,
      due_turn: spec.due ?? null,
      label_rule: null,
    },
    termination: 'user_stop',
    customer_turns: messages.filter((m) => m.role === 'user').length,
    evaluation,
    handoff:
      facts.transferred && spec.handoffTurn !== undefined
        ? {
            turn: spec.handoffTurn,
            reason: 'customer_request',
            target: facts.target ?? 'queue_billing',
            decidedBy: 'model',
            evidence: null,
          }
        : null,
    packet: spec.packet ?? null,
    messages,
  };
}

const task = (domain: DomainName, id: string, actions: GoldAction[] | null): DomainTask => ({
  domain,
  id,
  version: 'v1',
  split: 'train',
  rewardBasis: ['DB'],
  actions,
  envAssertions: null,
  communicateInfo: [],
  nlAssertions: [],
  needsJudge: false,
  handoff: { expected: false, queue: null, reason: null, source: 'label' },
  userScenario: { persona: null, instructions: 'none' },
});

const gold = (name: string, args: Record<string, unknown>, compareArgs: string[] | null = null): GoldAction => ({
  actionId: `${name}_0`,
  name,
  arguments: args,
  requestor: 'assistant',
  compareArgs,
});

/** A tiny tau2-like domain: named tools with kinds, one queue, the given tasks. */
function fakeDomain(name: DomainName, tools: [string, 'read' | 'write'][], tasks: DomainTask[]): Domain {
  const kinds = new Map(tools);
  return {
    name,
    version: 'v1',
    source: 'test',
    policy: '',
    tools: tools.map(([tool, kind]) => ({ name: tool, kind, description: tool, schema: z.object({}) })),
    transferTool: 'transfer_to_human_agents',
    queues: [{ id: 'queue_human_agents', description: 'humans', skills: [] }],
    rules: [],
    deciderPolicy: {} as DeciderPolicy,
    authentication: { mode: 'lookup' },
    initialDb: {},
    newEpisode: () => {
      throw new Error('not in these tests');
    },
    isWrite: (tool) => kinds.get(tool) === 'write',
    tasks,
  };
}

let billing: Domain;
beforeAll(() => {
  const real = loadBillingDomain();
  // Billing's own tools, policy and tasks, plus two tasks of known gold actions.
  billing = {
    ...real,
    tasks: [
      ...real.tasks,
      task('billing', 'T1', [
        gold('find_customer_by_email', { email: 'a@example.com' }),
        gold('verify_customer', { customer_id: 'cus_1', code: '111111' }),
        gold('refund_charge', { charge_id: 'ch_9' }, ['charge_id']),
      ]),
      task('billing', 'T2', null),
      task('billing', 'T3', []),
      task('billing', 'T4', []),
    ],
  };
});

const metricsOf = (records: EpisodeRecord[], seed = 7): RunMetrics => computeMetrics(records, { domain: billing, seed });

// ---- the bootstrap ----

describe('percentile', () => {
  it('interpolates linearly between order statistics (numpy default, type 7)', () => {
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(percentile([1, 2, 3, 4], 0.025)).toBeCloseTo(1.075, 12);
    expect(percentile([1, 2, 3, 4], 0.975)).toBeCloseTo(3.925, 12);
    expect(percentile([5], 0.3)).toBe(5);
    expect(percentile([0, 10], 0)).toBe(0);
    expect(percentile([0, 10], 1)).toBe(10);
  });
  it('refuses an empty sample', () => {
    expect(() => percentile([], 0.5)).toThrow(/no values/);
  });
});

describe('the percentile bootstrap over tasks', () => {
  const tasks = (values: Record<string, Ratio>) => new Map(Object.entries(values));

  it('a constant sample has a zero-width interval at the constant', () => {
    const ones = tasks(Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`t${i}`, { num: 1, den: 1 }])));
    expect(bootstrapRatio(ones, { seed: 3 })).toEqual({ value: 1, ci: [1, 1] });
    const halves = tasks(Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`t${i}`, { num: 2, den: 4 }])));
    expect(bootstrapRatio(halves, { seed: 3 })).toEqual({ value: 0.5, ci: [0.5, 0.5] });
  });

  it('one task: every resample is that task, so the interval has zero width', () => {
    expect(bootstrapRatio(tasks({ only: { num: 3, den: 7 } }))).toEqual({ value: 3 / 7, ci: [3 / 7, 3 / 7] });
  });

  it('two tasks of 0 and 1: resamples give 0, 1/2 or 1, about a quarter, a half and a quarter; the interval is [0, 1]', () => {
    const two = tasks({ a: { num: 0, den: 1 }, b: { num: 1, den: 1 } });
    const values = resampleStatistics(two, pooled, { seed: 11, resamples: 1000 });
    expect(values).toHaveLength(1000);
    expect(new Set(values)).toEqual(new Set([0, 0.5, 1]));
    const half = values.filter((v) => v === 0.5).length / values.length;
    expect(half).toBeGreaterThan(0.44);
    expect(half).toBeLessThan(0.56);
    expect(bootstrapRatio(two, { seed: 11 })).toEqual({ value: 0.5, ci: [0, 1] });
  });

  it('keeps all trials of a task together: tasks of 2/2 and 0/2 never resample to 1/4 or 3/4', () => {
    const values = resampleStatistics(tasks({ a: { num: 2, den: 2 }, b: { num: 0, den: 2 } }), pooled, { seed: 5 });
    expect([...new Set(values)].sort()).toEqual([0, 0.5, 1]);
  });

  it('is seeded: the same seed gives the same interval whatever order the tasks come in; another seed other draws', () => {
    const entries = Array.from({ length: 20 }, (_, i) => [`task${i}`, { num: i % 3 === 0 ? 1 : 0, den: 1 }] as const);
    const forward = new Map(entries);
    const backward = new Map([...entries].reverse());
    expect(bootstrapRatio(forward, { seed: 42 })).toEqual(bootstrapRatio(backward, { seed: 42 }));
    expect(resampleStatistics(forward, pooled, { seed: 42 })).toEqual(resampleStatistics(backward, pooled, { seed: 42 }));
    expect(resampleStatistics(forward, pooled, { seed: 43 })).not.toEqual(resampleStatistics(forward, pooled, { seed: 42 }));
    const { value, ci } = bootstrapRatio(forward, { seed: 42 });
    expect(value).toBeCloseTo(7 / 20, 12);
    expect(ci![0]).toBeLessThan(value!);
    expect(ci![1]).toBeGreaterThan(value!);
  });

  it('an undefined statistic (nothing under the ratio) is null, value and interval', () => {
    expect(bootstrapRatio(tasks({ a: { num: 0, den: 0 }, b: { num: 0, den: 0 } }))).toEqual({ value: null, ci: null });
    expect(bootstrapRatio(new Map())).toEqual({ value: null, ci: null });
  });

  it('drops resamples where the statistic is undefined, keeping the rest', () => {
    // Only task b has anything under the ratio; resamples without it are undefined.
    const values = resampleStatistics(tasks({ a: { num: 0, den: 0 }, b: { num: 1, den: 2 } }), pooled, { seed: 2, resamples: 400 });
    expect(values.length).toBeGreaterThan(200);
    expect(values.length).toBeLessThan(400);
    expect(new Set(values)).toEqual(new Set([0.5]));
  });

  it('takes any statistic of the per-task summaries', () => {
    const maxOf = (sample: readonly number[]) => Math.max(...sample);
    const est = bootstrap(
      new Map([
        ['a', 1],
        ['b', 5],
      ]),
      maxOf,
      { seed: 9 },
    );
    expect(est).toEqual({ value: 5, ci: [1, 5] });
  });
});

describe('pairedDifference', () => {
  const map = (values: Record<string, number>) => new Map(Object.entries(values).map(([k, v]) => [k, { num: v, den: 1 }]));

  it('two identical systems differ by exactly 0, with a zero-width interval', () => {
    const a = new Map([
      ['t1', { num: 1, den: 2 }],
      ['t2', { num: 0, den: 2 }],
      ['t3', { num: 2, den: 2 }],
      ['t4', { num: 1, den: 3 }],
    ]);
    expect(pairedDifference(a, new Map(a))).toEqual({ value: 0, ci: [0, 0], shared: 4, only_a: 0, only_b: 0 });
  });

  it('a constant shift on every task is that shift, with a zero-width interval', () => {
    // Four tasks and quarters: every resampled mean is exact in binary, so the difference is exactly the shift.
    const b = map({ t1: 0.25, t2: 0.5, t3: 0, t4: 0.5 });
    const a = map({ t1: 0.5, t2: 0.75, t3: 0.25, t4: 0.75 });
    expect(pairedDifference(a, b)).toEqual({ value: 0.25, ci: [0.25, 0.25], shared: 4, only_a: 0, only_b: 0 });
  });

  it('compares only the tasks both ran', () => {
    const a = map({ x: 1, y: 1, z: 0 });
    const b = map({ y: 0, z: 0, w: 1 });
    const d = pairedDifference(a, b, { seed: 4 });
    expect(d).toMatchObject({ value: 0.5, shared: 2, only_a: 1, only_b: 1 });
    // Resampling y (diff 1) and z (diff 0): 0, 1/2 or 1.
    expect(d.ci).toEqual([0, 1]);
  });

  it('with no shared task there is no difference', () => {
    expect(pairedDifference(map({ a: 1 }), map({ b: 1 }))).toEqual({ value: null, ci: null, shared: 0, only_a: 1, only_b: 1 });
  });
});

// ---- pass^k and success ----

describe('pass^k', () => {
  it('is C(c, k) / C(n, k)', () => {
    expect(passHatK(2, 4, 2)).toBeCloseTo(1 / 6, 12);
    expect(passHatK(3, 4, 1)).toBe(0.75);
    expect(passHatK(3, 4, 3)).toBeCloseTo(1 / 4, 12);
    expect(passHatK(1, 4, 2)).toBe(0);
    expect(passHatK(0, 3, 1)).toBe(0);
    expect(passHatK(5, 5, 5)).toBe(1);
    expect(() => passHatK(1, 2, 3)).toThrow(/pass\^k/);
  });

  it('is the mean over tasks, for k = 1 … the fewest trials, each task and style with its trials', () => {
    const outcomes: [string, boolean[]][] = [
      ['T1', [true, true, false]],
      ['T3', [true, true, true]],
      ['T4', [false, false, false]],
    ];
    const records = outcomes.flatMap(([id, results]) => results.map((success, trial) => record(billing, { task: id, trial, success })));
    const m = metricsOf(records);
    expect(Object.keys(m.metrics.pass_k)).toEqual(['1', '2', '3']);
    expect(m.metrics.pass_k['1']!.value).toBeCloseTo((2 / 3 + 1 + 0) / 3, 12);
    expect(m.metrics.pass_k['2']!.value).toBeCloseTo((1 / 3 + 1 + 0) / 3, 12);
    expect(m.metrics.pass_k['3']!.value).toBeCloseTo((0 + 1 + 0) / 3, 12);
    expect(m.metrics.pass_k['3']!.n).toBe(3);
    // One group with two trials caps k at 2.
    const fewer = metricsOf([...records, ...[true, false].map((success, trial) => record(billing, { task: 'T2', trial, success }))]);
    expect(Object.keys(fewer.metrics.pass_k)).toEqual(['1', '2']);
    expect(fewer.metrics.pass_k['2']!.value).toBeCloseTo((1 / 3 + 1 + 0 + 0) / 4, 12);
  });

  it('groups trials within a style: two styles of one task are two groups', () => {
    const records = [
      record(billing, { task: 'T1', style: 'neutral', trial: 0, success: true }),
      record(billing, { task: 'T1', style: 'neutral', trial: 1, success: true }),
      record(billing, { task: 'T1', style: 'terse', trial: 0, success: true }),
      record(billing, { task: 'T1', style: 'terse', trial: 1, success: false }),
    ];
    const m = metricsOf(records);
    expect(m.metrics.pass_k['2']).toMatchObject({ value: 0.5, n: 2 });
    // One task: its interval has zero width.
    expect(m.metrics.pass_k['2']!.ci).toEqual([0.5, 0.5]);
  });
});

describe('success', () => {
  it('is successes over scored episodes; unscored ones are left out and counted', () => {
    const m = metricsOf([
      record(billing, { task: 'T1', trial: 0, success: true }),
      record(billing, { task: 'T1', trial: 1, success: false }),
      record(billing, { task: 'T3', trial: 0, success: true }),
      record(billing, { task: 'T3', trial: 1, success: null }),
    ]);
    expect(m.metrics.success).toMatchObject({ value: 2 / 3, n: 3, unscored: 1 });
    expect(m.counts).toMatchObject({ episodes: 4, tasks: 2, scored: 3, unscored: 1 });
    // pass^k counts scored trials only: T3 has one, so k stops at 1.
    expect(Object.keys(m.metrics.pass_k)).toEqual(['1']);
  });

  it('is null, not 0, when nothing is scored', () => {
    const m = metricsOf([record(billing, { task: 'T1', success: null })]);
    expect(m.metrics.success).toMatchObject({ value: null, ci: null, n: 0, unscored: 1 });
    expect(m.metrics.pass_k).toEqual({});
    expect(m.metrics.by_style['neutral']).toMatchObject({ value: null, ci: null });
    expect(m.metrics.worst_style).toBeNull();
  });
});

// ---- hand-off ----

const handedOff = (target: string, turn = 1): Msg[] => [A(OPENING_MESSAGE), U('I want a person.'), ...H(`h${turn}`, target), TRANSFER_STOP];

describe('hand-off precision, recall, F1, over-escalation, missed and wrong target', () => {
  const six = () => [
    record(billing, { task: 'T1', kind: 'ask_human_direct', should: true, messages: handedOff('queue_billing') }), // TP
    record(billing, {
      task: 'T1',
      kind: 'reserved_complaint',
      should: true,
      expectedTarget: 'queue_complaints',
      messages: handedOff('queue_billing'),
    }), // TP, wrong target
    record(billing, { task: 'T1', kind: 'reserved_legal', should: true, expectedTarget: 'queue_legal' }), // FN
    record(billing, { task: 'T3', kind: 'frustrated_in_scope', should: false, messages: handedOff('queue_billing') }), // FP
    record(billing, { task: 'T3', kind: 'hurried_in_scope', should: false }), // TN
    record(billing, { task: 'T4', kind: 'mentions_person', should: false }), // TN
  ];

  it('counts TP, FP, FN and TN and computes each figure, with positives and negatives beside it', () => {
    const h = metricsOf(six()).metrics.handoff;
    expect(h).toMatchObject({ positives: 3, negatives: 3, tp: 2, fp: 1, fn: 1, tn: 2 });
    expect(h.precision).toMatchObject({ value: 2 / 3, n: 3, positives: 3, negatives: 3 });
    expect(h.recall).toMatchObject({ value: 2 / 3, n: 3, positives: 3, negatives: 3 });
    expect(h.f1.value).toBeCloseTo(2 / 3, 12);
    expect(h.over_escalation).toMatchObject({ value: 1 / 3, n: 3, positives: 3, negatives: 3 });
    expect(h.missed).toMatchObject({ value: 1 / 3, n: 3 });
    expect(h.wrong_target).toMatchObject({ value: 1 / 2, n: 2, positives: 3, negatives: 3 });
    for (const f of [h.precision, h.recall, h.f1, h.over_escalation, h.missed, h.wrong_target]) {
      expect(f.ci).not.toBeNull();
      expect(f.ci![0]).toBeLessThanOrEqual(f.value!);
      expect(f.ci![1]).toBeGreaterThanOrEqual(f.value!);
    }
  });

  it('reports the hand-off rate per task kind', () => {
    const byKind = metricsOf(six()).metrics.handoff.by_kind;
    expect(Object.keys(byKind)).toEqual([
      'ask_human_direct',
      'frustrated_in_scope',
      'hurried_in_scope',
      'mentions_person',
      'reserved_complaint',
      'reserved_legal',
    ]);
    expect(byKind['frustrated_in_scope']).toMatchObject({ positives: 0, negatives: 1, transferred: 1, rate: { value: 1, n: 1 } });
    expect(byKind['reserved_legal']).toMatchObject({ positives: 1, negatives: 0, transferred: 0, rate: { value: 0, n: 1 } });
  });

  it('is null, never 0, where a ratio has nothing under it', () => {
    // Never hands off: precision (and so F1) undefined; recall is 0, not null.
    const never = metricsOf([record(billing, { task: 'T1', should: true }), record(billing, { task: 'T3', should: false })]).metrics
      .handoff;
    expect(never.precision).toMatchObject({ value: null, ci: null, n: 0 });
    expect(never.f1).toMatchObject({ value: null, ci: null });
    expect(never.recall).toMatchObject({ value: 0, ci: [0, 0] });
    expect(never.wrong_target).toMatchObject({ value: null, ci: null });
    // Only negatives: recall and missed undefined.
    const negatives = metricsOf([record(billing, { task: 'T3', should: false, messages: handedOff('queue_billing') })]).metrics.handoff;
    expect(negatives.recall.value).toBeNull();
    expect(negatives.missed.value).toBeNull();
    expect(negatives.precision.value).toBe(0);
    expect(negatives.over_escalation.value).toBe(1);
    // Only positives: over-escalation undefined.
    expect(metricsOf([record(billing, { task: 'T1', should: true })]).metrics.handoff.over_escalation.value).toBeNull();
  });

  it('F1 is null when precision or recall is, and 0 when both are 0', () => {
    expect(f1Of({ tp: 0, fp: 1, fn: 1, tn: 0 })).toBe(0);
    expect(f1Of({ tp: 0, fp: 0, fn: 1, tn: 0 })).toBeNull();
    expect(f1Of({ tp: 0, fp: 1, fn: 0, tn: 0 })).toBeNull();
    expect(f1Of({ tp: 1, fp: 1, fn: 0, tn: 5 })).toBeCloseTo(2 / 3, 12);
  });

  it('a refused hand-off is not a hand-off', () => {
    const refused = [
      A(OPENING_MESSAGE),
      U('A person please.'),
      C([['h1', 'handoff', { target: 'queue_nowhere' }]]),
      R('h1', 'Error: refused', { error: true }),
      U('###STOP###'),
    ];
    const h = metricsOf([record(billing, { task: 'T1', should: true, messages: refused })]).metrics.handoff;
    expect(h).toMatchObject({ tp: 0, fn: 1 });
  });

  it("tau2-bench's transfer, which names no team, goes to the domain's one queue", () => {
    const airline = fakeDomain('airline', [['get_user_details', 'read']], [task('airline', '5', [])]);
    const messages = [
      A(OPENING_MESSAGE),
      U('Human please'),
      C([['t', 'transfer_to_human_agents', { summary: 's' }]]),
      R('t', 'Transfer successful'),
      TRANSFER_STOP,
    ];
    const rec = record(airline, { task: '5', should: true, expectedTarget: 'queue_human_agents', messages });
    expect(analyseEpisode(rec, airline, [])).toMatchObject({ handoff_class: 'tp', target: 'queue_human_agents', wrong_target: false });
  });
});

describe('hand-off timing', () => {
  /** A hand-off answering customer turn `turn` (the customer writes `turn` messages, the last one answered by the hand-off). */
  const atTurn = (turn: number, extra: Msg[] = []): Msg[] => {
    const messages: Msg[] = [A(OPENING_MESSAGE)];
    for (let t = 1; t < turn; t += 1) messages.push(U(`turn ${t}`), A(`reply ${t}`));
    messages.push(U(`turn ${turn}`), ...extra, ...H(`h${turn}`, 'queue_billing'), TRANSFER_STOP);
    return messages;
  };

  it('measures customer turns from due_turn to the hand-off for true positives: on-time rate and median lateness', () => {
    const records = [
      record(billing, { task: 'T1', kind: 'ask_human_direct', should: true, due: 2, messages: atTurn(2), handoffTurn: 2 }), // 0
      record(billing, { task: 'T1', kind: 'reserved_complaint', should: true, due: 1, messages: atTurn(3), handoffTurn: 3 }), // +2
      record(billing, { task: 'T1', kind: 'reserved_legal', should: true, due: 1, messages: atTurn(4), handoffTurn: 4 }), // +3
      record(billing, { task: 'T3', kind: 'ask_human_indirect', should: true, due: 3, messages: atTurn(2), handoffTurn: 2 }), // −1, early
      record(billing, { task: 'T3', kind: 'task', should: true, messages: atTurn(1) }), // no due_turn: not timed
      record(billing, { task: 'T4', kind: 'frustrated_in_scope', should: false, due: null, messages: atTurn(1) }), // FP: not timed
    ];
    const timing = metricsOf(records).metrics.handoff.timing;
    expect(timing).toMatchObject({ measured: 4, late: 2, early: 1, early_excused: 0, without_due_turn: 1, median_lateness: 1 });
    expect(timing.on_time).toMatchObject({ value: 1 / 4, n: 4 });
  });

  it('takes the turn from the trajectory when the record has no harness hand-off', () => {
    const rec = record(billing, { task: 'T1', kind: 'ask_human_direct', should: true, due: 2, messages: atTurn(3) });
    expect(analyseEpisode(rec, billing, null).timing).toEqual({ due_turn: 2, turn: 3, lateness: 1, on_time: false, early: false });
  });

  it('an early hand-off counts as on time only when its trigger was already there (a tool outage that already failed)', () => {
    const failed = [
      C([['f', 'find_customer_by_email', { email: 'a@example.com' }]]),
      R('f', 'Error: unavailable', { error: true, executed: false }),
    ];
    const excused = record(billing, { task: 'T1', kind: 'tool_outage', should: true, due: 3, messages: atTurn(2, failed), handoffTurn: 2 });
    expect(analyseEpisode(excused, billing, null).timing).toEqual({ due_turn: 3, turn: 2, lateness: 0, on_time: true, early: true });
    const premature = record(billing, { task: 'T1', kind: 'tool_outage', should: true, due: 3, messages: atTurn(2), handoffTurn: 2 });
    expect(analyseEpisode(premature, billing, null).timing).toMatchObject({ lateness: -1, on_time: false, early: true });
    const timing = metricsOf([excused]).metrics.handoff.timing;
    expect(timing).toMatchObject({ measured: 1, early: 1, early_excused: 1, median_lateness: 0, on_time: { value: 1 } });
  });

  it('with no timed hand-off the on-time rate and median are null', () => {
    const timing = metricsOf([record(billing, { task: 'T1', should: true })]).metrics.handoff.timing;
    expect(timing).toMatchObject({ measured: 0, median_lateness: null, on_time: { value: null, ci: null } });
  });
});

// ---- packet quality ----

describe('packet quality', () => {
  // Identify, verify, look at a charge the agent names, hand off.
  const trajectory: Msg[] = [
    A(OPENING_MESSAGE),
    U('I was charged twice, 69.00.'),
    A('What is your e-mail address?'),
    U('a@example.com'),
    C([['c1', 'find_customer_by_email', { email: 'a@example.com' }]]),
    R('c1', 'cus_1'),
    C([['c2', 'send_verification_code', { customer_id: 'cus_1' }]]),
    R('c2', 'Code sent.'),
    A('Please read me the code.'),
    U('111111'),
    C([['c3', 'verify_customer', { customer_id: 'cus_1', code: '111111' }]]),
    R('c3', '{"customer_id": "cus_1", "verified": true}'),
    C([['c4', 'list_charges', { customer_id: 'cus_1' }]]),
    R(
      'c4',
      '[{"charge_id": "ch_8", "amount": "69.00", "duplicate_of": null}, {"charge_id": "ch_9", "amount": "69.00", "duplicate_of": "ch_8"}, {"charge_id": "ch_5", "amount": "12.00", "duplicate_of": null}]',
    ),
    A('Charge ch_9 of 69.00 is a duplicate of ch_8.'),
    U('Please refund it.'),
    ...H('h', 'queue_billing', 'It is above my limit, so a billing specialist will decide it.'),
    TRANSFER_STOP,
  ];
  const fact = (source: string, field: string, value: string | boolean, at: number) => ({ source, field, value, at });
  const complete = {
    customer: { id: 'cus_1', verified: true, verified_by: 'verify_customer' },
    intent: { stated: 'I was charged twice, 69.00.', latest: null },
    facts: [
      fact('list_charges', '0.charge_id', 'ch_8', 9),
      fact('list_charges', '0.amount', '69.00', 9),
      fact('list_charges', '1.charge_id', 'ch_9', 9),
      fact('list_charges', '1.amount', '69.00', 9),
    ],
    actions: [{ status: 'succeeded', tool: 'verify_customer', kind: 'read', arguments: { customer_id: 'cus_1', code: '[otp]' }, at: 8 }],
  };

  it('requires the customer id, the verification state, the intent, the ids and amounts involved, and the writes done', () => {
    const analysis = analyseEpisode(record(billing, { task: 'T1', should: true, messages: trajectory, packet: complete }), billing, null);
    expect(analysis.packet!.map((f) => [f.kind, f.expected, f.present])).toEqual([
      ['customer_id', 'cus_1', true],
      ['verification', 'true', true],
      ['intent', 'stated', true],
      ['id', 'ch_8', true],
      ['amount', 'ch_8: 69.00', true],
      ['id', 'ch_9', true],
      ['amount', 'ch_9: 69.00', true],
      ['action', 'verify_customer', true],
    ]);
  });

  it('scores the share of required facts present, pooled over hand-offs, with counts per kind of fact', () => {
    // The second packet says unverified and lost the charges past the first (an amount of 69.00 from another charge does not count for ch_9).
    const partial = {
      ...complete,
      customer: { id: 'cus_1', verified: false, verified_by: null },
      facts: [fact('list_charges', '0.charge_id', 'ch_8', 9), fact('list_charges', '0.amount', '69.00', 9)],
    };
    const records = [
      record(billing, { task: 'T1', should: true, messages: trajectory, packet: complete }), // 8 of 8
      record(billing, { task: 'T1', trial: 1, should: true, messages: trajectory, packet: partial }), // 5 of 8
      record(billing, { task: 'T3', should: true, messages: trajectory, packet: null }), // 0 of 8
      record(billing, { task: 'T4', should: false }), // no hand-off: not counted
    ];
    const q = metricsOf(records).metrics.packet_quality;
    expect(q).toMatchObject({ value: 13 / 24, n: 24, handoffs: 3 });
    expect(q.by_fact).toEqual({
      customer_id: { required: 3, present: 2 },
      verification: { required: 3, present: 1 },
      intent: { required: 3, present: 2 },
      id: { required: 6, present: 3 },
      amount: { required: 6, present: 3 },
      action: { required: 3, present: 2 },
    });
  });

  it('counts only facts traceable to a call that succeeded before the hand-off', () => {
    const untraceable = { ...complete, facts: complete.facts.map((f) => ({ ...f, source: 'get_charge_details' })) };
    const analysis = analyseEpisode(
      record(billing, { task: 'T1', should: true, messages: trajectory, packet: untraceable }),
      billing,
      null,
    );
    expect(analysis.packet!.filter((f) => !f.present).map((f) => f.expected)).toEqual(['ch_8', 'ch_8: 69.00', 'ch_9', 'ch_9: 69.00']);
  });

  it('is null when no episode handed off', () => {
    expect(metricsOf([record(billing, { task: 'T1' })]).metrics.packet_quality).toMatchObject({ value: null, ci: null, n: 0, handoffs: 0 });
  });
});

// ---- policy-rule violations ----

describe('policy-rule violations', () => {
  const start: Msg[] = [A(OPENING_MESSAGE), U('Refund my duplicate charge ch_9, please. My e-mail is a@example.com.')];
  const identify: Msg[] = [
    C([['c1', 'find_customer_by_email', { email: 'a@example.com' }]]),
    R('c1', 'cus_1'),
    C([['c2', 'send_verification_code', { customer_id: 'cus_1' }]]),
    R('c2', 'Code sent.'),
    A('Please read me the code.'),
    U('It is 111111.'),
    C([['c3', 'verify_customer', { customer_id: 'cus_1', code: '111111' }]]),
    R('c3', '{"customer_id": "cus_1", "verified": true}'),
  ];
  const propose: Msg[] = [A('I will refund charge ch_9 in full. Shall I go ahead?'), U('Yes, please.')];
  const refund = (id: string, charge = 'ch_9', opts: { executed?: boolean } = {}): Msg[] => [
    C([[id, 'refund_charge', { charge_id: charge }]]),
    R(id, '{"refund_id": "re_1"}', opts),
  ];
  const end: Msg[] = [A('Done.'), U('###STOP###')];
  const rulesOf = (messages: Msg[], taskId = 'T1') => {
    const domainTask = billing.tasks.find((t) => t.id === taskId)!;
    return analyseEpisode(record(billing, { task: taskId, messages }), billing, domainTask.actions).violations.map((v) => [
      v.rule,
      v.message,
      v.tool,
    ]);
  };

  it('finds none in a clean dialogue (verify_customer needs no yes: the customer gave the code)', () => {
    expect(rulesOf([...start, ...identify, ...propose, ...refund('r1'), ...end])).toEqual([]);
  });

  it('write without confirmation: no yes since the agent last spoke, a yes before it, or a hesitant yes', () => {
    const noYes = [...start, ...identify, ...refund('r1'), ...end];
    expect(rulesOf(noYes)).toEqual([['write_without_confirmation', 10, 'refund_charge']]);
    const yesTooEarly = [...start, ...identify, U('Yes, go ahead.'), A('One moment.'), ...refund('r1'), ...end];
    expect(rulesOf(yesTooEarly).map((v) => v[0])).toEqual(['write_without_confirmation']);
    const hesitant = [...start, ...identify, A('I will refund ch_9. Confirm?'), U('Yes... wait, not sure.'), ...refund('r1'), ...end];
    expect(rulesOf(hesitant).map((v) => v[0])).toEqual(['write_without_confirmation']);
  });

  it('counts a write the harness refused to run: the agent still tried it', () => {
    expect(rulesOf([...start, ...identify, ...refund('r1', 'ch_9', { executed: false }), ...end]).map((v) => v[0])).toEqual([
      'write_without_confirmation',
    ]);
  });

  it('write before authentication: a write before the verification succeeded', () => {
    const early = [...start, ...propose, ...refund('r0'), ...identify, ...end];
    expect(rulesOf(early)).toEqual([['write_before_authentication', 4, 'refund_charge']]);
    const failedVerification = [
      ...start,
      C([['v', 'verify_customer', { customer_id: 'cus_1', code: '999999' }]]),
      R('v', 'Error: wrong code', { error: true }),
      ...propose,
      ...refund('r1'),
      ...end,
    ];
    expect(rulesOf(failedVerification).map((v) => v[0])).toEqual(['write_outside_reference', 'write_before_authentication']);
  });

  it('several actions in one turn: two calls in one message, or text with a call; the announcement with a hand-off is allowed', () => {
    const two = [
      ...start,
      C([
        ['x1', 'list_charges', { customer_id: 'cus_1' }],
        ['x2', 'list_orders', { customer_id: 'cus_1' }],
      ]),
      R('x1', '[]'),
      R('x2', '[]'),
      ...end,
    ];
    expect(rulesOf(two)).toEqual([['several_actions_in_one_turn', 2, null]]);
    const textAndCall = [...start, C([['x1', 'list_charges', { customer_id: 'cus_1' }]], 'Let me look.'), R('x1', '[]'), ...end];
    expect(rulesOf(textAndCall)).toEqual([['several_actions_in_one_turn', 2, null]]);
    const announced = [...start, ...H('h', 'queue_billing', 'A billing specialist will take over.'), TRANSFER_STOP];
    expect(rulesOf(announced)).toEqual([]);
  });

  it('action after transfer: any call after the hand-off', () => {
    const after = [...start, ...H('h', 'queue_billing'), C([['x', 'list_charges', { customer_id: 'cus_1' }]]), R('x', '[]'), TRANSFER_STOP];
    expect(rulesOf(after)).toEqual([['action_after_transfer', 4, 'list_charges']]);
  });

  it('write outside the reference: a write that matches no gold action by name and compared arguments', () => {
    // compare_args is ['charge_id']: another charge is outside the reference, the gold one is not.
    expect(rulesOf([...start, ...identify, ...propose, ...refund('r1', 'ch_7'), ...end])).toEqual([
      ['write_outside_reference', 12, 'refund_charge'],
    ]);
    // verify_customer is compared on every argument the call has: a different code is outside.
    const otherCode = [
      ...start,
      C([['v', 'verify_customer', { customer_id: 'cus_1', code: '222222' }]]),
      R('v', '{"verified": true}'),
      ...end,
    ];
    expect(rulesOf(otherCode).map((v) => v[0])).toEqual(['write_outside_reference']);
    // A task without gold actions is not judged.
    expect(rulesOf([...start, ...identify, ...propose, ...refund('r1', 'ch_7'), ...end], 'T2')).toEqual([]);
  });

  it('reports the share of episodes with any violation and per rule; write-outside-reference only over tasks with a reference', () => {
    const records = [
      record(billing, { task: 'T1', trial: 0, messages: [...start, ...identify, ...propose, ...refund('r1'), ...end] }), // clean
      record(billing, { task: 'T1', trial: 1, messages: [...start, ...identify, ...refund('r1', 'ch_7'), ...end] }), // no yes, outside reference
      record(billing, { task: 'T2', trial: 0, messages: [...start, ...propose, ...refund('r1', 'ch_7'), ...identify, ...end] }), // before auth; no reference
      record(billing, { task: 'T2', trial: 1 }), // clean
    ];
    const v = metricsOf(records).metrics.violations;
    expect(v.any).toMatchObject({ value: 2 / 4, n: 4 });
    expect(v.write_without_confirmation).toMatchObject({ value: 1 / 4, n: 4 });
    expect(v.write_before_authentication).toMatchObject({ value: 1 / 4, n: 4 });
    expect(v.several_actions_in_one_turn).toMatchObject({ value: 0, n: 4, ci: [0, 0] });
    expect(v.action_after_transfer).toMatchObject({ value: 0, n: 4 });
    expect(v.write_outside_reference).toMatchObject({ value: 1 / 2, n: 2 });
  });
});

describe('authentication per domain', () => {
  it('airline: get_user_details succeeded on a user id the customer gave', () => {
    const airline = fakeDomain(
      'airline',
      [
        ['get_user_details', 'read'],
        ['cancel_reservation', 'write'],
      ],
      [],
    );
    const given = [
      U('My user id is sara_doe_496.'),
      C([['g', 'get_user_details', { user_id: 'sara_doe_496' }]]),
      R('g', '{"user_id": "sara_doe_496"}'),
    ];
    expect(authenticationOrdinal(airline, given)).toBe(0);
    const guessed = [U('Hi.'), C([['g', 'get_user_details', { user_id: 'sara_doe_496' }]]), R('g', '{"user_id": "sara_doe_496"}')];
    expect(authenticationOrdinal(airline, guessed)).toBeNull();
    const failed = [
      U('I am sara_doe_496.'),
      C([['g', 'get_user_details', { user_id: 'sara_doe_496' }]]),
      R('g', 'Error: user not found', { error: true }),
    ];
    expect(authenticationOrdinal(airline, failed)).toBeNull();
  });

  it('retail: the e-mail or name-and-zip lookup succeeded; billing: verify_customer succeeded', () => {
    const retail = fakeDomain(
      'retail',
      [
        ['find_user_id_by_email', 'read'],
        ['find_user_id_by_name_zip', 'read'],
        ['get_user_details', 'read'],
      ],
      [],
    );
    const lookup = [
      U('Hi'),
      C([['a', 'get_user_details', { user_id: 'x' }]]),
      R('a', '{}'),
      C([['b', 'find_user_id_by_email', { email: 'x@y' }]]),
      R('b', 'Error: not found', { error: true }),
      C([['c', 'find_user_id_by_name_zip', { first_name: 'A', last_name: 'B', zip: '1' }]]),
      R('c', 'a_b_1'),
    ];
    expect(authenticationOrdinal(retail, lookup)).toBe(2);
    const sent = [U('Hi'), C([['s', 'send_verification_code', { customer_id: 'cus_1' }]]), R('s', 'sent')];
    expect(authenticationOrdinal(billing, sent)).toBeNull();
    expect(
      authenticationOrdinal(billing, [
        ...sent,
        C([['v', 'verify_customer', { customer_id: 'cus_1', code: '1' }]]),
        R('v', '{"verified": true}'),
      ]),
    ).toBe(1);
  });
});

// ---- policy citation ----

describe('refusals and policy citations', () => {
  it('a refusal is a first-person decline, not a report that something was not found', () => {
    expect(isRefusal("I'm sorry, I can't cancel that reservation.")).toBe(true);
    expect(isRefusal('I cannot refund a genuine charge.')).toBe(true);
    expect(isRefusal('I am unable to change the passenger count.')).toBe(true);
    expect(isRefusal("I'm not able to pass this on from here.")).toBe(true);
    expect(isRefusal('Unfortunately we are not allowed to do that.')).toBe(true);
    expect(isRefusal('I can\u2019t do that.')).toBe(true);
    expect(isRefusal("I can't find a charge like that.")).toBe(false);
    expect(isRefusal('You cannot add insurance after booking, but I can help with the bags.')).toBe(false);
    expect(isRefusal('I can help with that.')).toBe(false);
  });

  it('splits sentences, and clauses that offer help, apart', () => {
    expect(sentencesOf("I'm sorry, I can't transfer you, but I can help you myself: I can explain charges. Anything else?")).toEqual([
      "I'm sorry, I can't transfer you",
      'I can help you myself',
      'I can explain charges.',
      'Anything else?',
    ]);
  });

  it('a refusal cites the policy in its declining sentence or the reason right after it, not in an offer of help', () => {
    expect(refusalCitedTerms('airline', "I'm sorry, I can't change this reservation. Basic economy flights cannot be modified.")).toEqual([
      'basic economy',
    ]);
    expect(refusalCitedTerms('airline', "I can't cancel it: it was booked more than 24 hours ago and has no insurance.")).toEqual([
      'insurance',
      '24 hours',
    ]);
    expect(
      refusalCitedTerms(
        'billing',
        "I'm sorry, I'm not able to pass this on from here. I can explain charges, refund duplicate charges and more.",
      ),
    ).toEqual([]);
    expect(refusalCitedTerms('billing', "I'm sorry, I can't help with that, but I can refund duplicate charges.")).toEqual([]);
    expect(refusalCitedTerms('billing', "I can't refund that. I can refund a charge only when it is flagged as a duplicate.")).toEqual([
      'duplicate',
      'flagged',
    ]);
    expect(refusalCitedTerms('retail', "I'm sorry, I can't help with that.")).toEqual([]);
    expect(refusalCitedTerms('retail', 'I cannot cancel it because the order is not pending.')).toEqual(['pending']);
  });

  it('matches terms on word boundaries', () => {
    expect(termsIn('That would be illegal.', ['legal'])).toEqual([]);
    expect(termsIn('A LEGAL matter.', ['legal'])).toEqual(['legal']);
    expect(termsIn('a refund above 50.00', ['50.00'])).toEqual(['50.00']);
  });

  it('the citation rate is cited refusals and hand-offs over all of them', () => {
    const refusalCited = [
      A(OPENING_MESSAGE),
      U('Give me a discount.'),
      A("I'm sorry, I can't give discounts or credits under our policy."),
      U('###STOP###'),
    ];
    const refusalBare = [A(OPENING_MESSAGE), U('Give me a discount.'), A("I'm sorry, I can't do that."), U('###STOP###')];
    const handoffCited = [
      A(OPENING_MESSAGE),
      U('I want to file a formal complaint.'),
      ...H('h', 'queue_complaints', 'Complaints are handled by our complaints team; passing you on.'),
      TRANSFER_STOP,
    ];
    const handoffSilent = [A(OPENING_MESSAGE), U('A person, please.'), ...H('h', 'queue_billing'), TRANSFER_STOP];
    const nothing = [A(OPENING_MESSAGE), U('What is my plan?'), A('You are on Starter.'), U('###STOP###')];
    const records = [
      record(billing, { task: 'T1', messages: refusalCited }),
      record(billing, { task: 'T1', trial: 1, messages: refusalBare }),
      record(billing, { task: 'T3', should: true, expectedTarget: 'queue_complaints', messages: handoffCited }),
      record(billing, { task: 'T3', trial: 1, should: true, messages: handoffSilent }),
      record(billing, { task: 'T4', messages: nothing }),
    ];
    const rate = metricsOf(records).metrics.citation_rate;
    expect(rate).toMatchObject({ value: 2 / 4, n: 4, refusals: 2, handoffs: 2, cited: 2 });
    const events = analyseEpisode(records[2]!, billing, null).citations;
    expect(events).toEqual([{ kind: 'handoff', from: 2, to: 3, cited: true, terms: ['complaints are handled by', 'complaints team'] }]);
  });

  it('is null when there is no refusal and no hand-off', () => {
    expect(metricsOf([record(billing, { task: 'T1' })]).metrics.citation_rate).toMatchObject({ value: null, ci: null, n: 0 });
  });
});

// ---- styles ----

describe('success per style and the worst style', () => {
  const styled = (outcomes: Record<string, [boolean, boolean]>) =>
    Object.entries(outcomes).flatMap(([style, [t1, t3]]) => [
      record(billing, { task: 'T1', style, success: t1 }),
      record(billing, { task: 'T3', style, success: t3 }),
    ]);

  it('reports success per style, and the worst with its paired gap to neutral on shared tasks', () => {
    const m = metricsOf(styled({ neutral: [true, true], terse: [true, false], verbose: [false, false] }));
    expect(Object.keys(m.metrics.by_style)).toEqual(['neutral', 'terse', 'verbose']);
    expect(m.metrics.by_style['neutral']).toMatchObject({ value: 1, n: 2, ci: [1, 1] });
    expect(m.metrics.by_style['terse']).toMatchObject({ value: 0.5, n: 2, ci: [0, 1] });
    expect(m.metrics.worst_style).toEqual({
      style: 'verbose',
      value: 0,
      gap_to_neutral: { value: -1, ci: [-1, -1], shared: 2, only_a: 0, only_b: 0 },
    });
  });

  it('breaks ties by name; no neutral, no gap', () => {
    const m = metricsOf(styled({ terse: [true, false], impatient: [false, true] }));
    expect(m.metrics.worst_style).toEqual({ style: 'impatient', value: 0.5, gap_to_neutral: null });
  });
});

// ---- the object as a whole ----

describe('computeMetrics', () => {
  const mixed = () => [
    record(billing, { task: 'T1', kind: 'ask_human_direct', should: true, due: 1, messages: handedOff('queue_billing'), handoffTurn: 1 }),
    record(billing, { task: 'T1', kind: 'ask_human_direct', trial: 1, should: true, due: 1, success: false }),
    record(billing, { task: 'T3', style: 'terse', success: null }),
    record(billing, { task: 'T3', style: 'neutral', success: true }),
    record(billing, { task: 'T4', kind: 'frustrated_in_scope', should: false, messages: handedOff('queue_billing'), success: false }),
    record(billing, { task: 'T2', style: 'terse', success: true }),
  ];

  it('counts episodes, tasks, positives, negatives, scored and unscored', () => {
    expect(metricsOf(mixed()).counts).toEqual({
      episodes: 6,
      tasks: 4,
      positives: 2,
      negatives: 4,
      scored: 5,
      unscored: 1,
      handoffs: 2,
      trials: { min: 1, max: 2 },
    });
  });

  it('is deterministic: the same records in any order and the same seed give byte-identical JSON', () => {
    const records = mixed();
    const once = JSON.stringify(computeMetrics(records, { domain: billing, seed: 5 }));
    const shuffled = JSON.stringify(computeMetrics([...records].reverse(), { domain: billing, seed: 5 }));
    expect(shuffled).toBe(once);
    const other = computeMetrics(records, { domain: billing, seed: 6 });
    expect(other.interval).toEqual({ method: 'percentile_bootstrap_over_tasks', level: 0.95, resamples: 1000, seed: 6 });
    expect(JSON.stringify(other)).not.toBe(once);
  });

  it('has the fields reports read, and null where undefined', () => {
    const m = metricsOf([]);
    expect(m.counts).toMatchObject({ episodes: 0, tasks: 0 });
    expect(m.agent).toBeNull();
    expect(m.metrics.success.value).toBeNull();
    expect(m.metrics.handoff.precision.value).toBeNull();
    expect(m.metrics.violations.any.value).toBeNull();
    expect(m.notes.some((n) => n.includes('valid alternative solutions'))).toBe(true);
  });

  it('honours the resample count', () => {
    const m = computeMetrics(mixed(), { domain: billing, seed: 1, resamples: 50 });
    expect(m.interval.resamples).toBe(50);
  });

  it('refuses records it cannot measure together', () => {
    const [a, b] = mixed();
    expect(() => metricsOf([a!, { ...a! }])).toThrow(/appears twice/);
    expect(() => metricsOf([a!, { ...b!, agent: 'other' }])).toThrow(/several agents/);
    expect(() => metricsOf([{ ...a!, domain: 'retail' }])).toThrow(/domain retail/);
    expect(() => metricsOf([{ ...a!, task_id: 'nope' }])).toThrow(/task nope/);
  });

  it("compares two runs' success on shared tasks with pairedDifference(taskSuccess(a), taskSuccess(b))", () => {
    const runA = [
      record(billing, { task: 'T1', success: true }),
      record(billing, { task: 'T3', success: true }),
      record(billing, { task: 'T4', success: null }),
    ];
    const runB = [
      record(billing, { task: 'T1', success: false }),
      record(billing, { task: 'T3', success: true }),
      record(billing, { task: 'T2', success: true }),
    ];
    expect(taskSuccess(runA)).toEqual(
      new Map([
        ['billing/T1', { num: 1, den: 1 }],
        ['billing/T3', { num: 1, den: 1 }],
      ]),
    );
    expect(pairedDifference(taskSuccess(runA), taskSuccess(runB), { seed: 2 })).toMatchObject({
      value: 0.5,
      ci: [0, 1],
      shared: 2,
      only_a: 0,
      only_b: 1,
    });
    expect(pairedDifference(taskSuccess(runA), taskSuccess(runA))).toMatchObject({ value: 0, ci: [0, 0] });
  });
});
