import { describe, expect, it } from 'vitest';
import type { Domain, DomainTask } from '../src/domains/domain.js';
import { loadDomain } from '../src/domains/load-domain.js';
import { createOraclePolicy } from '../src/domains/oracle.js';
import { runEpisode } from '../src/lab/run-episode.js';
import type { CustomerView, UserSimulator } from '../src/lab/user.js';
import { SqliteStore } from '../src/store/sqlite-store.js';
import { tau2Domain } from './support/tau2-domains.js';

/** A customer who states the task's request, then leaves (transferred or done). */
function briefCustomer(task: DomainTask): UserSimulator {
  const { instructions } = task.userScenario;
  return {
    kind: 'scripted',
    style: 'neutral',
    async next(view: CustomerView) {
      if (view.turn === 1) return { text: typeof instructions === 'string' ? instructions : instructions.reason_for_call, stop: null };
      return view.transferred ? { text: '###TRANSFER###', stop: '###TRANSFER###' } : { text: '###STOP###', stop: '###STOP###' };
    },
  };
}

const oracle = (domain: Domain, task: DomainTask) => ({
  name: 'oracle',
  policy: createOraclePolicy(domain, task),
  handoff: false,
  confirmWrites: false,
});

describe('the oracle through the gateway and the harness', () => {
  it.each(['airline', 'retail'] as const)('scores 1.0 on every judge-free %s task, as it does outside them', async (name) => {
    const domain = await tau2Domain(name);
    const results = [];
    for (const task of domain.tasks)
      results.push(await runEpisode({ domain, task, variant: null, agent: oracle(domain, task), user: briefCustomer(task), seed: 7 }));
    const judgeFree = domain.tasks.filter((t) => !t.needsJudge).map((t) => t.id);
    expect(results.filter((r) => r.evaluation.success === true).map((r) => r.taskId)).toEqual(judgeFree);
    expect(results.every((r) => r.termination === 'user_stop')).toBe(true);
    // It transfers where the gold trajectory transfers, and nowhere else.
    const transfers = domain.tasks.filter((t) => t.handoff.expected).map((t) => t.id);
    expect(results.filter((r) => r.handoff?.decidedBy === 'model').map((r) => r.taskId)).toEqual(transfers);
    expect(
      results.filter((r) => r.handoff?.decidedBy === 'model').every((r) => r.packet !== null && r.evaluation.handoff.transferred),
    ).toBe(true);
    // The harness's output guardrail stops a reply that states a number no tool call of the
    // conversation showed: the oracle says what a task expects communicated without the lookups
    // a real agent would make (in judge-scored tasks only). Nothing else is handed off.
    const guarded = results.filter((r) => r.handoff !== null && r.handoff.decidedBy !== 'model');
    expect(guarded.every((r) => r.handoff?.reason === 'guardrail' && domain.tasks.find((t) => t.id === r.taskId)?.needsJudge)).toBe(true);
  });

  it('keeps the conversation in a real SQLite file, and the same seed gives the same trajectory', async () => {
    const domain = await tau2Domain('retail');
    const task = domain.tasks.find((t) => (t.actions ?? []).some((a) => domain.isWrite(a.name)) && !t.needsJudge);
    if (!task) throw new Error('a judge-free retail task that writes');
    const { mkdtempSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const store = new SqliteStore({ path: join(mkdtempSync(join(tmpdir(), 'baton-lab-')), 'lab.sqlite') });
    const first = await runEpisode({
      domain,
      task,
      variant: null,
      agent: oracle(domain, task),
      user: briefCustomer(task),
      seed: 11,
      store,
    });
    const second = await runEpisode({ domain, task, variant: null, agent: oracle(domain, task), user: briefCustomer(task), seed: 11 });
    expect(first.evaluation.reward).toBe(1);
    expect(second.trajectory).toEqual(first.trajectory);
    const read = await store.getConversation(first.conversationId as never);
    expect(read).not.toBeNull();
  });

  it('repairs what a simulated customer wrote (NUL, a lone surrogate) instead of failing the episode', async () => {
    const domain = await loadDomain('billing');
    const task = domain.tasks[0]!;
    const store = new SqliteStore({ path: ':memory:' });
    const broken: UserSimulator = {
      kind: 'scripted',
      style: 'neutral',
      async next(view: CustomerView) {
        return view.turn === 1 ? { text: 'hello\u0000 there \uD800', stop: null } : { text: '###STOP###', stop: '###STOP###' };
      },
    };
    const result = await runEpisode({ domain, task, variant: null, agent: oracle(domain, task), user: broken, seed: 3, store });
    expect(result.termination).toBe('user_stop');
    const received = (await store.listMessages(result.conversationId as never)).filter((m) => m.direction === 'inbound');
    expect(received.map((m) => m.text)).toEqual(['hello there \uFFFD']);
  });
});
