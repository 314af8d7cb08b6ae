import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tau2DirForTests } from './tau2-dir.js';

/** One line of `shared/data/tau2/<domain>/gold_replay_train.jsonl` (TAU2.md §8). */
export interface GoldStep {
  i: number;
  name: string;
  arguments: Record<string, unknown>;
  error: boolean;
  output: string;
}

export interface GoldTask {
  task_id: string;
  steps: GoldStep[];
  db_initial_sha256: string;
  db_final_sha256: string;
  db_changes: Record<string, Record<string, { op: 'added' | 'changed' | 'removed'; value: unknown }>>;
}

/** The gold replays of a domain's train split, in task order. */
export function goldReplays(domain: 'airline' | 'retail'): GoldTask[] {
  return readFileSync(join(tau2DirForTests(), domain, 'gold_replay_train.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as GoldTask);
}
