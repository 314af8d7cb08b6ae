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
import type { AddressInfo } from 'node:net';
import type { Domain } from '../domains/domain.js';
import { createOraclePolicy } from '../domains/oracle.js';
import type { ChatMessage } from '../core/index.js';
import { connectEnv } from '../lab/env/client.js';
import { envSessionOptions, nextAction } from '../lab/env/setup.js';
import { buildEnvServer } from '../server/env-server.js';

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
      environment: await envSteps(domain, options),
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Environment steps per second over `/ws` on loopback: the oracle plays every billing main task of
 * the train split, once per pass, through the environment server in this process (reward r2, the
 * oracle's checks). One session at a time: this is the latency-bound rate a single trainer worker sees.
 */
async function envSteps(domain: Domain, options: RewardsBenchOptions) {
  const session = envSessionOptions(domain, { tasks: 'main', split: 'train', reward: 'r2', checks: 'off' });
  const app = buildEnvServer({
    name: 'bench',
    description: 'bench',
    session,
    maxSessions: 1,
    idleTimeoutMs: 60_000,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const client = await connectEnv(`ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/ws`);
  try {
    const pass = async () => {
      let steps = 0;
      let episodes = 0;
      const started = performance.now();
      for (const planned of session.plan) {
        const oracle = createOraclePolicy(domain, planned.task);
        const sent: ChatMessage[] = [];
        let frame = await client.reset({ task: planned.key });
        while (frame.type === 'observation' && !frame.data.done) {
          frame = await client.step(await nextAction(oracle, sent));
          steps++;
        }
        if (frame.type !== 'observation') throw new Error(`the environment answered ${frame.type}: ${JSON.stringify(frame.data)}`);
        episodes++;
      }
      return { steps, episodes, seconds: (performance.now() - started) / 1000 };
    };
    options.progress(`environment: the oracle over /ws on ${session.plan.length} episodes, best of ${options.rounds}…`);
    await pass();
    let best = { steps: 0, episodes: 0, seconds: Infinity };
    for (let i = 0; i < options.rounds; i++) {
      const run = await pass();
      if (run.seconds < best.seconds) best = run;
    }
    return {
      episodes: best.episodes,
      steps: best.steps,
      seconds: Number(best.seconds.toFixed(3)),
      steps_per_second: Number((best.steps / best.seconds).toFixed(1)),
      sessions: 1,
    };
  } finally {
    await client.close();
    await app.close();
  }
}
