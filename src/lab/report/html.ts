/**
 * `baton report`: one self-contained HTML file comparing runs — the comparison table, plots
 * rendered to SVG at report time, and a dialogue viewer over every episode. No network is needed
 * to open it: styles and the viewer's script are inline, and the episodes are embedded once as
 * JSON. Every piece of text from a run is escaped (it holds customer data).
 */
import { infrastructureFailure, type EpisodeAnalysis } from '../metrics/index.js';
import type { EpisodeRecord } from '../records.js';
import { basename } from 'node:path';
import { loadRuns, partialText, taskSetOf, type LoadedRun, type LoadOptions } from './load.js';
import { reportPlots } from './plots.js';
import { compareRuns, kindCells, kindRows, rowCells, TABLE_HEADERS, type Comparison } from './table.js';
import { VIEWER_SCRIPT } from './viewer-script.js';

export interface ReportOptions extends LoadOptions {
  /** The system every other is compared with (default: the first run's). */
  baseline?: string;
  /** The report's title. */
  title?: string;
}

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** JSON safe inside a `<script>` element: no `<`, `>`, `&` or line separators left as such. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** One episode as the viewer needs it (short keys: the file holds every episode of every run). */
export function viewerEpisode(systemIndex: number, record: EpisodeRecord, analysis: EpisodeAnalysis) {
  const inf = infrastructureFailure(record);
  return {
    ...(inf ? { inf } : {}),
    s: systemIndex,
    key: record.key,
    kind: record.kind,
    style: record.style,
    trial: record.trial,
    should: record.label.should_transfer,
    due: record.label.due_turn,
    rule: record.label.label_rule,
    success: analysis.success,
    cls: analysis.handoff_class,
    target: analysis.target,
    term: record.termination,
    h: record.evaluation.handoff.transferred ? record.evaluation.handoff.message : null,
    p: record.packet,
    v: analysis.violations.map((v) => [v.message, v.rule, v.tool] as const),
    c: analysis.citations.map((c) => [c.from, c.to, c.terms, c.cited, c.kind] as const),
    m: record.messages.map((m) =>
      m.role === 'tool'
        ? { r: 'tool', c: m.content, e: m.error, ...(m.executed === false ? { x: false } : {}) }
        : { r: m.role, c: m.content, ...(m.toolCalls.length > 0 ? { t: m.toolCalls.map((t) => ({ n: t.name, a: t.arguments })) } : {}) },
    ),
  };
}

const STYLE = `
:root { --fg:#1d2327; --muted:#5f6b73; --line:#d9dee2; --bg:#fff; --soft:#f5f7f8; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); margin: 0 auto; max-width: 1200px; padding: 24px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 18px; margin: 32px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
.sub, .caption, .notes { color: var(--muted); font-size: 12.5px; }
table.comparison { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
table.comparison th, table.comparison td { border-bottom: 1px solid var(--line); padding: 6px 8px; text-align: left; vertical-align: top; }
table.comparison th { background: var(--soft); font-weight: 600; }
table.comparison tr.baseline td { background: #fbf8e9; }
table.kinds td.off { background: #fde7e7; }
.plots { display: grid; grid-template-columns: 1fr; gap: 16px; }
figure.plot { margin: 0; border: 1px solid var(--line); border-radius: 6px; padding: 12px; }
figure.plot h3 { margin: 0 0 6px; font-size: 15px; }
figure.plot svg { max-width: 100%; height: auto; }
.filters { display: flex; flex-wrap: wrap; gap: 10px; align-items: end; background: var(--soft); padding: 10px; border-radius: 6px; }
.filters label { display: flex; flex-direction: column; font-size: 12px; color: var(--muted); }
#episode-count { margin: 8px 0; color: var(--muted); }
details.episode { border: 1px solid var(--line); border-radius: 6px; margin: 6px 0; padding: 6px 10px; }
details.episode summary { cursor: pointer; display: flex; gap: 8px; flex-wrap: wrap; align-items: center; }
.sys { font-weight: 600; } .key { font-family: ui-monospace, monospace; font-size: 12.5px; }
.tag { font-size: 11.5px; border-radius: 10px; padding: 1px 8px; background: #eceff1; }
.tag.ok { background: #e3f4e4; color: #1b5e20; } .tag.bad { background: #fde7e7; color: #b71c1c; }
.tag.cls-tp { background: #e3f4e4; } .tag.cls-fn { background: #fde7e7; } .tag.cls-fp { background: #fff0e0; }
.meta { color: var(--muted); font-size: 12.5px; margin: 6px 0; } .meta .rule { font-style: italic; }
.msg { display: flex; gap: 12px; margin: 6px 0; align-items: flex-start; }
.bubble { flex: 1 1 auto; max-width: 760px; border-radius: 8px; padding: 6px 10px; background: var(--soft); white-space: pre-wrap; overflow-wrap: anywhere; }
.msg.user .bubble { background: #eef4fb; } .msg.assistant .bubble { background: #f4f1fa; } .msg.tool .bubble { background: #f6f6f2; font-size: 12.5px; }
.who { font-size: 11.5px; color: var(--muted); }
.call { font-family: ui-monospace, monospace; font-size: 12px; color: #37474f; }
.msg.handoff .bubble { outline: 3px solid #1565c0; }
.msg.violation .bubble { border-left: 4px solid #c62828; }
.badge { display: inline-block; font-size: 11.5px; margin-top: 4px; padding: 1px 6px; border-radius: 4px; }
.badge.viol { background: #fde7e7; color: #b71c1c; } .badge.cite-yes { background: #e8f5e9; color: #1b5e20; } .badge.cite-no { background: #fff3e0; color: #8d4a00; }
mark.cited { background: #fff59d; }
aside.packet { flex: 0 0 380px; border: 2px solid #1565c0; border-radius: 6px; padding: 6px 8px; background: #f3f8fe; }
aside.packet pre { margin: 4px 0 0; font-size: 11.5px; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 420px; overflow: auto; }
button { font: inherit; }
.warnings { border: 2px solid #c62828; background: #fde7e7; border-radius: 6px; padding: 4px 12px; margin: 8px 0; }
.warnings p { margin: 4px 0; font-weight: 600; } b.warn { color: #b71c1c; }
`;

function tableHtml(comparison: Comparison): string {
  const head = `<tr>${TABLE_HEADERS.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('')}</tr>`;
  const rows = comparison.rows
    .map((row) => {
      const cells = rowCells(row, comparison.baseline);
      const cls = row.system === comparison.baseline ? ' class="baseline"' : '';
      return `<tr${cls} data-system="${escapeHtml(row.system)}">${cells.map((c, i) => (i === 0 ? `<th scope="row">${escapeHtml(c)}</th>` : `<td>${escapeHtml(c)}</td>`)).join('')}</tr>`;
    })
    .join('\n');
  return `<table class="comparison" id="comparison"><thead>${head}</thead><tbody>\n${rows}\n</tbody></table>`;
}

/** Hand-off rate per task kind and system; a cell is marked when its kind's expectation is not met by most episodes. */
function kindHtml(runs: readonly LoadedRun[]): string {
  const rows = kindRows(runs);
  const systems = runs.map((r) => r.system);
  const [head = [], ...body] = kindCells(rows, systems);
  const headHtml = `<tr>${head.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('')}</tr>`;
  const bodyHtml = body
    .map((cells, r) => {
      const row = rows[r];
      return `<tr data-kind="${escapeHtml(row?.kind ?? '')}">${cells
        .map((c, i) => {
          if (i === 0) return `<th scope="row">${escapeHtml(c)}</th>`;
          const cell = i >= 2 ? row?.bySystem.find((b) => b.system === systems[i - 2]) : undefined;
          const rate = cell?.rate.value;
          const off =
            rate !== null &&
            rate !== undefined &&
            ((row?.expected === 'hand off' && rate < 0.5) || (row?.expected === 'keep' && rate > 0.5));
          return `<td${off ? ' class="off"' : ''}>${escapeHtml(c)}</td>`;
        })
        .join('')}</tr>`;
    })
    .join('\n');
  return `<table class="comparison kinds" id="kinds"><thead>${headHtml}</thead><tbody>\n${bodyHtml}\n</tbody></table>`;
}

/** What a reader must know before reading the table: partial runs, infrastructure failures, mixed task sets. */
function warningsHtml(runs: readonly LoadedRun[]): string {
  const lines = runs.flatMap((r) => {
    const partial = partialText(r);
    const infra = r.metrics.infrastructure;
    return [
      ...(partial ? [`${r.system}: ${partial}; its figures are of the episodes that ran.`] : []),
      ...(infra ? [`${r.system}: ${infra.failed} of ${infra.of} episodes failed for infrastructure reasons and are left out.`] : []),
    ];
  });
  if (new Set(runs.map((r) => r.domain)).size > 1 || new Set(runs.map(taskSetOf)).size > 1) {
    lines.push('These runs are of different domains or task sets (--allow-mixed): their rows are not a like-for-like comparison.');
  }
  return lines.length === 0 ? '' : `<div class="warnings" id="warnings">${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')}</div>`;
}

function runsHtml(runs: readonly LoadedRun[]): string {
  const items = runs.map((r) => {
    const c = (r.run['config'] ?? {}) as Record<string, unknown>;
    const bits = [
      `domain ${String(c['domain'] ?? r.domain)}`,
      `tasks ${String(c['tasks'] ?? '?')}`,
      `split ${String(c['split'] ?? '?')}`,
      `user ${String(c['user'] ?? '?')}`,
      `trials ${String(c['trials'] ?? '?')}`,
      `seed ${String(c['seed'] ?? '?')}`,
      `${r.metrics.counts.episodes} episodes over ${r.metrics.counts.tasks} tasks`,
      `git ${String(r.run['git_sha'] ?? '?').slice(0, 12)}`,
    ];
    const partial = partialText(r);
    const infra = r.metrics.infrastructure;
    const warnings = [
      ...(partial ? [partial] : []),
      ...(infra ? [`${infra.failed} of ${infra.of} episodes infrastructure-failed (left out)`] : []),
    ];
    // The folder's name only: a report is shared, and an absolute path says whose machine made it.
    const flagged = warnings.map((w) => ` <b class="warn">${escapeHtml(w)}</b>`).join('');
    return `<li><b>${escapeHtml(r.system)}</b>: ${escapeHtml(bits.join(' · '))}${flagged} <span class="sub">(${escapeHtml(basename(r.dir))})</span></li>`;
  });
  return `<ul class="runs">${items.join('')}</ul>`;
}

/** The report for runs already loaded. */
export function renderReport(runs: readonly LoadedRun[], options: Pick<ReportOptions, 'baseline' | 'title'> = {}): string {
  const comparison = compareRuns(runs, options.baseline);
  const plots = reportPlots(runs);
  const data = {
    systems: runs.map((r) => r.system),
    episodes: runs.flatMap((r, i) => r.records.map((record, j) => viewerEpisode(i, record, r.analyses[j] as EpisodeAnalysis))),
  };
  const notes = runs[0]?.metrics.notes ?? [];
  const title = options.title ?? `Baton lab report: ${runs.map((r) => r.system).join(' vs ')}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>${escapeHtml(title)}</h1>
<div class="sub">Baseline: ${escapeHtml(comparison.baseline)}. Intervals: 95% percentile bootstrap over tasks; Δ is the paired difference in success on the tasks both systems ran.</div>
</header>
<section id="table-section">
<h2>Comparison</h2>
${warningsHtml(runs)}
${tableHtml(comparison)}
${runsHtml(runs)}
<h3>Hand-offs by task kind</h3>
<p class="sub">Share of episodes handed off, with its interval and count. On kinds that call for a hand-off this is recall; on kinds that do not, over-escalation. Cells shaded red went the wrong way more often than not.</p>
${kindHtml(runs)}
<details class="notes"><summary>How these figures are computed</summary><ul>${notes.map((n) => `<li>${escapeHtml(n)}</li>`).join('')}</ul></details>
</section>
<section id="plots-section">
<h2>Plots</h2>
<div class="plots">
${plots.map((p) => `<figure class="plot" id="${p.id}"><h3>${escapeHtml(p.title)}</h3>${p.svg}<figcaption class="caption">${escapeHtml(p.caption)}</figcaption></figure>`).join('\n')}
</div>
</section>
<section id="viewer-section">
<h2>Dialogues</h2>
<div class="filters">
<label>system<select id="f-system"><option value="">all</option></select></label>
<label>task kind<select id="f-kind"><option value="">all</option></select></label>
<label>label<select id="f-label"><option value="">all</option><option value="should">should transfer</option><option value="should-not">should not transfer</option></select></label>
<label>outcome<select id="f-outcome"><option value="">all</option><option value="success">success</option><option value="failure">failure</option><option value="unscored">unscored</option></select></label>
<label>hand-off<select id="f-handoff"><option value="">all</option><option value="tp">TP (handed off, due)</option><option value="fn">FN (missed)</option><option value="fp">FP (over-escalated)</option><option value="tn">TN (kept, correctly)</option></select></label>
<label>key contains<input id="f-text" type="search" placeholder="billing_003"></label>
</div>
<div id="episode-count"></div>
<div id="episode-list"></div>
<button id="show-more" type="button" hidden>Show more</button>
<p class="sub">Hand-offs are outlined in blue with the packet beside them; violations are marked at their message; policy terms cited in refusals and hand-offs are highlighted.</p>
</section>
<script type="application/json" id="episodes">${scriptJson(data)}</script>
<script>${VIEWER_SCRIPT}</script>
</body>
</html>
`;
}

/** Reads the run folders and returns the report, one self-contained HTML document. */
export async function buildReport(runDirs: readonly string[], options: ReportOptions = {}): Promise<string> {
  const runs = await loadRuns(runDirs, {
    ...(options.tau2Dir ? { tau2Dir: options.tau2Dir } : {}),
    ...(options.allowMixed ? { allowMixed: true } : {}),
  });
  return renderReport(runs, options);
}
