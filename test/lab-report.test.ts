import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runReportCommand } from '../src/cli/report-command.js';
import { metricsTable } from '../src/lab/eval/run-metrics.js';
import { makeRun } from './support/lab-runs.js';
import type { EpisodeRecord } from '../src/lab/records.js';
import {
  buildReport,
  compareRuns,
  comparisonText,
  escapeHtml,
  kindRows,
  kindText,
  loadRuns,
  passKText,
  clipText,
  rateDomain,
  scriptJson,
  textTable,
  wrapText,
  splitStopMarker,
} from '../src/lab/report/index.js';

const INJECTED = '<script>alert("pwned")</script><img src=x onerror=alert(1)>';

/** Puts a script into the first customer message of the run's first episode (after its metrics are written). */
function inject(runDir: string): string {
  const file = join(runDir, 'trajectories.jsonl');
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  const record = JSON.parse(lines[0] as string) as EpisodeRecord & { messages: { role: string; content: string | null }[] };
  const user = record.messages.find((m) => m.role === 'user');
  if (!user) throw new Error('no customer message');
  user.content = `${INJECTED} ${user.content ?? ''}`;
  lines[0] = JSON.stringify(record);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return record.key;
}

describe('baton report', () => {
  let root: string;
  let dirs: { rule: string; always: string; never: string };
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'baton-report-'));
    dirs = {
      rule: await makeRun(root, 'rule'),
      always: await makeRun(root, 'always-transfer'),
      never: await makeRun(root, 'never-transfer'),
    };
    inject(dirs.never);
  }, 120_000);

  it('compares the systems in one row each, the baseline at exactly 0 against itself', async () => {
    const runs = await loadRuns([dirs.rule, dirs.always, dirs.never]);
    const comparison = compareRuns(runs, 'never-transfer');
    expect(comparison.baseline).toBe('never-transfer');
    expect(comparison.rows.map((r) => r.system)).toEqual(['rule', 'always-transfer', 'never-transfer']);
    const metrics = (dir: string) =>
      JSON.parse(readFileSync(join(dir, 'metrics.json'), 'utf8')) as {
        metrics: { success: { value: number }; handoff: { over_escalation: { value: number }; f1: { value: number | null } } };
      };
    for (const [row, dir] of [
      [comparison.rows[0], dirs.rule],
      [comparison.rows[1], dirs.always],
      [comparison.rows[2], dirs.never],
    ] as const) {
      expect(row?.success.value).toBe(metrics(dir).metrics.success.value);
      expect(row?.over_escalation.value).toBe(metrics(dir).metrics.handoff.over_escalation.value);
      expect(row?.f1.value).toBe(metrics(dir).metrics.handoff.f1.value);
      // One trial: pass^1 only, which the success column already shows.
      expect(row?.pass_k.map((p) => p.k)).toEqual([1]);
    }
    const always = comparison.rows[1];
    expect(always?.over_escalation.value).toBe(1);
    const never = comparison.rows[2];
    expect(never?.difference).toMatchObject({ value: 0, ci: [0, 0], only_a: 0, only_b: 0 });
    expect(never?.difference?.shared).toBeGreaterThan(5);
    // The rule agent beats never-transfer on the hand-off tasks: the paired difference is its success minus the baseline's.
    const rule = comparison.rows[0];
    expect(rule?.difference?.value).toBeCloseTo((rule?.success.value ?? 0) - (never?.success.value ?? 0), 10);
    expect(rule?.difference?.ci?.[0]).toBeGreaterThan(0);

    // A system against itself, as the only run: exactly 0.
    const self = compareRuns(await loadRuns([dirs.rule]));
    expect(self.rows[0]?.difference).toMatchObject({ value: 0, ci: [0, 0] });

    const text = comparisonText(comparison, { details: true });
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^system\s+success \[95% CI\]\s+pass\^k, k ≥ 2\s+Δ success vs baseline/);
    expect(lines[2]).toMatch(/^rule\s+\d+\.\d% \[/);
    expect(lines[4]).toMatch(/^never-transfer \(baseline\)\s+.*±0\.0 pts \[±0\.0, ±0\.0\]/);
    expect(() => compareRuns(runs, 'nobody')).toThrow(/no such system.*rule, always-transfer, never-transfer/);
    expect(passKText(rule?.pass_k ?? [])).toBe('–');
    expect(
      passKText([
        { k: 1, value: 0.9, ci: [0.8, 1] },
        { k: 2, value: 0.8, ci: [0.7, 0.9] },
        { k: 3, value: 0.75, ci: null },
      ]),
    ).toBe('^2 80.0% [70.0%, 90.0%] · ^3 75.0%');
  });

  it('shows the hand-off rate per task kind and system, with what each kind expects', async () => {
    const runs = await loadRuns([dirs.rule, dirs.always, dirs.never]);
    const rows = kindRows(runs);
    const byKind = runs[0]!.metrics.metrics.handoff.by_kind;
    expect(rows.map((r) => r.kind)).toEqual(Object.keys(byKind));
    expect(rows.some((r) => r.expected === 'hand off')).toBe(true);
    expect(rows.some((r) => r.expected === 'keep')).toBe(true);
    for (const row of rows) {
      const k = byKind[row.kind]!;
      expect(row.expected).toBe(k.negatives === 0 ? 'hand off' : k.positives === 0 ? 'keep' : 'mixed');
      const [rule, always, never] = row.bySystem;
      expect(rule).toMatchObject({ system: 'rule', episodes: k.positives + k.negatives, transferred: k.transferred });
      // Always-transfer hands off every episode of every kind; never-transfer none.
      expect(always).toMatchObject({ system: 'always-transfer', transferred: always!.episodes });
      expect(always!.rate.value).toBe(1);
      expect(never).toMatchObject({ system: 'never-transfer', transferred: 0 });
      expect(never!.rate.value).toBe(0);
    }
    const text = kindText(rows, ['rule', 'always-transfer', 'never-transfer'], { details: true }).split('\n');
    expect(text[0]).toMatch(/^task kind\s+expected\s+rule: handed off\s+always-transfer: handed off\s+never-transfer: handed off$/);
    expect(text).toHaveLength(rows.length + 2);
    expect(text[2]).toMatch(new RegExp(`^${rows[0]!.kind}\\s+(hand off|keep|mixed)\\s+\\d+\\.\\d% .*\\(\\d+/\\d+\\)`));
    const html = await buildReport([dirs.rule, dirs.always, dirs.never]);
    expect(html).toContain('<table class="comparison kinds" id="kinds">');
    // Always-transfer goes the wrong way on every kind that expects the agent to keep the customer.
    const keeps = rows.filter((r) => r.expected === 'keep').length;
    expect((html.match(/<td class="off">/g) ?? []).length).toBeGreaterThanOrEqual(2 * keeps);
  });

  it('writes one self-contained HTML file: table, SVG plots, the episodes once, nothing fetched', async () => {
    const html = await buildReport([dirs.rule, dirs.always, dirs.never], { baseline: 'never-transfer' });
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<table class="comparison" id="comparison">');
    expect(html).toContain('<tr class="baseline" data-system="never-transfer">');
    for (const id of ['plot-style', 'plot-outcomes', 'plot-recall', 'plot-timing'])
      expect(html).toMatch(new RegExp(`id="${id}"><h3>[^<]+</h3><(svg|figure)`));
    expect((html.match(/<svg/g) ?? []).length).toBeGreaterThanOrEqual(4);
    // Nothing to fetch: no external src/href, no import, no stylesheet link.
    expect(html).not.toMatch(/(src|href)\s*=\s*["']?\s*(https?:)?\/\//i);
    expect(html).not.toMatch(/<link\b|@import|<iframe\b/i);
    expect((html.match(/<script/g) ?? []).length).toBe(2);
    const data = JSON.parse(/<script type="application\/json" id="episodes">([^<]*)<\/script>/.exec(html)?.[1] ?? 'null') as {
      systems: string[];
      episodes: { s: number; h: number | null; cls: string }[];
    };
    expect(data.systems).toEqual(['rule', 'always-transfer', 'never-transfer']);
    const lines = (dir: string) => readFileSync(join(dir, 'trajectories.jsonl'), 'utf8').trim().split('\n').length;
    expect(data.episodes).toHaveLength(lines(dirs.rule) + lines(dirs.always) + lines(dirs.never));
    expect(data.episodes.filter((e) => e.s === 1).every((e) => e.h !== null)).toBe(true);
  });

  it('escapes customer text: an injected script stays text', async () => {
    const html = await buildReport([dirs.never]);
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('\\u003cscript\\u003ealert(\\"pwned\\")\\u003c/script\\u003e');
    // Only the two scripts of the report itself.
    expect((html.match(/<script/gi) ?? []).length).toBe(2);
    expect(escapeHtml(INJECTED)).toBe('&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(scriptJson({ a: '</script>\u2028&' })).toBe('{"a":"\\u003c/script\\u003e\\u2028\\u0026"}');
    expect(JSON.parse(scriptJson({ a: '</script>\u2028&' }))).toEqual({ a: '</script>\u2028&' });
  });

  it('runReportCommand writes the file and prints the table and the path', async () => {
    let printed = '';
    const out = join(root, 'out', 'report.html');
    const { path, comparison } = await runReportCommand({
      runDirs: [dirs.rule, dirs.never],
      baseline: 'never-transfer',
      out,
      write: (t) => (printed += t),
    });
    expect(path).toBe(out);
    expect(readFileSync(out, 'utf8')).toContain('id="comparison"');
    expect(comparison.rows).toHaveLength(2);
    expect(printed).toContain(`Report: ${out}`);
    expect(printed).toMatch(/^system\s+success/);
    expect(printed).toContain('baseline: never-transfer;');
  });

  it('leaves out a plot with nothing to draw, saying why, and fits rate axes to the data', async () => {
    // Never-transfer makes no hand-off, so there is no hand-off to time.
    const html = await buildReport([dirs.never]);
    expect(html).not.toContain('id="plot-timing"');
    expect(html).toMatch(/<p class="sub omitted" data-plot="plot-timing">Hand-off timing: not drawn, no true-positive hand-off/);
    expect(html).toContain('id="plot-outcomes"');
    expect(rateDomain([0.94, 1, 0.98])).toEqual([0.8, 1]);
    expect(rateDomain([0, 0.05])).toEqual([0, 0.2]);
    expect(rateDomain([0.2, 0.6])).toEqual([0.2, 0.6]);
    expect(rateDomain([0, 1])).toEqual([0, 1]);
    expect(rateDomain([null, undefined])).toEqual([0, 1]);
  });

  it("keeps the simulator's stop markers out of the customer's words", () => {
    expect(splitStopMarker('###STOP###')).toEqual({ text: null, marker: '###STOP###' });
    expect(splitStopMarker('Thanks, bye! ###STOP###')).toEqual({ text: 'Thanks, bye!', marker: '###STOP###' });
    expect(splitStopMarker('Hello')).toEqual({ text: 'Hello', marker: null });
  });

  it('prints terminal tables that fit 100 columns, for many runs with long names; --details prints them whole', async () => {
    const long = [1, 2, 3, 4, 5].map((i) => {
      const dir = join(root, `rule-with-a-rather-long-configuration-name-that-says-everything-${i}`);
      cpSync(dirs.rule, dir, { recursive: true });
      return dir;
    });
    for (const runDirs of [
      [dirs.rule, dirs.always, dirs.never],
      [dirs.rule, ...long, dirs.always, dirs.never],
      [long[0] as string, long[1] as string],
    ]) {
      let printed = '';
      await runReportCommand({ runDirs, out: join(root, 'fit', 'report.html'), write: (t) => (printed += t) });
      const lines = printed.trimEnd().split('\n');
      const wide = lines.filter((l) => l.length > 100);
      expect(wide, `${runDirs.length} runs`).toEqual([]);
      // Every system has its row, named well enough to tell it apart (both ends of the name kept).
      const runs = await loadRuns(runDirs);
      const rows = lines.slice(2, 2 + runs.length);
      expect(new Set(rows.map((r) => r.split(/\s{2,}/)[0])).size).toBe(runs.length);
      for (const [i, run] of runs.entries()) expect(rows[i]?.startsWith(run.system.slice(0, 6))).toBe(true);
      expect(printed).toMatch(/^system\s+success %\s+Δ pts\s+hand-off F1 %\s+over-esc\. %\s+pos\/neg$/m);
      expect(printed).toMatch(/^rule.*\s\d+\.\d \[\d+, \d+\]\s/m);

      let detailed = '';
      await runReportCommand({ runDirs, out: join(root, 'fit', 'report.html'), details: true, write: (t) => (detailed += t) });
      for (const run of runs) expect(detailed).toContain(run.system);
      expect(detailed).toMatch(/^system\s+success \[95% CI\]\s+pass\^k, k ≥ 2/m);
    }
  });

  it("prints baton eval's metrics within 100 columns, a long agent name cut", () => {
    const metrics = JSON.parse(readFileSync(join(dirs.rule, 'metrics.json'), 'utf8')) as Parameters<typeof metricsTable>[0];
    const text = metricsTable({ ...metrics, agent: `openai:${'a-very-long-model-name-'.repeat(6)}` });
    const lines = text.split('\n');
    expect(lines.every((l) => l.length <= 100)).toBe(true);
    expect(lines[0]).toMatch(/^openai:a-very.*….* on billing$/);
    expect(text).toMatch(/hand-off recall\s+\d+\.\d% \[/);
  });

  it('splits a table too wide into blocks that repeat the key columns, cutting only what cannot fit', () => {
    const header = ['name', ...Array.from({ length: 12 }, (_, i) => `column ${i} heading`)];
    const row = (n: string) => [n, ...Array.from({ length: 12 }, (_, i) => `${n}:${i}:value-xx`)];
    const text = textTable([header, row('alpha'), row('beta')], { maxWidth: 100 });
    const lines = text.split('\n');
    expect(lines.every((l) => l.length <= 100)).toBe(true);
    for (const cell of [...header.slice(1), ...row('alpha').slice(1), ...row('beta').slice(1)]) expect(text).toContain(cell);
    const blocks = text.split('\n\n');
    expect(blocks.length).toBeGreaterThan(1);
    for (const block of blocks)
      expect(block.split('\n').map((l) => l.split(/\s{2,}/)[0])).toEqual(['name', expect.stringMatching(/^-+$/), 'alpha', 'beta']);
    // A table that fits is one block, as before.
    expect(
      textTable(
        [
          ['a', 'b'],
          ['1', '2'],
        ],
        { maxWidth: 100 },
      ),
    ).toBe('a  b\n-  -\n1  2');
    expect(clipText('abcdefghij', 5)).toBe('ab…ij');
    expect(wrapText('one two three four', 9, '  ')).toBe('one two\n  three\n  four');
  });
});
