/**
 * `baton worker --queue`: runs the episodes of any run enqueued by `baton eval --queue`, each
 * through the same episode runner as `baton eval` in one process (the gateway, the runtime
 * service, the harness), and commits its record in the transaction that completes its job: a
 * record is written exactly once, and a worker killed mid-episode leaves the job to be run again
 * from its start by another (or the same, restarted) worker once its lease runs out.
 */
import { hostname } from 'node:os';
import { loadDomain } from '../../domains/load-domain.js';
import type { JobEvent } from '../../runtime/jobs/index.js';
import { generateVariants, HANDOFF_VARIANT_SEED } from '../variants/index.js';
import { createEpisodeRunner, type EpisodeRunner } from './episode-runner.js';
import {
  configOfSpec,
  EPISODE_JOB,
  episodePayloadSchema,
  openQueueDatabase,
  queueRunSpecSchema,
  RECORDED_CHANNEL,
  type QueueRunSpec,
} from './queue-database.js';
import { codeChecksum, domainChecksum, taskSetChecksum } from './run-identity.js';
import { planEpisodes, type Planned } from './run-eval.js';

export interface LabWorkerOptions {
  url: string;
  /** Episodes at once in this process. */
  concurrency: number;
  /** How long a silent worker's jobs stay locked before another takes them (ms, default 30 000). */
  leaseMs?: number;
  pollIntervalMs?: number;
  tau2Dir?: string;
  /** API keys of the model endpoints a run names (a run's spec holds none). */
  agentApiKey?: string;
  userApiKey?: string;
  onEvent?: (event: JobEvent) => void;
}

export interface LabWorker {
  /** Who writes the records: host and process. */
  readonly worker: string;
  /** Takes no new episode; resolves once the running ones are recorded (or given back). */
  stop(): Promise<void>;
}

/** A run's spec does not match this worker's code or data: its records would be of another run. */
export class RunMismatchError extends Error {
  override readonly name = 'RunMismatchError';
}

interface PreparedRun {
  byKey: Map<string, Planned>;
  runner: EpisodeRunner;
}

/** Starts running episodes; the queue's database is migrated first (and a bad URL or an unreachable server said at once). */
export async function startLabWorker(options: LabWorkerOptions): Promise<LabWorker> {
  const db = await openQueueDatabase(options.url, {
    poolSize: options.concurrency + 4,
    concurrency: options.concurrency,
    ...(options.leaseMs !== undefined ? { leaseMs: options.leaseMs } : {}),
    ...(options.pollIntervalMs !== undefined ? { pollIntervalMs: options.pollIntervalMs } : {}),
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
  });
  const pool = db.store.pool;
  const worker = `${hostname()}/${process.pid}`;
  const code = codeChecksum();
  const runs = new Map<string, Promise<PreparedRun>>();

  const prepare = async (runId: string): Promise<PreparedRun> => {
    const { rows } = await pool.query<{ spec: string }>('SELECT spec FROM lab_runs WHERE run_id = $1', [runId]);
    if (!rows[0]) throw new Error(`no run ${runId} in the queue database`);
    const spec: QueueRunSpec = queueRunSpecSchema.parse(JSON.parse(rows[0].spec));
    if (spec.code_checksum !== code) {
      throw new RunMismatchError(
        `run ${runId} was enqueued by other code than this worker runs (another build or checkout): refusing its episodes`,
      );
    }
    const config = configOfSpec(spec, {
      concurrency: options.concurrency,
      ...(options.tau2Dir ? { tau2Dir: options.tau2Dir } : {}),
      ...(options.agentApiKey ? { agentApiKey: options.agentApiKey } : {}),
      ...(options.userApiKey ? { userApiKey: options.userApiKey } : {}),
    });
    const domain = await loadDomain(config.domain, config.tau2Dir ? { tau2Dir: config.tau2Dir } : {});
    if (domainChecksum(domain) !== spec.domain_checksum) {
      throw new RunMismatchError(`run ${runId}: this worker's ${config.domain} data differs from the data the run was enqueued with`);
    }
    const variants = generateVariants([domain], { seed: HANDOFF_VARIANT_SEED });
    const plan = planEpisodes(domain, variants, config);
    if (taskSetChecksum(plan.map((p) => p.key)) !== spec.task_set_checksum) {
      throw new RunMismatchError(`run ${runId}: this worker plans other episodes than the run was enqueued with`);
    }
    return { byKey: new Map(plan.map((p) => [p.key, p])), runner: await createEpisodeRunner(config, domain, variants) };
  };
  const preparedRun = (runId: string): Promise<PreparedRun> => {
    let run = runs.get(runId);
    if (!run) {
      run = prepare(runId);
      // A run that could not be prepared is tried again with the job's next attempt.
      run.catch(() => runs.delete(runId));
      runs.set(runId, run);
    }
    return run;
  };

  await db.jobs.start({
    [EPISODE_JOB]: async (job, ctx) => {
      const { run: runId, key } = episodePayloadSchema.parse(job.payload);
      // No look for the episode's record first: a job whose record committed is skipped by the
      // queue (its done record), and the only other way to a second job of a recorded episode —
      // two evals of one run racing a commit — costs an episode that records nothing (the key
      // below), not a query on every episode (ADR 0037).
      const run = await preparedRun(runId);
      const planned = run.byKey.get(key);
      if (!planned) throw new Error(`run ${runId} plans no episode ${key}`);
      const { wall_ms: wallMs, ...record } = await run.runner.run(planned);
      // One statement: the record, the job's done record and the notification commit together.
      await ctx.completeWithStatement({
        text: `INSERT INTO lab_episodes (run_id, key, record, attempt, worker, wall_ms, recorded_at)
               VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (run_id, key) DO NOTHING
               RETURNING pg_notify($8, run_id)`,
        values: [runId, key, JSON.stringify(record), job.attempt, worker, wallMs ?? 0, new Date().toISOString(), RECORDED_CHANNEL],
      });
    },
  });

  return {
    worker,
    stop: async () => {
      await db.jobs.stop();
      const prepared = await Promise.allSettled(runs.values());
      for (const p of prepared) if (p.status === 'fulfilled') await p.value.runner.close();
      await db.close();
    },
  };
}
