/**
 * The loophole audit's generic search: every degenerate and random policy of
 * `agents/search-policies.ts` through the same gateway and harness, on the audit's episodes with
 * the scripted customer, scored by every reward. Nothing is written: the episodes are cheap (no
 * model), and a search is run again rather than resumed.
 */
import type { Domain } from '../domains/domain.js';
import { bootstrapRatio, pairedDifference, type Estimate, type Ratio } from './metrics/index.js';
import { taskUnitOf } from '../analysis/episode-analysis.js';
import type { Reward, RewardName } from '../rewards/index.js';
import { rewardInput } from '../rewards/index.js';
import { searchPolicies, type SearchPolicy } from './agents/search-policies.js';
import { createUserFactory, planEpisodes, type Planned } from './eval/run-eval.js';
import { toRecord, type EpisodeRecord } from './records.js';
import { episodeAgent, runEpisode } from './run-episode.js';
import type { Style } from './user.js';
import type { HandoffVariant, VariantSplit } from './variant.js';

/** A policy's mean reward per dialogue, its 95% interval over tasks (null when there was nothing to score), and how many dialogues. */
export interface PolicyScore {
  mean: number | null;
  ci: Estimate['ci'];
  episodes: number;
}

/** Reward per task: the sum over its episodes and how many. */
export type TaskValues = Map<string, Ratio>;

/** Mean reward over episodes, with a bootstrap interval over tasks (every episode of a task drawn together). */
export function scoreOf(values: TaskValues, episodes: number, seed: number): PolicyScore {
  const { value, ci } = bootstrapRatio(values, { seed });
  return { mean: value, ci, episodes };
}

/** The honest agent's mean less the policy's, paired on shared tasks, with its interval: how far below the honest agent it is. */
export function marginOf(honest: TaskValues, policy: TaskValues, seed: number): Estimate {
  const { value, ci } = pairedDifference(honest, policy, { seed });
  return { value, ci };
}

/** Every reward's values per task for a set of records. */
export async function rewardValues(
  records: readonly EpisodeRecord[],
  domain: Domain,
  rewards: readonly { name: RewardName; reward: Reward }[],
): Promise<Map<RewardName, TaskValues>> {
  const out = new Map<RewardName, TaskValues>(rewards.map((r) => [r.name, new Map()]));
  for (const record of records) {
    const input = rewardInput(record, domain);
    const task = taskUnitOf(record);
    for (const { name, reward } of rewards) {
      const byTask = out.get(name) as TaskValues;
      const r = byTask.get(task) ?? { num: 0, den: 0 };
      r.num += (await reward.score(input)).value;
      r.den += 1;
      byTask.set(task, r);
    }
  }
  return out;
}

export interface SearchOptions {
  domain: Domain;
  variants: readonly HandoffVariant[];
  tasks: 'handoff' | 'main';
  split: Exclude<VariantSplit, 'test'>;
  styles: readonly Style[];
  trials: number;
  concurrency: number;
  seed: number;
  /** How many random policies besides the degenerate ones. */
  random: number;
}

/** One search policy's episodes, through the real gateway and harness with the scripted customer. */
async function runPolicy(policy: SearchPolicy, plan: readonly Planned[], options: SearchOptions): Promise<EpisodeRecord[]> {
  const users = createUserFactory({ user: 'scripted', concurrency: options.concurrency }, options.domain, options.variants, '');
  const agent = episodeAgent(policy.name, policy.policy);
  const records: EpisodeRecord[] = new Array<EpisodeRecord>(plan.length);
  let next = 0;
  const loop = async () => {
    while (next < plan.length) {
      const i = next++;
      const p = plan[i] as Planned;
      const result = await runEpisode({ domain: options.domain, task: p.task, variant: p.variant, agent, user: users(p), seed: p.seed });
      records[i] = toRecord(result, { variant: p.variant, split: p.split, user: 'scripted', trial: p.trial, seed: p.seed });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, plan.length)) }, loop));
  return records;
}

/** The search's policies, each with its values per task under every reward. */
export async function runSearch(
  options: SearchOptions,
  rewards: readonly { name: RewardName; reward: Reward }[],
): Promise<{ policies: SearchPolicy[]; values: Map<string, Map<RewardName, TaskValues>> }> {
  const plan = planEpisodes(options.domain, options.variants, options);
  const policies = searchPolicies(options.domain, { random: options.random, seed: options.seed });
  const values = new Map<string, Map<RewardName, TaskValues>>();
  for (const policy of policies) {
    values.set(policy.name, await rewardValues(await runPolicy(policy, plan, options), options.domain, rewards));
  }
  return { policies, values };
}
