/**
 * The training report's plots: one per monitored figure over the training steps, rendered to SVG
 * with Observable Plot on a linkedom document (as the run report's plots are), the windows of the
 * loophole alerts shaded and the step each was raised at marked.
 */
import * as Plot from '@observablehq/plot';
import { parseHTML } from 'linkedom';
import type { MonitorAlert, MonitorRun, StepFigures } from '../monitor/index.js';
import type { ReportPlot } from './plots.js';

const WIDTH = 760;

function render(options: Plot.PlotOptions): string {
  const { document } = parseHTML('<!doctype html><html><body></body></html>');
  const node = Plot.plot({ ...options, document: document as unknown as NonNullable<Plot.PlotOptions['document']>, width: WIDTH });
  return (node as unknown as { outerHTML: string }).outerHTML;
}

/** A figure of a step: its name, label, whether it is a share, and how to read it. */
interface Curve {
  id: string;
  title: string;
  caption: string;
  share: boolean;
  value: (s: StepFigures) => number | null;
  /** The alerts drawn on it: those of this rate, or every alert (success, reward). */
  alerts: (a: MonitorAlert) => boolean;
}

const CURVES: readonly Curve[] = [
  {
    id: 'curve-success',
    title: 'Success',
    caption: 'Successes over scored episodes, per step.',
    share: true,
    value: (s) => s.success.rate,
    alerts: () => true,
  },
  {
    id: 'curve-handoff-rate',
    title: 'Hand-off rate',
    caption: 'Episodes handed off over all episodes, per step.',
    share: true,
    value: (s) => s.handoff_rate.rate,
    alerts: (a) => a.metric === 'handoff_rate',
  },
  {
    id: 'curve-over-escalation',
    title: 'Over-escalation',
    caption: 'Unnecessary hand-offs over should-not-transfer episodes (FP / negatives), per step.',
    share: true,
    value: (s) => s.over_escalation.rate,
    alerts: (a) => a.metric === 'over_escalation',
  },
  {
    id: 'curve-missed',
    title: 'Missed hand-offs',
    caption: 'Due hand-offs not made over should-transfer episodes (FN / positives), per step.',
    share: true,
    value: (s) => s.missed.rate,
    alerts: () => false,
  },
  {
    id: 'curve-citation',
    title: 'Policy citation rate',
    caption: 'Refusals and hand-offs that cite the policy over all of them, per step.',
    share: true,
    value: (s) => s.citation_rate.rate,
    alerts: () => false,
  },
  {
    id: 'curve-reward',
    title: 'Mean reward',
    caption: 'The mean reward paid per step.',
    share: false,
    value: (s) => s.reward,
    alerts: () => true,
  },
];

/** The shaded windows and raise markers of some alerts. */
function alertMarks(alerts: readonly MonitorAlert[]): Plot.Markish[] {
  const windows = alerts.map((a) => ({ from: a.from_step, to: a.to_step, raised: a.raised_at_step, id: a.id }));
  return windows.length === 0
    ? []
    : [
        Plot.rectX(windows, { x1: 'from', x2: 'to', fill: '#c62828', fillOpacity: 0.12 }),
        Plot.ruleX(windows, { x: 'raised', stroke: '#c62828', strokeDasharray: '4,3' }),
      ];
}

function curvePlot(run: MonitorRun, curve: Curve): ReportPlot {
  const data = run.steps.flatMap((s) => {
    const value = curve.value(s);
    return value === null ? [] : [{ step: s.step, value, episodes: s.episodes }];
  });
  const alerts = run.alerts.filter(curve.alerts);
  const svg = render({
    height: 220,
    marginLeft: 50,
    x: { label: 'training step →', grid: true },
    y: curve.share ? { domain: [0, 1], grid: true, label: curve.title, tickFormat: '.0%' } : { grid: true, label: curve.title },
    marks:
      data.length === 0
        ? [Plot.text(['no step has this figure yet'], { frameAnchor: 'middle' })]
        : [
            ...alertMarks(alerts),
            Plot.line(data, { x: 'step', y: 'value', stroke: '#1f4e79' }),
            Plot.dot(data, { x: 'step', y: 'value', r: 2, fill: '#1f4e79' }),
          ],
  });
  const shaded =
    alerts.length > 0 ? ` Shaded: the steps of ${alerts.map((a) => a.id).join(', ')}; dashed: the step each was raised at.` : '';
  return { id: curve.id, title: curve.title, caption: `${curve.caption}${shaded}`, svg };
}

/** Each reward component's mean per step, one line per component. */
function componentsPlot(run: MonitorRun): ReportPlot {
  const data = run.steps.flatMap((s) => Object.entries(s.components).map(([component, value]) => ({ step: s.step, component, value })));
  const svg = render({
    height: 260,
    marginLeft: 50,
    x: { label: 'training step →', grid: true },
    y: { grid: true, label: 'mean per episode' },
    color: { legend: true, scheme: 'tableau10' },
    marks:
      data.length === 0
        ? [Plot.text(['no numeric reward components'], { frameAnchor: 'middle' })]
        : [...alertMarks(run.alerts), Plot.line(data, { x: 'step', y: 'value', stroke: 'component' })],
  });
  return { id: 'curve-components', title: 'Reward by component', caption: 'The mean of each numeric reward component per step.', svg };
}

/** Every plot of the training report, in order. */
export function trainingPlots(run: MonitorRun): ReportPlot[] {
  return [...CURVES.map((c) => curvePlot(run, c)), componentsPlot(run)];
}
