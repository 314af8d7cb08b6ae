/**
 * From production back to the lab (issue 19, item 3), end to end: customers write to a real
 * `baton serve` app over HTTP (billing's rule agent, a SQLite file); people's verdicts go into the
 * log; `baton tasks from-conversation` (dist/) turns each reviewed conversation into a task of the
 * production task set; `baton eval --tasks production` runs the rule agent on them, and the
 * scores follow the verdicts' labels — the same agent, the same conversation, passes or fails by
 * what the reviewer said, not by what it did in production. Bad input is refused with a clear
 * error, a non-zero exit, and nothing written; the supervisors' route returns the same task.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationId, Review, StaffId, StoredEvent } from '../src/core/index.js';
import { chooseVerdict, taskFromLog } from '../src/lab/production/task-from-log.js';
import { readTaskSet, taskSetChecksum } from '../src/lab/production/task-set.js';
import type { EpisodeRecord } from '../src/lab/records.js';
import { openStore } from '../src/store/open-store.js';
import { json } from './support/http-json.js';
import { baton, converse as converseOver, evalProduction } from './support/production-lab.js';
import { startTestRuntime, type TestRuntime } from './support/runtime-server.js';
import { testPostgres } from './support/postgres.js';

const KEPT = [
  'Hi, I was charged twice for my last order.',
  'My email is liam.evans.1089@example.com',
  'Honestly this is the third time I am writing about this and I am fed up.',
];
const ASKED = ['I want to speak to a human right now'];

let dir: string;
let db: string;
let t: TestRuntime;
let supervisor: { token: string; id: string };
let agent: { token: string; id: string };

const converse = (texts: readonly string[]) => converseOver(t, texts);

/** A person's verdict, recorded in the log as the review routes record it. */
async function review(id: ConversationId, verdict: Review): Promise<void> {
  await t.runtime.service.gateway.record(id, [{ type: 'review.recorded', data: verdict }]);
}

const seqOf = (log: readonly StoredEvent[], type: StoredEvent['type'], nth = 0) => log.filter((e) => e.type === type)[nth]!.seq;
const keptReview = (by: string, needed: boolean, dueAt: number | null, as: 'owner' | 'supervisor' = 'supervisor'): Review => ({
  subject: 'kept',
  by: by as StaffId,
  as,
  needed,
  dueAt: needed ? dueAt : null,
  reason: needed ? 'frustration_and_loop' : null,
  note: null,
});
const handoffReview = (by: string, handoff: number, needed: boolean): Extract<Review, { subject: 'handoff' }> => ({
  subject: 'handoff',
  by: by as StaffId,
  as: 'supervisor',
  needed,
  dueAt: null,
  reason: null,
  note: needed ? null : 'a plain question; the agent could have answered it',
  handoff,
  timing: needed ? 'on_time' : null,
  packetEnough: true,
  askedAgain: null,
});

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'baton-prodtasks-'));
  db = join(dir, 'baton.sqlite');
  t = await startTestRuntime('sqlite', { store: await openStore({ kind: 'sqlite', path: db }) });
  supervisor = await t.staff('supervisor');
  agent = await t.staff('agent', ['billing']);
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('baton tasks from-conversation → baton eval --tasks production', () => {
  it('labels by the verdict, and the rule agent passes or fails by that label, not by what it did', async () => {
    // The same two conversations twice: each pair reviewed both ways.
    const missed = await converse(KEPT);
    const keptRightly = await converse(KEPT);
    const unneeded = await converse(ASKED);
    const needed = await converse(ASKED);
    for (const c of [missed, keptRightly]) expect(c.log.some((e) => e.type === 'handoff.requested')).toBe(false);
    for (const c of [unneeded, needed]) expect(c.log.some((e) => e.type === 'handoff.requested')).toBe(true);
    // A person was due by the third customer message (the agent kept it).
    await review(missed.id, keptReview(supervisor.id, true, seqOf(missed.log, 'message.received', 2)));
    await review(keptRightly.id, keptReview(supervisor.id, false, null));
    await review(unneeded.id, handoffReview(supervisor.id, seqOf(unneeded.log, 'handoff.requested'), false));
    await review(needed.id, handoffReview(supervisor.id, seqOf(needed.log, 'handoff.requested'), true));

    const set = join(dir, 'set');
    const made = new Map<string, Record<string, unknown>>();
    for (const c of [missed, keptRightly, unneeded, needed]) {
      const run = baton(['tasks', 'from-conversation', c.id, '--store', db, '--task-set', set, '--split', 'train'], dir);
      expect(run.stderr).toMatch(/^baton: added conv_/);
      expect(run.status).toBe(0);
      made.set(c.id, JSON.parse(run.stdout) as Record<string, unknown>);
    }
    expect(made.get(missed.id)).toMatchObject({
      domain: 'billing',
      kind: 'missed_handoff',
      split: 'train',
      should_transfer: true,
      expected_reason: 'frustration_and_loop',
      // Billing's decider sends loops with frustration to its default queue.
      expected_target: 'queue_billing',
      due_turn: 3,
      script: {
        request: KEPT[0],
        beats: [
          { turn: 2, kind: 'said', text: KEPT[1] },
          { turn: 3, kind: 'said', text: KEPT[2] },
        ],
        // The e-mail the agent looked the customer up with, from the tool log.
        facts: [{ key: 'email', value: 'liam.evans.1089@example.com', volunteered: false }],
        maxTurns: 3,
        replay: true,
      },
      source: { conversation: missed.id, handoff: null, tools: ['find_customer_by_email', 'send_verification_code'] },
    });
    expect(made.get(keptRightly.id)).toMatchObject({
      kind: 'kept_correctly',
      should_transfer: false,
      expected_target: null,
      due_turn: null,
    });
    expect(made.get(unneeded.id)).toMatchObject({ kind: 'unneeded_handoff', should_transfer: false });
    expect(made.get(needed.id)).toMatchObject({
      kind: 'needed_handoff',
      should_transfer: true,
      expected_target: 'queue_billing',
      expected_reason: 'customer_request',
      due_turn: 1,
    });

    // The set: a manifest whose checksum covers the tasks, one more revision per task added.
    const read = readTaskSet(set);
    expect(read.tasks).toHaveLength(4);
    expect(read.manifest).toMatchObject({ revision: 4, counts: { total: 4, positives: 2, negatives: 2, by_split: { train: 4 } } });
    expect(read.manifest?.checksum.value).toBe(taskSetChecksum(read.tasks));

    const out = join(dir, 'run');
    const { records, stdout } = evalProduction(set, out, dir);
    const of = (id: string) => records.find((r) => r.task_id === id)!;
    expect(records).toHaveLength(4);
    // What the rule agent did in production it does again: kept the first two, handed off the others.
    for (const id of [missed.id, keptRightly.id]) expect(of(id).handoff).toBeNull();
    for (const id of [unneeded.id, needed.id])
      expect(of(id).handoff).toMatchObject({ reason: 'customer_request', target: 'queue_billing' });
    // Scored by the labels: the miss and the unneeded hand-off fail, the other two pass.
    expect(of(missed.id).evaluation).toMatchObject({ reward: 0, success: false, rewardBasis: ['HANDOFF'] });
    expect(of(keptRightly.id).evaluation).toMatchObject({ reward: 1, success: true });
    expect(of(unneeded.id).evaluation).toMatchObject({ reward: 0, success: false });
    expect(of(needed.id).evaluation).toMatchObject({ reward: 1, success: true });
    // The replay said exactly the production turns, in order.
    expect(
      of(missed.id)
        .messages.filter((m) => m.role === 'user')
        .map((m) => m.content),
    ).toEqual([...KEPT, '###STOP###']);

    // The same metrics as any run: recall 1 of 2 positives, over-escalation 1 of 2 negatives.
    const metrics = JSON.parse(stdout) as { metrics: { success: { value: number }; handoff: Record<string, { value: number }> } };
    expect(metrics.metrics.success.value).toBe(0.5);
    expect(metrics.metrics.handoff['recall']?.value).toBe(0.5);
    expect(metrics.metrics.handoff['over_escalation']?.value).toBe(0.5);
    const runJson = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as { config: Record<string, unknown> };
    expect(runJson.config).toMatchObject({ tasks: 'production', production_tasks_checksum: taskSetChecksum(read.tasks) });

    // And the same report.
    const report = baton(['report', out, '--out', join(dir, 'report.html')], dir);
    expect(report.stderr).toBe('');
    expect(report.status).toBe(0);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('missed_handoff');
    // And the same export: one dialogue per episode, with the verdict's label in its metadata.
    const sft = baton(['export', 'sft', out, '--out', join(dir, 'sft.jsonl')], dir);
    expect(sft.status).toBe(0);
    const lines = readFileSync(join(dir, 'sft.jsonl'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines.map((l) => (JSON.parse(l) as { metadata: { kind: string } }).metadata.kind).sort()).toEqual([
      'kept_correctly',
      'missed_handoff',
      'needed_handoff',
      'unneeded_handoff',
    ]);
  });

  it('takes a supervisor’s verdict over an owner’s, and the latest of a rank', async () => {
    const c = await converse(KEPT);
    const due = seqOf(c.log, 'message.received', 1);
    await review(c.id, keptReview(supervisor.id, true, due));
    await review(c.id, keptReview(agent.id, false, null, 'owner'));
    let log = await t.store.listEvents(c.id);
    expect(chooseVerdict(log)).toMatchObject({ chosen: { data: { as: 'supervisor', needed: true } }, others: 1 });
    expect(taskFromLog(log, { now: '2026-01-01T00:00:00.000Z' })).toMatchObject({
      ok: true,
      task: { kind: 'missed_handoff', due_turn: 2 },
    });
    await review(c.id, keptReview(supervisor.id, false, null));
    log = await t.store.listEvents(c.id);
    expect(taskFromLog(log, { now: '2026-01-01T00:00:00.000Z' })).toMatchObject({
      ok: true,
      task: { kind: 'kept_correctly', source: { other_reviews: 2 } },
    });
  });

  it('labels a late hand-off by the turn it was due, and replays the turns up to the hand-off', async () => {
    const c = await converse([KEPT[0]!, ASKED[0]!]);
    const handoff = seqOf(c.log, 'handoff.requested');
    await review(c.id, { ...handoffReview(supervisor.id, handoff, true), timing: 'late', dueAt: seqOf(c.log, 'message.received', 0) });
    const built = taskFromLog(await t.store.listEvents(c.id), { now: '2026-01-01T00:00:00.000Z' });
    expect(built).toMatchObject({
      ok: true,
      task: {
        kind: 'late_handoff',
        should_transfer: true,
        due_turn: 1,
        expected_target: 'queue_billing',
        script: { request: KEPT[0], beats: [{ turn: 2, text: ASKED[0] }], maxTurns: 2 },
        source: { handoff: { seq: handoff, reason: 'customer_request', queue: 'queue_billing' } },
      },
    });
  });

  it('splits a fifth into dev by the id, never into test unless asked, and never moves a task between splits', async () => {
    const c = await converse(ASKED);
    await review(c.id, handoffReview(supervisor.id, seqOf(c.log, 'handoff.requested'), true));
    const set = join(dir, 'split-set');
    const first = baton(['tasks', 'from-conversation', c.id, '--store', db, '--task-set', set], dir);
    expect(first.status).toBe(0);
    expect(['train', 'dev']).toContain((JSON.parse(first.stdout) as { split: string }).split);
    const held = join(dir, 'held-set');
    const test = baton(['tasks', 'from-conversation', c.id, '--store', db, '--task-set', held, '--split', 'test'], dir);
    expect(JSON.parse(test.stdout)).toMatchObject({ split: 'test', held_out: true });
    const moved = baton(['tasks', 'from-conversation', c.id, '--store', db, '--task-set', held, '--split', 'train'], dir);
    expect(moved.status).toBe(1);
    expect(moved.stderr).toMatch(/already in .* in the test split; a task never changes split/);
    expect(readTaskSet(held).tasks.map((task) => task.split)).toEqual(['test']);
    // Held-out tasks run only on the test split.
    const dev = baton(
      ['eval', '--domain', 'billing', '--tasks', 'production', '--task-set', held, '--split', 'train', '--out', join(dir, 'none')],
      dir,
    );
    expect(dev.status).toBe(2);
    expect(dev.stderr).toMatch(/has no billing tasks in the train split \(its splits: test; --split\)/);
    expect(existsSync(join(dir, 'none'))).toBe(false);
    const heldRun = baton(
      [
        'eval',
        '--domain',
        'billing',
        '--tasks',
        'production',
        '--task-set',
        held,
        '--split',
        'test',
        '--styles',
        'neutral',
        '--out',
        join(dir, 'held-run'),
      ],
      dir,
    );
    expect(heldRun.status).toBe(0);
    const records = readFileSync(join(dir, 'held-run', 'trajectories.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(records.map((line) => (JSON.parse(line) as EpisodeRecord).split)).toEqual(['test']);
  });

  it('refuses a set changed by hand', () => {
    const set = join(dir, 'set');
    const file = join(set, 'tasks', readdirSync(join(set, 'tasks'))[0]!);
    const task = JSON.parse(readFileSync(file, 'utf8')) as { should_transfer: boolean };
    writeFileSync(file, JSON.stringify({ ...task, label_rule: 'edited by hand' }));
    const run = baton(
      ['eval', '--domain', 'billing', '--tasks', 'production', '--task-set', set, '--split', 'train', '--out', join(dir, 'tampered')],
      dir,
    );
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/checksum .* a task was changed outside Baton/);
    expect(existsSync(join(dir, 'tampered'))).toBe(false);
  });
});

describe('baton tasks from-conversation refuses bad input, writing nothing', () => {
  const set = () => join(dir, 'refused');
  const from = (id: string, extra: string[] = []) =>
    baton(['tasks', 'from-conversation', id, '--store', db, '--task-set', set(), ...extra], dir);

  it('an unknown conversation, a malformed id', () => {
    for (const id of ['conv_01M8S0XDHE000AZTQJ5STWRRZ83TA', 'not-an-id']) {
      const run = from(id);
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/^baton: no conversation /);
    }
    expect(existsSync(set())).toBe(false);
  });

  it('a conversation without a verdict', async () => {
    const c = await converse(ASKED);
    const run = from(c.id);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`conversation ${c.id} has no verdict`);
    expect(existsSync(set())).toBe(false);
  });

  it('a store that is not there (and it is not created)', () => {
    const missing = join(dir, 'nowhere', 'baton.sqlite');
    const run = baton(['tasks', 'from-conversation', 'conv_01M8S0XDHE000AZTQJ5STWRRZ83TA', '--store', missing, '--task-set', set()], dir);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/--store: there is no SQLite file at .*nowhere/);
    expect(existsSync(join(dir, 'nowhere'))).toBe(false);
  });

  it('a conversation whose domain the log does not say, unless named', async () => {
    const c = await converse(['Hello there']);
    expect(c.log.some((e) => e.type === 'tool.called' || e.type === 'handoff.requested')).toBe(false);
    await review(c.id, keptReview(supervisor.id, false, null));
    const run = from(c.id);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /does not say which domain it is of \(no tool call: it fits airline, retail, billing\); name it with --domain/,
    );
    expect(existsSync(set())).toBe(false);
    const named = from(c.id, ['--domain', 'billing', '--dry-run']);
    expect(named.status).toBe(0);
    expect(JSON.parse(named.stdout)).toMatchObject({ domain: 'billing', kind: 'kept_correctly' });
    expect(existsSync(set())).toBe(false);
    const wrong = from(c.id, ['--domain', 'airline', '--dry-run']);
    expect(wrong.status).toBe(0);
    const billingOnly = await converse(KEPT);
    await review(billingOnly.id, keptReview(supervisor.id, false, null));
    const mismatch = from(billingOnly.id, ['--domain', 'airline']);
    expect(mismatch.status).toBe(1);
    expect(mismatch.stderr).toMatch(/is not of the airline domain \(tools find_customer_by_email, send_verification_code\)/);
  });

  it('a log that still holds a secret', async () => {
    const c = await converse(['Hi, I was charged twice for my last order.']);
    // Written straight to the gateway, as a runtime without redaction would have stored it.
    await t.runtime.service.gateway.receive(c.id, { text: 'my card is 4242 4242 4242 4242', idempotencyKey: 'raw-card' });
    await review(c.id, keptReview(supervisor.id, true, null));
    const run = from(c.id);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/1 customer message still holds what the redaction detectors hide/);
    expect(run.stderr).not.toContain('4242 4242');
    expect(existsSync(set())).toBe(false);
  });
});

describe('POST /v1/conversations/:id/lab-task', () => {
  it('supervisors get the same task; agents and customers are refused; bad input is a 4xx', async () => {
    const c = await converse(KEPT);
    await review(c.id, keptReview(supervisor.id, true, seqOf(c.log, 'message.received', 2)));
    const path = `/v1/conversations/${c.id}/lab-task`;
    expect((await json(t.base, path, { body: {}, token: agent.token })).status).toBe(403);
    expect((await json(t.base, path, { body: {} })).status).toBe(401);
    const made = await json(t.base, path, { body: { split: 'train' }, token: supervisor.token });
    expect(made.status).toBe(200);
    // This server has no production task set configured: the task is returned, added nowhere.
    expect(made.body['added']).toBeNull();
    const cli = baton(['tasks', 'from-conversation', c.id, '--store', db, '--split', 'train', '--dry-run'], dir);
    const { created_at: _a, ...viaCli } = JSON.parse(cli.stdout) as Record<string, unknown>;
    const { created_at: _b, ...viaHttp } = made.body['task'] as Record<string, unknown>;
    expect(viaHttp).toEqual(viaCli);

    const none = await converse(ASKED);
    expect(await json(t.base, `/v1/conversations/${none.id}/lab-task`, { body: {}, token: supervisor.token })).toMatchObject({
      status: 409,
      body: { error: { code: 'no_verdict' } },
    });
    expect(
      (await json(t.base, '/v1/conversations/conv_01M8S0XDHE000AZTQJ5STWRRZ83TA/lab-task', { body: {}, token: supervisor.token })).status,
    ).toBe(404);
    expect((await json(t.base, path, { body: { split: 'holdout' }, token: supervisor.token })).status).toBe(400);
    expect((await json(t.base, path, { body: { what: 1 }, token: supervisor.token })).status).toBe(400);
  });

  it('adds the task to the server’s production task set when one is configured', async () => {
    const set = join(dir, 'served-set');
    const served = await startTestRuntime('sqlite', { config: { productionTasks: { dir: set } } });
    try {
      const boss = await served.staff('supervisor');
      const opened = await json(served.base, '/v1/conversations', { body: {} });
      const id = (opened.body['conversation'] as { id: ConversationId }).id;
      await json(served.base, `/v1/conversations/${id}/messages`, {
        body: { text: ASKED[0] },
        token: opened.body['customerToken'] as string,
        key: 'k1',
      });
      await served.runtime.service.idle();
      const log = await served.store.listEvents(id);
      await served.runtime.service.gateway.record(id, [
        { type: 'review.recorded', data: handoffReview(boss.id, seqOf(log, 'handoff.requested'), false) },
      ]);
      const made = await json(served.base, `/v1/conversations/${id}/lab-task`, { body: {}, token: boss.token });
      expect(made.status).toBe(200);
      expect(made.body['added']).toMatchObject({ change: 'added', revision: 1 });
      expect(readTaskSet(set).tasks.map((task) => [task.id, task.kind])).toEqual([[id, 'unneeded_handoff']]);
      const again = await json(served.base, `/v1/conversations/${id}/lab-task`, { body: {}, token: boss.token });
      expect(again.body['added']).toMatchObject({ change: 'unchanged', revision: 1 });
      // A held-out task asked for later would move it: refused, and the set is as it was.
      const moved = await json(served.base, `/v1/conversations/${id}/lab-task`, { body: { split: 'test' }, token: boss.token });
      expect(moved).toMatchObject({ status: 409, body: { error: { code: 'task_set_conflict' } } });
      expect(readTaskSet(set).manifest?.revision).toBe(1);
    } finally {
      await served.close();
    }
  });
});

describe('baton tasks from-conversation on PostgreSQL', () => {
  it('reads the conversation from a postgres:// store, as from a SQLite file', async () => {
    const server = await testPostgres();
    const url = await server.createDatabase();
    const pg = await startTestRuntime('postgres', { store: await openStore({ kind: 'postgres', url }) });
    try {
      const boss = await pg.staff('supervisor');
      const opened = await json(pg.base, '/v1/conversations', { body: {} });
      const id = (opened.body['conversation'] as { id: ConversationId }).id;
      await json(pg.base, `/v1/conversations/${id}/messages`, {
        body: { text: ASKED[0] },
        token: opened.body['customerToken'] as string,
        key: 'k',
      });
      await pg.runtime.service.idle();
      const log = await pg.store.listEvents(id);
      await pg.runtime.service.gateway.record(id, [
        { type: 'review.recorded', data: handoffReview(boss.id, seqOf(log, 'handoff.requested'), true) },
      ]);
      const set = join(dir, 'pg-set');
      const run = baton(['tasks', 'from-conversation', id, '--store', url, '--task-set', set], dir);
      expect(run.stderr).toMatch(/^baton: added /);
      expect(run.status).toBe(0);
      expect(readTaskSet(set).tasks).toMatchObject([{ id, kind: 'needed_handoff', expected_target: 'queue_billing', due_turn: 1 }]);
    } finally {
      await pg.close();
      await server.stop();
    }
  });
});
