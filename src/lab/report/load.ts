/**
 * What a report reads from a run folder: `run.json`, `trajectories.jsonl` and `metrics.json`
 * (recomputed from the records when absent), and each episode's analysis (hand-off class,
 * violations at their messages, citations) from `analyseEpisode`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { DomainName } from '../../domains/domain.js';
import { loadDomain } from '../../domains/load-domain.js';
import { readRunTasks, withProductionTasks } from '../production/run-tasks.js';
import {
  analyseRecords,
  computeRunMetrics,
  infrastructureFailures,
  successByTask,
  type EpisodeAnalysis,
  type Ratio,
  type RunMetricsWithInfrastructure,
} from '../metrics/index.js';
import type { EpisodeRecord } from '../records.js';
import { parseEpisodeRecord, parseRunFile } from '../record-schema.js';
import { failureReasons, type FailureReason } from './failure-reasons.js';

export interface LoadedRun {
  /** The run folder (absolute). */
  dir: string;
  /** The name the report shows: the agent's, or `agent (folder)` when two runs share an agent. */
  system: string;
  agent: string;
  domain: string;
  run: Record<string, unknown>;
  metrics: RunMetricsWithInfrastructure;
  records: EpisodeRecord[];
  /** In the records' order. */
  analyses: EpisodeAnalysis[];
  /** Why each episode is not a success (empty for a success), in the records' order. */
  reasons: FailureReason[][];
  /** Successes over scored episodes per task: the unit of the paired comparison. */
  successByTask: Map<string, Ratio>;
  /** The episodes the run planned (`run.json`'s `planned_episodes`), or null when an older run did not say. */
  planned: number | null;
}

export interface LoadOptions {
  /** tau2-bench's data folder, for runs on its domains. */
  tau2Dir?: string;
  /** Put runs of different domains or task sets side by side (refused otherwise). */
  allowMixed?: boolean;
}

/** What the episodes of a run were drawn from: runs are compared only on the same. */
export function taskSetOf(run: Pick<LoadedRun, 'run' | 'domain'>): string {
  const c = (run.run['config'] ?? {}) as Record<string, unknown>;
  const variants = typeof c['variants_checksum'] === 'string' ? `variants ${c['variants_checksum'].slice(0, 12)}` : undefined;
  const limit = c['limit'] !== undefined ? `limit ${String(c['limit'])}` : undefined;
  const parts = [c['domain'] ?? run.domain, c['tasks'], c['split'], c['task_version'], c['task'], limit, variants];
  return parts
    .filter((p) => p !== undefined && p !== null)
    .map(String)
    .join(' ');
}

/** `partial: 44 of 1494 episodes` when a run recorded fewer episodes than it planned, else null. */
export function partialText(run: Pick<LoadedRun, 'planned' | 'records'>): string | null {
  return run.planned !== null && run.records.length < run.planned ? `partial: ${run.records.length} of ${run.planned} episodes` : null;
}

function readRecords(file: string): EpisodeRecord[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, i) => {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (error) {
        throw new Error(`${file}:${i + 1}: not a JSON record (${(error as Error).message})`, { cause: error });
      }
      return parseEpisodeRecord(value, `${file}:${i + 1}`);
    });
}

/** Reads one run folder. */
export async function loadRun(runDir: string, options: LoadOptions = {}): Promise<Omit<LoadedRun, 'system'>> {
  const dir = resolve(runDir);
  const runFile = join(dir, 'run.json');
  const trajectories = join(dir, 'trajectories.jsonl');
  if (!existsSync(runFile) || !existsSync(trajectories)) {
    throw new Error(`${dir} is not a run folder: it needs run.json and trajectories.jsonl (write one with baton eval --out).`);
  }
  const run = parseRunFile(JSON.parse(readFileSync(runFile, 'utf8')), runFile);
  const config = run.config;
  const records = readRecords(trajectories);
  const domainName = config.domain ?? records[0]?.domain;
  if (!domainName) throw new Error(`${dir}: run.json names no domain and there are no records`);
  const loaded = await loadDomain(domainName as DomainName, options.tau2Dir ? { tau2Dir: options.tau2Dir } : {});
  // A run of production tasks carries them: their records are analysed against those tasks.
  const production = readRunTasks(dir);
  const domain = production ? withProductionTasks(loaded, production) : loaded;
  const metricsFile = join(dir, 'metrics.json');
  const metrics = existsSync(metricsFile)
    ? (JSON.parse(readFileSync(metricsFile, 'utf8')) as RunMetricsWithInfrastructure)
    : computeRunMetrics(records, { domain, ...(config.seed !== undefined ? { seed: config.seed } : {}) });
  const byKey = new Map(analyseRecords(records, domain).map((a) => [a.key, a]));
  const analyses = records.map((r) => byKey.get(r.key) as EpisodeAnalysis);
  const failures = infrastructureFailures(records);
  const gold = new Map(domain.tasks.map((t) => [t.id, t.actions]));
  // The run-level infrastructure failure (an endpoint that never answered) is the record's too.
  const reasons = records.map((r, i) =>
    failureReasons({ ...r, ...(failures[i] ? { infrastructure_failure: failures[i] } : {}) }, gold.get(r.task_id) ?? null),
  );
  return {
    dir,
    agent: config.agent ?? records[0]?.agent ?? basename(dir),
    domain: domainName,
    run,
    metrics,
    records,
    analyses,
    reasons,
    // The paired comparison is over agent results: infrastructure-failed episodes measured nothing.
    successByTask: successByTask(analyses.filter((_, i) => failures[i] === null)),
    planned: typeof run['planned_episodes'] === 'number' ? run['planned_episodes'] : null,
  };
}

/** Reads the run folders and names each system (agent names, made unique with the folder's name). */
export async function loadRuns(runDirs: readonly string[], options: LoadOptions = {}): Promise<LoadedRun[]> {
  if (runDirs.length === 0) throw new Error('name at least one run folder');
  const runs = await Promise.all(runDirs.map((d) => loadRun(d, options)));
  // A table of rows from different task sets reads as a comparison it is not.
  const sets = [...new Set(runs.map(taskSetOf))];
  if (sets.length > 1 && options.allowMixed !== true) {
    const which = runs.map((r) => `${basename(r.dir)} (${taskSetOf(r)})`).join(', ');
    throw new Error(`these runs are of different domains or task sets: ${which}. Compare like with like, or pass --allow-mixed.`);
  }
  const count = new Map<string, number>();
  for (const r of runs) count.set(r.agent, (count.get(r.agent) ?? 0) + 1);
  const named = runs.map((r) => ({ ...r, system: (count.get(r.agent) ?? 0) > 1 ? `${r.agent} (${basename(r.dir)})` : r.agent }));
  const seen = new Set<string>();
  for (const r of named) {
    if (seen.has(r.system)) throw new Error(`two runs are both named ${r.system}: give them different folders`);
    seen.add(r.system);
  }
  return named;
}
