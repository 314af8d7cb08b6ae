/**
 * A run's metrics: computed from its records (never from live state), written to `metrics.json`
 * beside them, and printed as a table a person reads at a glance.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { computeMetrics, type RunMetrics } from '../metrics/index.js';
import type { EvalConfig, EvalResult } from './run-eval.js';

/** Computes the run's metrics (bootstrap seeded by the run's seed) and writes `metrics.json`. */
export async function writeRunMetrics(result: EvalResult, config: Pick<EvalConfig, 'seed'>): Promise<RunMetrics> {
  const metrics = computeMetrics(result.records, { domain: result.domain, seed: config.seed });
  writeFileSync(join(result.runDir, 'metrics.json'), `${JSON.stringify(metrics, null, 2)}\n`);
  return metrics;
}

type Estimate = { value: number | null; ci: readonly [number, number] | null | [number | null, number | null] };

const pct = (x: number | null | undefined) => (x === null || x === undefined ? '–' : `${(100 * x).toFixed(1)}%`);
const withCi = (e: Estimate | undefined) => {
  if (!e || e.value === null) return '–';
  const ci = e.ci && e.ci[0] !== null && e.ci[1] !== null ? ` [${pct(e.ci[0])}, ${pct(e.ci[1])}]` : '';
  return `${pct(e.value)}${ci}`;
};

/** The run's headline figures as a plain-text table. */
export function metricsTable(metrics: RunMetrics): string {
  const m = metrics.metrics;
  const h = m.handoff;
  const rows: [string, string][] = [
    [
      'episodes / tasks',
      `${metrics.counts.episodes} / ${metrics.counts.tasks}${metrics.counts.unscored > 0 ? ` (${metrics.counts.unscored} unscored)` : ''}`,
    ],
    ['success (pass^1)', withCi(m.success)],
    ...Object.entries(m.pass_k)
      .filter(([k]) => Number(k) >= 2)
      .map(([k, e]): [string, string] => [`pass^${k}`, withCi(e)]),
    ['hand-off positives / negatives', `${h.positives} / ${h.negatives}`],
    ['hand-off precision', withCi(h.precision)],
    ['hand-off recall', withCi(h.recall)],
    ['hand-off F1', withCi(h.f1)],
    ['over-escalation', withCi(h.over_escalation)],
    ['missed hand-offs', withCi(h.missed)],
    ['wrong target', withCi(h.wrong_target)],
    ['hand-off on time', withCi(h.timing.on_time)],
    ['packet quality', withCi(m.packet_quality)],
    ['episodes with a violation', withCi(m.violations.any)],
    ['policy citation rate', withCi(m.citation_rate)],
    ...Object.entries(m.by_style).map(([style, e]): [string, string] => [`success, ${style}`, withCi(e)]),
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  return [`${metrics.agent ?? '?'} on ${metrics.domain}`, ...rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`)].join('\n');
}
