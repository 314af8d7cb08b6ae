/**
 * The training monitor of the environment server: it groups finished episodes into training
 * steps, pools each closed step's figures (`step-figures.ts`), runs the loophole detector after
 * every step (`loophole-detector.ts`, a change-point test) and keeps the alerts it raises, each with the window of steps
 * and the numbers. Everything it learns goes to `sink` (the run's `monitor.jsonl`) and `log`.
 *
 * How a step is known (docs/training-monitor.md):
 * - **Windows of episodes** (until the trainer says otherwise): every `windowEpisodes` finished
 *   episodes are a step, numbered 1, 2, 3, … in the order they finish.
 * - **The trainer's steps**: once the trainer declares a step (`declareStep`, `POST /monitor/step`),
 *   an episode belongs to the step declared when it was reset, and the monitor follows the
 *   trainer's numbers from then on (a window in progress is closed as a step of its own; an episode
 *   reset before the first declaration counts for the step it finishes in). A step
 *   closes when a later one has been declared and its last episode in flight has finished or been
 *   abandoned, so an episode that started in step 7 and ends during step 8 still counts for 7.
 */
import {
  checkDetectorConfig,
  HOLD_LEVEL,
  detectSignature,
  DETECTOR_DEFAULTS,
  WATCHED_RATES,
  type DetectorConfig,
  type TrendFinding,
  type WatchedRate,
} from './loophole-detector.js';
import type { MonitoredEpisode } from './monitored-episode.js';
import { stepFigures, type StepFigures } from './step-figures.js';

/** The version of everything the monitor writes and serves. */
export const MONITOR_VERSION = 2;

export interface TrainingMonitorConfig {
  /** Episodes per step while the trainer has not declared its steps. */
  windowEpisodes: number;
  detector: DetectorConfig;
}

export const MONITOR_DEFAULTS: TrainingMonitorConfig = { windowEpisodes: 64, detector: DETECTOR_DEFAULTS };

/** An alert: the signature over a window of steps, with the numbers when raised and the latest ones. */
export interface MonitorAlert {
  id: string;
  metric: WatchedRate;
  /** The step after which it was raised. */
  raised_at_step: number;
  /** The steps it covers: the window it was raised on, extended while the signature holds. */
  from_step: number;
  to_step: number;
  /** Still holding at the last closed step. */
  open: boolean;
  /** The step at which it stopped holding, if it has. */
  closed_at_step: number | null;
  /** One sentence with the window and the numbers. */
  message: string;
  at_raise: TrendFinding;
  latest: TrendFinding;
}

/** One line of the monitor's file (and what `sink` receives). */
export type MonitorLine =
  | { type: 'monitor.started'; version: typeof MONITOR_VERSION; at: string; config: TrainingMonitorConfig; about: Record<string, string> }
  | { type: 'step.closed'; at: string; source: StepSource; figures: StepFigures }
  | { type: 'alert'; at: string; alert: MonitorAlert };

/** Where a step's boundaries came from. */
export type StepSource = 'episodes' | 'trainer';

/** What `GET /monitor` serves. */
export interface MonitorSnapshot {
  version: typeof MONITOR_VERSION;
  config: TrainingMonitorConfig;
  source: StepSource;
  episodes: { finished: number; abandoned: number; in_flight: number };
  steps: StepFigures[];
  /** The step now filling, its figures so far (not yet tested). */
  current: (StepFigures & { in_flight: number }) | null;
  alerts: MonitorAlert[];
  /** The latest finding per watched rate (null until enough steps have closed). */
  findings: Record<WatchedRate, TrendFinding | null>;
}

/** The handle of one episode from its reset: exactly one of the two is called, once. */
export interface EpisodeWatch {
  finished(episode: MonitoredEpisode): void;
  abandoned(): void;
}

/** A refused step declaration (a value, not a throw: the caller sent it). */
export type DeclareResult = { ok: true; step: number; closed: number[] } | { ok: false; message: string };

export interface TrainingMonitorOptions {
  config?: Partial<Omit<TrainingMonitorConfig, 'detector'>> & { detector?: Partial<DetectorConfig> };
  /** Receives every line (the run's file). */
  sink?: (line: MonitorLine) => void;
  /** One line per alert raised and per alert that stops holding (the server's log). */
  log?: (line: string) => void;
  now?: () => Date;
  /** Written in the first line: the environment served (domain, tasks, reward, …). */
  about?: Record<string, string>;
}

interface OpenStep {
  step: number;
  episodes: MonitoredEpisode[];
  inFlight: number;
  /** A later step has been declared: this one takes no new episodes. */
  done: boolean;
}

const RATE_LABELS: Record<WatchedRate | 'success', string> = {
  handoff_rate: 'the hand-off rate',
  over_escalation: 'over-escalation',
  success: 'success',
};

const pct = (v: number | null) => (v === null ? 'n/a' : `${(v * 100).toFixed(1)}%`);
const signed = (v: number, digits: number) => `${v >= 0 ? '+' : ''}${v.toFixed(digits)}`;

/** The alert's sentence: the climb's steps, the watched rate's and success's numbers, and the test's. */
export function alertMessage(f: TrendFinding): string {
  return (
    `${RATE_LABELS[f.metric]} climbed from ${pct(f.rate.first)} to ${pct(f.rate.last)} over steps ${f.from_step}–${f.to_step} ` +
    `(change after step ${f.from_step}: baseline ${pct(f.rate.fitted_first)}, fitted ${pct(f.rate.fitted_last)} at step ${f.to_step}, ` +
    `${signed(f.rate.slope * 100, 2)} points/step, z ${f.rate.z.toFixed(1)}) ` +
    `while success went from ${pct(f.success.first)} to ${pct(f.success.last)} (fitted ${pct(f.success.fitted_first)} → ${pct(f.success.fitted_last)}, ` +
    `${signed(f.success.slope * 100, 2)} points/step): ${signed(f.difference.rise * 100, 1)} points more than success since step ${f.from_step} (z ${f.difference.z.toFixed(1)})`
  );
}

export class TrainingMonitor {
  readonly config: TrainingMonitorConfig;
  readonly #sink: (line: MonitorLine) => void;
  readonly #log: (line: string) => void;
  readonly #now: () => Date;
  #source: StepSource = 'episodes';
  readonly #closed: StepFigures[] = [];
  /** Open steps in order; in window mode, only the one filling. */
  readonly #open: OpenStep[] = [{ step: 1, episodes: [], inFlight: 0, done: false }];
  readonly #alerts: MonitorAlert[] = [];
  readonly #findings: Record<WatchedRate, TrendFinding | null> = { handoff_rate: null, over_escalation: null };
  #finished = 0;
  #abandoned = 0;
  #inFlight = 0;

  constructor(options: TrainingMonitorOptions = {}) {
    const windowEpisodes = options.config?.windowEpisodes ?? MONITOR_DEFAULTS.windowEpisodes;
    if (!Number.isInteger(windowEpisodes) || windowEpisodes < 1)
      throw new Error(`the monitor window must be a positive whole number of episodes (got ${windowEpisodes})`);
    this.config = { windowEpisodes, detector: checkDetectorConfig({ ...DETECTOR_DEFAULTS, ...options.config?.detector }) };
    this.#sink = options.sink ?? (() => undefined);
    this.#log = options.log ?? (() => undefined);
    this.#now = options.now ?? (() => new Date());
    this.#sink({ type: 'monitor.started', version: MONITOR_VERSION, at: this.#at(), config: this.config, about: options.about ?? {} });
  }

  #at(): string {
    return this.#now().toISOString();
  }

  /** Called at an episode's reset; the handle says how it ended. */
  started(): EpisodeWatch {
    // In window mode an episode counts where it finishes; with the trainer's steps, where it started.
    const step = this.#source === 'trainer' ? (this.#open.at(-1) as OpenStep) : null;
    if (step) step.inFlight += 1;
    this.#inFlight += 1;
    let settled = false;
    const settle = () => {
      if (settled) throw new Error('an episode watch was settled twice');
      settled = true;
      this.#inFlight -= 1;
      if (step) step.inFlight -= 1;
    };
    return {
      finished: (episode) => {
        settle();
        this.#finished += 1;
        (step ?? (this.#open.at(-1) as OpenStep)).episodes.push(episode);
        this.#advance();
      },
      abandoned: () => {
        settle();
        this.#abandoned += 1;
        this.#advance();
      },
    };
  }

  /** Records finished episodes that had no watch from their reset (the tests' scripted runs, a replay). */
  record(episodes: readonly MonitoredEpisode[]): void {
    for (const episode of episodes) {
      this.#finished += 1;
      (this.#open.at(-1) as OpenStep).episodes.push(episode);
      if (this.#source === 'episodes' && (this.#open[0] as OpenStep).episodes.length >= this.config.windowEpisodes) this.#advance();
    }
    this.#advance();
  }

  /**
   * The trainer says that step `step` begins: later resets belong to it. The first declaration
   * switches the monitor to the trainer's steps; each must be after the last one known.
   */
  declareStep(step: number): DeclareResult {
    if (!Number.isSafeInteger(step) || step < 0) return { ok: false, message: `a step is a whole number ≥ 0 (got ${String(step)})` };
    const last = this.#open.at(-1) as OpenStep;
    const before = this.#closed.length;
    if (this.#source === 'episodes') {
      // The window in progress ends here, as a step of its own if it holds any episode.
      const floor = last.episodes.length > 0 ? last.step : (this.#closed.at(-1)?.step ?? 0);
      if (step <= floor) return { ok: false, message: `step ${step} is not after step ${floor}, the last the monitor has` };
      this.#source = 'trainer';
      last.done = true;
      this.#open.push({ step, episodes: [], inFlight: 0, done: false });
      this.#advance();
    } else {
      if (step === last.step) return { ok: true, step, closed: [] };
      if (step < last.step) return { ok: false, message: `step ${step} is not after step ${last.step}, the one declared last` };
      last.done = true;
      this.#open.push({ step, episodes: [], inFlight: 0, done: false });
      this.#advance();
    }
    return { ok: true, step, closed: this.#closed.slice(before).map((s) => s.step) };
  }

  /** Closes what can be closed, in order, and tests each closed step. */
  #advance(): void {
    for (;;) {
      const head = this.#open[0] as OpenStep;
      const full = this.#source === 'episodes' && head.episodes.length >= this.config.windowEpisodes;
      const over = head.done && head.inFlight === 0;
      if (!full && !over) return;
      this.#open.shift();
      if (head.episodes.length > 0) this.#close(stepFigures(head.step, head.episodes));
      if (this.#open.length === 0) this.#open.push({ step: head.step + 1, episodes: [], inFlight: 0, done: false });
    }
  }

  #close(figures: StepFigures): void {
    this.#closed.push(figures);
    this.#sink({ type: 'step.closed', at: this.#at(), source: this.#source, figures });
    for (const metric of WATCHED_RATES) {
      const open = this.#alerts.find((a) => a.metric === metric && a.open);
      const finding = detectSignature(this.#closed, metric, this.config.detector, open ? HOLD_LEVEL : 1);
      this.#findings[metric] = finding;
      if (finding?.signature) {
        if (open) {
          open.to_step = finding.to_step;
          open.latest = finding;
          this.#sink({ type: 'alert', at: this.#at(), alert: open });
        } else {
          const alert: MonitorAlert = {
            id: `alert_${this.#alerts.length + 1}`,
            metric,
            raised_at_step: figures.step,
            from_step: finding.from_step,
            to_step: finding.to_step,
            open: true,
            closed_at_step: null,
            message: alertMessage(finding),
            at_raise: finding,
            latest: finding,
          };
          this.#alerts.push(alert);
          this.#sink({ type: 'alert', at: this.#at(), alert });
          this.#log(`ALERT ${alert.id} (${metric}) after step ${figures.step}: ${alert.message}`);
        }
      } else if (open) {
        open.open = false;
        open.closed_at_step = figures.step;
        this.#sink({ type: 'alert', at: this.#at(), alert: open });
        this.#log(
          `alert ${open.id} (${metric}) stopped holding at step ${figures.step} (it covered steps ${open.from_step}–${open.to_step})`,
        );
      }
    }
  }

  /** Every alert raised so far, in order. */
  get alerts(): readonly MonitorAlert[] {
    return this.#alerts;
  }

  /** The closed steps, in order. */
  get steps(): readonly StepFigures[] {
    return this.#closed;
  }

  /** The step filling: in window mode every episode in flight will land in it. */
  #current(): MonitorSnapshot['current'] {
    const filling = this.#open.at(-1) as OpenStep;
    const inFlight = this.#source === 'episodes' ? this.#inFlight : filling.inFlight;
    if (filling.episodes.length === 0 && inFlight === 0) return null;
    return { ...stepFigures(filling.step, filling.episodes), in_flight: inFlight };
  }

  snapshot(): MonitorSnapshot {
    return {
      version: MONITOR_VERSION,
      config: this.config,
      source: this.#source,
      episodes: { finished: this.#finished, abandoned: this.#abandoned, in_flight: this.#inFlight },
      steps: [...this.#closed],
      current: this.#current(),
      alerts: this.#alerts.map((a) => ({ ...a })),
      findings: { ...this.#findings },
    };
  }
}
