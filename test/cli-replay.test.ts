import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tau2DirForTests } from './support/tau2-dir.js';

const BIN = join(import.meta.dirname, '..', 'bin', 'baton.js');
const baton = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { PATH: process.env['PATH'], HOME: process.env['HOME'], ...env },
  });

interface Line {
  task_id: string;
  domain: string;
  task_version: string;
  steps: { name: string; arguments: Record<string, unknown>; output: string; error: boolean }[];
  db_final_sha256: string;
}

describe('baton replay', () => {
  it.each(['airline', 'retail'])('replays the %s train split exactly as the parity file records it', (domain) => {
    const run = baton(['replay', '--domain', domain, '--split', 'train', '--tau2-dir', tau2DirForTests(), '--jsonl']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Line);
    const gold = readFileSync(join(tau2DirForTests(), domain, 'gold_replay_train.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Line & { steps: Line['steps'] });
    expect(lines.map((l) => l.task_id)).toEqual(gold.map((g) => g.task_id));
    lines.forEach((line, i) => {
      const g = gold[i];
      expect(line.task_version).toBe('current');
      expect(line.db_final_sha256).toBe(g?.db_final_sha256);
      expect(line.steps).toEqual(g?.steps.map((s) => ({ name: s.name, arguments: s.arguments, output: s.output, error: s.error })));
    });
  });

  it('replays one task of the release version', () => {
    const run = baton(['replay', '--domain', 'retail', '--task', '64', '--task-version', 'release-37199f3', '--jsonl'], {
      BATON_TAU2_DIR: tau2DirForTests(),
    });
    expect(run.status).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0] ?? '') as Line;
    expect(line).toMatchObject({ task_id: '64', domain: 'retail', task_version: 'release-37199f3' });
    expect(line.steps.some((s) => s.output === 'Error: Non-delivered order cannot be exchanged')).toBe(true);
  });

  it.each([
    [['replay', '--domain', 'airline', '--task', 'nope', '--jsonl'], /no task "nope"/],
    [
      ['replay', '--domain', 'airline', '--task-version', 'v9', '--jsonl'],
      /--task-version: the airline domain has current, release-37199f3; got "v9"/,
    ],
    [['replay', '--domain', 'airline'], /pass --jsonl/],
    [['replay', '--domain', 'mars', '--jsonl'], /argument 'mars' is invalid/],
  ])('refuses %j with a clear message', (args, message) => {
    const run = baton(args, { BATON_TAU2_DIR: tau2DirForTests() });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(message);
    expect(run.stdout).toBe('');
  });
});

describe('baton bench replay', () => {
  it('replays and hashes all 164 tau2 tasks and reports a ratio against the same-run baseline', () => {
    const run = baton(['bench', 'replay', '--json', '--baseline-tasks', '1'], { BATON_TAU2_DIR: tau2DirForTests() });
    expect(run.status).toBe(0);
    const out = JSON.parse(run.stdout) as Record<string, unknown> & { baseline: Record<string, number>; parity: Record<string, number> };
    expect(out).toMatchObject({ benchmark: 'replay', tasks: 164, gold_actions: 692, tool_errors: 18, task_version: 'current' });
    expect(out.parity).toEqual({ train_tasks_checked: 104, final_hashes_matched: 104 });
    expect(out.baseline['hash_mismatches']).toBe(0);
    expect(out.baseline['tasks_sampled']).toBe(2);
    expect(out['ratio']).toBeGreaterThan(0);
    expect(out['ratio']).toBeLessThan(1);
  });
});

describe('the billing domain on the command line (no tau2 data, no network)', () => {
  const offline = { BATON_TAU2_DIR: '', XDG_CACHE_HOME: '/nonexistent' };

  it('lists its tasks with their split and hand-off label', () => {
    const run = baton(['tasks', 'list', '--domain', 'billing', '--split', 'test', '--json'], offline);
    expect(run.status).toBe(0);
    const out = JSON.parse(run.stdout) as {
      domain: string;
      task_version: string;
      source: string;
      tasks: { id: string; split: string; handoff: { expected: boolean; queue: string | null; reason: string | null } }[];
    };
    expect(out).toMatchObject({ domain: 'billing', task_version: 'v1' });
    expect(out.source).toMatch(/^baton billing v1 \(seed \d+\)$/);
    expect(out.tasks.length).toBeGreaterThan(0);
    expect(out.tasks.every((t) => t.split === 'test')).toBe(true);
    expect(out.tasks.some((t) => t.handoff.expected && t.handoff.queue !== null && t.handoff.reason !== null)).toBe(true);
    expect(out.tasks.some((t) => !t.handoff.expected)).toBe(true);
  });

  it('replays every task with no error output, the same hash twice', () => {
    const first = baton(['replay', '--domain', 'billing', '--jsonl'], offline);
    const second = baton(['replay', '--domain', 'billing', '--jsonl'], offline);
    expect(first.status).toBe(0);
    const lines = first.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Line);
    expect(lines.length).toBeGreaterThanOrEqual(80);
    expect(lines.flatMap((l) => l.steps).filter((s) => s.error)).toEqual([]);
    expect(lines.every((l) => /^[0-9a-f]{64}$/.test(l.db_final_sha256) && l.task_version === 'v1')).toBe(true);
    expect(second.stdout).toBe(first.stdout);
  });
});
