import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDomain } from '../src/domains/load-domain.js';
import { computeMetrics, computeRunMetrics, infrastructureFailures } from '../src/lab/metrics/index.js';
import type { EpisodeRecord } from '../src/lab/records.js';
import { makeRun } from './support/lab-runs.js';
import { tau2DirForTests } from './support/tau2-dir.js';

// Runs that cannot lie: an eval whose model endpoint is down says so, and its numbers are not the agent's.

const BIN = join(import.meta.dirname, '..', 'bin', 'baton.js');
const fresh = () => mkdtempSync(join(tmpdir(), 'baton-infra-'));

/** A port on 127.0.0.1 that refuses connections: bound by a server, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  return address.port;
}

const evalAgainst = (port: number, cwd: string, extra: string[] = []) =>
  spawnSync(
    process.execPath,
    [BIN, 'eval', '--domain', 'billing', '--agent', 'llm', '--styles', 'neutral', '--limit', '4', '--out', join(cwd, 'run'), ...extra],
    {
      encoding: 'utf8',
      cwd,
      env: { PATH: process.env['PATH'], HOME: cwd, BATON_LLM_BASE_URL: `http://127.0.0.1:${port}/v1`, BATON_LLM_MODEL: 'some-model' },
    },
  );

interface Line {
  key: string;
  infrastructure_failure?: string;
  model_calls?: { answered: number; failed: number };
}
const records = (cwd: string) =>
  readFileSync(join(cwd, 'run', 'trajectories.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Line);

describe('baton eval against an endpoint that refuses connections', () => {
  it('exits 3, says so, and reports every episode as infrastructure-failed rather than as agent results', async () => {
    const cwd = fresh();
    const port = await closedPort();
    const run = evalAgainst(port, cwd, ['--json']);
    expect(run.status, run.stderr).toBe(3);
    expect(run.stderr).toMatch(/WARNING: 4 of 4 episodes failed for infrastructure reasons/);
    expect(run.stderr).toContain(`ECONNREFUSED 127.0.0.1:${port}`);
    expect(run.stderr.trimEnd().split('\n').at(-1)).toMatch(/--allow-infra-failures\): exit 3\.$/);
    const lines = records(cwd);
    expect(lines).toHaveLength(4);
    // The episodes the hand-off decider settled before any model call measure no model either.
    for (const line of lines) expect(['provider_down', 'provider_unreachable']).toContain(line.infrastructure_failure);
    expect(lines.some((l) => l.infrastructure_failure === 'provider_down')).toBe(true);
    expect(lines.every((l) => l.model_calls?.answered === 0)).toBe(true);
    const metrics = JSON.parse(run.stdout) as {
      agent: string;
      counts: { episodes: number };
      metrics: { success: { value: number | null } };
      infrastructure: { failed: number; of: number };
    };
    expect(metrics).toMatchObject({ agent: 'llm', counts: { episodes: 0 }, infrastructure: { failed: 4, of: 4 } });
    expect(metrics.metrics.success.value).toBeNull();
    expect(JSON.parse(readFileSync(join(cwd, 'run', 'metrics.json'), 'utf8'))).toEqual(metrics);

    // Started again (the address still wrong), the failed episodes run again rather than being kept.
    const again = evalAgainst(port, cwd);
    expect(again.status, again.stderr).toBe(3);
    expect(again.stderr).not.toMatch(/already done/);
    expect(again.stdout).toMatch(/INFRASTRUCTURE FAILED\s+4 of 4 episodes/);
    expect(records(cwd)).toHaveLength(4);
  });

  it('accepts as many infrastructure failures as --allow-infra-failures allows, still warning', async () => {
    const cwd = fresh();
    const run = evalAgainst(await closedPort(), cwd, ['--allow-infra-failures', '4']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/WARNING: 4 of 4 episodes failed/);
    expect(run.stderr).not.toMatch(/exit 3/);
    const fewer = evalAgainst(await closedPort(), fresh(), ['--allow-infra-failures', '3']);
    expect(fewer.status).toBe(3);
  });
});

describe('baton eval with a simulated customer whose endpoint refuses connections', () => {
  it('exits 3 with every episode a user_error, none of them an agent result', async () => {
    const cwd = fresh();
    const port = await closedPort();
    const run = spawnSync(
      process.execPath,
      [BIN, 'eval', '--domain', 'billing', '--user', 'llm', '--styles', 'neutral', '--limit', '2', '--out', join(cwd, 'run'), '--json'],
      {
        encoding: 'utf8',
        cwd,
        env: {
          PATH: process.env['PATH'],
          HOME: cwd,
          BATON_TAU2_DIR: tau2DirForTests(),
          BATON_USER_BASE_URL: `http://127.0.0.1:${port}/v1`,
          BATON_USER_MODEL: 'some-model',
        },
      },
    );
    expect(run.status, run.stderr).toBe(3);
    expect(run.stderr).toMatch(/WARNING: 2 of 2 episodes failed for infrastructure reasons \(2 simulated customer failed\)/);
    expect(records(cwd).map((l) => l.infrastructure_failure)).toEqual(['user_error', 'user_error']);
    expect(JSON.parse(run.stdout)).toMatchObject({ counts: { episodes: 0 }, infrastructure: { failed: 2, by_reason: { user_error: 2 } } });
  });
});

describe('computeRunMetrics', () => {
  it('is computeMetrics byte for byte without infrastructure failures, and leaves the failed episodes out otherwise', async () => {
    const dir = await makeRun(fresh(), 'rule');
    const domain = await loadDomain('billing');
    const all = readFileSync(join(dir, 'trajectories.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as EpisodeRecord);
    const context = { domain, seed: 3 };
    expect(JSON.stringify(computeRunMetrics(all, context))).toBe(JSON.stringify(computeMetrics(all, context)));
    expect(JSON.parse(readFileSync(join(dir, 'metrics.json'), 'utf8'))).toEqual(computeMetrics(all, context));

    const handedOff = all.find((r) => r.handoff !== null);
    const second = all.find((r) => r !== handedOff);
    if (!handedOff?.handoff || !second) throw new Error('a run with a hand-off and another episode');
    const first = handedOff;
    const rest = all.filter((r) => r !== first && r !== second);
    const down: EpisodeRecord = { ...first, handoff: { ...handedOff.handoff, reason: 'provider_down', decidedBy: 'harness' } };
    const customerFailed: EpisodeRecord = { ...second, termination: 'user_error' };
    const records = [down, customerFailed, ...rest];
    expect(infrastructureFailures(records).slice(0, 3)).toEqual(['provider_down', 'user_error', null]);
    const metrics = computeRunMetrics(records, context);
    expect(metrics.infrastructure).toEqual({
      failed: 2,
      of: all.length,
      by_reason: { provider_down: 1, user_error: 1 },
      examples: [first.key, second.key],
    });
    const { infrastructure: _counted, ...measured } = metrics;
    expect(measured).toEqual(computeMetrics(rest, context));
    // A model hand-off for the same reason is the agent's decision, not an outage.
    expect(infrastructureFailures([{ ...down, handoff: { ...handedOff.handoff, reason: 'provider_down', decidedBy: 'model' } }])).toEqual([
      null,
    ]);
  });
});
