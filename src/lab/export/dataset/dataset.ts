/**
 * `baton export dataset RUN_DIR… --out DIR`: lab runs released as a folder that Hugging Face
 * `datasets` loads, `load_dataset(DIR, name="episodes" | "tasks" | "runs")`:
 *
 *     README.md                the dataset card (YAML header: licence, configs, features, splits)
 *     episodes/<split>.jsonl   one recorded episode per line
 *     tasks/<split>.jsonl      one task or hand-off variant the runs drew per line
 *     runs/<split>.jsonl       one run per line
 *
 * Nothing is written until every row is built, parsed with its schema and checked for secrets;
 * then the files go to a sibling folder that is renamed to DIR, so a failed export leaves nothing
 * behind and never a half-written folder. The same run folders give the same bytes.
 *
 * Runs of different domains, task sets, splits or agents can go in one dataset: every episode
 * names its run (`run_id`) and its task, and a task is one row however many runs drew it. What
 * cannot is a run whose tasks are not the ones the domain data now gives (its `domain_checksum`
 * or `variants_checksum` differs): its `tasks` rows would describe other tasks than its episodes
 * ran. Nor can the same run twice (same id).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { z } from 'zod';
import type { EpisodeAnalysis } from '../../../analysis/episode-analysis.js';
import type { DomainName } from '../../../domains/domain.js';
import { loadDomain } from '../../../domains/load-domain.js';
import { domainChecksum, gitSha, PACKAGE_ROOT, packageVersion } from '../../eval/run-identity.js';
import { loadRun, type LoadedRun } from '../../report/load.js';
import { generateVariants, HANDOFF_VARIANT_SEED, variantsChecksum } from '../../variants/index.js';
import { renderCard, type DatasetFile } from './dataset-card.js';
import { episodeRow, runIdOf, runRow, runSplit, taskKey, taskRow } from './dataset-rows.js';
import { DATASET_CONFIGS, type DatasetConfigName, type DatasetTask } from './dataset-schema.js';
import { findSecrets, secretsMessage, type SecretFinding } from './dataset-secrets.js';

/** An export refused for what it was given (a folder, a run, a secret): the message says what to change. */
export class DatasetExportError extends Error {
  constructor(
    message: string,
    /** The secrets found, when that is why. */
    readonly secrets: readonly SecretFinding[] = [],
  ) {
    super(message);
    this.name = 'DatasetExportError';
  }
}

export interface ExportDatasetOptions {
  runDirs: readonly string[];
  /** The folder to write: new, or empty. */
  out: string;
  /** tau2-bench's data folder, for runs on its domains. */
  tau2Dir?: string;
  /** Told of progress, a line at a time (the CLI prints it on stderr). */
  progress?: (line: string) => void;
}

export interface ExportDatasetSummary {
  /** The folder written (absolute). */
  dir: string;
  runs: number;
  files: DatasetFile[];
  /** Values (strings, and integers for their digits) the redaction detectors judged, those inside JSON-text fields included. */
  valuesChecked: number;
  bytes: number;
}

/** Hugging Face's split names: words, optionally dotted. */
const SPLIT_NAME = /^\w+(\.\w+)*$/;
const SPLIT_ORDER = ['train', 'dev', 'test'];
const splitOrder = (a: string, b: string) => {
  const [i, j] = [SPLIT_ORDER.indexOf(a), SPLIT_ORDER.indexOf(b)];
  if (i !== j) return (i === -1 ? SPLIT_ORDER.length : i) - (j === -1 ? SPLIT_ORDER.length : j);
  return a < b ? -1 : a > b ? 1 : 0;
};

/** The folder to write must be new or empty; its parent is made. */
function checkOut(out: string): void {
  if (!existsSync(out)) return;
  if (!statSync(out).isDirectory()) throw new DatasetExportError(`--out ${out} is a file: give a new or empty folder.`);
  if (readdirSync(out).length > 0) {
    throw new DatasetExportError(
      `--out ${out} is not empty: give a new or empty folder (the export writes the whole folder, and replaces nothing).`,
    );
  }
}

function checkRunDirs(runDirs: readonly string[]): string[] {
  if (runDirs.length === 0) throw new DatasetExportError('name at least one run folder.');
  const dirs = runDirs.map((d) => resolve(d));
  dirs.forEach((dir, i) => {
    if (!existsSync(dir)) throw new DatasetExportError(`${runDirs[i]}: no such folder.`);
    if (!statSync(dir).isDirectory())
      throw new DatasetExportError(`${runDirs[i]} is not a folder: name run folders (written by baton eval --out).`);
    if (!existsSync(join(dir, 'run.json')) || !existsSync(join(dir, 'trajectories.jsonl'))) {
      throw new DatasetExportError(
        `${runDirs[i]} is not a run folder: it needs run.json and trajectories.jsonl (write one with baton eval --out).`,
      );
    }
  });
  return dirs;
}

/** A loaded run with what its rows need. */
interface Source {
  run: LoadedRun;
  runId: string;
  name: string;
}

async function loadSources(runDirs: readonly string[], dirs: readonly string[], options: ExportDatasetOptions): Promise<Source[]> {
  const progress = options.progress ?? (() => {});
  const sources: Source[] = [];
  const seen = new Map<string, string>();
  for (const [i, dir] of dirs.entries()) {
    const name = runDirs[i] ?? dir;
    let loaded: Omit<LoadedRun, 'system'>;
    try {
      loaded = await loadRun(dir, options.tau2Dir ? { tau2Dir: options.tau2Dir } : {});
    } catch (error) {
      throw new DatasetExportError(`${name}: ${(error as Error).message}`);
    }
    const run: LoadedRun = { ...loaded, system: loaded.agent };
    const runId = runIdOf(dir);
    const twin = seen.get(runId);
    if (twin !== undefined) throw new DatasetExportError(`${twin} and ${name} hold the same run (id ${runId}): name it once.`);
    seen.set(runId, name);
    const split = runSplit(run);
    if (!SPLIT_NAME.test(split))
      throw new DatasetExportError(`${name}: split "${split}" is not a name Hugging Face datasets accepts (letters, digits, _).`);
    sources.push({ run, runId, name });
    progress(`read ${i + 1}/${dirs.length} ${basename(dir)}: ${run.records.length} episodes (${run.domain}, ${split}, ${run.agent})`);
  }
  return sources;
}

/** The tasks of every run, one row per task however many runs drew it. */
async function taskRows(sources: readonly Source[], tau2Dir: string | undefined): Promise<DatasetTask[]> {
  const rows = new Map<string, DatasetTask>();
  for (const { run, runId, name } of sources) {
    const config = (run.run['config'] ?? {}) as Record<string, unknown>;
    const version = typeof config['task_version'] === 'string' ? config['task_version'] : undefined;
    const domain = await loadDomain(run.domain as DomainName, { ...(version ? { version } : {}), ...(tau2Dir ? { tau2Dir } : {}) });
    const recorded = run.run['domain_checksum'];
    if (typeof recorded === 'string' && recorded !== domainChecksum(domain)) {
      throw new DatasetExportError(
        `${name}: the ${domain.name} domain's data (policy, tools, tasks, database) is not what the run saw (its domain_checksum differs), so its tasks cannot be described as it ran them. Run it again with this Baton, or export it with the Baton that made it.`,
      );
    }
    const seed = typeof config['variant_seed'] === 'number' ? config['variant_seed'] : HANDOFF_VARIANT_SEED;
    const variants = generateVariants([domain], { seed });
    if (typeof config['variants_checksum'] === 'string' && config['variants_checksum'] !== variantsChecksum(variants)) {
      throw new DatasetExportError(
        `${name}: the hand-off variants this Baton generates are not the ones the run drew (its variants_checksum differs). Run it again with this Baton, or export it with the Baton that made it.`,
      );
    }
    const byVariant = new Map(variants.map((v) => [v.id, v]));
    const byTask = new Map(domain.tasks.map((t) => [t.id, t]));
    for (const record of run.records) {
      const task = byTask.get(record.task_id);
      const variant = record.variant_id === null ? null : byVariant.get(record.variant_id);
      if (!task || variant === undefined) {
        throw new DatasetExportError(
          `${name}: episode ${record.key} is of a task the ${domain.name} domain does not have (${record.variant_id ?? record.task_id}).`,
        );
      }
      const row = taskRow(domain, task, variant, record.split);
      const key = taskKey(row);
      const known = rows.get(key) ?? row;
      if (!known.run_ids.includes(runId)) known.run_ids.push(runId);
      rows.set(key, known);
    }
  }
  return [...rows.values()];
}

/** Rows grouped into files by configuration and split, in a fixed order. */
function byFile(config: DatasetConfigName, rows: readonly { split: string }[]): Map<string, { split: string }[]> {
  const files = new Map<string, { split: string }[]>();
  for (const row of [...new Set(rows.map((r) => r.split))].sort(splitOrder)) files.set(`${config}/${row}.jsonl`, []);
  for (const row of rows) files.get(`${config}/${row.split}.jsonl`)?.push(row);
  return files;
}

function parseRows(schema: z.ZodType, file: string, rows: readonly unknown[]): unknown[] {
  return rows.map((row, i) => {
    const parsed = schema.safeParse(row);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(
        `${file} line ${i + 1}: the row does not match its schema at ${issue?.path.join('.') ?? '?'} (${issue?.message ?? 'invalid'})`,
      );
    }
    return parsed.data;
  });
}

/** Writes the files into a sibling folder, then renames it to `out`: all or nothing. */
function writeAtomically(out: string, contents: ReadonlyMap<string, string>): void {
  mkdirSync(dirname(out), { recursive: true });
  const staging = mkdtempSync(join(dirname(out), `.${basename(out)}.partial-`));
  try {
    for (const [file, text] of contents) {
      mkdirSync(dirname(join(staging, file)), { recursive: true });
      writeFileSync(join(staging, file), text);
    }
    // An empty folder given as --out is replaced by the staged one.
    if (existsSync(out)) rmdirSync(out);
    renameSync(staging, out);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
}

/** Exports the runs as a dataset folder (see the module's comment). */
export async function exportDataset(options: ExportDatasetOptions): Promise<ExportDatasetSummary> {
  const progress = options.progress ?? (() => {});
  const out = resolve(options.out);
  checkOut(out);
  const dirs = checkRunDirs(options.runDirs);
  const sources = await loadSources(options.runDirs, dirs, options);

  const episodes = sources.flatMap(({ run, runId, name }) =>
    run.records.map((record, i) =>
      episodeRow(record, run.analyses[i] as EpisodeAnalysis, run, runId, `${name}/trajectories.jsonl line ${i + 1}`),
    ),
  );
  const tasks = await taskRows(sources, options.tau2Dir);
  const runs = sources.map(({ run, runId }) => runRow(run, runId));
  const rowsOf: Record<DatasetConfigName, readonly { split: string }[]> = { episodes, tasks, runs };

  const contents = new Map<string, string>();
  const files: DatasetFile[] = [];
  const findings: SecretFinding[] = [];
  let valuesChecked = 0;
  for (const { name, schema } of DATASET_CONFIGS) {
    for (const [file, rows] of byFile(name, rowsOf[name])) {
      const parsed = parseRows(schema, file, rows);
      const secrets = findSecrets(file, parsed);
      findings.push(...secrets.findings);
      valuesChecked += secrets.judged;
      contents.set(file, parsed.map((row) => `${JSON.stringify(row)}\n`).join(''));
      files.push({ config: name, split: rows[0]?.split ?? '', path: file, rows: rows.length });
    }
  }
  progress(`checked ${valuesChecked} values of ${episodes.length + tasks.length + runs.length} rows with the redaction detectors`);
  if (findings.length > 0) throw new DatasetExportError(secretsMessage(findings), findings);

  // The card quotes only values of the rows checked above (run names, agents, models, commits)
  // and the exporter's own version and commit.
  const domains = [...new Set(sources.map((s) => s.run.domain))].sort();
  const card = renderCard({
    files,
    runs,
    domains,
    exporter: { version: packageVersion() ?? 'unknown', gitSha: gitSha(PACKAGE_ROOT) },
    runNames: sources.map((s) => basename(s.run.dir)),
  });
  contents.set('README.md', card);
  writeAtomically(out, contents);
  const bytes = [...contents.values()].reduce((n, text) => n + Buffer.byteLength(text), 0);
  return { dir: out, runs: runs.length, files, valuesChecked, bytes };
}
