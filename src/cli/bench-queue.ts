/**
 * `baton bench queue`: scripted episodes (the rule agent, scripted customers, billing) through
 * `baton eval --queue` with 1 and then 2 `baton worker` processes on one throwaway PostgreSQL,
 * and, as the same-run baseline, the same run in this one process without a queue. Each
 * measurement has a database of its own and follows an untimed warm-up run on the same workers
 * (JIT, domain load); the timed part is enqueue to the last record assembled. The speed-up is
 * 2 workers over 1; the folders are compared byte for byte with the one-process run. Beside each
 * time, the CPU each process spent per episode in it (the waiting eval, each worker, PostgreSQL's
 * processes), from /proc: on shared cores that, not the queue, is what bounds the speed-up.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runEval, type EvalConfig } from '../lab/eval/run-eval.js';
import { STYLES } from '../lab/user.js';
import { startThrowawayPostgres } from '../testing/throwaway-postgres.js';
import { cpuSecondsOf, treeCpuSeconds } from './cluster-gateways.js';

export interface QueueBenchOptions {
  /** Trials of billing's 150 dev-split hand-off episodes (all six styles × 25 variants). */
  trials: number;
  /** Episodes at once in each worker process. */
  concurrency: number;
  progress: (line: string) => void;
}

const BIN = fileURLToPath(new URL('../../bin/baton.js', import.meta.url));

/** Starts `n` worker processes and resolves once each says it is running. */
async function startWorkers(n: number, url: string, concurrency: number): Promise<ChildProcess[]> {
  return Promise.all(
    Array.from({ length: n }, () => {
      const child = spawn(process.execPath, [BIN, 'worker', '--queue', url, '--concurrency', String(concurrency)], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      return new Promise<ChildProcess>((resolve, reject) => {
        let text = '';
        child.stderr!.on('data', (d: Buffer) => {
          text += d.toString();
          if (/running up to/.test(text)) resolve(child);
        });
        child.once('exit', (code) => reject(new Error(`a benchmark worker exited (${code}) before it ran: ${text.trim()}`)));
      });
    }),
  );
}

async function stopWorkers(children: ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
}

export async function benchQueue(options: QueueBenchOptions) {
  const dir = mkdtempSync(join(tmpdir(), 'baton-bench-queue-'));
  const config = (out: string, trials: number, queue?: string): EvalConfig => ({
    domain: 'billing',
    tasks: 'handoff',
    split: 'dev',
    agent: 'rule',
    user: 'scripted',
    styles: [...STYLES],
    trials,
    concurrency: options.concurrency,
    seed: 1,
    store: { kind: 'memory' },
    out: join(dir, out),
    force: false,
    ...(queue ? { queue } : {}),
  });
  const server = await startThrowawayPostgres();
  const timed = async (cfg: EvalConfig, workers: readonly ChildProcess[] = []) => {
    const others = () => ({
      workers: workers.map((w) => cpuSecondsOf(w.pid!)),
      postgres: server.pid ? treeCpuSeconds(server.pid) : null,
    });
    // Read outside the timed part, and this process's own CPU inside the reads of the others.
    const before = others();
    const evalBefore = process.cpuUsage();
    const started = performance.now();
    const result = await runEval(cfg);
    const seconds = (performance.now() - started) / 1000;
    const evalUsage = process.cpuUsage(evalBefore);
    const after = others();
    const episodes = result.records.length;
    const perEpisode = (cpuSeconds: number) => (cpuSeconds * 1000) / episodes;
    return {
      seconds,
      episodes,
      cpu_ms_per_episode: {
        eval: perEpisode((evalUsage.user + evalUsage.system) / 1e6),
        workers: after.workers.map((c, i) => perEpisode(c - before.workers[i]!)),
        postgres: after.postgres !== null && before.postgres !== null ? perEpisode(after.postgres - before.postgres) : null,
      },
    };
  };
  try {
    options.progress('one process, no queue (baseline)');
    await runEval(config('warm-single', 1));
    const single = await timed(config('single', options.trials));
    const byWorkers: Record<string, Awaited<ReturnType<typeof timed>> & { episodes_per_s: number; identical_to_one_process: boolean }> = {};
    for (const n of [1, 2]) {
      const url = await server.createDatabase();
      options.progress(`${n} worker process${n === 1 ? '' : 'es'}`);
      const workers = await startWorkers(n, url, options.concurrency);
      try {
        await runEval(config(`warm-${n}`, 1, url));
        const run = await timed(config(`queued-${n}`, options.trials, url), workers);
        const same = readFileSync(join(dir, `queued-${n}`, 'trajectories.jsonl')).equals(
          readFileSync(join(dir, 'single', 'trajectories.jsonl')),
        );
        byWorkers[String(n)] = { ...run, episodes_per_s: run.episodes / run.seconds, identical_to_one_process: same };
      } finally {
        await stopWorkers(workers);
      }
    }
    const one = byWorkers['1']!;
    const two = byWorkers['2']!;
    return {
      bench: 'queue',
      episodes: single.episodes,
      concurrency_per_worker: options.concurrency,
      one_process: { ...single, episodes_per_s: single.episodes / single.seconds },
      workers: byWorkers,
      speedup_2_over_1: one.seconds / two.seconds,
      queue_overhead_1_worker: one.seconds / single.seconds,
    };
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
