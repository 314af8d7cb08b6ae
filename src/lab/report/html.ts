/**
 * `baton report`: one self-contained HTML file comparing runs — the comparison table, plots
 * rendered to SVG at report time, and a dialogue viewer over every episode. No network is needed
 * to open it: styles and the viewer's script are inline, and the episodes are embedded once as
 * JSON. Every piece of text from a run is escaped (it holds customer data).
 */
import { basename } from 'node:path';
import { USER_STOP_MARKERS } from '../../domains/trajectory.js';
import {
  infrastructureFailure,
  isRefusal,
  metricCatalog,
  PAIRED_DIFFERENCE_DEFINITION,
  passKDefinition,
  type CitationEvent,
  type EpisodeAnalysis,
  type MetricEntry,
  type MetricReading,
} from '../metrics/index.js';
import type { EpisodeRecord } from '../records.js';
import { FAILURE_CODES, type FailureReason } from './failure-reasons.js';
import { loadRuns, partialText, taskSetOf, type LoadedRun, type LoadOptions } from './load.js';
import { reportPlots } from './plots.js';
import {
  bestSystem,
  compareRuns,
  differenceText,
  kindCells,
  kindRows,
  rowCells,
  TABLE_HEADERS,
  withInterval,
  type Comparison,
} from './table.js';
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

/** A customer message's text without the simulator's stop marker, and the marker (null: none). */
export function splitStopMarker(text: string | null): { text: string | null; marker: string | null } {
  if (text === null) return { text, marker: null };
  const marker = USER_STOP_MARKERS.find((m) => text.includes(m)) ?? null;
  if (marker === null) return { text, marker };
  const rest = text.split(marker).join('').trim();
  return { text: rest === '' ? null : rest, marker };
}

/**
 * The message a citation event's tag belongs on: the hand-off's own message for a hand-off; for a
 * refusal, the agent message of the turn whose text declines (else the turn's last with text).
 */
export function citationAnchor(record: Pick<EpisodeRecord, 'messages' | 'evaluation'>, event: CitationEvent): number {
  const handoff = record.evaluation.handoff.message;
  if (event.kind === 'handoff' && handoff !== null && handoff >= event.from && handoff <= event.to) return handoff;
  let last: number | null = null;
  for (let i = event.from; i <= event.to; i += 1) {
    const m = record.messages[i];
    if (m?.role !== 'assistant' || !m.content) continue;
    if (event.kind === 'refusal' && isRefusal(m.content)) return i;
    last = i;
  }
  return last ?? event.to;
}

/** One episode as the viewer needs it (short keys: the file holds every episode of every run). */
export function viewerEpisode(
  systemIndex: number,
  record: EpisodeRecord,
  analysis: EpisodeAnalysis,
  reasons: readonly FailureReason[] = [],
) {
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
    f: reasons.map((r) => [r.code, r.text] as const),
    h: record.evaluation.handoff.transferred ? record.evaluation.handoff.message : null,
    p: record.packet,
    v: analysis.violations.map((v) => [v.message, v.rule, v.tool] as const),
    c: analysis.citations.map((c) => [citationAnchor(record, c), c.terms, c.cited, c.kind] as const),
    m: record.messages.map((m) => {
      if (m.role === 'tool') return { r: 'tool', c: m.content, e: m.error, ...(m.executed === false ? { x: false } : {}) };
      const calls = m.toolCalls.length > 0 ? { t: m.toolCalls.map((t) => ({ n: t.name, a: t.arguments })) } : {};
      if (m.role === 'assistant') return { r: m.role, c: m.content, ...calls };
      // The simulator's stop marker is not the customer's words: shown apart, as the end it is.
      const { text, marker } = splitStopMarker(m.content);
      return { r: m.role, c: text, ...(marker ? { end: marker } : {}), ...calls };
    }),
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
table.comparison tr.best th, table.comparison tr.best td { background: #e6f4ea; }
table.comparison td.best { background: #e6f4ea; font-weight: 600; }
.best-mark { color: #1b5e20; }
.tag.best-tag { background: #1b5e20; color: #fff; }
.term { position: relative; cursor: help; border-bottom: 1px dotted var(--muted); }
.term .def { display: none; position: absolute; z-index: 20; left: 0; top: calc(100% + 4px); width: 340px; padding: 6px 8px; border-radius: 4px; background: #263238; color: #fff; font-size: 12.5px; font-weight: 400; line-height: 1.4; text-align: left; white-space: normal; }
.term:hover .def, .term:focus .def { display: block; }
table.metrics th[scope="row"] { width: 210px; }
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
aside.packet { flex: 0 0 400px; border: 2px solid #1565c0; border-radius: 6px; padding: 6px 8px; background: #f3f8fe; font-size: 12.5px; max-height: 560px; overflow: auto; }
aside.packet dl { margin: 4px 0; } aside.packet dt { font-weight: 600; color: var(--muted); font-size: 11.5px; margin-top: 4px; } aside.packet dd { margin: 0; }
aside.packet h4 { margin: 8px 0 2px; font-size: 12.5px; } aside.packet ul { margin: 2px 0; padding-left: 18px; } aside.packet li { overflow-wrap: anywhere; }
aside.packet table { border-collapse: collapse; width: 100%; } aside.packet td, aside.packet th { border-bottom: 1px solid var(--line); padding: 1px 4px; text-align: left; overflow-wrap: anywhere; }
.pbadge { font-size: 11px; border-radius: 4px; padding: 0 5px; } .pbadge.ok { background: #e3f4e4; color: #1b5e20; } .pbadge.warn { background: #fff3e0; color: #8d4a00; }
q.evidence { display: block; color: var(--muted); }
.reasons { margin: 6px 0; padding: 6px 10px; border-left: 4px solid #c62828; background: #fdf1f1; } .reasons ul { margin: 2px 0; padding-left: 18px; }
.why { color: #b71c1c; font-size: 12.5px; }
.msg.sim .bubble { background: transparent; border: 1px dashed var(--line); color: var(--muted); font-style: italic; }
a.permalink { color: var(--muted); text-decoration: none; padding-top: 12px; } a.permalink:hover { color: var(--fg); }
.episode-item { display: flex; gap: 6px; align-items: flex-start; } .episode-item details.episode { flex: 1 1 auto; min-width: 0; }
details.episode.linked { outline: 3px solid #ffb300; }
button { font: inherit; }
.warnings { border: 2px solid #c62828; background: #fde7e7; border-radius: 6px; padding: 4px 12px; margin: 8px 0; }
.warnings p { margin: 4px 0; font-weight: 600; } b.warn { color: #b71c1c; }
`;

/** A name with its definition, shown on hover and on keyboard focus. */
function termHtml(label: string, definition: string | undefined, id: string): string {
  if (!definition) return escapeHtml(label);
  const defId = escapeHtml(`def-${id}`);
  return `<span class="term" tabindex="0" aria-describedby="${defId}">${escapeHtml(label)}<span class="def" role="tooltip" id="${defId}">${escapeHtml(definition)}</span></span>`;
}

function tableHtml(comparison: Comparison, catalog: readonly MetricEntry[]): string {
  const definitionOf = (path: string) => catalog.find((e) => e.path === path)?.definition;
  const definitions = [
    undefined,
    definitionOf('success'),
    passKDefinition('k'),
    PAIRED_DIFFERENCE_DEFINITION,
    definitionOf('handoff.f1'),
    definitionOf('handoff.over_escalation'),
    'Episodes labelled should transfer (positives) and should not (negatives).',
    definitionOf('worst_style'),
  ];
  const best = bestSystem(comparison);
  const head = `<tr>${TABLE_HEADERS.map((h, i) => `<th scope="col">${termHtml(h, definitions[i], `column-${i}`)}</th>`).join('')}</tr>`;
  const rows = comparison.rows
    .map((row) => {
      const cells = rowCells(row, comparison.baseline);
      const classes = [row.system === best ? 'best' : '', row.system === comparison.baseline ? 'baseline' : ''].filter(Boolean);
      const cls = classes.length > 0 ? ` class="${classes.join(' ')}"` : '';
      const mark = row.system === best ? ' <span class="tag best-tag">★ best</span>' : '';
      return `<tr${cls} data-system="${escapeHtml(row.system)}">${cells.map((c, i) => (i === 0 ? `<th scope="row">${escapeHtml(c)}${mark}</th>` : `<td>${escapeHtml(c)}</td>`)).join('')}</tr>`;
    })
    .join('\n');
  return `<table class="comparison" id="comparison"><thead>${head}</thead><tbody>\n${rows}\n</tbody></table>`;
}

/** A catalogue reading as the metrics table shows it. */
function readingText(reading: MetricReading | null): string {
  if (!reading) return '–';
  switch (reading.type) {
    case 'rate':
      return reading.figure.value === null ? `– (n=${reading.figure.n})` : `${withInterval(reading.figure)} (n=${reading.figure.n})`;
    case 'turns':
      return reading.value === null ? '–' : `${reading.value} turns (${reading.measured} timed)`;
    case 'difference':
      return `${reading.label}: ${differenceText(reading.difference)}`;
    case 'counts':
      return reading.text;
  }
}

/** The systems whose figure is the best of these readings, when they differ (none otherwise). */
function bestOf(entry: MetricEntry, readings: readonly (MetricReading | null)[]): Set<number> {
  if (entry.better === null || readings.length < 2) return new Set();
  const values = readings.map((r) => (r?.type === 'rate' ? r.figure.value : null));
  const defined = values.filter((v): v is number => v !== null);
  if (defined.length < 2 || defined.every((v) => v === defined[0])) return new Set();
  const top = entry.better === 'higher' ? Math.max(...defined) : Math.min(...defined);
  return new Set(values.flatMap((v, i) => (v === top ? [i] : [])));
}

/** Every figure of every run's metrics.json, with its interval and `n`, its definition on hover, and the best marked. */
function metricsHtml(runs: readonly LoadedRun[], catalog: readonly MetricEntry[]): string {
  const head = `<tr><th scope="col">metric</th>${runs.map((r) => `<th scope="col">${escapeHtml(r.system)}</th>`).join('')}</tr>`;
  const body = catalog
    .map((entry) => {
      const readings = runs.map((r) => entry.read(r.metrics.metrics));
      const best = bestOf(entry, readings);
      const cells = readings
        .map((reading, i) =>
          best.has(i)
            ? `<td class="best">${escapeHtml(readingText(reading))} <span class="best-mark" title="best of these systems">★</span></td>`
            : `<td>${escapeHtml(readingText(reading))}</td>`,
        )
        .join('');
      return `<tr data-metric="${escapeHtml(entry.path)}"><th scope="row">${termHtml(entry.label, entry.definition, entry.path)}</th>${cells}</tr>`;
    })
    .join('\n');
  return `<table class="comparison metrics" id="metrics"><thead>${head}</thead><tbody>\n${body}\n</tbody></table>`;
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
  const catalog = metricCatalog(runs.map((r) => r.metrics));
  const best = bestSystem(comparison);
  const plots = reportPlots(runs);
  const data = {
    systems: runs.map((r) => r.system),
    reasons: FAILURE_CODES,
    episodes: runs.flatMap((r, i) =>
      r.records.map((record, j) => viewerEpisode(i, record, r.analyses[j] as EpisodeAnalysis, r.reasons[j] ?? [])),
    ),
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
<div class="sub">Baseline: ${escapeHtml(comparison.baseline)}.${best ? ` <span id="best-system">★ Best: <b>${escapeHtml(best)}</b> (highest success; ties broken by hand-off F1, then over-escalation).</span>` : ''} Intervals: 95% percentile bootstrap over tasks; Δ is the paired difference in success on the tasks both systems ran.</div>
</header>
<main>
<section id="table-section">
<h2>Comparison</h2>
${warningsHtml(runs)}
${tableHtml(comparison, catalog)}
${runsHtml(runs)}
<h3>Every metric</h3>
<p class="sub">Each figure of metrics.json with its 95% interval and n (what its ratio is over). Hover or focus a name for its definition; ★ marks the best value where systems differ.</p>
${metricsHtml(runs, catalog)}
<h3>Hand-offs by task kind</h3>
<p class="sub">Share of episodes handed off, with its interval and count. On kinds that call for a hand-off this is recall; on kinds that do not, over-escalation. Cells shaded red went the wrong way more often than not.</p>
${kindHtml(runs)}
<details class="notes"><summary>How these figures are computed</summary><ul>${notes.map((n) => `<li>${escapeHtml(n)}</li>`).join('')}</ul></details>
</section>
<section id="plots-section">
<h2>Plots</h2>
<div class="plots">
${plots
  .filter((p) => p.svg !== null)
  .map(
    (p) =>
      `<figure class="plot" id="${p.id}"><h3>${escapeHtml(p.title)}</h3>${p.svg}<figcaption class="caption">${escapeHtml(p.caption)}</figcaption></figure>`,
  )
  .join('\n')}
</div>
${plots
  .filter((p) => p.svg === null)
  .map(
    (p) =>
      `<p class="sub omitted" data-plot="${p.id}">${escapeHtml(p.title)}: not drawn, ${escapeHtml(p.omitted ?? 'nothing to draw')}.</p>`,
  )
  .join('\n')}
</section>
<section id="viewer-section">
<h2>Dialogues</h2>
<div class="filters">
<label>system<select id="f-system"><option value="">all</option></select></label>
<label>task kind<select id="f-kind"><option value="">all</option></select></label>
<label>label<select id="f-label"><option value="">all</option><option value="should">should transfer</option><option value="should-not">should not transfer</option></select></label>
<label>outcome<select id="f-outcome"><option value="">all</option><option value="success">success</option><option value="failure">failure</option><option value="unscored">unscored</option></select></label>
<label>hand-off<select id="f-handoff"><option value="">all</option><option value="tp">TP (handed off, due)</option><option value="fn">FN (missed)</option><option value="fp">FP (over-escalated)</option><option value="tn">TN (kept, correctly)</option></select></label>
<label>failure reason<select id="f-reason"><option value="">all</option><option value="any">any failure</option></select></label>
<label>key contains<input id="f-text" type="search" placeholder="billing_003"></label>
<label>sort by<select id="sort"><option value="failures">failures first</option><option value="reason">failure reason</option><option value="violations">most violations</option><option value="key">task key</option><option value="recorded">as recorded</option></select></label>
</div>
<div id="episode-count"></div>
<div id="episode-list"></div>
<button id="show-more" type="button" hidden>Show more</button>
<p class="sub" id="viewer-note">Hand-offs are outlined in blue with the packet beside them, as the staff console shows it; violations are marked at their message; policy terms cited in refusals and hand-offs are highlighted at the message that says them. Each episode's ¶ links to it (the address's fragment opens it).</p>
</section>
</main>
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
