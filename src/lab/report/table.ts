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

/** How wide the terminal tables are by default: they fit 100 columns, whatever the names and figures. */
export const TERMINAL_WIDTH = 100;

/** `text` cut to `chars` characters with an ellipsis in the middle (both ends of a name tell runs apart). */
export function clipText(text: string, chars: number): string {
  if (text.length <= chars) return text;
  if (chars <= 1) return '…'.slice(0, chars);
  const keep = chars - 1;
  return `${text.slice(0, Math.ceil(keep / 2))}…${text.slice(text.length - Math.floor(keep / 2))}`;
}

/** Text wrapped at spaces to lines of at most `width` (a word longer than that is cut). */
export function wrapText(text: string, width: number, indent = ''): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const w = clipText(word, width - indent.length);
    if (line === '') line = w;
    else if (line.length + 1 + w.length <= width - (lines.length > 0 ? indent.length : 0)) line += ` ${w}`;
    else {
      lines.push(line);
      line = w;
    }
  }
  lines.push(line);
  return lines.map((l, i) => (i > 0 ? indent + l : l)).join('\n');
}

export interface TextTableOptions {
  /** The widest a line may be (default: no limit). */
  maxWidth?: number;
  /** Leading columns that name a row (repeated in every block when the table is split; default 1). */
  keyColumns?: number;
  /** The key columns are cut, to make room, to no less than this in all (default 20); past that, the others split into blocks. */
  minKeyWidth?: number;
}

const GAP = 2;

function renderBlock(lines: readonly (readonly string[])[], columns: readonly number[], widths: readonly number[]): string {
  const fmt = (cells: readonly string[]) =>
    columns
      .map((c, i) => clipText(cells[c] ?? '', widths[i] ?? 0).padEnd(widths[i] ?? 0))
      .join(' '.repeat(GAP))
      .trimEnd();
  const [header = [], ...rows] = lines;
  return [fmt(header), widths.map((w) => '-'.repeat(w)).join(' '.repeat(GAP)), ...rows.map(fmt)].join('\n');
}

/**
 * Rows of cells as aligned plain text, the first row a header underlined with dashes. Within
 * `maxWidth`, a table too wide is split into blocks of columns, one under the other, each
 * repeating the key columns; key cells are cut (ellipsis in the middle) to leave room, and so is
 * any cell that alone would not fit.
 */
export function textTable(lines: readonly (readonly string[])[], options: TextTableOptions = {}): string {
  const maxWidth = options.maxWidth ?? Number.POSITIVE_INFINITY;
  const count = Math.max(0, ...lines.map((l) => l.length));
  const natural = Array.from({ length: count }, (_, i) => Math.max(...lines.map((l) => (l[i] ?? '').length)));
  const all = natural.map((_, i) => i);
  const total = natural.reduce((a, b) => a + b, 0) + GAP * Math.max(0, count - 1);
  if (total <= maxWidth) return renderBlock(lines, all, natural);

  const keys = Math.min(options.keyColumns ?? 1, count);
  const rest = all.slice(keys);
  // Key columns take what the other columns leave, cut to no less than minKeyWidth (then the others split into blocks).
  const keyNatural = natural.slice(0, keys).reduce((a, b) => a + b, 0) + GAP * Math.max(0, keys - 1);
  const restTotal = rest.reduce((a, c) => a + (natural[c] ?? 0) + GAP, 0);
  const minKey = Math.min(options.minKeyWidth ?? 20, Math.floor(maxWidth / 2));
  const keyBudget = Math.max(Math.min(keyNatural, minKey), maxWidth - restTotal);
  const keyWidths = natural.slice(0, keys);
  let over = keyWidths.reduce((a, b) => a + b, 0) + GAP * Math.max(0, keys - 1) - keyBudget;
  for (let i = 0; over > 0 && i < keys; i += 1) {
    const cut = Math.min(over, (keyWidths[i] ?? 0) - 4);
    if (cut <= 0) continue;
    keyWidths[i] = (keyWidths[i] ?? 0) - cut;
    over -= cut;
  }
  const keyWidth = keyWidths.reduce((a, b) => a + b, 0) + GAP * keys;
  const room = Math.max(4, maxWidth - keyWidth);
  const blocks: number[][] = [];
  let current: number[] = [];
  let used = 0;
  for (const c of rest) {
    const w = Math.min(natural[c] ?? 0, room);
    if (current.length > 0 && used + GAP + w > room) {
      blocks.push(current);
      current = [];
      used = 0;
    }
    used += (current.length > 0 ? GAP : 0) + w;
    current.push(c);
  }
  if (current.length > 0 || blocks.length === 0) blocks.push(current);
  return blocks
    .map((block) => {
      const columns = [...all.slice(0, keys), ...block];
      const widths = [...keyWidths, ...block.map((c) => Math.min(natural[c] ?? 0, room))];
      return renderBlock(lines, columns, widths);
    })
    .join('\n\n');
}

/** A rate in the terminal's short form: `98.0 [94, 100]` (percent; the interval in whole points). */
export function shortRate(e: Pick<Estimate, 'value' | 'ci'> | null | undefined): string {
  if (!e || e.value === null) return '–';
  const point = (100 * e.value).toFixed(1);
  return e.ci ? `${point} [${Math.round(100 * e.ci[0])}, ${Math.round(100 * e.ci[1])}]` : point;
}

const signedShort = (x: number, digits: number): string => `${x > 0 ? '+' : x < 0 ? '−' : '±'}${(100 * Math.abs(x)).toFixed(digits)}`;

/** A paired difference in the terminal's short form: `+70.0 [+52, +86]`. */
export function shortDifference(d: PairedDifference | null): string {
  if (!d || d.value === null) return '–';
  return `${signedShort(d.value, 1)}${d.ci ? ` [${signedShort(d.ci[0], 0)}, ${signedShort(d.ci[1], 0)}]` : ''}`;
}

/** The terminal table's columns by default: the figures a comparison is read by (the rest with `details`). */
export const SHORT_HEADERS = ['system', 'success %', 'Δ pts', 'hand-off F1 %', 'over-esc. %', 'pos/neg'] as const;

/** A row's cells in the terminal's short form (the baseline is named under the table). */
export function shortRowCells(row: ComparisonRow): string[] {
  return [
    row.system,
    shortRate(row.success),
    shortDifference(row.difference),
    shortRate(row.f1),
    shortRate(row.over_escalation),
    `${row.positives}/${row.negatives}`,
  ];
}

export interface TextOptions {
  /** Every column in full (pass^k, worst style, intervals to a tenth), as wide as it takes. */
  details?: boolean;
  /** The widest a line may be without `details` (default `TERMINAL_WIDTH`). */
  width?: number;
}

/**
 * The table as plain text for a terminal: the short form within 100 columns (intervals in whole
 * points, percent), or with `details` every column in full.
 */
export function comparisonText(comparison: Comparison, options: TextOptions = {}): string {
  const best = bestSystem(comparison);
  const note = best ? `best: ${best} (highest success; ties by F1, then over-escalation)` : null;
  if (options.details) {
    return textTable([TABLE_HEADERS.slice(), ...comparison.rows.map((r) => rowCells(r, comparison.baseline))]) + (note ? `\n${note}` : '');
  }
  const width = options.width ?? TERMINAL_WIDTH;
  const table = textTable([SHORT_HEADERS.slice(), ...comparison.rows.map((r) => shortRowCells(r))], { maxWidth: width });
  const legend = [
    `baseline: ${comparison.baseline}; Δ pts: success minus the baseline's on the tasks both ran.`,
    ...(note ? [note] : []),
    'Intervals: 95% bootstrap over tasks, in whole points. --details: pass^k, worst style, every digit.',
  ];
  return [table, ...legend.map((l) => wrapText(l, width, '  '))].join('\n');
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

/** The per-kind table as plain text: within 100 columns (`handed off %` and counts per system), or in full with `details`. */
export function kindText(rows: readonly KindRow[], systems: readonly string[], options: TextOptions = {}): string {
  if (options.details) return textTable(kindCells(rows, systems));
  const lines = [
    ['task kind', 'expected', ...systems.map((s) => clipText(s, 24))],
    ...rows.map((row) => [
      row.kind,
      row.expected,
      ...systems.map((system) => {
        const cell = row.bySystem.find((c) => c.system === system);
        return cell && cell.rate.value !== null ? `${Math.round(100 * cell.rate.value)}% ${cell.transferred}/${cell.episodes}` : '–';
      }),
    ]),
  ];
  // Kinds are read by name: the systems' columns split into blocks before a kind is cut.
  return textTable(lines, { maxWidth: options.width ?? TERMINAL_WIDTH, keyColumns: 2, minKeyWidth: 40 });
}
