/**
 * `baton bench replay`: the time to replay and hash every task of tau2-bench's airline and retail
 * domains (164 tasks, 692 gold actions), from start-up to the last hash, against a baseline run
 * in the same process that works the way tau2-bench's environment does: a fresh database parsed
 * for every task and the full canonical dump serialised for every hash. The baseline runs on a
 * sample of tasks (it is slow) and its per-task time is scaled to the whole set.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { callDomainTool } from '../domains/domain-tool.js';
import type { Domain } from '../domains/domain.js';
import { replayTask } from '../domains/replay.js';
import { AIRLINE_TOOLSET, type AirlineDb } from '../domains/tau2/airline/index.js';
import { canonicalDbHash, withModelDefaults } from '../domains/tau2/canonical-db.js';
import { loadRetailDb, RETAIL_TOOLSET } from '../domains/tau2/retail/index.js';
import { resolveTau2Data, type Tau2Data } from '../domains/tau2/tau2-data.js';
import { loadTau2Domain } from '../domains/tau2/tau2-domain.js';

export interface ReplayBenchOptions {
  tau2Dir?: string;
  /** Tasks per domain the baseline replays (spread over the task list). */
  baselineTasks: number;
  progress: (line: string) => void;
}

/** tau2-bench's own Python tools on this kind of machine, for the same work (issue 4). */
const TAU2_REFERENCE_SECONDS = 41;

interface GoldLine {
  task_id: string;
  db_final_sha256: string;
  steps: { output: string; error: boolean }[];
}

/** The gold replay files sit beside the data in the shared folder (not part of upstream's files). */
function goldReplays(data: Tau2Data, domain: string): Map<string, GoldLine> | null {
  try {
    const text = readFileSync(join(data.dir, domain, 'gold_replay_train.jsonl'), 'utf8');
    const lines = text.split('\n').filter((l) => l.trim() !== '');
    return new Map(lines.map((l) => JSON.parse(l) as GoldLine).map((g) => [g.task_id, g]));
  } catch {
    return null;
  }
}

/** The baseline: what a fresh, fully parsed database per task and a full dump per hash cost. */
function baselineTask(
  data: Tau2Data,
  domain: 'airline' | 'retail',
  actions: readonly { name: string; arguments: Record<string, unknown> }[],
) {
  if (domain === 'airline') {
    const db = withModelDefaults('airline', JSON.parse(data.read('airline/db.json')) as Record<string, unknown>);
    for (const a of actions) callDomainTool(AIRLINE_TOOLSET, db as unknown as AirlineDb, a.name, a.arguments);
    return canonicalDbHash('airline', db);
  }
  const db = loadRetailDb(data.read('retail/db.json'));
  for (const a of actions) callDomainTool(RETAIL_TOOLSET, db, a.name, a.arguments);
  return canonicalDbHash('retail', db as unknown as Record<string, unknown>);
}

export async function benchReplay(options: ReplayBenchOptions) {
  const started = performance.now();
  const data = await resolveTau2Data(options.tau2Dir ? { dir: options.tau2Dir } : {});
  const domains: Domain[] = [loadTau2Domain(data, 'airline'), loadTau2Domain(data, 'retail')];
  let tasks = 0;
  let actions = 0;
  let toolErrors = 0;
  const hashes = new Map<string, string>();
  for (const domain of domains) {
    for (const task of domain.tasks) {
      const result = replayTask(domain, task);
      tasks += 1;
      actions += result.steps.length;
      toolErrors += result.steps.filter((s) => s.error).length;
      hashes.set(`${domain.name}/${task.id}`, result.db_final_sha256);
    }
  }
  const batonMs = performance.now() - started;
  const sinceProcessStartMs = performance.now();
  options.progress(`baton: ${tasks} tasks, ${actions} actions in ${(batonMs / 1000).toFixed(2)} s`);

  // Parity, where the gold replay files are at hand: outputs are checked by the tests; here the hashes.
  let checked = 0;
  let matched = 0;
  for (const domain of domains) {
    for (const [id, gold] of goldReplays(data, domain.name) ?? []) {
      checked += 1;
      if (hashes.get(`${domain.name}/${id}`) === gold.db_final_sha256) matched += 1;
    }
  }

  let baselineMs = 0;
  let baselineCount = 0;
  let baselineMismatches = 0;
  for (const domain of domains) {
    const name = domain.name as 'airline' | 'retail';
    const step = Math.max(1, Math.floor(domain.tasks.length / options.baselineTasks));
    const sample = domain.tasks.filter((_, i) => i % step === 0).slice(0, options.baselineTasks);
    for (const task of sample) {
      const t0 = performance.now();
      const hash = baselineTask(data, name, task.actions ?? []);
      baselineMs += performance.now() - t0;
      baselineCount += 1;
      if (hash !== hashes.get(`${name}/${task.id}`)) baselineMismatches += 1;
      options.progress(`baseline: ${baselineCount}/${options.baselineTasks * domains.length} tasks`);
    }
  }
  const baselinePerTaskMs = baselineMs / baselineCount;
  const baselineEstimateMs = baselinePerTaskMs * tasks;
  const round = (x: number, digits = 1) => Number(x.toFixed(digits));
  return {
    benchmark: 'replay',
    tau2_commit: data.commit,
    task_version: 'current',
    tasks,
    gold_actions: actions,
    tool_errors: toolErrors,
    baton_ms: round(batonMs),
    since_process_start_ms: round(sinceProcessStartMs),
    baseline: {
      what: 'same run: a fresh db.json parse per task and a full canonical dump per hash',
      tasks_sampled: baselineCount,
      per_task_ms: round(baselinePerTaskMs),
      estimated_ms: round(baselineEstimateMs),
      hash_mismatches: baselineMismatches,
    },
    ratio: round(batonMs / baselineEstimateMs, 4),
    tau2_reference_s: TAU2_REFERENCE_SECONDS,
    speedup_vs_tau2_reference: round((TAU2_REFERENCE_SECONDS * 1000) / sinceProcessStartMs),
    goal: 'at least 20x faster than tau2-bench (41 s): since_process_start_ms <= 2050',
    parity: { train_tasks_checked: checked, final_hashes_matched: matched },
  };
}
