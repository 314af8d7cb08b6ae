/**
 * `baton bench rewards`: dialogues scored per second, on one core (one thread), by `r2` and by
 * `dense` without a judge, over the trajectories of a default run (billing's hand-off variants on
 * the dev split; rule, always-transfer and never-transfer; six styles; `--trials`). A dialogue's
 * score includes building its reward input from the record (the policy-rule analysis it needs),
 * as a trainer scoring a rollout pays it. The same-run baseline is `task`, which reads the
 * evaluator's verdict and nothing else. Each reward is timed over `--rounds` passes after one
 * untimed pass; the best pass counts (the others lost time to the machine, not the reward).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentName } from '../lab/agents/names.js';
import { runEval } from '../lab/eval/run-eval.js';
import type { EpisodeRecord } from '../lab/records.js';
import { STYLES } from '../lab/user.js';
import { rewardByName, rewardInput, type RewardName } from '../rewards/index.js';
import type { Domain } from '../domains/domain.js';

export interface RewardsBenchOptions {
  trials: number;
  rounds: number;
  progress: (line: string) => void;
}

function timePasses(records: readonly EpisodeRecord[], domain: Domain, name: RewardName, rounds: number): number {
  const reward = rewardByName(name);
  let checksum = 0;
  const pass = () => {
    const started = performance.now();
    for (const record of records) {
      const scored = reward.score(rewardInput(record, domain));
      if (scored instanceof Promise) throw new Error(`${name} is asynchronous without a judge`);
      checksum += scored.value;
    }
    return (performance.now() - started) / 1000;
  };
  pass();
  let best = Infinity;
  for (let i = 0; i < rounds; i++) best = Math.min(best, pass());
  if (!Number.isFinite(checksum)) throw new Error(`${name} gave a value that is not a number`);
  return best;
}

export async function benchRewards(options: RewardsBenchOptions) {
  const work = mkdtempSync(join(tmpdir(), 'baton-bench-rewards-'));
  try {
    const agents: AgentName[] = ['rule', 'always-transfer', 'never-transfer'];
    const records: EpisodeRecord[] = [];
    let domain: Domain | null = null;
    for (const agent of agents) {
      options.progress(`default run: ${agent}…`);
      const result = await runEval({
        domain: 'billing',
        tasks: 'handoff',
        split: 'dev',
        agent,
        user: 'scripted',
        styles: [...STYLES],
        trials: options.trials,
        concurrency: 4,
        seed: 1,
        store: { kind: 'memory' },
        out: join(work, agent),
        force: false,
      });
      records.push(...result.records);
      domain = result.domain;
    }
    if (!domain) throw new Error('no run');
    const round = (x: number, d = 1) => Number(x.toFixed(d));
    const rate = (name: RewardName) => {
      options.progress(`timing ${name} over ${records.length} dialogues, best of ${options.rounds}…`);
      const seconds = timePasses(records, domain as Domain, name, options.rounds);
      return { seconds: round(seconds, 4), dialogues_per_second: round(records.length / seconds) };
    };
    const task = rate('task');
    const r2 = rate('r2');
    const dense = rate('dense');
    return {
      benchmark: 'rewards',
      dialogues: records.length,
      threads: 1,
      baseline_task: task,
      r2: { ...r2, vs_task: round(r2.dialogues_per_second / task.dialogues_per_second, 3) },
      dense_without_judge: { ...dense, vs_task: round(dense.dialogues_per_second / task.dialogues_per_second, 3) },
      goal: '>= 1000 dialogues/s each for r2 and dense',
      environment_steps: null,
      environment_steps_note: 'the environment server (baton env serve) is not built yet',
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
