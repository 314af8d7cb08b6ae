import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';

const BIN = join(import.meta.dirname, '..', 'bin', 'baton.js');
const env = (cwd: string) => ({ PATH: process.env['PATH'], HOME: cwd, BATON_TAU2_DIR: process.env['BATON_TAU2_DIR'] ?? '' });
const baton = (args: string[], cwd: string) =>
  spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd, env: env(cwd), maxBuffer: 64 << 20 });
const fresh = () => mkdtempSync(join(tmpdir(), 'baton-eval-'));
const small = ['eval', '--domain', 'billing', '--split', 'dev', '--agent', 'rule', '--styles', 'neutral,impatient', '--trials', '2'];

describe('baton eval', () => {
  it('scripted runs with one seed give byte-identical metrics and trajectories, whatever the concurrency and threads', () => {
    const cwd = fresh();
    const a = baton([...small, '--seed', '7', '--concurrency', '1', '--out', join(cwd, 'a'), '--json'], cwd);
    const b = baton([...small, '--seed', '7', '--concurrency', '6', '--out', join(cwd, 'b'), '--json'], cwd);
    const c = baton([...small, '--seed', '7', '--concurrency', '5', '--workers', '2', '--out', join(cwd, 'c'), '--json'], cwd);
    for (const run of [a, b, c]) expect(run.status, run.stderr).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    expect(a.stdout).toBe(c.stdout);
    const metrics = JSON.parse(a.stdout) as { counts: { episodes: number }; metrics: { success: { value: number; ci: number[] } } };
    expect(metrics.counts.episodes).toBeGreaterThan(20);
    expect(metrics.metrics.success.ci).toHaveLength(2);
    const lines = (dir: string) =>
      readFileSync(join(cwd, dir, 'trajectories.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => {
          const { wall_ms: _wall, ...rest } = JSON.parse(l) as Record<string, unknown>;
          return JSON.stringify(rest);
        })
        .sort();
    expect(lines('a')).toEqual(lines('b'));
    expect(lines('a')).toEqual(lines('c'));
    const run = JSON.parse(readFileSync(join(cwd, 'a', 'run.json'), 'utf8')) as { config: Record<string, unknown> };
    expect(run.config).toMatchObject({ domain: 'billing', agent: 'rule', split: 'dev', trials: 2, seed: 7, task_version: 'v1' });
    expect(String(run.config['variants_checksum'])).toMatch(/^[0-9a-f]{64}$/);
  }, 120_000);

  it('continues an interrupted run where it stopped, running each episode once', async () => {
    const cwd = fresh();
    const out = join(cwd, 'run');
    const args = [...small, '--styles', 'all', '--out', out, '--concurrency', '2'];
    // Killed while two threads run episodes; resumed on one.
    const child = spawn(process.execPath, [BIN, ...args, '--workers', '2'], { cwd, env: env(cwd), stdio: 'ignore' });
    // Kill it once some episodes are on disk.
    const file = join(out, 'trajectories.jsonl');
    await vi.waitFor(() => expect(existsSync(file) && readFileSync(file, 'utf8').split('\n').length > 10).toBe(true), {
      timeout: 60_000,
      interval: 50,
    });
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const before = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '').length;
    const resumed = baton([...args, '--json'], cwd);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/already done \(resumed\)/);
    const keys = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { key: string }).key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.length).toBe((JSON.parse(resumed.stdout) as { counts: { episodes: number } }).counts.episodes);
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(keys.length);
  }, 180_000);

  it('refuses a second test-split run of the same agent configuration unless forced', () => {
    const cwd = fresh();
    const test = ['eval', '--domain', 'billing', '--tasks', 'main', '--split', 'test', '--agent', 'never-transfer', '--styles', 'neutral'];
    expect(baton([...test, '--out', join(cwd, 'first')], cwd).status).toBe(0);
    const again = baton([...test, '--out', join(cwd, 'second')], cwd);
    expect(again.status).not.toBe(0);
    expect(again.stderr).toMatch(/already ran on the test split/);
    expect(existsSync(join(cwd, 'second', 'trajectories.jsonl'))).toBe(false);
    expect(baton([...test, '--out', join(cwd, 'second'), '--force'], cwd).status).toBe(0);
  }, 120_000);

  it.each([
    [['eval', '--domain', 'billing', '--agent', 'llm', '--out', 'x'], /BATON_LLM_BASE_URL/],
    [['eval', '--domain', 'billing', '--styles', 'shouty', '--out', 'x'], /--styles: unknown shouty/],
    [['eval', '--domain', 'billing'], /--out/],
  ])('fails before anything runs on %j', (args, message) => {
    const cwd = fresh();
    const run = baton(args, cwd);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(message);
    expect(existsSync(join(cwd, 'x'))).toBe(false);
  });
});

describe('baton lab (the default run)', () => {
  it('runs the offline reference agents on billing dev in six styles and writes a run folder each, without network or key', () => {
    const cwd = fresh();
    const run = spawnSync(process.execPath, [BIN, 'lab', '--out', join(cwd, 'runs'), '--trials', '1'], {
      encoding: 'utf8',
      cwd,
      env: { PATH: process.env['PATH'], HOME: cwd },
      maxBuffer: 64 << 20,
    });
    expect(run.status, run.stderr).toBe(0);
    for (const agent of ['rule', 'always-transfer', 'never-transfer']) {
      const metrics = JSON.parse(readFileSync(join(cwd, 'runs', agent, 'metrics.json'), 'utf8')) as {
        agent: string;
        counts: { episodes: number };
      };
      expect(metrics.agent).toBe(agent);
      expect(metrics.counts.episodes).toBeGreaterThan(100);
      expect(run.stdout).toContain(`${agent} on billing`);
    }
    expect(existsSync(join(cwd, '.baton', 'test-ledger.jsonl'))).toBe(false);
    const report = readFileSync(join(cwd, 'runs', 'report.html'), 'utf8');
    expect(report).toContain('<svg');
    expect(run.stdout).toMatch(/^baseline: rule;/m);
    expect(run.stdout).toContain(`Report: ${join(cwd, 'runs', 'report.html')}`);
  }, 300_000);
});

describe('baton bench runner', () => {
  it('reports the model-call rate against the ideal, and scripted episodes per second', () => {
    const cwd = fresh();
    const run = baton(['bench', 'runner', '--json', '--concurrency', '8', '--latency-ms', '20'], cwd);
    expect(run.status, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout) as { llm: Record<string, number>; scripted: Record<string, number> };
    expect(out.llm['model_calls']).toBe(3 * (out.llm['episodes'] ?? 0));
    expect(out.llm['user_errors']).toBe(0);
    expect(out.llm['max_in_flight']).toBeLessThanOrEqual(8);
    expect(out.llm['efficiency']).toBeGreaterThan(0);
    expect(out.llm['efficiency']).toBeLessThanOrEqual(1.05);
    expect(out.scripted['episodes_per_second']).toBeGreaterThan(0);
  }, 300_000);
});
