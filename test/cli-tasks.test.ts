import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tau2DirForTests } from './support/tau2-dir.js';

const BIN = join(import.meta.dirname, '..', 'bin', 'baton.js');
const baton = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { PATH: process.env['PATH'], HOME: process.env['HOME'], ...env } });

describe('baton tasks list', () => {
  it('lists a split with its version and the pinned commit, as JSON', () => {
    const run = baton(['tasks', 'list', '--domain', 'airline', '--split', 'test', '--task-version', 'release-37199f3', '--json'], {
      BATON_TAU2_DIR: tau2DirForTests(),
    });
    expect(run.status).toBe(0);
    const out = JSON.parse(run.stdout) as {
      task_version: string;
      tau2_commit: string;
      tasks: Array<{ split: string; reward_basis: string[] }>;
    };
    expect(out.task_version).toBe('release-37199f3');
    expect(out.tau2_commit).toMatch(/^a2c0247/);
    expect(out.tasks).toHaveLength(20);
    expect(out.tasks.every((t) => t.split === 'test' && t.reward_basis.join() === 'DB,COMMUNICATE')).toBe(true);
  });

  it('says what to set when the data folder is wrong', () => {
    const run = baton(['tasks', 'list', '--domain', 'retail', '--tau2-dir', '/nonexistent-baton-dir']);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/has no .*db\.json.*--tau2-dir or BATON_TAU2_DIR/);
  });
});

describe('baton tasks stats / show / generate (hand-off variants)', () => {
  const env = () => ({ BATON_TAU2_DIR: tau2DirForTests() });

  it('stats: at least 460 airline+retail variants, at least 40% hard negatives, and the billing set', () => {
    const run = baton(['tasks', 'stats', '--json'], env());
    expect(run.status).toBe(0);
    const stats = JSON.parse(run.stdout) as Record<
      string,
      { total: number; positives: number; negatives: number; by_kind: Record<string, number>; by_split: Record<string, number> }
    >;
    const airline = stats['airline'];
    const retail = stats['retail'];
    const billing = stats['billing'];
    if (!airline || !retail || !billing) throw new Error('every domain is in the stats');
    expect(airline.total + retail.total).toBeGreaterThanOrEqual(460);
    expect((airline.negatives + retail.negatives) / (airline.total + retail.total)).toBeGreaterThanOrEqual(0.4);
    for (const d of [airline, retail, billing]) {
      expect(d.positives + d.negatives).toBe(d.total);
      expect(Object.values(d.by_kind).reduce((a, b) => a + b, 0)).toBe(d.total);
      expect(Object.keys(d.by_split).sort()).toEqual(['dev', 'test', 'train']);
    }
    expect(billing.by_kind['over_limit_refund']).toBeGreaterThan(0);
    expect(airline.by_kind['over_limit_refund'] ?? 0).toBe(0);
  });

  it('show: one variant with its label, rule and script; a bad id says what ids look like', () => {
    const stats = baton(['tasks', 'stats', '--json'], env());
    expect(stats.status).toBe(0);
    const run = baton(['tasks', 'show', 'nope'], env());
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/ids are <domain>\/<source task>\/<kind>/);
    const generated = baton(['tasks', 'generate', '--out', join(mkdtempSync(join(tmpdir(), 'baton-manifest-')), 'm.json')], env());
    expect(generated.status).toBe(0);
    const manifest = JSON.parse(readFileSync(JSON.parse(generated.stdout).path as string, 'utf8')) as {
      variants: { id: string; should_transfer: boolean }[];
    };
    const first = manifest.variants.find((v) => v.should_transfer);
    if (!first) throw new Error('a hand-off variant');
    const shown = baton(['tasks', 'show', first.id], env());
    expect(shown.status).toBe(0);
    expect(shown.stdout).toContain(first.id);
    expect(shown.stdout).toMatch(/label: .*hand off/i);
    expect(shown.stdout).toMatch(/rule: /);
  });
});
