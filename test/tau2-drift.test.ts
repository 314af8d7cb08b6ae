/**
 * Policy drift on tau2-bench's airline and retail (the data read at run time from the shared
 * folder, never committed), end to end through the gateway and the harness with the scripted
 * customer: each domain declares three events; each event has tasks whose right outcome differs
 * before and after; on each, an agent that keeps the old rule (the oracle of the task as
 * committed) fails the drift task and one that follows the notice (the oracle of the new policy)
 * passes it, while without the drift the old rule passes. `baton eval --drift` runs on both.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Domain, DomainTask } from '../src/domains/domain.js';
import { driftTasksOf } from '../src/domains/drift-tasks.js';
import { DRIFT_NOTICE_HEADING, type DriftTask } from '../src/domains/drift.js';
import { createOraclePolicy } from '../src/domains/oracle.js';
import { AIRLINE_DRIFT_EVENTS } from '../src/domains/tau2/airline/airline-drift.js';
import { RETAIL_DRIFT_EVENTS } from '../src/domains/tau2/retail/retail-drift.js';
import { firstChangedAction } from '../src/domains/tau2/tau2-drift.js';
import { runEpisode, type EpisodeAgent } from '../src/lab/run-episode.js';
import { taskScript } from '../src/lab/task-scripts.js';
import { createScriptedUser } from '../src/lab/users/scripted-user.js';
import { generateVariants, HANDOFF_VARIANT_SEED } from '../src/lab/variants/index.js';
import type { DriftEvalResult } from '../src/lab/eval/drift-eval.js';
import { tau2DirForTests } from './support/tau2-dir.js';
import { tau2Domain } from './support/tau2-domains.js';

const oracle = (domain: Domain, task: DomainTask): EpisodeAgent => ({
  name: 'oracle',
  policy: createOraclePolicy(domain, task),
  handoff: true,
  confirmWrites: false,
  outputGuardrails: false,
});

const cases = [
  { name: 'airline' as const, events: AIRLINE_DRIFT_EVENTS },
  { name: 'retail' as const, events: RETAIL_DRIFT_EVENTS },
];

describe.each(cases)('$name policy drift', ({ name, events }) => {
  const setup = async () => {
    const domain = await tau2Domain(name);
    const variants = generateVariants([domain], { seed: HANDOFF_VARIANT_SEED });
    const customer = (task: DomainTask) => createScriptedUser(taskScript(domain, task, variants), { style: 'neutral', seed: 1 });
    const play = (pair: DriftTask, agent: EpisodeAgent, turn = pair.turn) =>
      runEpisode({
        domain,
        task: pair.after,
        variant: null,
        agent,
        user: customer(pair.before),
        seed: 3,
        drift: { event: pair.event, turn },
      });
    return { domain, pairs: driftTasksOf(domain), customer, play };
  };

  it('declares three events, each with tasks whose right outcome differs before and after', async () => {
    const { domain, pairs } = await setup();
    expect(events).toHaveLength(3);
    for (const event of events) expect(pairs.filter((p) => p.event === event).length, event.id).toBeGreaterThan(0);
    for (const pair of pairs) {
      // Judge-free on both sides, and the after-task ends in the transfer the notice asks for.
      expect(pair.before.needsJudge || pair.after.needsJudge).toBe(false);
      expect(pair.after.actions?.at(-1)?.name).toBe(domain.transferTool);
      expect(pair.after.rewardBasis).toContain('HANDOFF');
      expect(pair.after.id).toBe(`${pair.before.id}@${pair.event.id}`);
      expect(JSON.stringify(pair.before.actions)).not.toBe(JSON.stringify(pair.after.actions));
      // The kept part of the solution is the before-task's up to the call the event changes.
      const at = firstChangedAction(domain, pair.before, pair.event) as number;
      expect(pair.after.actions?.slice(0, -1)).toEqual(pair.before.actions?.slice(0, at));
    }
    // A task the events change nothing in is not paired: a read-only task has no pair.
    const readOnly = domain.tasks.find((t) => (t.actions ?? []).every((a) => !domain.isWrite(a.name)))!;
    expect(pairs.some((p) => p.before.id === readOnly.id)).toBe(false);
    expect(() => driftTasksOf(domain, 0)).toThrow(/customer turn ≥ 1/);
  }, 60_000);

  it.each(events.map((e) => e.id))(
    '%s: the old rule fails the drift task, the notice followed passes it',
    async (id) => {
      const { domain, pairs, customer, play } = await setup();
      const pair = pairs.find((p) => p.event.id === id)!;
      // The oracle does the whole task in its first turn: the drift holds from turn 1.
      const old = await play(pair, oracle(domain, pair.before), 1);
      const followed = await play(pair, oracle(domain, pair.after), 1);
      expect(old.drift).toEqual({ event: id, turn: 1, fired: true });
      // The old rule's changed call is refused with the new policy's reason, and it does not earn the outcome.
      const refusals = old.trajectory.messages.filter((m) => m.role === 'tool' && m.error && m.content.includes('transfer the customer'));
      expect(refusals.length).toBeGreaterThan(0);
      expect(old.evaluation.success === false || (old.handoff !== null && old.handoff.decidedBy !== 'model')).toBe(true);
      expect(followed.evaluation.success).toBe(true);
      expect(followed.evaluation.handoff.transferred).toBe(true);
      // Without the drift the old rule is the right one.
      const before = await runEpisode({
        domain,
        task: pair.before,
        variant: null,
        agent: oracle(domain, pair.before),
        user: customer(pair.before),
        seed: 3,
      });
      expect(before.evaluation.success).toBe(true);
      expect(before.drift).toBeNull();
    },
    60_000,
  );

  it('tells the agent from the drift turn on, never before', async () => {
    const { domain, pairs, play } = await setup();
    const pair = pairs[0]!;
    const seen: { customerMessages: number; noticed: boolean }[] = [];
    const inner = createOraclePolicy(domain, pair.after);
    let said = false;
    const agent: EpisodeAgent = {
      ...oracle(domain, pair.after),
      policy: {
        name: 'oracle',
        // Says one line at the first turn, then plays the new policy's solution.
        next: async (request) => {
          const system = request.messages[0]?.content ?? '';
          seen.push({
            customerMessages: request.messages.filter((m) => m.role === 'user').length,
            noticed: system.includes(DRIFT_NOTICE_HEADING) && system.includes(pair.event.notice),
          });
          if (!said) {
            said = true;
            return { ok: true, content: 'Let me look into that for you.', toolCalls: [], usage: { promptTokens: 0, completionTokens: 0 } };
          }
          return inner.next(request);
        },
      },
    };
    const result = await play(pair, agent, 2);
    expect(result.drift).toEqual({ event: pair.event.id, turn: 2, fired: true });
    expect(seen.some((s) => s.customerMessages < 2)).toBe(true);
    expect(seen.filter((s) => s.customerMessages < 2).every((s) => !s.noticed)).toBe(true);
    expect(seen.filter((s) => s.customerMessages >= 2).every((s) => s.noticed)).toBe(true);
    expect(result.evaluation.success).toBe(true);
  }, 60_000);
});

describe('baton eval --drift on tau2-bench', () => {
  it('reports every airline and retail event before and after, with intervals, for the oracle', () => {
    const bin = join(import.meta.dirname, '..', 'bin', 'baton.js');
    for (const domain of ['airline', 'retail']) {
      const out = join(mkdtempSync(join(tmpdir(), 'baton-drift-')), 'run');
      const ran = spawnSync(process.execPath, [bin, 'eval', '--domain', domain, '--drift', '--agent', 'oracle', '--out', out, '--json'], {
        encoding: 'utf8',
        env: { PATH: process.env['PATH'], HOME: out, BATON_TAU2_DIR: tau2DirForTests() },
      });
      expect(ran.status, ran.stderr).toBe(0);
      const result = JSON.parse(ran.stdout) as DriftEvalResult;
      const ids = (domain === 'airline' ? AIRLINE_DRIFT_EVENTS : RETAIL_DRIFT_EVENTS).map((e) => e.id).sort();
      expect(Object.keys(result.events).sort()).toEqual(ids);
      expect(result.overall.before.value).toBe(1);
      expect(result.overall.after.value).toBe(1);
      expect(result.overall.after.ci).not.toBeNull();
    }
  }, 120_000);
});
