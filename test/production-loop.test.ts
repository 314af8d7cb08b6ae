/**
 * Issue 19's loop, end to end, with nothing but the product's own doors: customers write to a
 * real `baton serve` app over HTTP (billing's rule agent, a SQLite file); staff give their verdicts
 * over HTTP (`POST /v1/conversations/:id/reviews`) — the person who took a hand-off says it was not
 * needed, a supervisor says a conversation the agent kept needed a person; the production metrics
 * (`GET /v1/metrics`) show both with their intervals; `baton tasks from-conversation` (dist/) turns
 * the miss into a task, and `baton eval --tasks production` fails the rule agent on it by the
 * verdict's label (it keeps the conversation again, and the label says a person was due), while
 * the conversation it rightly kept, reviewed so, passes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredEvent } from '../src/core/index.js';
import { openStore } from '../src/store/open-store.js';
import { json } from './support/http-json.js';
import { baton, converse as converseOver, evalProduction } from './support/production-lab.js';
import { startTestRuntime, type TestRuntime } from './support/runtime-server.js';

/** A customer who gets more and more fed up: the agent keeps the conversation throughout. */
const FED_UP = [
  'Hi, I was charged twice for my last order.',
  'My email is liam.evans.1089@example.com',
  'Honestly this is the third time I am writing about this and I am fed up.',
];
const WANTS_PERSON = ['I want to speak to a human right now'];

let dir: string;
let db: string;
let t: TestRuntime;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'baton-production-loop-'));
  db = join(dir, 'baton.sqlite');
  t = await startTestRuntime('sqlite', { store: await openStore({ kind: 'sqlite', path: db }) });
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const converse = (texts: readonly string[]) => converseOver(t, texts);

const seqs = (log: readonly StoredEvent[], type: StoredEvent['type']) => log.filter((e) => e.type === type).map((e) => e.seq);

describe('from production back to the lab, over HTTP and the CLI', () => {
  it('verdicts reach the production metrics with intervals, and the reviewed miss becomes a task the rule agent fails by its label', async () => {
    const owner = await t.staff('agent', ['billing']);
    const sup = await t.staff('supervisor');

    const handed = await converse(WANTS_PERSON);
    const missed = await converse(FED_UP);
    const keptRightly = await converse(['Can I change the e-mail address on my account?']);
    const [handoff] = seqs(handed.log, 'handoff.requested');
    expect(handoff).toBeDefined();
    for (const c of [missed, keptRightly]) expect(seqs(c.log, 'handoff.requested')).toEqual([]);

    // The person who takes the hand-off deals with it, closes it, and says it was not needed.
    const claimed = await json(t.base, `/v1/conversations/${handed.id}/claim`, {
      body: { version: (await t.store.getConversation(handed.id))!.version },
      token: owner.token,
    });
    expect(claimed.status).toBe(200);
    const closed = await json(t.base, `/v1/conversations/${handed.id}/close`, {
      body: { version: (await t.store.getConversation(handed.id))!.version },
      token: owner.token,
    });
    expect(closed.status).toBe(200);
    const notNeeded = await json(t.base, `/v1/conversations/${handed.id}/reviews`, {
      body: { subject: 'handoff', handoff, needed: false, packetEnough: true, note: 'a plain question the agent could answer' },
      token: owner.token,
    });
    expect(notNeeded.status).toBe(201);
    // A supervisor reviews the kept conversations: one needed a person by the third message, one did not.
    const dueAt = seqs(missed.log, 'message.received')[2];
    const miss = await json(t.base, `/v1/conversations/${missed.id}/reviews`, {
      body: {
        subject: 'kept',
        needed: true,
        dueAt,
        reason: 'frustration_and_loop',
        note: 'the third message asked for one in all but words',
      },
      token: sup.token,
    });
    expect(miss.status).toBe(201);
    const fine = await json(t.base, `/v1/conversations/${keptRightly.id}/reviews`, {
      body: { subject: 'kept', needed: false },
      token: sup.token,
    });
    expect(fine.status).toBe(201);

    // The production metrics: precision 0 of 1 hand-off; recall 0 (the one person needed was missed); intervals and n.
    const metrics = await json(t.base, '/v1/metrics', { token: sup.token });
    expect(metrics.status).toBe(200);
    const reviews = metrics.body['reviews'] as {
      weighting: { method: string; strata: Array<{ stratum: string; population: number; reviewed: number }> };
      overall: Record<string, { value: number | null; ci: [number, number] | null; n: number }>;
    };
    expect(reviews.weighting.method).toBe('post-stratification');
    expect(reviews.weighting.strata).toEqual(
      expect.arrayContaining([expect.objectContaining({ stratum: 'kept', population: 2, reviewed: 2 })]),
    );
    expect(reviews.overall['precision']).toEqual({ value: 0, ci: [0, 0], n: 1 });
    // Over-escalation: hand-offs among the conversations that needed no person (1 of the 2 reviewed so).
    expect(reviews.overall['overEscalation']).toMatchObject({ value: 0.5, n: 2 });
    expect(reviews.overall['overEscalation']!.ci).toHaveLength(2);
    expect(reviews.overall['recall']).toEqual({ value: 0, ci: [0, 0], n: 1 });

    // The miss and the rightly kept conversation become tasks of the production set.
    // A conversation with no tool call does not say which domain it is of: the deployment's is named.
    const set = join(dir, 'production-set');
    for (const id of [missed.id, keptRightly.id]) {
      const made = baton(
        ['tasks', 'from-conversation', id, '--store', db, '--domain', 'billing', '--task-set', set, '--split', 'train'],
        dir,
      );
      expect(made.status, made.stderr).toBe(0);
    }
    const task = JSON.parse(
      baton(['tasks', 'from-conversation', missed.id, '--store', db, '--domain', 'billing', '--dry-run'], dir).stdout,
    ) as Record<string, unknown>;
    expect(task).toMatchObject({ kind: 'missed_handoff', should_transfer: true, expected_reason: 'frustration_and_loop', due_turn: 3 });

    const out = join(dir, 'run');
    const { records } = evalProduction(set, out, dir);
    const of = (id: string) => records.find((r) => r.task_id === id)!;
    expect(records).toHaveLength(2);
    // The rule agent keeps both again; the verdicts' labels score it: the miss fails, the other passes.
    expect(of(missed.id).handoff).toBeNull();
    expect(of(missed.id).evaluation).toMatchObject({ success: false, reward: 0 });
    expect(of(keptRightly.id).handoff).toBeNull();
    expect(of(keptRightly.id).evaluation).toMatchObject({ success: true, reward: 1 });
  }, 240_000);
});
