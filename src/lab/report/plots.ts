/**
 * The report's plots, rendered to SVG at report time with Observable Plot on a linkedom document
 * (no browser, no script in the report): success per style with intervals, hand-off outcomes per
 * system, recall against over-escalation, and hand-off timing. Each plot's axes come from its
 * data (a rate axis spans the data's intervals, rounded out to tenths; margins fit the longest
 * name), marks at an axis's end are inset so none is clipped, and a plot with nothing to draw is
 * left out with a line saying why (`omitted`), never drawn empty.
 */
import * as Plot from '@observablehq/plot';
import { parseHTML } from 'linkedom';
import type { LoadedRun } from './load.js';
import { clipText } from './table.js';

export interface ReportPlot {
  id: string;
  title: string;
  caption: string;
  /** Serialized SVG (or a figure holding a legend and an SVG); null when there is nothing to draw. */
  svg: string | null;
  /** Why the plot is left out, when `svg` is null. */
  omitted?: string;
}

/**
 * The span of a rate axis for these values (intervals included): from the lowest rounded down to
 * a tenth to the highest rounded up, within [0, 1], at least 0.2 wide. A rate axis that does not
 * start at 0 says so in its plot's caption.
 */
export function rateDomain(values: readonly (number | null | undefined)[]): [number, number] {
  const xs = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  if (xs.length === 0) return [0, 1];
  let lo = Math.max(0, Math.floor(Math.min(...xs) * 10 + 1e-9) / 10);
  let hi = Math.min(1, Math.ceil(Math.max(...xs) * 10 - 1e-9) / 10);
  if (hi - lo < 0.2) {
    if (hi >= 1) lo = Math.max(0, hi - 0.2);
    else hi = Math.min(1, lo + 0.2);
  }
  return [Math.round(lo * 10) / 10, Math.round(hi * 10) / 10];
}

const axisNote = (name: string, [lo, hi]: [number, number]) =>
  lo > 0 || hi < 1 ? ` The ${name} axis spans ${Math.round(lo * 100)}%–${Math.round(hi * 100)}%, the data's range.` : '';

/** A left margin wide enough for the longest name (system names label the rows). */
const NAME_MARGIN_MAX = 320;
const nameMargin = (names: readonly string[]) => Math.min(NAME_MARGIN_MAX, 16 + 7 * Math.max(4, ...names.map((n) => n.length)));
/** A name as a row label: cut (ellipsis in the middle) past what the widest margin holds. */
const rowName = (name: string) => clipText(name, Math.floor((NAME_MARGIN_MAX - 16) / 7));

const WIDTH = 760;

function render(options: Plot.PlotOptions): string {
  const { document } = parseHTML('<!doctype html><html><body></body></html>');
  const node = Plot.plot({
    ...options,
    document: document as unknown as NonNullable<Plot.PlotOptions['document']>,
    width: options.width ?? WIDTH,
  });
  // Plot labels its mark groups with aria-label; on a bare <g> that is not allowed, as a group it is.
  const element = node as unknown as {
    outerHTML: string;
    querySelectorAll(s: string): Iterable<{ setAttribute(k: string, v: string): void }>;
  };
  for (const g of element.querySelectorAll('g[aria-label]')) g.setAttribute('role', 'group');
  return element.outerHTML;
}

const systemColor = (runs: readonly LoadedRun[]) => ({ domain: runs.map((r) => r.system), legend: true, scheme: 'tableau10' as const });

export function successByStylePlot(runs: readonly LoadedRun[]): ReportPlot {
  const data = runs.flatMap((r) =>
    Object.entries(r.metrics.metrics.by_style)
      .filter(([, f]) => f.value !== null)
      .map(([style, f]) => ({ system: r.system, style, value: f.value as number, lo: f.ci?.[0] ?? f.value, hi: f.ci?.[1] ?? f.value })),
  );
  const title = 'Success per customer style';
  if (data.length === 0) return { id: 'plot-style', title, caption: '', svg: null, omitted: 'no scored episodes, so no success to plot' };
  const y = rateDomain(data.flatMap((d) => [d.lo, d.hi, d.value]));
  const svg = render({
    height: 320,
    marginBottom: 50,
    fx: { label: 'customer style', padding: 0.15 },
    x: { domain: runs.map((r) => r.system), axis: null },
    y: { domain: y, grid: true, label: 'success', tickFormat: '.0%', insetTop: 8, insetBottom: 8 },
    color: systemColor(runs),
    marks: [
      Plot.ruleX(data, { fx: 'style', x: 'system', y1: 'lo', y2: 'hi', stroke: 'system', strokeWidth: 2 }),
      Plot.dot(data, {
        fx: 'style',
        x: 'system',
        y: 'value',
        fill: 'system',
        r: 4,
        title: (d: (typeof data)[number]) => `${d.system}, ${d.style}: ${(100 * d.value).toFixed(1)}%`,
      }),
      Plot.frame({ stroke: '#ddd' }),
    ],
  });
  return { id: 'plot-style', title, caption: `Dots: success; bars: 95% bootstrap interval over tasks.${axisNote('success', y)}`, svg };
}

const CLASS_LABELS: Record<string, string> = {
  tp: 'handed off, due (TP)',
  fn: 'missed (FN)',
  fp: 'over-escalated (FP)',
  tn: 'kept, correctly (TN)',
};

export function handoffOutcomesPlot(runs: readonly LoadedRun[]): ReportPlot {
  const data = runs.flatMap((r) => {
    const h = r.metrics.metrics.handoff;
    return (['tp', 'fn', 'fp', 'tn'] as const).map((c) => ({ system: r.system, outcome: CLASS_LABELS[c] as string, count: h[c] }));
  });
  const title = 'Hand-off outcomes per system';
  if (data.every((d) => d.count === 0)) return { id: 'plot-outcomes', title, caption: '', svg: null, omitted: 'no episodes to count' };
  const svg = render({
    height: 60 + 40 * runs.length,
    marginLeft: nameMargin(runs.map((r) => r.system)),
    marginRight: 24,
    x: { label: 'episodes', grid: true },
    y: { label: null, domain: runs.map((r) => r.system), tickFormat: rowName },
    color: { domain: Object.values(CLASS_LABELS), range: ['#2e7d32', '#c62828', '#ef6c00', '#90a4ae'], legend: true },
    marks: [Plot.barX(data, { y: 'system', x: 'count', fill: 'outcome' }), Plot.ruleX([0])],
  });
  return {
    id: 'plot-outcomes',
    title,
    caption: 'Episodes by hand-off class against the label (should / should not transfer).',
    svg,
  };
}

export function recallVsOverEscalationPlot(runs: readonly LoadedRun[]): ReportPlot {
  const data = runs.map((r) => {
    const h = r.metrics.metrics.handoff;
    return {
      system: r.system,
      recall: h.recall.value,
      recallLo: h.recall.ci?.[0] ?? h.recall.value,
      recallHi: h.recall.ci?.[1] ?? h.recall.value,
      over: h.over_escalation.value,
      overLo: h.over_escalation.ci?.[0] ?? h.over_escalation.value,
      overHi: h.over_escalation.ci?.[1] ?? h.over_escalation.value,
    };
  });
  const defined = data.filter((d) => d.recall !== null && d.over !== null);
  const title = 'Recall against over-escalation';
  if (defined.length === 0) {
    return {
      id: 'plot-recall',
      title,
      caption: '',
      svg: null,
      omitted: 'recall or over-escalation is undefined for every run (no positive or no negative episodes)',
    };
  }
  const x = rateDomain(defined.flatMap((d) => [d.over, d.overLo, d.overHi]));
  const y = rateDomain(defined.flatMap((d) => [d.recall, d.recallLo, d.recallHi]));
  const svg = render({
    height: 360,
    marginRight: 24,
    inset: 10,
    x: { domain: x, label: 'over-escalation (share of should-not-transfer handed off) →', tickFormat: '.0%', grid: true },
    y: { domain: y, label: '↑ recall (share of due hand-offs made)', tickFormat: '.0%', grid: true },
    color: systemColor(runs),
    marks: [
      Plot.ruleX(defined, { x: 'over', y1: 'recallLo', y2: 'recallHi', stroke: 'system' }),
      Plot.ruleY(defined, { y: 'recall', x1: 'overLo', x2: 'overHi', stroke: 'system' }),
      // Systems are told apart by the legend's colours (labels beside the dots overlap when systems coincide).
      Plot.dot(defined, {
        x: 'over',
        y: 'recall',
        fill: 'system',
        r: 5,
        title: (d: (typeof defined)[number]) =>
          `${d.system}: recall ${(100 * (d.recall ?? 0)).toFixed(1)}%, over-escalation ${(100 * (d.over ?? 0)).toFixed(1)}%`,
      }),
    ],
  });
  return {
    id: 'plot-recall',
    title,
    caption: `Top left is best. Lines: 95% intervals on each axis.${axisNote('over-escalation', x)}${axisNote('recall', y)}`,
    svg,
  };
}

export function handoffTimingPlot(runs: readonly LoadedRun[]): ReportPlot {
  const counts = new Map<string, { system: string; lateness: number; count: number }>();
  for (const r of runs) {
    for (const a of r.analyses) {
      if (!a.timing) continue;
      const key = `${r.system}\u0000${a.timing.lateness}`;
      const entry = counts.get(key) ?? { system: r.system, lateness: a.timing.lateness, count: 0 };
      entry.count += 1;
      counts.set(key, entry);
    }
  }
  const data = [...counts.values()];
  const title = 'Hand-off timing';
  if (data.length === 0) {
    return { id: 'plot-timing', title, caption: '', svg: null, omitted: 'no true-positive hand-off with a known due turn to time' };
  }
  // Every lateness from the earliest to the latest, so the axis reads as turns (a gap is a zero).
  const lo = Math.min(...data.map((d) => d.lateness));
  const hi = Math.max(...data.map((d) => d.lateness));
  const facets = runs.map((r) => r.system).filter((s) => data.some((d) => d.system === s));
  const svg = render({
    height: 300,
    x: {
      label: 'customer turns after the due turn (0: on time; negative: early)',
      type: 'band',
      domain: Array.from({ length: hi - lo + 1 }, (_, i) => lo + i),
    },
    y: { label: 'due hand-offs', grid: true },
    // A facet is a system: its name is cut to the facet's width (the legend gives it whole).
    fx: { label: null, domain: facets, tickFormat: (name: string) => clipText(name, Math.floor((WIDTH - 60) / facets.length / 7)) },
    color: systemColor(runs),
    marks: [Plot.barY(data, { fx: 'system', x: 'lateness', y: 'count', fill: 'system' }), Plot.ruleY([0])],
  });
  return {
    id: 'plot-timing',
    title,
    caption: 'True-positive hand-offs with a known due turn, by lateness in customer turns.',
    svg,
  };
}

export function reportPlots(runs: readonly LoadedRun[]): ReportPlot[] {
  return [successByStylePlot(runs), handoffOutcomesPlot(runs), recallVsOverEscalationPlot(runs), handoffTimingPlot(runs)];
}
