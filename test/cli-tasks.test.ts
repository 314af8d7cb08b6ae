import { spawnSync } from 'node:child_process';
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
