/**
 * `baton report RUN_DIR… [--baseline NAME] --out FILE.html`: writes the comparison of runs as one
 * self-contained HTML file, prints the comparison table, and the file's path.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import {
  comparisonText,
  compareRuns,
  kindRows,
  kindText,
  loadRuns,
  partialText,
  renderReport,
  TERMINAL_WIDTH,
  wrapText,
  type Comparison,
} from '../lab/report/index.js';

export interface ReportCommandOptions {
  runDirs: readonly string[];
  baseline?: string;
  out: string;
  tau2Dir?: string;
  /** Put runs of different domains or task sets in one table. */
  allowMixed?: boolean;
  /** Print every column in full, as wide as it takes (default: the short form, within 100 columns). */
  details?: boolean;
  /** Where the table and the path go (default: stdout). */
  write?: (text: string) => void;
}

export async function runReportCommand(options: ReportCommandOptions): Promise<{ path: string; comparison: Comparison }> {
  const write = options.write ?? ((text: string) => process.stdout.write(text));
  const runs = await loadRuns(options.runDirs, {
    ...(options.tau2Dir ? { tau2Dir: options.tau2Dir } : {}),
    ...(options.allowMixed ? { allowMixed: true } : {}),
  });
  const comparison = compareRuns(runs, options.baseline);
  const html = renderReport(runs, options.baseline !== undefined ? { baseline: options.baseline } : {});
  const path = resolve(options.out);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, html);
  const text = options.details ? { details: true } : {};
  const kinds = kindText(
    kindRows(runs),
    runs.map((r) => r.system),
    text,
  );
  const warnings = runs.flatMap((r) => {
    const partial = partialText(r);
    const infra = r.metrics.infrastructure;
    return [
      ...(partial ? [`${r.system}: ${partial}`] : []),
      ...(infra ? [`${r.system}: ${infra.failed} of ${infra.of} episodes infrastructure-failed, left out`] : []),
    ];
  });
  const header = warnings.map((w) => `${wrapText(`WARNING ${w}`, TERMINAL_WIDTH, '  ')}\n`).join('');
  write(
    `${header}${comparisonText(comparison, text)}\n\nHand-offs by task kind (share handed off, handed off/episodes):\n${kinds}\n\nReport: ${path}\n`,
  );
  return { path, comparison };
}
