/**
 * Gold replay: a task's gold actions run in order on a fresh episode, every output kept, and the
 * final database's canonical hash. This is what tau2-bench's DB check computes for the target,
 * and what the parity files in `shared/data/tau2/<domain>/gold_replay_train.jsonl` record.
 */
import type { Domain, DomainTask } from './domain.js';

export interface ReplayStep {
  name: string;
  arguments: Record<string, unknown>;
  output: string;
  error: boolean;
}

export interface ReplayResult {
  task_id: string;
  domain: string;
  task_version: string;
  steps: ReplayStep[];
  db_final_sha256: string;
}

export function replayTask(domain: Domain, task: DomainTask): ReplayResult {
  const episode = domain.newEpisode();
  const steps = (task.actions ?? []).map((action): ReplayStep => {
    const { output, error } = episode.call(action.name, action.arguments);
    return { name: action.name, arguments: action.arguments, output, error };
  });
  return { task_id: task.id, domain: domain.name, task_version: task.version, steps, db_final_sha256: episode.hash() };
}
