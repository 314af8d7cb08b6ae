/**
 * Runs a set of lab episodes (tasks or hand-off variants, one agent, one kind of customer) one
 * after another and summarises what happened: success, and every hand-off decision against its
 * label. `baton eval` builds its concurrent runs, records and intervals on the same episodes.
 */
import type { Domain, DomainTask } from '../domains/domain.js';
import { runEpisode, type EpisodeAgent, type EpisodeResult } from './run-episode.js';
import type { Style, UserSimulator } from './user.js';
import type { HandoffVariant } from './variant.js';

export interface SetItem {
  task: DomainTask;
  variant: HandoffVariant | null;
}

export interface RunSetOptions {
  domain: Domain;
  items: readonly SetItem[];
  agent: (item: SetItem) => EpisodeAgent;
  user: (item: SetItem, seed: number) => UserSimulator;
  seed: number;
  /** Called after each episode (progress). */
  onEpisode?: (result: EpisodeResult, done: number, total: number) => void;
}

/** How an episode's hand-off decision compares with its label. */
export type HandoffOutcome = 'true_positive' | 'early' | 'wrong_target' | 'missed' | 'over_escalation' | 'true_negative';

export function handoffOutcome(result: EpisodeResult): HandoffOutcome {
  const { transferred, target, label, early } = result.evaluation.handoff;
  if (label.expected) {
    if (!transferred) return 'missed';
    // Before anything called for it: a guess that happened to land, not a hand-off decision.
    if (early) return 'early';
    return label.queue !== null && target !== null && target !== label.queue ? 'wrong_target' : 'true_positive';
  }
  return transferred ? 'over_escalation' : 'true_negative';
}

export interface SetSummary {
  domain: string;
  agent: string;
  episodes: number;
  scored: number;
  successes: number;
  /** Successes over scored episodes. */
  successRate: number | null;
  handoff: Record<HandoffOutcome, number> & { positives: number; negatives: number };
  byStyle: Partial<Record<Style, { episodes: number; successes: number }>>;
}

export function summarise(domain: string, agent: string, results: readonly EpisodeResult[]): SetSummary {
  const scored = results.filter((r) => r.evaluation.status === 'scored');
  const successes = scored.filter((r) => r.evaluation.success === true).length;
  const handoff = {
    true_positive: 0,
    early: 0,
    wrong_target: 0,
    missed: 0,
    over_escalation: 0,
    true_negative: 0,
    positives: 0,
    negatives: 0,
  };
  const byStyle: SetSummary['byStyle'] = {};
  for (const r of results) {
    handoff[handoffOutcome(r)] += 1;
    if (r.evaluation.handoff.label.expected) handoff.positives += 1;
    else handoff.negatives += 1;
    const style = (byStyle[r.style as Style] ??= { episodes: 0, successes: 0 });
    style.episodes += 1;
    if (r.evaluation.success === true) style.successes += 1;
  }
  return {
    domain,
    agent,
    episodes: results.length,
    scored: scored.length,
    successes,
    successRate: scored.length === 0 ? null : successes / scored.length,
    handoff,
    byStyle,
  };
}

/** Runs every item in order (episode i gets seed `seed + i`) and returns the results with their summary. */
export async function runSet(options: RunSetOptions): Promise<{ results: EpisodeResult[]; summary: SetSummary }> {
  const results: EpisodeResult[] = [];
  let agentName = '';
  for (const [i, item] of options.items.entries()) {
    const seed = options.seed + i;
    const agent = options.agent(item);
    agentName = agent.name;
    const result = await runEpisode({
      domain: options.domain,
      task: item.task,
      variant: item.variant,
      agent,
      user: options.user(item, seed),
      seed,
    });
    results.push(result);
    options.onEpisode?.(result, i + 1, options.items.length);
  }
  return { results, summary: summarise(options.domain.name, agentName, results) };
}
