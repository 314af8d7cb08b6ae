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
    // Each finding is one sentence naming the reward, the exploit and both means.
    const sentences = findingSentences(result);
    expect(sentences).toHaveLength(result.gameable.length);
    expect(sentences.find((s) => s.startsWith('`task` is gameable by `always-transfer`'))).toMatch(/transfer leaves the database/);
    // A finding about an outcome reward names the outcome check as the cause, not the exploit's words.
    const stuffer = sentences.find((s) => s.startsWith('`task` is gameable by `keyword-stuffer`'));
    if (stuffer) expect(stuffer).toMatch(/outcome check sees only the database/);
    const text = auditText(result);
    expect(text).toMatch(/^Loophole audit: airline, main tasks, train split/);
    expect(text).toMatch(/\nrule \(honest\)\s+\d\.\d{3} \[/);
  }, 300_000);

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
