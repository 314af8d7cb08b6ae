/**
 * The monitor's file: `monitor.jsonl` in the run's monitor folder, one {@link MonitorLine} per
 * line — the start (version, configuration, what was served), each closed step with its figures,
 * and each alert every time it is raised, extended or stops holding (the last line of an alert is
 * its state). Appended as the run goes, so a report can be drawn during the run or after it.
 * Read back through zod schemas, never `JSON.parse(...) as T`.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { WATCHED_RATES } from './loophole-detector.js';
import type { StepFigures } from './step-figures.js';
import { MONITOR_VERSION, type MonitorAlert, type MonitorLine, type TrainingMonitorConfig } from './training-monitor.js';

/** The file's name inside the monitor folder. */
export const MONITOR_FILE = 'monitor.jsonl';

const ShareSchema = z.object({ num: z.number().int().nonnegative(), den: z.number().int().nonnegative(), rate: z.number().nullable() });

export const StepFiguresSchema = z.object({
  step: z.number().int().nonnegative(),
  episodes: z.number().int().nonnegative(),
  scored: z.number().int().nonnegative(),
  positives: z.number().int().nonnegative(),
  negatives: z.number().int().nonnegative(),
  tp: z.number().int().nonnegative(),
  fp: z.number().int().nonnegative(),
  fn: z.number().int().nonnegative(),
  tn: z.number().int().nonnegative(),
  success: ShareSchema,
  handoff_rate: ShareSchema,
  over_escalation: ShareSchema,
  missed: ShareSchema,
  citation_rate: ShareSchema,
  reward: z.number().nullable(),
  components: z.record(z.string(), z.number()),
  covariance_with_success: z.object({ handoff_rate: z.number(), over_escalation: z.number() }),
});

const TrendSchema = z.object({
  from: z.number(),
  to: z.number(),
  slope: z.number(),
  se: z.number(),
  z: z.number(),
  fitted_first: z.number(),
  fitted_last: z.number(),
  rise: z.number(),
  noise: z.number(),
});
const EndsSchema = z.object({ first: z.number().nullable(), last: z.number().nullable() });

const FindingSchema = z.object({
  metric: z.enum(WATCHED_RATES),
  from_step: z.number(),
  to_step: z.number(),
  rate: TrendSchema.extend(EndsSchema.shape),
  success: TrendSchema.extend(EndsSchema.shape),
  difference: TrendSchema,
  signature: z.boolean(),
});

export const MonitorAlertSchema = z.object({
  id: z.string(),
  metric: z.enum(WATCHED_RATES),
  raised_at_step: z.number(),
  from_step: z.number(),
  to_step: z.number(),
  open: z.boolean(),
  closed_at_step: z.number().nullable(),
  message: z.string(),
  at_raise: FindingSchema,
  latest: FindingSchema,
});

const ConfigSchema = z.object({
  windowEpisodes: z.number().int().positive(),
  detector: z.object({
    z: z.number(),
    minRise: z.number(),
    maxClimbSteps: z.number().int(),
    minClimbSteps: z.number().int(),
    minBaselineSteps: z.number().int(),
    historySteps: z.number().int(),
    noiseSteps: z.number().int(),
  }),
});

export const MonitorLineSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('monitor.started'),
    version: z.literal(MONITOR_VERSION),
    at: z.string(),
    config: ConfigSchema,
    about: z.record(z.string(), z.string()),
  }),
  z.object({ type: z.literal('step.closed'), at: z.string(), source: z.enum(['episodes', 'trainer']), figures: StepFiguresSchema }),
  z.object({ type: z.literal('alert'), at: z.string(), alert: MonitorAlertSchema }),
]);

// The schemas describe exactly what the monitor writes.
const _line: z.infer<typeof MonitorLineSchema> = {} as MonitorLine;
const _steps: z.infer<typeof StepFiguresSchema> = {} as StepFigures;
void _line;
void _steps;

/**
 * A sink that appends each line to `dir/monitor.jsonl`. The folder and the file are made when the
 * first step closes (the start line waits for it), so a server that served no step leaves nothing.
 */
export function monitorFileSink(dir: string): (line: MonitorLine) => void {
  const path = join(dir, MONITOR_FILE);
  let waiting: MonitorLine[] | null = [];
  return (line) => {
    if (waiting !== null) {
      waiting.push(line);
      if (line.type === 'monitor.started') return;
      mkdirSync(dir, { recursive: true });
      appendFileSync(path, waiting.map((l) => `${JSON.stringify(l)}\n`).join(''));
      waiting = null;
      return;
    }
    appendFileSync(path, `${JSON.stringify(line)}\n`);
  };
}

/** A monitor's file, read back: its configuration, its steps in order, and each alert's last state. */
export interface MonitorRun {
  path: string;
  started: string;
  config: TrainingMonitorConfig;
  about: Record<string, string>;
  steps: StepFigures[];
  alerts: MonitorAlert[];
}

/** Reads `monitor.jsonl` from a monitor folder (or the file itself); a bad line fails with its number. */
export function readMonitorRun(pathOrDir: string): MonitorRun {
  const path = existsSync(pathOrDir) && statSync(pathOrDir).isDirectory() ? join(pathOrDir, MONITOR_FILE) : pathOrDir;
  if (!existsSync(path)) throw new Error(`${path}: no such file (a training monitor's folder holds ${MONITOR_FILE})`);
  const lines = readFileSync(path, 'utf8').split('\n');
  let start: Extract<MonitorLine, { type: 'monitor.started' }> | null = null;
  const steps: StepFigures[] = [];
  const alerts = new Map<string, MonitorAlert>();
  lines.forEach((text, index) => {
    if (text.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new Error(`${path}:${index + 1}: not JSON`);
    }
    const parsed = MonitorLineSchema.safeParse(json);
    if (!parsed.success)
      throw new Error(`${path}:${index + 1}: not a monitor line of version ${MONITOR_VERSION}: ${z.prettifyError(parsed.error)}`);
    const line = parsed.data;
    if (line.type === 'monitor.started') {
      if (start) throw new Error(`${path}:${index + 1}: a second start (one monitor per file)`);
      start = line;
    } else if (!start) throw new Error(`${path}:${index + 1}: a ${line.type} line before the monitor's start`);
    else if (line.type === 'step.closed') steps.push(line.figures);
    else alerts.set(line.alert.id, line.alert);
  });
  const first = start as Extract<MonitorLine, { type: 'monitor.started' }> | null;
  if (!first) throw new Error(`${path}: empty (no monitor.started line)`);
  return { path, started: first.at, config: first.config, about: first.about, steps, alerts: [...alerts.values()] };
}
