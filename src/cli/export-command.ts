/**
 * `baton export sft RUN_DIR… [--filter success,no-violation,correct-handoff] --out FILE.jsonl`:
 * writes the runs' dialogues as fine-tuning data (see `src/lab/export/sft.ts` for the format and
 * the filters) and says on stderr how many were read, kept, and dropped by each filter.
 * `baton export dataset RUN_DIR… --out DIR`: the runs as a Hugging Face dataset folder.
 */
import { InvalidArgumentError } from 'commander';
import { exportDataset, type ExportDatasetSummary } from '../lab/export/dataset/dataset.js';
import { exportSft, parseSftFilters, SFT_FILTERS, type ExportSftSummary, type SftFilter } from '../lab/export/sft.js';

export interface ExportSftCommandOptions {
  runDirs: readonly string[];
  out: string;
  /** Comma-separated filter names (absent: every dialogue is kept). */
  filter?: string;
  tau2Dir?: string;
  /** Where the counts go (default: stderr). */
  write?: (text: string) => void;
}

/** The counts, one filter per line. */
export function exportSftText(summary: ExportSftSummary, filters: readonly SftFilter[]): string {
  const runs = `${summary.runs} run${summary.runs === 1 ? '' : 's'}`;
  const lines = [`read ${summary.read} dialogues from ${runs}`];
  for (const filter of SFT_FILTERS) {
    if (filters.includes(filter)) lines.push(`  dropped by ${filter.padEnd(16)} ${summary.droppedBy[filter]}`);
  }
  const dropped = summary.read - summary.kept;
  const several = filters.length > 1 ? ' (a dialogue may fail several filters)' : '';
  lines.push(`kept ${summary.kept}, dropped ${dropped}${several}`);
  if (summary.tokens) {
    const t = summary.tokens;
    lines.push(
      `tokens per dialogue (estimated: ${t.estimate}): median ${t.p50}, p95 ${t.p95}, max ${t.max}; use max_length ${t.suggestedMaxLength} or more (TRL's default 1024 drops longer rows)`,
    );
  }
  lines.push(`wrote ${summary.path}`);
  return `${lines.join('\n')}\n`;
}

export async function runExportSftCommand(options: ExportSftCommandOptions): Promise<ExportSftSummary> {
  const write = options.write ?? ((text: string) => process.stderr.write(text));
  let filters: SftFilter[];
  try {
    filters = parseSftFilters(options.filter ?? '');
  } catch (error) {
    throw new InvalidArgumentError(`--filter: ${(error as Error).message}`);
  }
  const summary = await exportSft({
    runDirs: options.runDirs,
    out: options.out,
    filters,
    ...(options.tau2Dir ? { tau2Dir: options.tau2Dir } : {}),
  });
  write(exportSftText(summary, filters));
  return summary;
}

export interface ExportDatasetCommandOptions {
  runDirs: readonly string[];
  out: string;
  tau2Dir?: string;
  /** Where progress and the summary go (default: stderr). */
  write?: (text: string) => void;
}

/** The summary: each file with its rows, the strings checked, the folder. */
export function exportDatasetText(summary: ExportDatasetSummary): string {
  const lines = [`exported ${summary.runs} run${summary.runs === 1 ? '' : 's'}:`];
  for (const file of summary.files) lines.push(`  ${file.path.padEnd(28)} ${String(file.rows).padStart(7)} rows`);
  lines.push(`  README.md (the dataset card)`);
  lines.push(`no secret in ${summary.valuesChecked} values checked; ${(summary.bytes / 1024).toFixed(1)} KiB`);
  lines.push(`wrote ${summary.dir} (load it with datasets.load_dataset(DIR, name="episodes" | "tasks" | "runs"))`);
  return `${lines.join('\n')}\n`;
}

/**
 * `baton export dataset RUN_DIR… --out DIR`: the runs as a Hugging Face dataset folder (see
 * `src/lab/export/dataset/dataset.ts`); progress and the summary on stderr. A refusal (a missing
 * or non-run folder, an --out that is not empty, a secret in the rows) throws
 * {@link DatasetExportError}, which the CLI prints and exits 1 on, having written nothing.
 */
export async function runExportDatasetCommand(options: ExportDatasetCommandOptions): Promise<ExportDatasetSummary> {
  const write = options.write ?? ((text: string) => process.stderr.write(text));
  const summary = await exportDataset({
    runDirs: options.runDirs,
    out: options.out,
    ...(options.tau2Dir ? { tau2Dir: options.tau2Dir } : {}),
    progress: (line) => write(`${line}\n`),
  });
  write(exportDatasetText(summary));
  return summary;
}
