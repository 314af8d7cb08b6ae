/**
 * What a report reads from a run folder: `run.json`, `trajectories.jsonl` and `metrics.json`
 * (recomputed from the records when absent), and each episode's analysis (hand-off class,
 * violations at their messages, citations) from `analyseEpisode`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { DomainName } from '../../domains/domain.js';
import { loadDomain } from '../../domains/load-domain.js';
import { analyseRecords, computeMetrics, successByTask, type EpisodeAnalysis, type Ratio, type RunMetrics } from '../metrics/index.js';
import type { EpisodeRecord } from '../records.js';

export interface LoadedRun {
  /** The run folder (absolute). */
  dir: string;
  /** The name the report shows: the agent's, or `agent (folder)` when two runs share an agent. */
  system: string;
  agent: string;
  domain: string;
  run: Record<string, unknown>;
  metrics: RunMetrics;
  records: EpisodeRecord[];
  /** In the records' order. */
  analyses: EpisodeAnalysis[];
  /** Successes over scored episodes per task: the unit of the paired comparison. */
  successByTask: Map<string, Ratio>;
}

export interface LoadOptions {
  /** tau2-bench's data folder, for runs on its domains. */
  tau2Dir?: string;
}

function readRecords(file: string): EpisodeRecord[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, i) => {
      try {
        return JSON.parse(line) as EpisodeRecord;
      } catch (error) {
        throw new Error(`${file}:${i + 1}: not a JSON record (${(error as Error).message})`, { cause: error });
      }
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
  const run = JSON.parse(readFileSync(runFile, 'utf8')) as Record<string, unknown>;
  const config = (run['config'] ?? {}) as { domain?: string; agent?: string; seed?: number };
  const records = readRecords(trajectories);
  const domainName = config.domain ?? records[0]?.domain;
  if (!domainName) throw new Error(`${dir}: run.json names no domain and there are no records`);
  const domain = await loadDomain(domainName as DomainName, options.tau2Dir ? { tau2Dir: options.tau2Dir } : {});
  const metricsFile = join(dir, 'metrics.json');
  const metrics = existsSync(metricsFile)
    ? (JSON.parse(readFileSync(metricsFile, 'utf8')) as RunMetrics)
    : computeMetrics(records, { domain, ...(config.seed !== undefined ? { seed: config.seed } : {}) });
  const byKey = new Map(analyseRecords(records, domain).map((a) => [a.key, a]));
  const analyses = records.map((r) => byKey.get(r.key) as EpisodeAnalysis);
  return {
    dir,
    agent: config.agent ?? records[0]?.agent ?? basename(dir),
    domain: domainName,
    run,
    metrics,
    records,
    analyses,
    successByTask: successByTask(analyses),
  };
}

/** Reads the run folders and names each system (agent names, made unique with the folder's name). */
export async function loadRuns(runDirs: readonly string[], options: LoadOptions = {}): Promise<LoadedRun[]> {
  if (runDirs.length === 0) throw new Error('name at least one run folder');
  const runs = await Promise.all(runDirs.map((d) => loadRun(d, options)));
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
