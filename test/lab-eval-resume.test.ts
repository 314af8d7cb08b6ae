import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitSha } from '../src/lab/eval/run-identity.js';
import { runEval, type EvalConfig } from '../src/lab/eval/run-eval.js';

// A run folder holds one run: resuming it with other code, configuration, data or tasks is refused.

const BIN = join(import.meta.dirname, '..', 'bin', 'baton.js');
const baton = (args: string[], cwd: string) =>
  spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd, env: { PATH: process.env['PATH'], HOME: cwd } });
const fresh = () => mkdtempSync(join(tmpdir(), 'baton-resume-'));
const small = ['eval', '--domain', 'billing', '--agent', 'rule', '--styles', 'neutral', '--concurrency', '1'];

const lines = (dir: string) =>
  readFileSync(join(dir, 'trajectories.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { key: string; task_id: string; variant_id: string | null });
const runJson = (dir: string) => JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as Record<string, unknown>;
const editRunJson = (dir: string, patch: Record<string, unknown>) =>
  writeFileSync(join(dir, 'run.json'), `${JSON.stringify({ ...runJson(dir), ...patch }, null, 2)}\n`);

describe('baton eval --limit and --task', () => {
  it('--limit N runs the first N planned episodes, --task one task or variant, and an unknown task is refused', () => {
    const cwd = fresh();
    const limited = baton([...small, '--limit', '3', '--out', join(cwd, 'limited')], cwd);
    expect(limited.status, limited.stderr).toBe(0);
    expect(lines(join(cwd, 'limited'))).toHaveLength(3);
    expect(runJson(join(cwd, 'limited'))).toMatchObject({ planned_episodes: 3, config: { limit: 3 } });

    const task = baton([...small, '--task', 'billing_003', '--out', join(cwd, 'task')], cwd);
    expect(task.status, task.stderr).toBe(0);
    const ofTask = lines(join(cwd, 'task'));
    expect(ofTask.length).toBeGreaterThan(1);
    expect(ofTask.every((l) => l.task_id === 'billing_003')).toBe(true);

    const variantId = ofTask[0]?.variant_id;
    if (!variantId) throw new Error('a hand-off variant');
    const variant = baton([...small, '--task', variantId, '--out', join(cwd, 'variant')], cwd);
    expect(variant.status, variant.stderr).toBe(0);
    expect(lines(join(cwd, 'variant')).map((l) => l.variant_id)).toEqual([variantId]);

    const unknown = baton([...small, '--task', 'billing_999', '--out', join(cwd, 'unknown')], cwd);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/no task or variant "billing_999"/);
    expect(baton([...small, '--limit', '0', '--out', join(cwd, 'zero')], cwd).status).not.toBe(0);
  });
});

describe('resuming a run folder', () => {
  it('is refused after a code change (another git SHA), and --force-resume continues it and is recorded', () => {
    const cwd = fresh();
    const out = join(cwd, 'run');
    expect(baton([...small, '--limit', '2', '--out', out], cwd).status).toBe(0);
    const before = readFileSync(join(out, 'trajectories.jsonl'), 'utf8');
    // The run was made by other code: its run.json names another commit.
    editRunJson(out, { git_sha: 'f'.repeat(40) });
    const refused = baton([...small, '--limit', '2', '--out', out], cwd);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/holds another run/);
    expect(refused.stderr).toMatch(/git SHA: f{40} then, none now \(the code changed\)/);
    expect(refused.stderr).toMatch(/--force-resume/);
    expect(readFileSync(join(out, 'trajectories.jsonl'), 'utf8')).toBe(before);

    const forced = baton([...small, '--limit', '2', '--out', out, '--force-resume'], cwd);
    expect(forced.status, forced.stderr).toBe(0);
    const run = runJson(out) as { git_sha: string; forced_resumes: { at: string; git_sha: string | null; differences: string[] }[] };
    // The folder keeps the identity it was started with, and says when and over what it was continued.
    expect(run.git_sha).toBe('f'.repeat(40));
    expect(run.forced_resumes).toHaveLength(1);
    expect(run.forced_resumes[0]?.git_sha).toBeNull();
    expect(run.forced_resumes[0]?.differences).toEqual([`git SHA: ${'f'.repeat(40)} then, none now (the code changed)`]);
    expect(Date.parse(run.forced_resumes[0]?.at ?? '')).not.toBeNaN();
  });

  it('is refused after a change of configuration, of domain data or of the task set', () => {
    const cwd = fresh();
    const out = join(cwd, 'run');
    expect(baton([...small, '--limit', '2', '--out', out], cwd).status).toBe(0);
    const seed = baton([...small, '--limit', '2', '--seed', '2', '--out', out], cwd);
    expect(seed.status).toBe(2);
    expect(seed.stderr).toMatch(/configuration seed: 1 then, 2 now/);
    const limit = baton([...small, '--limit', '3', '--out', out], cwd);
    expect(limit.status).toBe(2);
    expect(limit.stderr).toMatch(/configuration limit: 2 then, 3 now/);
    expect(limit.stderr).toMatch(/task set: the planned episodes changed/);

    const recorded = runJson(out);
    editRunJson(out, { domain_checksum: '0'.repeat(64) });
    const data = baton([...small, '--limit', '2', '--out', out], cwd);
    expect(data.status).toBe(2);
    expect(data.stderr).toMatch(/domain data: the domain's policy, tools, tasks or database changed/);
    // An edit not committed changes no SHA, but the code that runs.
    editRunJson(out, { domain_checksum: recorded['domain_checksum'], code_checksum: '0'.repeat(64) });
    const code = baton([...small, '--limit', '2', '--out', out], cwd);
    expect(code.status).toBe(2);
    expect(code.stderr).toMatch(/code: the modules that run differ/);
    editRunJson(out, { code_checksum: recorded['code_checksum'], task_set_checksum: '0'.repeat(64) });
    const tasks = baton([...small, '--limit', '2', '--out', out], cwd);
    expect(tasks.status).toBe(2);
    expect(tasks.stderr).toMatch(/task set: the planned episodes changed/);
    // Back as it was: the same run continues (nothing left to run).
    editRunJson(out, recorded);
    const same = baton([...small, '--limit', '2', '--out', out], cwd);
    expect(same.status, same.stderr).toBe(0);
    expect(same.stderr).toMatch(/2 already done \(resumed\)/);
  });
});

describe('gitSha', () => {
  it('reads the commit checked out, in a clone or a worktree, as git does', () => {
    const root = join(import.meta.dirname, '..');
    const git = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' });
    if (git.status !== 0) throw new Error(`the tests run in a git checkout: ${git.stderr}`);
    expect(gitSha(root)).toBe(git.stdout.trim());
    expect(gitSha(fresh())).toBeNull();
  });
});

describe('replaceDifferentRun (baton lab)', () => {
  it('starts a folder holding another run again, and says how it differed', async () => {
    const out = join(fresh(), 'rule');
    const config: EvalConfig = {
      domain: 'billing',
      tasks: 'handoff',
      split: 'dev',
      agent: 'rule',
      user: 'scripted',
      styles: ['neutral'],
      trials: 1,
      concurrency: 2,
      seed: 1,
      store: { kind: 'memory' },
      out,
      force: false,
      limit: 2,
    };
    const first = await runEval(config);
    expect(first.replaced).toBeNull();
    editRunJson(out, { git_sha: 'e'.repeat(40) });
    await expect(runEval(config)).rejects.toThrow(/holds another run/);
    const again = await runEval({ ...config, replaceDifferentRun: true });
    expect(again.replaced).toEqual([`git SHA: ${'e'.repeat(40)} then, ${gitSha() ?? 'none'} now (the code changed)`]);
    expect(again).toMatchObject({ ran: 2, resumed: 0 });
    expect(runJson(out)['git_sha']).toBe(gitSha());
    expect(lines(out)).toHaveLength(2);
    // The same run again: continued, nothing replaced.
    expect(await runEval({ ...config, replaceDifferentRun: true })).toMatchObject({ replaced: null, ran: 0, resumed: 2 });
  });
});

describe('a run folder written by another version', () => {
  it('is refused by eval with what is wrong, and started again by baton lab', async () => {
    const out = join(fresh(), 'rule');
    const config: EvalConfig = {
      domain: 'billing',
      tasks: 'handoff',
      split: 'dev',
      agent: 'rule',
      user: 'scripted',
      styles: ['neutral'],
      trials: 1,
      concurrency: 2,
      seed: 1,
      store: { kind: 'memory' },
      out,
      force: false,
      limit: 2,
    };
    await runEval(config);
    editRunJson(out, { version: 2 });
    await expect(runEval(config)).rejects.toThrow(
      /run\.json: run\.json version 2 was written by a newer Baton; this one reads version 1\. Upgrade Baton to read it\. Use another --out/,
    );
    const again = await runEval({ ...config, replaceDifferentRun: true });
    expect(again.replaced?.[0]).toMatch(/run\.json version 2 was written by a newer Baton/);
    expect(runJson(out)['version']).toBe(1);
    // A record of another version in trajectories.jsonl is refused too, not quietly run again.
    const file = join(out, 'trajectories.jsonl');
    const [first, ...rest] = readFileSync(file, 'utf8').trim().split('\n');
    writeFileSync(file, `${[JSON.stringify({ ...(JSON.parse(first as string) as object), version: 2 }), ...rest].join('\n')}\n`);
    await expect(runEval(config)).rejects.toThrow(/trajectories\.jsonl:1: episode record version 2 was written by a newer Baton/);
  });
});
