import { join } from 'node:path';
import type { AgentName } from '../../src/lab/agents/index.js';
import { runEval, type EvalConfig } from '../../src/lab/eval/run-eval.js';
import { writeRunMetrics } from '../../src/lab/eval/run-metrics.js';

/** A small real run (billing dev variants, two styles, one trial) in `root/<agent>`, with its metrics; returns its folder. */
export async function makeRun(root: string, agent: AgentName): Promise<string> {
  const config: EvalConfig = {
    domain: 'billing',
    tasks: 'handoff',
    split: 'dev',
    agent,
    user: 'scripted',
    styles: ['neutral', 'terse'],
    trials: 1,
    concurrency: 4,
    seed: 3,
    store: { kind: 'memory' },
    out: join(root, agent),
    force: false,
  };
  const result = await runEval(config);
  await writeRunMetrics(result, config);
  return result.runDir;
}
