/**
 * The report's plots, rendered to SVG at report time with Observable Plot on a linkedom document
 * (no browser, no script in the report): success per style with intervals, hand-off outcomes per
 * system, recall against over-escalation, and hand-off timing.
 */
import * as Plot from '@observablehq/plot';
import { parseHTML } from 'linkedom';
import type { LoadedRun } from './load.js';

export interface ReportPlot {
  id: string;
  title: string;
  caption: string;
  /** Serialized SVG (or a figure holding a legend and an SVG). */
  svg: string;
}

const WIDTH = 760;

function render(options: Plot.PlotOptions): string {
  const { document } = parseHTML('<!doctype html><html><body></body></html>');
  const node = Plot.plot({
    ...options,
    document: document as unknown as NonNullable<Plot.PlotOptions['document']>,
    width: options.width ?? WIDTH,
  });
  return (node as unknown as { outerHTML: string }).outerHTML;
}

const systemColor = (runs: readonly LoadedRun[]) => ({ domain: runs.map((r) => r.system), legend: true, scheme: 'tableau10' as const });

export function successByStylePlot(runs: readonly LoadedRun[]): ReportPlot {
  const data = runs.flatMap((r) =>
    Object.entries(r.metrics.metrics.by_style)
      .filter(([, f]) => f.value !== null)
      .map(([style, f]) => ({ system: r.system, style, value: f.value as number, lo: f.ci?.[0] ?? f.value, hi: f.ci?.[1] ?? f.value })),
  );
  const svg = render({
    height: 320,
    marginBottom: 50,
    fx: { label: 'customer style', padding: 0.15 },
    x: { domain: runs.map((r) => r.system), axis: null },
    y: { domain: [0, 1], grid: true, label: 'success', tickFormat: '.0%' },
    color: systemColor(runs),
    marks: [
      Plot.ruleX(data, { fx: 'style', x: 'system', y1: 'lo', y2: 'hi', stroke: 'system', strokeWidth: 2 }),
      Plot.dot(data, { fx: 'style', x: 'system', y: 'value', fill: 'system', r: 4, tip: false }),
      Plot.frame({ stroke: '#ddd' }),
    ],
  });
  return { id: 'plot-style', title: 'Success per customer style', caption: 'Dots: success; bars: 95% bootstrap interval over tasks.', svg };
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
  const svg = render({
    height: 60 + 40 * runs.length,
    marginLeft: 140,
    x: { label: 'episodes', grid: true },
    y: { label: null, domain: runs.map((r) => r.system) },
    color: { domain: Object.values(CLASS_LABELS), range: ['#2e7d32', '#c62828', '#ef6c00', '#90a4ae'], legend: true },
    marks: [Plot.barX(data, { y: 'system', x: 'count', fill: 'outcome' }), Plot.ruleX([0])],
  });
  return {
    id: 'plot-outcomes',
    title: 'Hand-off outcomes per system',
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
  const svg = render({
    height: 360,
    marginRight: 130,
    inset: 8,
    x: { domain: [0, 1], label: 'over-escalation (share of should-not-transfer handed off) →', tickFormat: '.0%', grid: true },
    y: { domain: [0, 1], label: '↑ recall (share of due hand-offs made)', tickFormat: '.0%', grid: true },
    color: systemColor(runs),
    marks: [
      Plot.ruleX(defined, { x: 'over', y1: 'recallLo', y2: 'recallHi', stroke: 'system' }),
      Plot.ruleY(defined, { y: 'recall', x1: 'overLo', x2: 'overHi', stroke: 'system' }),
      Plot.dot(defined, { x: 'over', y: 'recall', fill: 'system', r: 5 }),
      Plot.text(defined, { x: 'over', y: 'recall', text: 'system', dx: 8, dy: -8, textAnchor: 'start' }),
    ],
  });
  return {
    id: 'plot-recall',
    title: 'Recall against over-escalation',
    caption: 'Top left is best. Lines: 95% intervals on each axis.',
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
  const svg = render({
    height: 300,
    x: { label: 'customer turns after the due turn (0: on time; negative: early)', type: 'band' },
    y: { label: 'due hand-offs', grid: true },
    fx: { label: null },
    color: systemColor(runs),
    marks:
      data.length === 0
        ? [Plot.text(['no timed hand-offs'], { frameAnchor: 'middle' })]
        : [Plot.barY(data, { fx: 'system', x: 'lateness', y: 'count', fill: 'system' }), Plot.ruleY([0])],
  });
  return {
    id: 'plot-timing',
    title: 'Hand-off timing',
    caption: 'True-positive hand-offs with a known due turn, by lateness in customer turns.',
    svg,
  };
}

export function reportPlots(runs: readonly LoadedRun[]): ReportPlot[] {
  return [successByStylePlot(runs), handoffOutcomesPlot(runs), recallVsOverEscalationPlot(runs), handoffTimingPlot(runs)];
}
