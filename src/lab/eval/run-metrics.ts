/**
 * A run's metrics: computed from its records (never from live state), written to `metrics.json`
 * beside them, and printed as a table a person reads at a glance.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { computeRunMetrics, type RunMetricsWithInfrastructure } from '../metrics/index.js';
import { clipText, TERMINAL_WIDTH, withInterval } from '../report/table.js';
import type { EvalConfig, EvalResult } from './run-eval.js';

/**
 * Computes the run's metrics (bootstrap seeded by the run's seed; infrastructure-failed episodes
 * left out and counted apart) and writes `metrics.json`.
 */
export async function writeRunMetrics(result: EvalResult, config: Pick<EvalConfig, 'seed'>): Promise<RunMetricsWithInfrastructure> {
  const metrics = computeRunMetrics(result.records, { domain: result.domain, seed: config.seed });
  writeFileSync(join(result.runDir, 'metrics.json'), `${JSON.stringify(metrics, null, 2)}\n`);
  return metrics;
}

/** The run's headline figures as a plain-text table. */
export function metricsTable(metrics: RunMetricsWithInfrastructure): string {
  const m = metrics.metrics;
  const h = m.handoff;
  const infra = metrics.infrastructure;
  const rows: [string, string][] = [
    [
      'episodes / tasks',
      `${metrics.counts.episodes} / ${metrics.counts.tasks}${metrics.counts.unscored > 0 ? ` (${metrics.counts.unscored} unscored)` : ''}`,
    ],
    ...(infra ? [['INFRASTRUCTURE FAILED', `${infra.failed} of ${infra.of} episodes (not in any figure here)`] as [string, string]] : []),
    ['success (pass^1)', withInterval(m.success)],
    ...Object.entries(m.pass_k)
      .filter(([k]) => Number(k) >= 2)
      .map(([k, e]): [string, string] => [`pass^${k}`, withInterval(e)]),
    ['hand-off positives / negatives', `${h.positives} / ${h.negatives}`],
    ['hand-off precision', withInterval(h.precision)],
    ['hand-off recall', withInterval(h.recall)],
    ['hand-off F1', withInterval(h.f1)],
    ['over-escalation', withInterval(h.over_escalation)],
    ['missed hand-offs', withInterval(h.missed)],
    ['wrong target', withInterval(h.wrong_target)],
    ['hand-off on time', withInterval(h.timing.on_time)],
    ['packet quality', withInterval(m.packet_quality)],
    ['episodes with a violation', withInterval(m.violations.any)],
    ['policy citation rate', withInterval(m.citation_rate)],
    ...Object.entries(m.by_style).map(([style, e]): [string, string] => [`success, ${style}`, withInterval(e)]),
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  // Within the terminal's 100 columns: a long agent name (a model's, say) is cut in the middle.
  const title = clipText(`${metrics.agent ?? '?'} on ${metrics.domain}`, TERMINAL_WIDTH);
  return [title, ...rows.map(([k, v]) => clipText(`  ${k.padEnd(width)}  ${v}`, TERMINAL_WIDTH))].join('\n');
}
