import { join } from 'node:path';
import { InvalidArgumentError } from 'commander';
import type { DomainName } from '../domains/domain.js';
import type { AgentName } from '../lab/agents/index.js';
import { evalProgress } from '../lab/eval/progress.js';
import { restoringOnInterrupt } from './interrupt.js';
import type { InfrastructureCounts, InfrastructureFailure } from '../lab/metrics/infrastructure.js';
import type { EpisodeRecord } from '../lab/records.js';
import { parseQueueUrl, QueueError } from '../lab/eval/queue-database.js';
import { EvalConfigError, runEval, type EvalConfig, type ModelEndpoint } from '../lab/eval/run-eval.js';
import { STYLES, type Style } from '../lab/user.js';
import type { VariantSplit } from '../lab/variant.js';
import type { StoreConfig } from '../store/open-store.js';

/** `baton eval --drift`: the agent on the domain's drift pairs, success before and after (src/lab/eval/drift-eval.ts). */
async function runDriftCommand(opts: EvalCommandOptions): Promise<void> {
  if (opts.agent === 'llm')
    throw new InvalidArgumentError('--drift runs the offline reference agents so far; --agent llm is not supported with it');
  const { loadDomain } = await import('../domains/load-domain.js');
  const { referenceAgent } = await import('../lab/agents/index.js');
  const { runDriftEval, driftTable } = await import('../lab/eval/drift-eval.js');
  const { mkdirSync, writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const domain = await loadDomain(opts.domain, opts.tau2Dir ? { tau2Dir: opts.tau2Dir } : {});
  const result = await runDriftEval({
    domain,
    agent: opts.agent,
    policyFor: (task) => referenceAgent(opts.agent, domain, { task }),
    turn: opts.driftTurn ?? 2,
    seed: opts.seed,
  });
  mkdirSync(opts.out, { recursive: true });
  writeFileSync(join(opts.out, 'drift.json'), `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(opts.json ? `${JSON.stringify(result)}\n` : `${driftTable(result)}\n${opts.out}\n`);
}

export interface EvalCommandOptions {
  /** Run the drift pairs instead (`--drift`), with the drift at this customer turn. */
  drift?: boolean;
  driftTurn?: number;
  domain: DomainName;
  tasks: 'handoff' | 'main' | 'production';
  /** With `--tasks production`: the production task set's folder. */
  taskSet?: string;
  split: VariantSplit;
  agent: AgentName;
  user: 'scripted' | 'llm';
  styles: string;
  trials: number;
  concurrency: number;
  workers?: number;
  /** A PostgreSQL URL: enqueue the episodes there for `baton worker` processes, and wait for their records. */
  queue?: string;
  seed: number;
  store: 'memory' | 'sqlite' | 'postgres';
  pgUrl?: string;
  out: string;
  tau2Dir?: string;
  force?: boolean;
  /** Resume a folder whose run differs (code, configuration, data); recorded in `run.json`. */
  forceResume?: boolean;
  /** Infrastructure-failed episodes accepted before the exit code says the run failed (default 0). */
  allowInfraFailures?: number;
  /** Only the episodes of this task (a task id, or a hand-off variant's id). */
  task?: string;
  /** Only the first N planned episodes. */
  limit?: number;
  json?: boolean;
}

/** The exit code of a run with more infrastructure-failed episodes than `--allow-infra-failures`. */
export const EXIT_INFRASTRUCTURE = 3;

/** `all`, or a comma-separated list of style names (hyphens allowed for underscores). */
export function parseStyles(list: string): Style[] {
  if (list.trim() === 'all') return [...STYLES];
  const names = list.split(',').map((s) => s.trim().replace(/-/g, '_'));
  const unknown = names.filter((n) => !(STYLES as readonly string[]).includes(n));
  if (unknown.length > 0)
    throw new InvalidArgumentError(`--styles: unknown ${unknown.join(', ')}; the styles are all, or ${STYLES.join(', ')}.`);
  return names as Style[];
}

/** A model endpoint from `<prefix>_BASE_URL`, `<prefix>_MODEL` and `<prefix>_API_KEY`, when both of the first two are set. */
export function endpoint(prefix: string, env: NodeJS.ProcessEnv): ModelEndpoint | undefined {
  const baseURL = env[`${prefix}_BASE_URL`];
  const model = env[`${prefix}_MODEL`];
  if (!baseURL || !model) return undefined;
  const apiKey = env[`${prefix}_API_KEY`];
  return { baseURL, model, ...(apiKey ? { apiKey } : {}) };
}

/** The evaluation config from the command line and the environment (model endpoints). */
export function evalConfig(opts: EvalCommandOptions, env: NodeJS.ProcessEnv = process.env): EvalConfig {
  let store: StoreConfig = { kind: 'memory' };
  if (opts.store === 'sqlite') store = { kind: 'sqlite', path: join(opts.out, 'conversations.sqlite') };
  if (opts.store === 'postgres') {
    const url = opts.pgUrl ?? env['BATON_PG_URL'];
    if (!url) throw new InvalidArgumentError('--store postgres needs --pg-url or BATON_PG_URL.');
    store = { kind: 'postgres', url };
  }
  if (opts.queue !== undefined) {
    try {
      parseQueueUrl(opts.queue);
    } catch (error) {
      if (error instanceof QueueError) throw new InvalidArgumentError(error.message);
      throw error;
    }
  }
  const agentModel = endpoint('BATON_LLM', env);
  const userModel = endpoint('BATON_USER', env) ?? agentModel;
  return {
    domain: opts.domain,
    tasks: opts.tasks,
    ...(opts.tasks === 'production' && opts.taskSet !== undefined ? { taskSet: opts.taskSet } : {}),
    split: opts.split,
    agent: opts.agent,
    user: opts.user,
    styles: parseStyles(opts.styles),
    trials: opts.trials,
    concurrency: opts.concurrency,
    ...(opts.workers !== undefined && opts.workers > 1 ? { workers: opts.workers } : {}),
    ...(opts.queue !== undefined ? { queue: opts.queue } : {}),
    seed: opts.seed,
    store,
    out: opts.out,
    force: opts.force === true,
    ...(opts.forceResume ? { forceResume: true } : {}),
    ...(opts.task !== undefined ? { task: opts.task } : {}),
    ...(opts.limit !== undefined ? { limit: opts.limit } : {}),
    ...(opts.tau2Dir ? { tau2Dir: opts.tau2Dir } : {}),
    ...(agentModel ? { agentModel } : {}),
    ...(userModel ? { userModel } : {}),
  };
}

const REASON_TEXT: Record<InfrastructureFailure, string> = {
  provider_down: 'model provider down',
  provider_unreachable: "decided without the model: the agent's endpoint answered no call of the run",
  user_error: 'simulated customer failed',
};

/**
 * What a run whose episodes the infrastructure failed must say, on stderr: how many, why, where
 * to look, and what to do. Empty when there are none.
 */
export function infrastructureWarning(infra: InfrastructureCounts | undefined, records: readonly EpisodeRecord[]): string {
  if (!infra || infra.failed === 0) return '';
  const reasons = Object.entries(infra.by_reason)
    .map(([reason, n]) => `${n} ${REASON_TEXT[reason as InfrastructureFailure]}`)
    .join(', ');
  const first = records.find((r) => r.handoff?.reason === 'provider_down') ?? records.find((r) => r.key === infra.examples[0]);
  const evidence = first?.handoff?.evidence ? `\n  first: ${first.key}: ${first.handoff.evidence}` : '';
  return [
    `baton: WARNING: ${infra.failed} of ${infra.of} episodes failed for infrastructure reasons (${reasons}).${evidence}`,
    '  They are not agent results: they are marked infrastructure_failure in trajectories.jsonl and left out of every metric.',
    '  Check the endpoints (BATON_LLM_BASE_URL, BATON_USER_BASE_URL); the same command again runs those episodes again.',
  ].join('\n');
}

export async function runEvalCommand(opts: EvalCommandOptions): Promise<void> {
  if (opts.drift) return runDriftCommand(opts);
  const config = evalConfig(opts);
  const progress = evalProgress(process.stderr);
  try {
    const result = await restoringOnInterrupt(progress, () => runEval(config, progress));
    const { writeRunMetrics, metricsTable } = await import('../lab/eval/run-metrics.js');
    const metrics = await writeRunMetrics(result, config);
    if (opts.json) process.stdout.write(`${JSON.stringify(metrics)}\n`);
    else process.stdout.write(`${metricsTable(metrics)}\n${result.runDir}\n`);
    const warning = infrastructureWarning(metrics.infrastructure, result.records);
    if (warning !== '') {
      process.stderr.write(`${warning}\n`);
      const allowed = opts.allowInfraFailures ?? 0;
      if ((metrics.infrastructure?.failed ?? 0) > allowed) {
        process.stderr.write(
          `baton: more than ${allowed} infrastructure-failed episodes (--allow-infra-failures): exit ${EXIT_INFRASTRUCTURE}.\n`,
        );
        process.exitCode = EXIT_INFRASTRUCTURE;
      }
    }
  } catch (error) {
    if (error instanceof EvalConfigError) throw new InvalidArgumentError(error.message);
    throw error;
  }
}
