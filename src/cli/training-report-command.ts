/**
 * `baton report --training RUN --out FILE.html`: a training run's curves from the environment
 * server's monitor folder (docs/training-monitor.md); prints the alerts and the file's path.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { buildTrainingReport } from '../lab/report/training-report.js';

export interface TrainingReportCommandOptions {
  monitorDir: string;
  out: string;
  write?: (text: string) => void;
}

export function runTrainingReportCommand(options: TrainingReportCommandOptions): { path: string } {
  const write = options.write ?? ((text: string) => process.stdout.write(text));
  const { html, run } = buildTrainingReport(options.monitorDir);
  const path = resolve(options.out);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, html);
  const alerts = run.alerts.map((a) => `ALERT ${a.id} (${a.metric}, steps ${a.from_step}–${a.to_step}): ${a.message}\n`).join('');
  write(`${run.steps.length} training steps, ${run.alerts.length} alerts\n${alerts}Report: ${path}\n`);
  return { path };
}
