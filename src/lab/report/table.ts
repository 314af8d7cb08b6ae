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
  /** pass^k for every k measured, in order (k = 1 is success over the groups of trials). */
  pass_k: { k: number; value: number | null; ci: Estimate['ci'] }[];
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
    const passK = Object.entries(m.pass_k)
      .map(([k, figure]) => ({ k: Number(k), value: figure.value, ci: figure.ci }))
      .sort((a, b) => a.k - b.k);
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
      pass_k: passK,
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

/**
 * The best system of a comparison of several: the highest success, ties broken by the higher
 * hand-off F1, then the lower over-escalation. Null with one system, or when no figure tells the
 * leaders apart (a tie all the way is no best).
 */
export function bestSystem(comparison: Comparison): string | null {
  if (comparison.rows.length < 2) return null;
  const score = (r: ComparisonRow): [number, number, number] => [r.success.value ?? -1, r.f1.value ?? -1, -(r.over_escalation.value ?? 2)];
  const ranked = [...comparison.rows].sort((a, b) => {
    const [x, y] = [score(a), score(b)];
    return y[0] - x[0] || y[1] - x[1] || y[2] - x[2];
  });
  const [first, second] = ranked;
  if (!first || first.success.value === null) return null;
  const same = second !== undefined && score(first).every((v, i) => v === score(second)[i]);
  return same ? null : first.system;
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

/** pass^2, pass^3, …: `^2 40.0% [30.0%, 50.0%] · ^3 …`, or `–` with one trial (pass^1 is the success column's). */
export function passKText(passK: ComparisonRow['pass_k']): string {
  const beyond = passK.filter((p) => p.k >= 2);
  return beyond.length === 0 ? '–' : beyond.map((p) => `^${p.k} ${withInterval(p)}`).join(' · ');
}

export const TABLE_HEADERS = [
  'system',
  'success [95% CI]',
  'pass^k, k ≥ 2',
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
    passKText(row.pass_k),
    differenceText(row.difference),
    withInterval(row.f1),
    withInterval(row.over_escalation),
    `${row.positives} / ${row.negatives}`,
    row.worst_style ? `${row.worst_style.style} ${pct(row.worst_style.value)}` : '–',
  ];
}

/** Rows of cells as aligned plain text, the first row a header underlined with dashes. */
export function textTable(lines: readonly (readonly string[])[]): string {
  const header = lines[0] ?? [];
  const widths = header.map((_, i) => Math.max(...lines.map((l) => (l[i] ?? '').length)));
  const fmt = (cells: readonly string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [fmt(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.slice(1).map(fmt)].join('\n');
}

/** The table as plain text for a terminal. */
export function comparisonText(comparison: Comparison): string {
  return textTable([TABLE_HEADERS.slice(), ...comparison.rows.map((r) => rowCells(r, comparison.baseline))]);
}

/** One task kind across systems: how often each handed off, and whether it should have. */
export interface KindRow {
  kind: string;
  /** `hand off` when every episode of the kind should be handed off, `keep` when none, else `mixed`. */
  expected: 'hand off' | 'keep' | 'mixed';
  bySystem: { system: string; episodes: number; transferred: number; rate: Estimate }[];
}

/**
 * Hand-off rate per task kind and system: recall on kinds that call for a hand-off, over-escalation
 * on kinds that do not. Kinds in the order of the first run, then any only later runs have.
 */
export function kindRows(runs: readonly LoadedRun[]): KindRow[] {
  const kinds = [...new Set(runs.flatMap((r) => Object.keys(r.metrics.metrics.handoff.by_kind)))];
  return kinds.map((kind): KindRow => {
    let positives = 0;
    let negatives = 0;
    const bySystem = runs.flatMap((run) => {
      const k = run.metrics.metrics.handoff.by_kind[kind];
      if (!k) return [];
      positives += k.positives;
      negatives += k.negatives;
      return [{ system: run.system, episodes: k.positives + k.negatives, transferred: k.transferred, rate: k.rate }];
    });
    const expected = negatives === 0 ? 'hand off' : positives === 0 ? 'keep' : 'mixed';
    return { kind, expected, bySystem };
  });
}

/** The header and cells of the per-kind table: one row per kind, one column per system. */
export function kindCells(rows: readonly KindRow[], systems: readonly string[]): string[][] {
  return [
    ['task kind', 'expected', ...systems.map((s) => `${s}: handed off`)],
    ...rows.map((row) => [
      row.kind,
      row.expected,
      ...systems.map((system) => {
        const cell = row.bySystem.find((c) => c.system === system);
        return cell ? `${withInterval(cell.rate)} (${cell.transferred}/${cell.episodes})` : '–';
      }),
    ]),
  ];
}

/** The per-kind table as plain text. */
export function kindText(rows: readonly KindRow[], systems: readonly string[]): string {
  return textTable(kindCells(rows, systems));
}
