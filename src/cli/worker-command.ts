/**
 * `baton worker --queue postgres://…`: runs lab episodes from the queue until SIGINT or SIGTERM,
 * which drain it (no new episode; the running ones are recorded) before it exits.
 */
import { InvalidArgumentError } from 'commander';
import { parseQueueUrl, QueueError, redactUrl } from '../lab/eval/queue-database.js';
import { startLabWorker } from '../lab/eval/queue-worker.js';
import type { JobEvent } from '../runtime/jobs/index.js';

export interface WorkerCommandOptions {
  queue: string;
  concurrency: number;
  leaseMs: number;
  tau2Dir?: string;
}

/** A queue event as one stderr line (graphile-worker's own logging is off). */
function eventLine(event: JobEvent): string {
  switch (event.type) {
    case 'job.retrying':
      return `episode ${event.job.key} failed (attempt ${event.job.attempt}); retried at ${event.nextRunAt.toISOString()}: ${event.error}`;
    case 'job.failed':
      return `episode ${event.job.key} failed for good after ${event.job.attempt} attempts: ${event.error}`;
    case 'job.lease_lost':
      return `episode ${event.job.key} was taken over by another worker (this one was silent past its lease); its run here is dropped`;
    case 'queue.error':
      return `queue: ${event.error}`;
  }
}

export async function runWorkerCommand(opts: WorkerCommandOptions, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  try {
    parseQueueUrl(opts.queue);
  } catch (error) {
    if (error instanceof QueueError) throw new InvalidArgumentError(error.message);
    throw error;
  }
  const tau2Dir = opts.tau2Dir ?? env['BATON_TAU2_DIR'];
  const agentApiKey = env['BATON_LLM_API_KEY'];
  const userApiKey = env['BATON_USER_API_KEY'] ?? agentApiKey;
  const worker = await startLabWorker({
    url: opts.queue,
    concurrency: opts.concurrency,
    leaseMs: opts.leaseMs,
    ...(tau2Dir ? { tau2Dir } : {}),
    ...(agentApiKey ? { agentApiKey } : {}),
    ...(userApiKey ? { userApiKey } : {}),
    onEvent: (event) => process.stderr.write(`baton worker: ${eventLine(event)}\n`),
  });
  process.stderr.write(`baton worker: ${worker.worker} running up to ${opts.concurrency} episodes at once from ${redactUrl(opts.queue)}\n`);
  await new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.removeListener('SIGINT', stop);
      process.removeListener('SIGTERM', stop);
      process.stderr.write(`baton worker: ${signal}: finishing the running episodes\n`);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await worker.stop();
  process.stderr.write('baton worker: stopped\n');
}
