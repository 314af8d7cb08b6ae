/**
 * The database of `baton eval --queue` and `baton worker`: a PostgreSQL server that holds the
 * job queue (graphile-worker), the runs (`lab_runs`) and the episodes' records (`lab_episodes`,
 * migration 6). What a run's workers need to know of it, and what neither side may store (no API
 * key, no local path), is here. See docs/lab.md and ADR 0024.
 */
import { z } from 'zod';
import { PostgresJobQueue, type JobEvent } from '../../runtime/jobs/index.js';
import { PostgresStore } from '../../store/postgres-store.js';
import type { AgentName } from '../agents/index.js';
import { STYLES } from '../user.js';
import type { EvalConfig } from './run-eval.js';

/** The job that runs one episode of a run. */
export const EPISODE_JOB = 'lab.episode';
/** Runs of one episode before its job is kept as failed (a killed worker's run counts as one). */
export const EPISODE_MAX_ATTEMPTS = 10;
/** NOTIFY channel: a record of the run named by the payload was committed. */
export const RECORDED_CHANNEL = 'baton_lab_episodes';

/** The job's key: one job per episode of a run, whoever enqueues it and however often. */
export const episodeJobKey = (runId: string, key: string) => `lab:${runId}:${key}`;

export const episodePayloadSchema = z.object({ run: z.string().min(1), key: z.string().min(1) });

const endpointSchema = z.object({ baseURL: z.string(), model: z.string() });

/** What a worker reads of a run (`lab_runs.spec`): the configuration that plans and runs its episodes, and what the run's code and data were. */
export const queueRunSpecSchema = z.object({
  version: z.literal(1),
  config: z.object({
    domain: z.enum(['billing', 'airline', 'retail']),
    tasks: z.enum(['handoff', 'main']),
    split: z.enum(['train', 'dev', 'test']),
    agent: z.string(),
    user: z.enum(['scripted', 'llm']),
    styles: z.array(z.enum(STYLES)),
    trials: z.number().int().positive(),
    seed: z.number().int(),
    task: z.string().optional(),
    limit: z.number().int().positive().optional(),
    agentModel: endpointSchema.optional(),
    userModel: endpointSchema.optional(),
  }),
  code_checksum: z.string(),
  domain_checksum: z.string(),
  task_set_checksum: z.string(),
});
export type QueueRunSpec = z.infer<typeof queueRunSpecSchema>;

/** The spec of a run as its workers read it: never an API key (each worker has its own), never a local path. */
export function queueRunSpec(
  config: EvalConfig,
  checksums: Pick<QueueRunSpec, 'code_checksum' | 'domain_checksum' | 'task_set_checksum'>,
): QueueRunSpec {
  // validateEvalConfig refuses it first: a worker elsewhere cannot read this machine's task set.
  if (config.tasks === 'production') throw new Error('production tasks run in the process that reads their task set, not on the queue');
  const endpoint = (e: EvalConfig['agentModel']) => (e ? { baseURL: e.baseURL, model: e.model } : undefined);
  const agentModel = config.agent === 'llm' ? endpoint(config.agentModel) : undefined;
  const userModel = config.user === 'llm' ? endpoint(config.userModel) : undefined;
  return {
    version: 1,
    config: {
      domain: config.domain,
      tasks: config.tasks,
      split: config.split,
      agent: config.agent,
      user: config.user,
      styles: [...config.styles],
      trials: config.trials,
      seed: config.seed,
      ...(config.task !== undefined ? { task: config.task } : {}),
      ...(config.limit !== undefined ? { limit: config.limit } : {}),
      ...(agentModel ? { agentModel } : {}),
      ...(userModel ? { userModel } : {}),
    },
    ...checksums,
  };
}

/** The evaluation config a worker runs a spec's episodes with: its own concurrency, API keys and tau2-bench folder. */
export function configOfSpec(
  spec: QueueRunSpec,
  local: { concurrency: number; tau2Dir?: string; agentApiKey?: string; userApiKey?: string },
): EvalConfig {
  const { agentModel, userModel, agent, task, limit, ...rest } = spec.config;
  return {
    ...rest,
    ...(task !== undefined ? { task } : {}),
    ...(limit !== undefined ? { limit } : {}),
    agent: agent as AgentName,
    concurrency: local.concurrency,
    store: { kind: 'memory' },
    out: '',
    force: false,
    ...(local.tau2Dir ? { tau2Dir: local.tau2Dir } : {}),
    ...(agentModel ? { agentModel: { ...agentModel, ...(local.agentApiKey ? { apiKey: local.agentApiKey } : {}) } } : {}),
    ...(userModel ? { userModel: { ...userModel, ...(local.userApiKey ? { apiKey: local.userApiKey } : {}) } } : {}),
  };
}

/** A `--queue` that cannot be used: a bad URL, or a database that cannot be reached or opened. */
export class QueueError extends Error {
  override readonly name = 'QueueError';
}

/** Checks a `--queue` URL (a PostgreSQL connection string) before anything connects. */
export function parseQueueUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new QueueError(
      `--queue must be a PostgreSQL URL such as postgres://user:pass@host:5432/baton; "${redactUrl(url)}" is not a URL.`,
    );
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new QueueError(`--queue must be a PostgreSQL URL (postgres://…); got a ${parsed.protocol} URL.`);
  }
  if (parsed.hostname === '' && !parsed.searchParams.has('host')) throw new QueueError('--queue: the URL names no host.');
  return url;
}

/** A URL as it may be printed: without its password. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    // Not a URL: whatever sits between "//" and "@" may be credentials.
    return url.replace(/\/\/[^@/]*@/, '//***@');
  }
}

/** An error's text, including the several of a connection refused on every address of a host. */
function errorText(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return [...new Set(error.errors.map(errorText))].join('; ');
  if (error instanceof Error) return error.message || ((error as NodeJS.ErrnoException).code ?? error.name);
  return String(error);
}

/** The queue's database opened: migrated (the store's migrations, graphile-worker's schema), with the job queue on it. */
export interface QueueDatabase {
  store: PostgresStore;
  jobs: PostgresJobQueue;
  close(): Promise<void>;
}

/** Opens the queue's database, or says in one line why it cannot (never with the password). */
export async function openQueueDatabase(
  url: string,
  options: { poolSize: number; concurrency?: number; leaseMs?: number; pollIntervalMs?: number; onEvent?: (event: JobEvent) => void },
): Promise<QueueDatabase> {
  parseQueueUrl(url);
  let store: PostgresStore;
  try {
    store = await PostgresStore.open({ url, poolSize: options.poolSize });
  } catch (error) {
    throw new QueueError(`cannot open the queue database ${redactUrl(url)}: ${errorText(error)}`);
  }
  try {
    const jobs = await PostgresJobQueue.open({
      url,
      poolSize: options.poolSize,
      ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
      ...(options.leaseMs !== undefined ? { leaseMs: options.leaseMs } : {}),
      ...(options.pollIntervalMs !== undefined ? { pollIntervalMs: options.pollIntervalMs } : {}),
      ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    });
    return {
      store,
      jobs,
      close: async () => {
        await jobs.close();
        await store.close();
      },
    };
  } catch (error) {
    await store.close();
    throw new QueueError(`cannot open the job queue in ${redactUrl(url)}: ${errorText(error)}`);
  }
}
