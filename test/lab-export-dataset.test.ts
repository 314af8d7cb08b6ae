import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { MIT_NOTICE, TAU2_COPYRIGHT, TAU_BENCH_COPYRIGHT } from '../src/domains/tau2/tau2-licence.js';
import { runEval, type EvalConfig } from '../src/lab/eval/run-eval.js';
import { renderCard, type CardInput } from '../src/lab/export/dataset/dataset-card.js';
import { rowPaths } from '../src/lab/export/dataset/dataset-fields.js';
import { DATASET_CONFIGS, type DatasetEpisode, type DatasetRun, type DatasetTask } from '../src/lab/export/dataset/dataset-schema.js';
import { DatasetExportError, exportDataset } from '../src/lab/export/dataset/dataset.js';
import type { EpisodeRecord } from '../src/lab/records.js';
import { makeRun } from './support/lab-runs.js';

const BIN = join(import.meta.dirname, '..', 'bin', 'baton.js');
const baton = (args: string[], cwd: string) =>
  spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd, env: { PATH: process.env['PATH'], HOME: cwd } });

const jsonl = <T>(file: string): T[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as T);

const recordsOf = (runDir: string) => jsonl<EpisodeRecord>(join(runDir, 'trajectories.jsonl'));

/** Every file under a folder, relative, sorted. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(d, entry.name));
      else out.push(relative(dir, join(d, entry.name)));
    }
  };
  walk(dir);
  return out.sort();
}

/** The field paths the card's table lists for a configuration (`### name`, then `| \`path\` | … |` rows). */
function cardFields(card: string, config: string): Set<string> {
  const section = card.split(`\n### ${config}\n`)[1]?.split('\n## ')[0]?.split('\n### ')[0] ?? '';
  return new Set([...section.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1] as string));
}

/** A copy of a run folder with one record edited. */
function editedRun(root: string, source: string, name: string, edit: (records: EpisodeRecord[]) => void): string {
  const dir = join(root, name);
  cpSync(source, dir, { recursive: true });
  const records = recordsOf(dir);
  edit(records);
  writeFileSync(join(dir, 'trajectories.jsonl'), records.map((r) => `${JSON.stringify(r)}\n`).join(''));
  return dir;
}

describe('baton export dataset', () => {
  let root: string;
  let rule: string;
  let always: string;
  let main: string;
  let seq = 0;
  const out = () => join(root, `out-${(seq += 1)}`);

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'baton-export-dataset-'));
    rule = await makeRun(root, 'rule');
    always = await makeRun(root, 'always-transfer');
    // Another task set and split: the main tasks of the train split, a few episodes (the test split keeps a ledger in the working folder).
    const config: EvalConfig = {
      domain: 'billing',
      tasks: 'main',
      split: 'train',
      agent: 'rule',
      user: 'scripted',
      styles: ['neutral'],
      trials: 1,
      concurrency: 4,
      seed: 7,
      limit: 4,
      store: { kind: 'memory' },
      out: join(root, 'main-train'),
      force: false,
    };
    main = (await runEval(config)).runDir;
  }, 240_000);

  it('writes a card and one JSON Lines file per configuration and split, every episode and task tied to its run', async () => {
    const dir = out();
    const summary = await exportDataset({ runDirs: [rule, always, main], out: dir });
    expect(filesUnder(dir)).toEqual([
      'README.md',
      'episodes/dev.jsonl',
      'episodes/train.jsonl',
      'runs/dev.jsonl',
      'runs/train.jsonl',
      'tasks/dev.jsonl',
      'tasks/train.jsonl',
    ]);
    const source = [rule, always, main].map(recordsOf);
    const episodes = [
      ...jsonl<DatasetEpisode>(join(dir, 'episodes/dev.jsonl')),
      ...jsonl<DatasetEpisode>(join(dir, 'episodes/train.jsonl')),
    ];
    const tasks = [...jsonl<DatasetTask>(join(dir, 'tasks/dev.jsonl')), ...jsonl<DatasetTask>(join(dir, 'tasks/train.jsonl'))];
    const runs = [...jsonl<DatasetRun>(join(dir, 'runs/dev.jsonl')), ...jsonl<DatasetRun>(join(dir, 'runs/train.jsonl'))];

    expect(episodes).toHaveLength(source.flat().length);
    expect(runs.map((r) => [r.run_name, r.split, r.agent, r.tasks, r.episodes])).toEqual([
      ['rule', 'dev', 'rule', 'handoff', source[0]?.length],
      ['always-transfer', 'dev', 'always-transfer', 'handoff', source[1]?.length],
      ['main-train', 'train', 'rule', 'main', 4],
    ]);
    expect(new Set(runs.map((r) => r.run_id)).size).toBe(3);
    const version = (JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as { version: string }).version;
    expect(runs.map((r) => r.baton_version)).toEqual([version, version, version]);
    expect(runs.every((r) => /^run_[0-9a-f]{16}$/.test(r.run_id))).toBe(true);
    // Each file holds its split only.
    for (const file of filesUnder(dir).filter((f) => f.endsWith('.jsonl'))) {
      const split = file.split('/')[1]?.replace('.jsonl', '');
      expect(jsonl<{ split: string }>(join(dir, file)).every((row) => row.split === split)).toBe(true);
    }

    // Episodes keep their records' order and content, under their run's id.
    const runIdOf = new Map(runs.map((r) => [r.run_name, r.run_id]));
    const expected = source.flatMap((records, i) =>
      records.map((r) => [runIdOf.get(['rule', 'always-transfer', 'main-train'][i] as string), r.key]),
    );
    const byRun = (rows: DatasetEpisode[]) =>
      [...rows].sort((a, b) => runs.findIndex((r) => r.run_id === a.run_id) - runs.findIndex((r) => r.run_id === b.run_id));
    expect(byRun(episodes).map((e) => [e.run_id, e.key])).toEqual(expected);
    const first = source[0]?.[0] as EpisodeRecord;
    const row = episodes.find((e) => e.run_id === runIdOf.get('rule') && e.key === first.key) as DatasetEpisode;
    expect(row.messages.map((m) => m.content)).toEqual(first.messages.map((m) => m.content));
    expect(JSON.parse(row.evaluation_json)).toEqual(first.evaluation);
    expect(row.label).toEqual(first.label);
    expect(row.success).toBe(first.evaluation.success);

    // One task row per task however many runs drew it, naming every run that did.
    const taskIds = (t: { variant_id: string | null; task_id: string }) => t.variant_id ?? t.task_id;
    expect(tasks.map(taskIds).sort()).toEqual([...new Set(source.flat().map((r) => r.variant_id ?? r.task_id))].sort());
    for (const task of tasks.filter((t) => t.split === 'dev')) {
      expect(task.run_ids).toEqual([runIdOf.get('rule'), runIdOf.get('always-transfer')]);
      expect(task.script).not.toBeNull();
    }
    for (const task of tasks.filter((t) => t.split === 'train')) {
      expect(task).toMatchObject({ kind: 'task', variant_id: null, script: null, run_ids: [runIdOf.get('main-train')] });
    }
    // The scripts' verification codes are redacted as the episodes' are.
    const codes = tasks.flatMap((t) => t.script?.facts.filter((f) => f.key === 'code') ?? []);
    expect(codes.length).toBeGreaterThan(0);
    expect(codes.map((f) => f.value)).toEqual(codes.map(() => '[otp]'));
    for (const e of episodes) expect(tasks.some((t) => t.domain === e.domain && taskIds(t) === (e.variant_id ?? e.task_id))).toBe(true);

    // The card's header declares every file with its split and row count.
    const card = readFileSync(join(dir, 'README.md'), 'utf8');
    expect(card.startsWith('---\nlicense: "mit"\n')).toBe(true);
    for (const file of summary.files) {
      expect(card).toContain(`  - split: "${file.split}"\n    path: "${file.path}"\n`);
      expect(card).toContain(`  - name: "${file.split}"\n    num_examples: ${file.rows}\n`);
      expect(jsonl(join(dir, file.path))).toHaveLength(file.rows);
    }
    expect(card).toContain(
      'baton eval --domain billing --tasks main --split train --agent rule --styles neutral --trials 1 --seed 7 --limit 4 --out main-train',
    );
    // No absolute path of this machine.
    expect(filesUnder(dir).some((f) => readFileSync(join(dir, f), 'utf8').includes(root))).toBe(false);
  });

  it("names every field of every file in the card, and the card's field lists are the schemas'", async () => {
    const dir = out();
    await exportDataset({ runDirs: [rule, always, main], out: dir });
    const card = readFileSync(join(dir, 'README.md'), 'utf8');
    for (const { name } of DATASET_CONFIGS) {
      const described = cardFields(card, name);
      expect(described.size).toBeGreaterThan(5);
      const written = new Set<string>();
      for (const file of filesUnder(dir).filter((f) => f.startsWith(`${name}/`))) {
        for (const row of jsonl(join(dir, file))) rowPaths(row, '', written);
      }
      const undescribed = [...written].filter((path) => !described.has(path));
      expect(undescribed, `${name}: written but not in the card`).toEqual([]);
      // Nested fields are there too, by path.
      if (name === 'episodes')
        expect([...written]).toEqual(expect.arrayContaining(['label.due_turn', 'messages[].tool_calls[].arguments_json']));
    }
  });

  it('refuses a run with a planted secret, naming the file, line and field but never the value, and writes nothing', async () => {
    const card = '4111 1111 1111 1111';
    const planted = editedRun(root, rule, 'planted', (records) => {
      const record = records[2] as EpisodeRecord;
      const m = record.messages.findIndex((x) => x.role === 'user');
      const message = record.messages[m] as { content: string };
      message.content = `${message.content} My card is ${card}.`;
      // And one in a tool call's arguments, judged by its field name inside the JSON text.
      (record.messages as unknown[]).push({
        role: 'assistant',
        content: null,
        toolCalls: [{ id: 'planted_call', name: 'lookup', arguments: { password: 'Sunshine2024' }, requestor: 'assistant' }],
      });
    });
    const target = join(root, 'refused');
    const error = await exportDataset({ runDirs: [rule, planted], out: target }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatasetExportError);
    const refusal = error as DatasetExportError;
    const records = recordsOf(planted);
    const userAt = records[2]?.messages.findIndex((x) => x.role === 'user');
    const line = recordsOf(rule).length + 3;
    expect(refusal.secrets.map((s) => [s.file, s.line, s.field, s.kinds])).toEqual([
      ['episodes/dev.jsonl', line, `messages[${userAt}].content`, ['card']],
      [
        'episodes/dev.jsonl',
        line,
        `messages[${(records[2]?.messages.length ?? 0) - 1}].tool_calls[0].arguments_json → password`,
        ['password'],
      ],
    ]);
    expect(refusal.message).toContain(`episodes/dev.jsonl line ${line}, field messages[${userAt}].content: card`);
    expect(refusal.message).not.toContain('1111');
    expect(refusal.message).not.toContain('Sunshine2024');
    expect(existsSync(target)).toBe(false);
    expect(readdirSync(root).filter((f) => f.includes('partial'))).toEqual([]);

    // The CLI says so on stderr and exits non-zero.
    const cli = baton(['export', 'dataset', planted, '--out', target], root);
    expect(cli.status).toBe(1);
    expect(cli.stderr).toContain('refusing to export: the redaction detectors found 2 secrets');
    expect(cli.stderr).toContain(`episodes/dev.jsonl line 3, field messages[${userAt}].content: card`);
    expect(cli.stderr + cli.stdout).not.toContain('1111 1111');
    expect(existsSync(target)).toBe(false);
  });

  it('gives byte-identical folders for the same runs', async () => {
    const [a, b] = [out(), out()];
    await exportDataset({ runDirs: [rule, main], out: a });
    await exportDataset({ runDirs: [rule, main], out: b });
    const files = filesUnder(a);
    expect(files).toEqual(filesUnder(b));
    for (const file of files) expect(readFileSync(join(b, file)).equals(readFileSync(join(a, file))), file).toBe(true);
  });

  it('refuses bad input with a clear error and a non-zero exit, leaving --out as it was', () => {
    const missing = baton(['export', 'dataset', join(root, 'no-such-run'), '--out', out()], root);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('no-such-run: no such folder.');

    const empty = join(root, 'not-a-run');
    mkdirSync(empty);
    const notRun = baton(['export', 'dataset', empty, '--out', out()], root);
    expect(notRun.status).toBe(1);
    expect(notRun.stderr).toContain('not-a-run is not a run folder: it needs run.json and trajectories.jsonl');

    const full = out();
    mkdirSync(full);
    writeFileSync(join(full, 'keep.txt'), 'mine');
    const notEmpty = baton(['export', 'dataset', rule, '--out', full], root);
    expect(notEmpty.status).toBe(1);
    expect(notEmpty.stderr).toContain(`--out ${full} is not empty`);
    expect(readdirSync(full)).toEqual(['keep.txt']);

    const twice = baton(['export', 'dataset', rule, join(root, '.', 'rule'), '--out', out()], root);
    expect(twice.status).toBe(1);
    expect(twice.stderr).toContain('hold the same run');

    const noArgs = baton(['export', 'dataset', '--out', out()], root);
    expect(noArgs.status).not.toBe(0);
    expect(noArgs.stderr).toContain("missing required argument 'runDirs'");
  });

  it('writes into an empty --out, with progress and a summary on stderr', () => {
    const dir = out();
    mkdirSync(dir);
    const cli = baton(['export', 'dataset', rule, '--out', dir], root);
    expect(cli.status).toBe(0);
    expect(cli.stderr).toContain('read 1/1 rule:');
    expect(cli.stderr).toMatch(/no secret in \d+ values checked/);
    expect(cli.stderr).toContain(`wrote ${dir}`);
    expect(filesUnder(dir)).toEqual(['README.md', 'episodes/dev.jsonl', 'runs/dev.jsonl', 'tasks/dev.jsonl']);
  });

  it('refuses a run whose domain data is not what it ran on: its tasks could not be described', async () => {
    const dir = join(root, 'other-domain');
    cpSync(rule, dir, { recursive: true });
    const run = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(dir, 'run.json'), JSON.stringify({ ...run, domain_checksum: '0'.repeat(64) }));
    const error = await exportDataset({ runDirs: [dir], out: out() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatasetExportError);
    expect((error as Error).message).toContain("other-domain: the billing domain's data");
  });
});

describe('the dataset card', () => {
  const input = (domains: string[]): CardInput => ({
    files: [{ config: 'episodes', split: 'dev', path: 'episodes/dev.jsonl', rows: 1 }],
    runs: [],
    domains,
    exporter: { version: '0.1.0', gitSha: null },
    runNames: ['run'],
  });

  it("keeps tau2-bench's MIT notice with airline and retail rows, and says there is none without them", () => {
    const tau2 = renderCard(input(['airline', 'billing']));
    expect(tau2).toContain(TAU2_COPYRIGHT);
    expect(tau2).toContain(TAU_BENCH_COPYRIGHT);
    expect(tau2).toContain(MIT_NOTICE);
    expect(tau2).toContain('"tau2-bench"');
    const own = renderCard(input(['billing']));
    expect(own).not.toContain(TAU2_COPYRIGHT);
    expect(own).toContain('No row here is derived from tau2-bench');
  });
});
