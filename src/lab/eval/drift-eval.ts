/**
 * `baton eval --drift`: an agent on a domain's drift pairs (billing's, src/domains/billing/billing-drift.ts;
 * airline's and retail's, src/domains/tau2/tau2-drift.ts),
 * each task played as committed (before the drift) and with its drift event scheduled at a
 * customer turn (after), through the gateway and the harness with the scripted customer. It
 * reports the success rate before and after, overall and per event, each with its 95% bootstrap
 * interval over pairs, and the paired difference (before − after) with its interval.
 */
import type { Policy } from '../../core/index.js';
import { driftTasksOf } from '../../domains/drift-tasks.js';
import type { Domain, DomainTask } from '../../domains/domain.js';
import { episodeAgent, runEpisode } from '../run-episode.js';
import { taskScript } from '../task-scripts.js';
import { createScriptedUser } from '../users/scripted-user.js';
import { generateVariants, HANDOFF_VARIANT_SEED } from '../variants/index.js';
import { bootstrap, type Estimate } from '../metrics/bootstrap.js';

export interface DriftEvalOptions {
  domain: Domain;
  /** The agent's policy for a task (the oracle needs the task it replays). */
  policyFor(task: DomainTask): Policy;
  agent: string;
  /** The customer turn the drift is scheduled at (default 2). */
  turn?: number;
  seed?: number;
}

export interface DriftOutcome {
  task: string;
  event: string;
  before: boolean;
  after: boolean;
}

export interface DriftSummary {
  pairs: number;
  before: Estimate;
  after: Estimate;
  /** Before − after, paired by task. */
  drop: Estimate;
}

export interface DriftEvalResult {
  agent: string;
  turn: number;
  overall: DriftSummary;
  events: Record<string, DriftSummary>;
  outcomes: DriftOutcome[];
}

function summary(outcomes: readonly DriftOutcome[], seed: number): DriftSummary {
  const byTask = new Map(outcomes.map((o) => [`${o.task}@${o.event}`, o]));
  const share = (pick: (o: DriftOutcome) => number) => (sample: readonly DriftOutcome[]) =>
    sample.length === 0 ? null : sample.reduce((a, o) => a + pick(o), 0) / sample.length;
  return {
    pairs: outcomes.length,
    before: bootstrap(
      byTask,
      share((o) => Number(o.before)),
      { seed },
    ),
    after: bootstrap(
      byTask,
      share((o) => Number(o.after)),
      { seed },
    ),
    drop: bootstrap(
      byTask,
      share((o) => Number(o.before) - Number(o.after)),
      { seed },
    ),
  };
}

/** Plays every drift pair of the domain with the agent, before and after its drift. */
export async function runDriftEval(options: DriftEvalOptions): Promise<DriftEvalResult> {
  const { domain } = options;
  const turn = options.turn ?? 2;
  const seed = options.seed ?? 1;
  const variants = generateVariants([domain], { seed: HANDOFF_VARIANT_SEED });
  const pairs = driftTasksOf(domain, turn);
  const outcomes: DriftOutcome[] = [];
  for (const pair of pairs) {
    const user = () => createScriptedUser(taskScript(domain, pair.before, variants), { style: 'neutral', seed });
    const before = await runEpisode({
      domain,
      task: pair.before,
      variant: null,
      agent: episodeAgent(options.agent, options.policyFor(pair.before)),
      user: user(),
      seed,
    });
    const after = await runEpisode({
      domain,
      task: pair.after,
      variant: null,
      agent: episodeAgent(options.agent, options.policyFor(pair.after)),
      user: user(),
      seed,
      drift: { event: pair.event, turn: pair.turn },
    });
    outcomes.push({
      task: pair.before.id,
      event: pair.event.id,
      before: before.evaluation.success === true,
      after: after.evaluation.success === true,
    });
  }
  const events: Record<string, DriftSummary> = {};
  for (const id of [...new Set(outcomes.map((o) => o.event))])
    events[id] = summary(
      outcomes.filter((o) => o.event === id),
      seed,
    );
  return { agent: options.agent, turn, overall: summary(outcomes, seed), events, outcomes };
}

const pct = (e: Estimate) =>
  e.value === null ? '–' : `${(100 * e.value).toFixed(1)}%${e.ci ? ` [${(100 * e.ci[0]).toFixed(1)}, ${(100 * e.ci[1]).toFixed(1)}]` : ''}`;

/** The result as a table: one row per event, then all. */
export function driftTable(result: DriftEvalResult): string {
  const rows = [...Object.entries(result.events), ['all', result.overall] as const].map(
    ([id, s]) => `| ${id} | ${s.pairs} | ${pct(s.before)} | ${pct(s.after)} | ${pct(s.drop)} |`,
  );
  return [
    `drift eval: agent ${result.agent}, drift at customer turn ${result.turn} (95% bootstrap intervals over tasks)`,
    '| event | tasks | success before | success after | drop |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}
