/**
 * The embedded default run, the README's main job: billing's hand-off variants (dev split, so the
 * test ledger is never touched), the offline reference agents (and `llm` when
 * `BATON_LLM_BASE_URL` and `BATON_LLM_MODEL` are set), scripted customers in all six styles, two
 * trials; then the report. No network, no key.
 */
import { join, resolve } from 'node:path';
import type { AgentName } from '../lab/agents/index.js';
import { evalProgress } from '../lab/eval/progress.js';
import { runEval } from '../lab/eval/run-eval.js';
import { metricsTable, writeRunMetrics } from '../lab/eval/run-metrics.js';
import { STYLES } from '../lab/user.js';
import { evalConfig, infrastructureWarning } from './eval-command.js';
import { restoringOnInterrupt } from './interrupt.js';

export interface DefaultRunOptions {
  out: string;
  trials: number;
  concurrency: number;
}

/**
 * Runs (or continues) each reference agent's default run and prints its table. A folder holding a
 * run of other code or another configuration is started again, and said to be; `infrastructureFailed`
 * counts the episodes an outage failed (the `llm` agent's endpoint), each run warned about.
 */
export async function runDefault(
  options: DefaultRunOptions,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ runDirs: string[]; infrastructureFailed: number }> {
  const agents: AgentName[] = ['rule', 'always-transfer', 'never-transfer'];
  if (env['BATON_LLM_BASE_URL'] && env['BATON_LLM_MODEL']) agents.push('llm');
  const runDirs: string[] = [];
  let infrastructureFailed = 0;
  for (const agent of agents) {
    const out = resolve(join(options.out, agent));
    const config = evalConfig(
      {
        domain: 'billing',
        tasks: 'handoff',
        split: 'dev',
        agent,
        user: 'scripted',
        styles: STYLES.join(','),
        trials: options.trials,
        concurrency: options.concurrency,
        seed: 1,
        store: 'memory',
        out,
      },
      env,
    );
    config.replaceDifferentRun = true;
    process.stderr.write(`\n${agent}: billing hand-off variants, dev split, six styles, ${options.trials} trials\n`);
    const progress = evalProgress(process.stderr, agent);
    const result = await restoringOnInterrupt(progress, () => runEval(config, progress));
    if (result.replaced) process.stderr.write(`${agent}: ${out} held an earlier run, started again:\n  ${result.replaced.join('\n  ')}\n`);
    const metrics = await writeRunMetrics(result, config);
    process.stdout.write(`\n${metricsTable(metrics)}\n`);
    const warning = infrastructureWarning(metrics.infrastructure, result.records);
    if (warning !== '') process.stderr.write(`${warning}\n`);
    infrastructureFailed += metrics.infrastructure?.failed ?? 0;
    runDirs.push(out);
  }
  return { runDirs, infrastructureFailed };
}
