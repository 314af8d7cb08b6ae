/**
 * The console's "Make a lab task" in a real Chromium against a real runtime (SQLite, billing's
 * rule agent) with a production task set configured: a supervisor sees it disabled until the
 * conversation has a verdict, then makes the task and is told its label and that it was added;
 * the task is in the set. An agent is not offered it. axe-core finds no serious violation.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationId, StaffId } from '../src/core/index.js';
import { readTaskSet } from '../src/lab/production/task-set.js';
import { axe, browsers, customer, newPage, ROOT, signIn } from './support/console-page.js';
import { startTestRuntime, type TestRuntime } from './support/runtime-server.js';

let runtime: TestRuntime;
let dir: string;

beforeAll(async () => {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-console.mjs')], { stdio: ['ignore', 'inherit', 'inherit'] });
  dir = mkdtempSync(join(tmpdir(), 'baton-labtask-'));
  runtime = await startTestRuntime('sqlite', { config: { productionTasks: { dir: join(dir, 'set') } } });
}, 180_000);
afterAll(async () => {
  for (const b of browsers) await b.close().catch(() => {});
  await runtime?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('Make a lab task, in the console', () => {
  it('is offered to supervisors once the conversation is reviewed, and adds the task to the set', async () => {
    const sam = await runtime.staff('supervisor');
    const agent = await runtime.staff('agent', ['billing']);
    const c = await customer(runtime.base);
    await c.say('Hi, I was charged twice for my last order.');
    await c.waitFor((m) => m.from === 'agent');
    await c.say('This is the third time I am writing about it and I am fed up.');
    await runtime.runtime.service.idle();

    const a = await newPage();
    await signIn(a.page, runtime.base, agent);
    await a.page.goto(`${runtime.base}/console/#/c/${c.id}`);
    await a.page.getByText('The agent is handling this conversation.').waitFor();
    await expect(a.page.getByRole('button', { name: 'Make a lab task' }).count()).resolves.toBe(0);

    const { page, errors } = await newPage();
    await signIn(page, runtime.base, sam);
    await page.goto(`${runtime.base}/console/#/c/${c.id}`);
    const button = page.getByRole('button', { name: 'Make a lab task' });
    await button.waitFor();
    expect(await button.isDisabled()).toBe(true);
    await page.getByText('Review the conversation first').waitFor();

    // The verdict, recorded as the review routes record it; the console sees it on its stream.
    const log = await runtime.store.listEvents(c.id as ConversationId);
    const due = log.filter((e) => e.type === 'message.received')[1]!.seq;
    await runtime.runtime.service.gateway.record(c.id as ConversationId, [
      {
        type: 'review.recorded',
        data: {
          subject: 'kept',
          by: sam.id as StaffId,
          as: 'supervisor',
          needed: true,
          dueAt: due,
          reason: 'frustration_and_loop',
          note: null,
        },
      },
    ]);
    await page.getByRole('button', { name: 'Make a lab task', disabled: false }).waitFor();
    await button.click();
    const result = page.getByTestId('lab-task-result');
    await result.filter({ hasText: 'added in the production task set (revision 1)' }).waitFor();
    expect(await result.textContent()).toMatch(/^Lab task: missed handoff, hand off to billing from customer turn 2, (train|dev) split;/);
    expect(readTaskSet(join(dir, 'set')).tasks.map((t) => [t.id, t.kind, t.due_turn])).toEqual([[c.id, 'missed_handoff', 2]]);
    await axe(page, 'lab task made');
    expect(errors).toEqual([]);
  });
});
