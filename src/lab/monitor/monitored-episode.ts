/**
 * What the training monitor keeps of one finished episode: the part of the lab's episode analysis
 * (`src/analysis/episode-analysis.ts`) its figures are counted from — scored or not, success, the
 * hand-off class against the label, the refusals and hand-offs with whether they cite the policy —
 * and the reward the trainer was paid, with its numeric components. Nothing else (no text) is kept:
 * a monitor holds thousands of episodes per step.
 */
import { analyseEpisode, type EpisodeAnalysis } from '../../analysis/episode-analysis.js';
import type { RecordedEpisode } from '../../analysis/recorded-episode.js';
import type { Domain } from '../../domains/domain.js';
import type { ComponentValue } from '../../rewards/index.js';

/** One finished episode as the monitor counts it. */
export interface MonitoredEpisode extends Pick<
  EpisodeAnalysis,
  'scored' | 'success' | 'should_transfer' | 'transferred' | 'handoff_class'
> {
  /** Refusals and hand-offs, and how many of them cite the policy (METRICS.md's citation rate). */
  citations: { events: number; cited: number };
  /** The reward paid, and its numeric components (booleans as 0/1; text components are left out). */
  reward: { value: number; components: Record<string, number> };
}

/** The numeric components of a reward: numbers as they are, booleans as 0 or 1, the rest left out. */
export function numericComponents(components: Readonly<Record<string, ComponentValue | unknown>>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, value] of Object.entries(components)) {
    if (typeof value === 'number' && Number.isFinite(value)) out[name] = value;
    else if (typeof value === 'boolean') out[name] = value ? 1 : 0;
  }
  return out;
}

/** The monitor's view of an analysed episode and its reward. */
export function fromAnalysis(
  analysis: EpisodeAnalysis,
  reward: { value: number; components: Readonly<Record<string, unknown>> },
): MonitoredEpisode {
  return {
    scored: analysis.scored,
    success: analysis.success,
    should_transfer: analysis.should_transfer,
    transferred: analysis.transferred,
    handoff_class: analysis.handoff_class,
    citations: { events: analysis.citations.length, cited: analysis.citations.filter((c) => c.cited).length },
    reward: { value: reward.value, components: numericComponents(reward.components) },
  };
}

/** Analyses a finished episode record (against its task's gold actions) and keeps what the monitor counts. */
export function monitoredEpisode(
  record: RecordedEpisode,
  domain: Domain,
  reward: { value: number; components: Readonly<Record<string, unknown>> },
): MonitoredEpisode {
  const gold = domain.tasks.find((t) => t.id === record.task_id)?.actions ?? null;
  return fromAnalysis(analyseEpisode(record, domain, gold), reward);
}
