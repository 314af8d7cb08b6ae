/**
 * `baton export sft RUN_DIR… [--filter success,no-violation,correct-handoff] --out FILE.jsonl`:
 * writes the runs' dialogues as fine-tuning data (see `src/lab/export/sft.ts` for the format and
 * the filters) and says on stderr how many were read, kept, and dropped by each filter.
 */
import { InvalidArgumentError } from 'commander';
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
