/**
 * `baton eval --workers N`: episodes on worker threads. One Node thread keeps a few dozen
 * conversations in flight before its own CPU (HTTP client, harness, evaluator) becomes the limit;
 * more threads share the run's `concurrency` — and each endpoint's limit — among them.
 *
 * Each thread loads the domain and plans the run as the main thread does (both are deterministic),
 * then runs the episodes the main thread names by key, as many at once as its share. Records come
 * back as messages; the main thread alone writes `trajectories.jsonl` and reports progress, so a
 * run is recorded exactly as it is with one thread, and resumes the same way.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { loadDomain } from '../../domains/load-domain.js';
import type { EpisodeRecord } from '../records.js';
import { generateVariants, HANDOFF_VARIANT_SEED } from '../variants/index.js';
import { createEpisodeRunner, planEpisodes, type EvalConfig, type Planned } from './run-eval.js';

type ToWorker = { type: 'run'; key: string } | { type: 'stop' };
type FromWorker = { type: 'ready' } | { type: 'record'; record: EpisodeRecord } | { type: 'error'; message: string; stack?: string };

interface WorkerInput {
  role: 'baton-episodes';
  config: EvalConfig;
}

/** Shares `total` as evenly as possible among `parts` (the first ones get the remainder). */
export function shares(total: number, parts: number): number[] {
  return Array.from({ length: parts }, (_, i) => Math.floor(total / parts) + (i < total % parts ? 1 : 0));
}

/** Runs `todo` on `workers` threads, calling `finish` on this thread with each record as it comes. */
export function runInWorkers(
  config: EvalConfig,
  todo: readonly Planned[],
  workers: number,
  finish: (record: EpisodeRecord) => void,
): Promise<void> {
  const slots = shares(config.concurrency, Math.min(workers, config.concurrency));
  let next = 0;
  return new Promise((resolve, reject) => {
    const threads: Worker[] = [];
    let live = slots.length;
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      for (const thread of threads) void thread.terminate();
      reject(error instanceof Error ? error : new Error(String(error)));
    };
    for (const share of slots) {
      const input: WorkerInput = { role: 'baton-episodes', config: { ...config, concurrency: share, workers: 1 } };
      const thread = new Worker(new URL(import.meta.url), { workerData: input });
      threads.push(thread);
      let running = 0;
      let stopped = false;
      const feed = () => {
        while (!failed && running < share && next < todo.length) {
          thread.postMessage({ type: 'run', key: (todo[next++] as Planned).key } satisfies ToWorker);
          running++;
        }
        if (running === 0 && !stopped) {
          stopped = true;
          thread.postMessage({ type: 'stop' } satisfies ToWorker);
        }
      };
      thread.on('message', (message: FromWorker) => {
        if (failed) return;
        try {
          if (message.type === 'error') throw Object.assign(new Error(message.message), message.stack ? { stack: message.stack } : {});
          if (message.type === 'record') {
            running--;
            finish(message.record);
          }
          feed();
        } catch (error) {
          fail(error);
        }
      });
      thread.on('error', fail);
      thread.on('exit', (code) => {
        live--;
        if (code !== 0 || !stopped) fail(new Error(`an episode worker thread stopped before its episodes were done (exit code ${code})`));
        else if (live === 0 && !failed) resolve();
      });
    }
  });
}

async function serve(input: WorkerInput): Promise<void> {
  const port = parentPort;
  if (!port) return;
  const { config } = input;
  const domain = await loadDomain(config.domain, config.tau2Dir ? { tau2Dir: config.tau2Dir } : {});
  const variants = generateVariants([domain], { seed: HANDOFF_VARIANT_SEED });
  const byKey = new Map(planEpisodes(domain, variants, config).map((p) => [p.key, p]));
  const runner = await createEpisodeRunner(config, domain, variants);
  const send = (message: FromWorker) => port.postMessage(message);
  const failed = (error: unknown) =>
    send({
      type: 'error',
      message: error instanceof Error ? error.message : String(error),
      ...(error instanceof Error && error.stack ? { stack: error.stack } : {}),
    });
  port.on('message', (message: ToWorker) => {
    if (message.type === 'stop') {
      void runner.close().then(() => port.close(), failed);
      return;
    }
    const planned = byKey.get(message.key);
    if (!planned) return failed(new Error(`no episode ${message.key} in this run's plan`));
    runner.run(planned).then((record) => send({ type: 'record', record }), failed);
  });
  send({ type: 'ready' });
}

if (!isMainThread && (workerData as Partial<WorkerInput> | null)?.role === 'baton-episodes') {
  await serve(workerData as WorkerInput).catch((error: unknown) => {
    parentPort?.postMessage({ type: 'error', message: error instanceof Error ? error.message : String(error) } satisfies FromWorker);
  });
}
