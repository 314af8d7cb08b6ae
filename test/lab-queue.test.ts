/**
 * `baton eval --queue` and `baton worker`: real OS processes on a real PostgreSQL, the rule agent
 * and scripted customers on billing (no model, no tau2-bench data). The folder assembled from the
 * database is compared byte for byte with a one-process run of the same seed.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { testPostgres } from './support/postgres.js';

const BIN = join(import.meta.dirname, '..', 'bin', 'baton.js');
const LEASE_MS = 1_500;
const env = (cwd: string) => ({ PATH: process.env['PATH'], HOME: cwd });
const fresh = () => mkdtempSync(join(tmpdir(), 'baton-queue-'));
const run = ['eval', '--domain', 'billing', '--split', 'dev', '--agent', 'rule', '--seed', '11'];
/** What a folder holds that only says how and where it ran (docs/lab.md): left out of the comparison. */
const RUN_ENVIRONMENT = new Set(['environment.json', 'timings.jsonl']);

const children: ChildProcess[] = [];
const pools: pg.Pool[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});
afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
});

async function database(): Promise<{ url: string; pool: pg.Pool }> {
  const server = await testPostgres();
  const url = await server.createDatabase();
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pools.push(pool);
  return { url, pool };
}

/** A process of the CLI, with its exit and its stderr. */
function start(args: string[], cwd: string) {
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env: env(cwd), stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    exited,
    stdout: () => stdout,
    stderr: () => stderr,
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** A `baton worker`, once it says it is running. */
async function worker(url: string, cwd: string, concurrency = 2) {
  const w = start(['worker', '--queue', url, '--concurrency', String(concurrency), '--lease-ms', String(LEASE_MS)], cwd);
  await vi.waitFor(() => expect(w.stderr()).toMatch(/running up to/), { timeout: 60_000, interval: 50 });
  return w;
}

/** Every file of a run folder but the run-environment ones, by name. */
function folder(dir: string): Map<string, Buffer> {
  const files = readdirSync(dir).filter((f) => !RUN_ENVIRONMENT.has(f));
  return new Map(files.sort().map((f) => [f, readFileSync(join(dir, f))]));
}

function expectSameFolder(queued: string, single: string) {
  const a = folder(queued);
  const b = folder(single);
  expect([...a.keys()]).toEqual([...b.keys()]);
  expect([...a.keys()]).toEqual(expect.arrayContaining(['run.json', 'trajectories.jsonl', 'metrics.json']));
  for (const [name, bytes] of a) expect(bytes.equals(b.get(name)!), `${name} differs`).toBe(true);
}

const count = async (pool: pg.Pool, sql: string, params: unknown[] = []) =>
  Number((await pool.query<{ n: string }>(`SELECT count(*) AS n FROM (${sql}) t`, params)).rows[0]!.n);

const until = (check: () => Promise<void> | void, timeout = 90_000) => vi.waitFor(check, { timeout, interval: 50 });

describe('baton eval --queue with baton worker processes', () => {
  it('over 2 workers gives a folder byte-identical to a one-process run of the same seed, each record once', async () => {
    const { url, pool } = await database();
    const cwd = fresh();
    const args = [...run, '--styles', 'neutral,terse,impatient', '--trials', '2'];
    const single = spawnSync(process.execPath, [BIN, ...args, '--concurrency', '3', '--out', join(cwd, 'single'), '--json'], {
      cwd,
      env: env(cwd),
      encoding: 'utf8',
    });
    expect(single.status, single.stderr).toBe(0);
    const a = await worker(url, cwd);
    const b = await worker(url, cwd);
    const queued = start([...args, '--queue', url, '--out', join(cwd, 'queued'), '--json'], cwd);
    expect(await queued.exited, queued.stderr()).toBe(0);
    expect(queued.stdout()).toBe(single.stdout);
    expectSameFolder(join(cwd, 'queued'), join(cwd, 'single'));

    const planned = (JSON.parse(readFileSync(join(cwd, 'single', 'run.json'), 'utf8')) as { planned_episodes: number }).planned_episodes;
    expect(planned).toBeGreaterThan(100);
    expect(await count(pool, 'SELECT key FROM lab_episodes')).toBe(planned);
    // Every job completed once: a duplicate job would leave a second record of completion.
    expect(await count(pool, "SELECT key FROM jobs_done WHERE key LIKE 'lab:%'")).toBe(planned);
    expect(await count(pool, 'SELECT 1 FROM graphile_worker.jobs')).toBe(0);
    // Both processes ran episodes (the timings say who ran which).
    const timings = readFileSync(join(cwd, 'queued', 'timings.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(timings).toHaveLength(planned);
    const ran = new Set(timings.map((l) => (JSON.parse(l) as { worker: string }).worker));
    expect(ran.size).toBe(2);
    for (const w of [a, b]) {
      w.child.kill('SIGTERM');
      expect(await w.exited).toBe(0);
    }
  }, 240_000);

  it('a worker killed (SIGKILL) mid-episode five times: each interrupted episode runs again, every record once, the same bytes', async () => {
    const { url, pool } = await database();
    const cwd = fresh();
    const args = [...run, '--styles', 'all', '--trials', '2'];
    const single = spawnSync(process.execPath, [BIN, ...args, '--out', join(cwd, 'single')], { cwd, env: env(cwd), encoding: 'utf8' });
    expect(single.status, single.stderr).toBe(0);
    const queued = start([...args, '--queue', url, '--out', join(cwd, 'queued')], cwd);

    const recorded = () => count(pool, 'SELECT key FROM lab_episodes');
    /** Locked and not recorded: episodes in flight now, or, once their worker is dead, the ones it died running. */
    const unfinished = async () => {
      const { rows } = await pool.query<{ key: string; attempts: number }>(
        'SELECT key, attempts FROM graphile_worker.jobs WHERE locked_at IS NOT NULL',
      );
      const done = new Set(
        (await pool.query<{ key: string }>("SELECT 'lab:' || run_id || ':' || key AS key FROM lab_episodes")).rows.map((r) => r.key),
      );
      return rows.filter((r) => !done.has(r.key));
    };
    const interrupted: { key: string; attempts: number }[] = [];
    // Five kills that each cut an episode short. Episodes take milliseconds, so a kill sent while one
    // is in flight can still land after it ended and before the next began: such a kill cut nothing
    // and does not count (the run must survive it all the same); at most ten kills are tried.
    let kills = 0;
    let cutting = 0;
    while (cutting < 5 && kills < 10) {
      kills += 1;
      // One worker at a time: the jobs locked once it is dead are the ones it died running.
      const w = await worker(url, cwd, 3);
      const before = await recorded();
      await until(async () => expect(await recorded()).toBeGreaterThanOrEqual(before + 10));
      await until(async () => expect((await unfinished()).length).toBeGreaterThan(0));
      await w.kill();
      const cut = await unfinished();
      if (cut.length > 0) {
        cutting += 1;
        interrupted.push(...cut);
      }
    }
    expect(cutting, `kills that cut an episode short, of ${kills}`).toBe(5);
    const last = await worker(url, cwd, 3);
    expect(await queued.exited, queued.stderr()).toBe(0);
    expectSameFolder(join(cwd, 'queued'), join(cwd, 'single'));

    const planned = (JSON.parse(readFileSync(join(cwd, 'single', 'run.json'), 'utf8')) as { planned_episodes: number }).planned_episodes;
    expect(await recorded()).toBe(planned);
    expect(
      readFileSync(join(cwd, 'queued', 'trajectories.jsonl'), 'utf8')
        .trim()
        .split('\n'),
    ).toHaveLength(planned);
    expect(await count(pool, "SELECT key FROM jobs_done WHERE key LIKE 'lab:%'")).toBe(planned);
    // Each cut episode was recorded by a later attempt than the one the kill cut short.
    const attempts = new Map(
      (
        await pool.query<{ key: string; attempt: number }>("SELECT 'lab:' || run_id || ':' || key AS key, attempt FROM lab_episodes")
      ).rows.map((r) => [r.key, r.attempt]),
    );
    for (const cut of interrupted) expect(attempts.get(cut.key), cut.key).toBeGreaterThan(cut.attempts);
    last.child.kill('SIGTERM');
    expect(await last.exited).toBe(0);
  }, 300_000);

  it('enqueueing a run again (its eval killed and started again) adds no job twice', async () => {
    const { url, pool } = await database();
    const cwd = fresh();
    const args = [...run, '--styles', 'neutral,verbose', '--trials', '1', '--queue', url, '--out', join(cwd, 'queued')];
    const first = start(args, cwd);
    await until(async () => expect(await count(pool, 'SELECT 1 FROM graphile_worker.jobs')).toBe(50));
    await first.kill();
    const again = start(args, cwd);
    await until(() => expect(again.stderr()).toMatch(/episodes: 50 to run/));
    await worker(url, cwd);
    expect(await again.exited, again.stderr()).toBe(0);
    expect(await count(pool, 'SELECT key FROM lab_episodes')).toBe(50);
    expect(await count(pool, "SELECT key FROM jobs_done WHERE key LIKE 'lab:%'")).toBe(50);
    expect(await count(pool, 'SELECT run_id FROM lab_runs')).toBe(1);
  }, 180_000);

  it('a second job of an episode already recorded (two evals of one run racing) completes and records nothing: the first record stays', async () => {
    const { url, pool } = await database();
    const cwd = fresh();
    await worker(url, cwd);
    const args = [...run, '--styles', 'neutral', '--trials', '1', '--queue', url, '--out', join(cwd, 'queued')];
    const evalRun = start(args, cwd);
    expect(await evalRun.exited, evalRun.stderr()).toBe(0);
    const before = await pool.query<{ run_id: string; key: string; worker: string; recorded_at: string }>(
      'SELECT run_id, key, worker, recorded_at FROM lab_episodes ORDER BY key LIMIT 1',
    );
    const first = before.rows[0]!;
    // What the other eval's enqueue adds once this episode's first job is gone: a job of the same key.
    const jobKey = `lab:${first.run_id}:${first.key}`;
    await pool.query(
      `SELECT graphile_worker.add_job('lab.episode', json_build_object('v', 1, 'key', $1::text, 'data', json_build_object('run', $2::text, 'key', $3::text)),
              job_key => $1::text, job_key_mode => 'unsafe_dedupe')`,
      [jobKey, first.run_id, first.key],
    );
    await until(async () => expect(await count(pool, 'SELECT 1 FROM jobs_done WHERE key = $1', [jobKey])).toBe(2));
    await until(async () => expect(await count(pool, 'SELECT 1 FROM graphile_worker.jobs')).toBe(0));
    const after = await pool.query('SELECT run_id, key, worker, recorded_at FROM lab_episodes WHERE run_id = $1 AND key = $2', [
      first.run_id,
      first.key,
    ]);
    expect(after.rows).toEqual([first]);
  }, 180_000);

  it('a bad --queue URL or an unreachable database: a one-line error, a non-zero exit, no folder', async () => {
    const cwd = fresh();
    const closedPort = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const unreachable = `postgres://baton:s3cret@127.0.0.1:${closedPort}/baton`;
    const cases: { args: string[]; status: number; message: RegExp }[] = [
      { args: [...run, '--queue', 'http://localhost/x', '--out', join(cwd, 'a')], status: 2, message: /--queue must be a PostgreSQL URL/ },
      { args: [...run, '--queue', 'not a url', '--out', join(cwd, 'b')], status: 2, message: /is not a URL/ },
      {
        args: [...run, '--queue', unreachable, '--out', join(cwd, 'c')],
        status: 1,
        message: /cannot open the queue database .*ECONNREFUSED/,
      },
      { args: ['worker', '--queue', 'mysql://localhost/x'], status: 2, message: /--queue must be a PostgreSQL URL/ },
      { args: ['worker', '--queue', unreachable], status: 1, message: /cannot open the queue database .*ECONNREFUSED/ },
    ];
    for (const c of cases) {
      const result = spawnSync(process.execPath, [BIN, ...c.args], { cwd, env: env(cwd), encoding: 'utf8' });
      expect(result.status, result.stderr).toBe(c.status);
      expect(result.stderr).toMatch(c.message);
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(result.stderr).not.toMatch(/s3cret/);
    }
    for (const dir of ['a', 'b', 'c']) expect(existsSync(join(cwd, dir))).toBe(false);
  }, 120_000);
});
