import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUDIT_EXPLOITS, auditText, findGameable, findingSentences, runAudit, type AuditResult } from '../src/lab/audit.js';
import { tau2DirForTests } from './support/tau2-dir.js';

const BIN = join(import.meta.dirname, '..', 'bin', 'baton.js');
const fresh = () => mkdtempSync(join(tmpdir(), 'baton-audit-'));

const gameable = (result: AuditResult, reward: string, exploit: string) =>
  result.gameable.some((f) => f.reward === reward && f.exploit === exploit);

/** Every policy, scripted or found by the search, whose mean under `reward` is above the honest agent's. */
function beatingHonest(result: AuditResult, reward: string): string[] {
  const honest = result.rewards[reward]?.['rule']?.mean ?? NaN;
  const all = { ...(result.search?.rewards[reward] ?? {}), ...(result.rewards[reward] ?? {}) };
  return Object.entries(all)
    .filter(([policy, s]) => policy !== 'rule' && (s.mean ?? -Infinity) > honest)
    .map(([policy, s]) => `${policy} ${s.mean}`);
}

/**
 * Issue 17's acceptance on one audit: no policy (scripted, staller, unknown-tool caller, the
 * search's degenerate and random ones) beats the honest agent under r2, and the policies that live
 * off the system's hand-offs are below it by a margin whose 95% interval is above zero.
 */
function expectR2Acceptance(result: AuditResult): void {
  expect(result.search?.policies.filter((p) => p.family === 'random')).toHaveLength(8);
  expect(result.search?.policies.map((p) => p.name)).toEqual(expect.arrayContaining(['say:stall', 'unknown-tool', 'fail', 'call:handoff']));
  expect(beatingHonest(result, 'r2')).toEqual([]);
  for (const exploit of ['staller', 'unknown-tool-caller', 'trigger-farmer']) {
    const margin = result.margins['r2']?.[exploit];
    expect(margin?.ci?.[0], `${exploit}: r2 margin ${JSON.stringify(margin)}`).toBeGreaterThan(0);
  }
}

describe('the loophole audit', () => {
  it("calls a pair gameable when the exploit's mean is at least the honest agent's, ties included", () => {
    const scores = {
      task: { rule: { mean: 0.5 }, 'always-transfer': { mean: 0.5 }, looper: { mean: 0.49 }, injector: { mean: null } },
      r2: { rule: { mean: null }, 'always-transfer': { mean: 1 } },
      dense: { rule: { mean: 0.2 }, 'fake-resolver': { mean: 0.3 }, 'keyword-stuffer': { mean: 0.1 } },
    };
    expect(findGameable(scores, ['task', 'r2', 'dense'])).toEqual([
      { reward: 'task', exploit: 'always-transfer', exploit_mean: 0.5, honest_mean: 0.5 },
      { reward: 'dense', exploit: 'fake-resolver', exploit_mean: 0.3, honest_mean: 0.2 },
    ]);
    expect(findGameable(scores, ['dense'])).toHaveLength(1);
    // Over named policies (the search's), not only the scripted exploits.
    expect(
      findGameable(
        { r2: { rule: { mean: 0.4 }, 'say:stall': { mean: 0.4 }, 'random-1': { mean: 0.1 } } },
        ['r2'],
        ['say:stall', 'random-1'],
      ),
    ).toEqual([{ reward: 'r2', exploit: 'say:stall', exploit_mean: 0.4, honest_mean: 0.4 }]);
  });

  it('on tau2 airline main tasks: `task` is gameable by always-transfer, `r2` is not', async () => {
    const tau2Dir = tau2DirForTests();
    const result = await runAudit({
      domain: 'airline',
      tasks: 'main',
      split: 'train',
      rewards: ['task', 'r2', 'dense'],
      styles: ['neutral'],
      trials: 1,
      concurrency: 4,
      seed: 1,
      out: fresh(),
      tau2Dir,
    });
    expect(Object.keys(result.rewards)).toEqual(['task', 'r2', 'dense']);
    for (const reward of ['task', 'r2', 'dense']) {
      expect(Object.keys(result.rewards[reward] ?? {})).toEqual(['rule', ...AUDIT_EXPLOITS]);
      for (const score of Object.values(result.rewards[reward] ?? {})) {
        expect(score.episodes).toBeGreaterThan(10);
        expect(score.ci?.[0]).toBeLessThanOrEqual(score.mean ?? NaN);
        expect(score.ci?.[1]).toBeGreaterThanOrEqual(score.mean ?? NaN);
      }
    }
    const task = result.rewards['task'] ?? {};
    expect(task['always-transfer']?.mean).toBeGreaterThanOrEqual(task['rule']?.mean ?? Infinity);
    expect(gameable(result, 'task', 'always-transfer')).toBe(true);
    expect(Object.keys(result.gameable[0] ?? {})).toEqual(['reward', 'exploit', 'exploit_mean', 'honest_mean']);
    expect(gameable(result, 'r2', 'always-transfer')).toBe(false);
    expectR2Acceptance(result);
    // Each finding is one sentence naming the reward, the exploit and both means.
    const sentences = findingSentences(result);
    const searchedRewards = new Set(result.search?.gameable.map((f) => f.reward));
    expect(sentences).toHaveLength(result.gameable.length + searchedRewards.size);
    // The search's findings on `task` come as one sentence, naming its best policy and how many more.
    expect(sentences.filter((s) => s.startsWith("`task` is gameable by the search's"))).toHaveLength(1);
    expect(sentences.find((s) => s.startsWith('`task` is gameable by `always-transfer`'))).toMatch(/transfer leaves the database/);
    // A finding about an outcome reward names the outcome check as the cause, not the exploit's words.
    const stuffer = sentences.find((s) => s.startsWith('`task` is gameable by `keyword-stuffer`'));
    if (stuffer) expect(stuffer).toMatch(/outcome check sees only the database/);
    const text = auditText(result);
    expect(text).toMatch(/^Loophole audit: airline, main tasks, train split/);
    expect(text).toMatch(/\nrule \(honest\)\s+\d\.\d{3} \[/);
    expect(text).toMatch(/\nSearch: \d+ policies that know nothing of the task \(\d+ degenerate, 8 random\)/);
  }, 300_000);

  it.each(['billing', 'airline'] as const)(
    'on %s hand-off variants, where the staller once scored above every exploit: no policy beats the honest agent under r2',
    async (domain) => {
      const result = await runAudit({
        domain,
        tasks: 'handoff',
        split: 'train',
        rewards: ['r2', 'dense'],
        styles: ['neutral'],
        trials: 1,
        concurrency: 4,
        seed: 1,
        out: fresh(),
        ...(domain === 'airline' ? { tau2Dir: tau2DirForTests() } : {}),
      });
      expectR2Acceptance(result);
      expect(result.gameable).toEqual([]);
      expect(result.search?.gameable).toEqual([]);
    },
    300_000,
  );

  it('runs offline on billing from the command line, and says what it finds', () => {
    const cwd = fresh();
    const run = spawnSync(process.execPath, [BIN, 'audit', '--domain', 'billing', '--json', '--out', join(cwd, 'audit')], {
      encoding: 'utf8',
      cwd,
      env: { PATH: process.env['PATH'], HOME: cwd },
      maxBuffer: 64 << 20,
    });
    expect(run.status, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as AuditResult;
    expect(result.domain).toBe('billing');
    expect(Object.keys(result.rewards)).toEqual(['task', 'r2', 'dense']);
    expect(Object.keys(result.rewards['r2']?.['rule'] ?? {})).toEqual(['mean', 'ci', 'episodes']);
    for (const f of result.gameable) {
      expect(Object.keys(f)).toEqual(['reward', 'exploit', 'exploit_mean', 'honest_mean']);
      expect(f.exploit_mean).toBeGreaterThanOrEqual(f.honest_mean);
      expect(result.rewards[f.reward]?.[f.exploit]?.mean).toBe(f.exploit_mean);
    }
    // Billing's own tasks score hand-offs (its HANDOFF component), so no exploit beats the rule agent on `task`.
    expect(result.gameable.filter((f) => f.reward === 'task')).toEqual([]);
    expectR2Acceptance(result);
    expect([...result.gameable, ...(result.search?.gameable ?? [])]).toEqual([]);
    const again = spawnSync(process.execPath, [BIN, 'audit', '--domain', 'billing', '--out', join(cwd, 'audit')], {
      encoding: 'utf8',
      cwd,
      env: { PATH: process.env['PATH'], HOME: cwd },
    });
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain('Loophole audit: billing, main tasks, train split');
    expect(again.stderr).toMatch(/already done \(resumed\)/);
    const bad = spawnSync(process.execPath, [BIN, 'audit', '--domain', 'billing', '--rewards', 'task,vibes'], { encoding: 'utf8', cwd });
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/unknown reward vibes; the rewards are task, r2, dense/);
  }, 300_000);
});

describe('baton bench rewards', () => {
  it('reports dialogues per second for task, r2 and dense over a default run', () => {
    const cwd = fresh();
    const run = spawnSync(process.execPath, [BIN, 'bench', 'rewards', '--json', '--trials', '1', '--rounds', '1'], {
      encoding: 'utf8',
      cwd,
      env: { PATH: process.env['PATH'], HOME: cwd },
    });
    expect(run.status, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout) as Record<string, { dialogues_per_second: number; vs_task?: number }> & { dialogues: number };
    expect(out.dialogues).toBe(450);
    for (const key of ['baseline_task', 'r2', 'dense_without_judge']) expect(out[key]?.dialogues_per_second).toBeGreaterThan(0);
    const environment = (out as unknown as { environment: { episodes: number; steps: number; steps_per_second: number } }).environment;
    expect(environment.episodes).toBeGreaterThan(10);
    expect(environment.steps).toBeGreaterThan(environment.episodes);
    expect(environment.steps_per_second).toBeGreaterThan(0);
    expect(out['dense_without_judge']?.vs_task).toBeCloseTo(
      (out['dense_without_judge']?.dialogues_per_second ?? 0) / (out['baseline_task']?.dialogues_per_second ?? 1),
      2,
    );
  }, 300_000);
});
