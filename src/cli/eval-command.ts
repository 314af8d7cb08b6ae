import { join } from 'node:path';
import { InvalidArgumentError } from 'commander';
import type { DomainName } from '../domains/domain.js';
import type { AgentName } from '../lab/agents/index.js';
import { evalProgress } from '../lab/eval/progress.js';
import { EvalConfigError, runEval, type EvalConfig, type ModelEndpoint } from '../lab/eval/run-eval.js';
import { STYLES, type Style } from '../lab/user.js';
import type { VariantSplit } from '../lab/variant.js';
import type { StoreConfig } from '../store/open-store.js';

export interface EvalCommandOptions {
  domain: DomainName;
  tasks: 'handoff' | 'main';
  split: VariantSplit;
  agent: AgentName;
  user: 'scripted' | 'llm';
  styles: string;
  trials: number;
  concurrency: number;
  workers?: number;
  seed: number;
  store: 'memory' | 'sqlite' | 'postgres';
  pgUrl?: string;
  out: string;
  tau2Dir?: string;
  force?: boolean;
  json?: boolean;
}

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
  const agentModel = endpoint('BATON_LLM', env);
  const userModel = endpoint('BATON_USER', env) ?? agentModel;
  return {
    domain: opts.domain,
    tasks: opts.tasks,
    split: opts.split,
    agent: opts.agent,
    user: opts.user,
    styles: parseStyles(opts.styles),
    trials: opts.trials,
    concurrency: opts.concurrency,
    ...(opts.workers !== undefined && opts.workers > 1 ? { workers: opts.workers } : {}),
    seed: opts.seed,
    store,
    out: opts.out,
    force: opts.force === true,
    ...(opts.tau2Dir ? { tau2Dir: opts.tau2Dir } : {}),
    ...(agentModel ? { agentModel } : {}),
    ...(userModel ? { userModel } : {}),
  };
}

export async function runEvalCommand(opts: EvalCommandOptions): Promise<void> {
  const config = evalConfig(opts);
  try {
    const result = await runEval(config, evalProgress(process.stderr));
    const { writeRunMetrics } = await import('../lab/eval/run-metrics.js');
    const metrics = await writeRunMetrics(result, config);
    if (opts.json) process.stdout.write(`${JSON.stringify(metrics)}\n`);
    else {
      const { metricsTable } = await import('../lab/eval/run-metrics.js');
      process.stdout.write(`${metricsTable(metrics)}\n${result.runDir}\n`);
    }
  } catch (error) {
    if (error instanceof EvalConfigError) throw new InvalidArgumentError(error.message);
    throw error;
  }
}
