/**
 * `baton report --training RUN`: one self-contained HTML page of a training run as the
 * environment server's monitor saw it (`monitor.jsonl`): what was served and how steps were
 * counted, the alerts with their windows and numbers, one plot per figure over the steps with the
 * alert windows shaded, and the last steps' figures as a table. No script, no network; every text
 * from the file is escaped.
 */
import { readMonitorRun, type MonitorRun, type StepFigures } from '../monitor/index.js';
import { escapeHtml } from './html.js';
import { trainingPlots } from './training-plots.js';

const pct = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)}%`);

const STYLE = `
:root { --fg:#1d2327; --muted:#5f6b73; --line:#d9dee2; --soft:#f5f7f8; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); margin: 0 auto; max-width: 1000px; padding: 24px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 18px; margin: 28px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
.sub, .caption { color: var(--muted); font-size: 12.5px; }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
th, td { border-bottom: 1px solid var(--line); padding: 5px 8px; text-align: left; vertical-align: top; }
th { background: var(--soft); font-weight: 600; }
.alert { border-left: 4px solid #c62828; background: #fdf0f0; padding: 8px 12px; margin: 8px 0; }
.none { border-left: 4px solid #2e7d32; background: #eef7ee; padding: 8px 12px; }
figure.plot { margin: 0 0 16px; border: 1px solid var(--line); border-radius: 6px; padding: 12px; }
figure.plot h3 { margin: 0 0 6px; font-size: 15px; }
figure.plot svg { max-width: 100%; height: auto; }
`;

function alertsHtml(run: MonitorRun): string {
  if (run.alerts.length === 0)
    return `<p class="none" id="no-alerts">No alert: over ${run.steps.length} steps neither the hand-off rate nor over-escalation climbed beyond success.</p>`;
  return run.alerts
    .map(
      (a) =>
        `<div class="alert" id="${escapeHtml(a.id)}"><strong>${escapeHtml(a.id)}</strong> — ${escapeHtml(a.metric)}, steps ${a.from_step}–${a.to_step}` +
        ` (raised after step ${a.raised_at_step}; ${a.open ? 'still holding' : `stopped holding at step ${a.closed_at_step ?? '?'}`})<br>${escapeHtml(a.message)}</div>`,
    )
    .join('\n');
}

function stepsTable(steps: readonly StepFigures[]): string {
  const rows = steps
    .slice(-30)
    .map(
      (s) =>
        `<tr><td>${s.step}</td><td>${s.episodes}</td><td>${pct(s.success.rate)}</td><td>${pct(s.handoff_rate.rate)}</td><td>${pct(s.over_escalation.rate)} <span class="sub">of ${s.negatives}</span></td><td>${pct(s.missed.rate)} <span class="sub">of ${s.positives}</span></td><td>${pct(s.citation_rate.rate)}</td><td>${s.reward === null ? '—' : s.reward.toFixed(3)}</td></tr>`,
    )
    .join('');
  return `<table class="steps"><thead><tr><th>step</th><th>episodes</th><th>success</th><th>hand-off rate</th><th>over-escalation</th><th>missed</th><th>citation</th><th>mean reward</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** The training report of a monitor's run, as one HTML page. */
export function renderTrainingReport(run: MonitorRun, title = 'Training run'): string {
  const about = Object.entries(run.about)
    .map(([k, v]) => `${escapeHtml(k)} ${escapeHtml(v)}`)
    .join(' · ');
  const d = run.config.detector;
  const plots = trainingPlots(run);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body>
<h1>${escapeHtml(title)}</h1>
<p class="sub">${about}${about ? ' · ' : ''}monitor started ${escapeHtml(run.started)} · ${run.steps.length} steps closed · file ${escapeHtml(run.path)}</p>
<p class="sub">Steps: windows of ${run.config.windowEpisodes} finished episodes, or the trainer's own (POST /monitor/step). Alert: a change-point test (GLR for a change of slope after a flat baseline of at least ${d.minBaselineSteps} steps, the change among the last ${d.maxClimbSteps} steps, all within the last ${d.historySteps}) finds the hand-off rate or over-escalation climbing (z ≥ ${d.z}, fitted rise ≥ ${pct(d.minRise)}) and climbing beyond success by as much (the same test on their difference) since the same step; a raised alert holds while the same shows at half those thresholds.</p>
<h2>Alerts</h2>
${alertsHtml(run)}
<h2>Curves</h2>
${plots.map((p) => `<figure class="plot" id="${p.id}"><h3>${escapeHtml(p.title)}</h3>${p.svg}<figcaption class="caption">${escapeHtml(p.caption)}</figcaption></figure>`).join('\n')}
<h2>Last steps</h2>
${stepsTable(run.steps)}
</body></html>
`;
}

/** Reads a monitor folder (or its `monitor.jsonl`) and renders its training report. */
export function buildTrainingReport(monitorDir: string): { html: string; run: MonitorRun } {
  const run = readMonitorRun(monitorDir);
  return { html: renderTrainingReport(run), run };
}
