/**
 * The comparison table: one row per system, the same figures in the HTML report and the terminal.
 * The paired difference in success to the baseline is computed here, on the tasks both ran, with
 * `pairedDifference` (the baseline's own row is exactly 0 with a zero-width interval).
 */
import { pairedDifference, type Estimate, type PairedDifference } from '../metrics/index.js';
import type { LoadedRun } from './load.js';

export interface ComparisonRow {
  system: string;
  dir: string;
  domain: string;
  episodes: number;
  tasks: number;
  success: Estimate & { n: number };
  /** The largest k measured, and pass^k there. */
  pass_k: { k: number; value: number | null; ci: Estimate['ci'] } | null;
  /** Success minus the baseline's on shared tasks (null when the domains differ or nothing is shared). */
  difference: PairedDifference | null;
  f1: Estimate;
  over_escalation: Estimate;
  positives: number;
  negatives: number;
  worst_style: { style: string; value: number } | null;
}

export interface Comparison {
  baseline: string;
  rows: ComparisonRow[];
}

/** The baseline's name: the one asked for (it must be a system), else the first run's. */
export function resolveBaseline(runs: readonly LoadedRun[], baseline?: string): LoadedRun {
  const first = runs[0];
  if (!first) throw new Error('no runs to compare');
  if (baseline === undefined) return first;
  const found = runs.find((r) => r.system === baseline) ?? runs.find((r) => r.agent === baseline);
  if (!found) throw new Error(`--baseline ${baseline}: no such system; the systems are ${runs.map((r) => r.system).join(', ')}`);
  return found;
}

export function compareRuns(runs: readonly LoadedRun[], baselineName?: string): Comparison {
  const baseline = resolveBaseline(runs, baselineName);
  const rows = runs.map((run): ComparisonRow => {
    const m = run.metrics.metrics;
    const ks = Object.keys(m.pass_k)
      .map(Number)
      .sort((a, b) => a - b);
    const k = ks[ks.length - 1];
    const pk = k === undefined ? undefined : m.pass_k[String(k)];
    const seed = run.metrics.interval?.seed;
    const difference =
      run.domain === baseline.domain
        ? pairedDifference(run.successByTask, baseline.successByTask, {
            ...(seed !== undefined ? { seed } : {}),
            ...(run.metrics.interval?.resamples ? { resamples: run.metrics.interval.resamples } : {}),
          })
        : null;
    return {
      system: run.system,
      dir: run.dir,
      domain: run.domain,
      episodes: run.metrics.counts.episodes,
      tasks: run.metrics.counts.tasks,
      success: m.success,
      pass_k: k === undefined || !pk ? null : { k, value: pk.value, ci: pk.ci },
      difference: difference && difference.shared > 0 ? difference : null,
      f1: m.handoff.f1,
      over_escalation: m.handoff.over_escalation,
      positives: m.handoff.positives,
      negatives: m.handoff.negatives,
      worst_style: m.worst_style ? { style: m.worst_style.style, value: m.worst_style.value } : null,
    };
  });
  return { baseline: baseline.system, rows };
}

export const pct = (x: number | null | undefined): string => (x === null || x === undefined ? '–' : `${(100 * x).toFixed(1)}%`);
const signedPct = (x: number | null | undefined): string =>
  x === null || x === undefined ? '–' : `${x > 0 ? '+' : x < 0 ? '−' : '±'}${(100 * Math.abs(x)).toFixed(1)}`;

/** `52.0% [40.0%, 64.0%]`, or `–` when undefined. */
export function withInterval(e: Pick<Estimate, 'value' | 'ci'> | null | undefined): string {
  if (!e || e.value === null) return '–';
  return e.ci ? `${pct(e.value)} [${pct(e.ci[0])}, ${pct(e.ci[1])}]` : pct(e.value);
}

/** A paired difference in points: `−4.0 [−12.0, +0.0] (25 tasks)`. */
export function differenceText(d: PairedDifference | null): string {
  if (!d || d.value === null) return '–';
  const ci = d.ci ? ` [${signedPct(d.ci[0])}, ${signedPct(d.ci[1])}]` : '';
  return `${signedPct(d.value)} pts${ci} (${d.shared} tasks)`;
}

export const TABLE_HEADERS = [
  'system',
  'success [95% CI]',
  'pass^k',
  'Δ success vs baseline',
  'hand-off F1',
  'over-escalation',
  'pos / neg',
  'worst style',
] as const;

/** A row's cells, as the table shows them. */
export function rowCells(row: ComparisonRow, baseline: string): string[] {
  return [
    row.system + (row.system === baseline ? ' (baseline)' : ''),
    withInterval(row.success),
    row.pass_k ? `pass^${row.pass_k.k} ${withInterval(row.pass_k)}` : '–',
    differenceText(row.difference),
    withInterval(row.f1),
    withInterval(row.over_escalation),
    `${row.positives} / ${row.negatives}`,
    row.worst_style ? `${row.worst_style.style} ${pct(row.worst_style.value)}` : '–',
  ];
}

/** The table as plain text for a terminal. */
export function comparisonText(comparison: Comparison): string {
  const lines = [TABLE_HEADERS.slice(), ...comparison.rows.map((r) => rowCells(r, comparison.baseline))];
  const widths = TABLE_HEADERS.map((_, i) => Math.max(...lines.map((l) => (l[i] ?? '').length)));
  const fmt = (cells: readonly string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [fmt(lines[0] ?? []), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.slice(1).map(fmt)].join('\n');
}
