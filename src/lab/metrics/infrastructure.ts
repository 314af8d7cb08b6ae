/**
 * Episodes that ended for an infrastructure reason, not for anything the agent did: the harness
 * handed off because the model provider was down (`provider_down`, decided by the harness), the
 * simulated customer failed (`user_error`, an LLM user's endpoint, say), or the agent's model
 * endpoint answered no call of the whole run (`provider_unreachable`: even the episodes the
 * hand-off decider settled before any model call measure no model). Such an episode measures the
 * network, so a run's metrics leave it out and count it separately, and a run with any says so
 * loudly (docs/metrics.md, "Infrastructure failures").
 */
import type { EpisodeRecord } from '../records.js';
import { computeMetrics, type MetricsContext, type RunMetrics } from './compute.js';

/** Why an episode measures the infrastructure rather than the agent. */
export type InfrastructureFailure = NonNullable<EpisodeRecord['infrastructure_failure']>;

type Classified = Pick<EpisodeRecord, 'termination' | 'handoff' | 'infrastructure_failure'>;

/** The infrastructure failure an episode ended with on its own record, or null when it is an agent result. */
export function infrastructureFailure(record: Classified): InfrastructureFailure | null {
  if (record.infrastructure_failure !== undefined) return record.infrastructure_failure;
  if (record.termination === 'user_error') return 'user_error';
  if (record.handoff?.reason === 'provider_down' && record.handoff.decidedBy === 'harness') return 'provider_down';
  return null;
}

/** Whether the run's agent sits behind a model endpoint that failed every call it was given. */
function endpointNeverAnswered(records: readonly Pick<EpisodeRecord, 'model_calls'>[]): boolean {
  let seen = false;
  let answered = 0;
  let failed = 0;
  for (const { model_calls: calls } of records) {
    if (!calls) continue;
    seen = true;
    answered += calls.answered;
    failed += calls.failed;
  }
  return seen && answered === 0 && failed > 0;
}

/** Each record's infrastructure failure (or null), in order: its own, else the run's unreachable endpoint. */
export function infrastructureFailures(
  records: readonly (Classified & Pick<EpisodeRecord, 'model_calls'>)[],
): (InfrastructureFailure | null)[] {
  const unreachable = endpointNeverAnswered(records);
  return records.map((r) => infrastructureFailure(r) ?? (unreachable ? 'provider_unreachable' : null));
}

/** The infrastructure-failed episodes of a run, counted apart from its metrics. */
export interface InfrastructureCounts {
  /** Episodes that ended for an infrastructure reason (left out of every metric). */
  failed: number;
  /** Of every episode recorded, these included. */
  of: number;
  by_reason: Partial<Record<InfrastructureFailure, number>>;
  /** The first few failed episodes' keys, to look at. */
  examples: string[];
}

/** Counts the infrastructure-failed episodes among `records` (`failed` 0 when there are none). */
export function countInfrastructureFailures(records: readonly EpisodeRecord[]): InfrastructureCounts {
  const counts: InfrastructureCounts = { failed: 0, of: records.length, by_reason: {}, examples: [] };
  infrastructureFailures(records).forEach((reason, i) => {
    if (reason === null) return;
    counts.failed += 1;
    counts.by_reason[reason] = (counts.by_reason[reason] ?? 0) + 1;
    if (counts.examples.length < 3) counts.examples.push(records[i]?.key ?? '');
  });
  return counts;
}

/** A run's metrics with its infrastructure failures counted apart (absent when there are none). */
export type RunMetricsWithInfrastructure = RunMetrics & { infrastructure?: InfrastructureCounts };

/**
 * The metrics of a run's agent results: infrastructure-failed episodes are left out and counted
 * in `infrastructure`. A run without any gets exactly `computeMetrics`'s object, byte for byte.
 */
export function computeRunMetrics(records: readonly EpisodeRecord[], context: MetricsContext): RunMetricsWithInfrastructure {
  const infrastructure = countInfrastructureFailures(records);
  if (infrastructure.failed === 0) return computeMetrics(records, context);
  const failures = infrastructureFailures(records);
  const measured = records.filter((_, i) => failures[i] === null);
  // The agent is named even when the infrastructure failed every episode.
  return { ...computeMetrics(measured, context), agent: records[0]?.agent ?? null, infrastructure };
}
