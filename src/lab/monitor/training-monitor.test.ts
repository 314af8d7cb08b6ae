import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOOPHOLE_CURVE, scriptedTrainingRun } from '../../testing/scripted-training-run.js';
import { MONITOR_FILE, monitorFileSink, readMonitorRun } from './monitor-file.js';
import type { MonitoredEpisode } from './monitored-episode.js';
import { TrainingMonitor, type MonitorLine } from './training-monitor.js';

/** An episode: success or not, should-transfer or not, handed off or not. */
const episode = (success: boolean, should: boolean, transferred: boolean): MonitoredEpisode => ({
  scored: true,
  success,
  should_transfer: should,
  transferred,
  handoff_class: should ? (transferred ? 'tp' : 'fn') : transferred ? 'fp' : 'tn',
  citations: { events: transferred ? 1 : 0, cited: 0 },
  reward: { value: success ? 1 : 0, components: { task: success ? 1 : 0 } },
});
const WIN = episode(true, false, false);
const OVER = episode(false, false, true);

describe('steps as windows of episodes', () => {
  it('closes a step every N finished episodes, in the order they finish, with the lab’s figures', () => {
    const lines: MonitorLine[] = [];
    const monitor = new TrainingMonitor({ config: { windowEpisodes: 3 }, sink: (l) => lines.push(l) });
    const watches = [monitor.started(), monitor.started(), monitor.started(), monitor.started()];
    watches[3]?.finished(OVER);
    watches[0]?.finished(WIN);
    expect(monitor.steps).toEqual([]);
    expect(monitor.snapshot().current).toMatchObject({ step: 1, episodes: 2, in_flight: 2 });
    watches[1]?.abandoned();
    watches[2]?.finished(episode(true, true, true));
    expect(monitor.steps).toHaveLength(1);
    const [step] = monitor.steps;
    expect(step).toMatchObject({ step: 1, episodes: 3, tp: 1, fp: 1, tn: 1, fn: 0, reward: 2 / 3, components: { task: 2 / 3 } });
    expect(step?.success).toEqual({ num: 2, den: 3, rate: 2 / 3 });
    expect(step?.over_escalation).toEqual({ num: 1, den: 2, rate: 0.5 });
    expect(step?.missed).toEqual({ num: 0, den: 1, rate: 0 });
    expect(step?.handoff_rate).toEqual({ num: 2, den: 3, rate: 2 / 3 });
    expect(step?.citation_rate).toEqual({ num: 0, den: 2, rate: 0 });
    expect(monitor.snapshot().episodes).toEqual({ finished: 3, abandoned: 1, in_flight: 0 });
    expect(lines.map((l) => l.type)).toEqual(['monitor.started', 'step.closed']);
    expect(() => watches[0]?.finished(WIN)).toThrow(/twice/);
  });
});

describe("the trainer's steps", () => {
  it('counts an episode for the step declared at its reset, and closes a step once a later one is declared and its episodes are in', () => {
    const monitor = new TrainingMonitor({ config: { windowEpisodes: 100 } });
    monitor.record([WIN]); // the window in progress becomes step 1
    expect(monitor.declareStep(5)).toEqual({ ok: true, step: 5, closed: [1] });
    expect(monitor.snapshot().source).toBe('trainer');
    const early = monitor.started();
    const other = monitor.started();
    expect(monitor.declareStep(6)).toEqual({ ok: true, step: 6, closed: [] }); // step 5 still has episodes in flight
    const late = monitor.started();
    late.finished(OVER);
    other.abandoned();
    expect(monitor.steps.map((s) => s.step)).toEqual([1]);
    early.finished(WIN); // started in step 5, finished during step 6: it counts for 5
    expect(monitor.steps.map((s) => [s.step, s.episodes, s.fp])).toEqual([
      [1, 1, 0],
      [5, 1, 0],
    ]);
    expect(monitor.declareStep(7)).toEqual({ ok: true, step: 7, closed: [6] });
    expect(monitor.steps.at(-1)).toMatchObject({ step: 6, episodes: 1, fp: 1 });
    expect(monitor.declareStep(7)).toEqual({ ok: true, step: 7, closed: [] });
  });

  it('refuses a step that is not after the last one, or not a whole number ≥ 0, and changes nothing', () => {
    const monitor = new TrainingMonitor({ config: { windowEpisodes: 1 } });
    monitor.record([WIN, WIN]);
    expect(monitor.declareStep(2)).toEqual({ ok: false, message: 'step 2 is not after step 2, the last the monitor has' });
    expect(monitor.snapshot().source).toBe('episodes');
    expect(monitor.declareStep(3)).toMatchObject({ ok: true });
    expect(monitor.declareStep(1)).toEqual({ ok: false, message: 'step 1 is not after step 3, the one declared last' });
    expect(monitor.declareStep(-1)).toMatchObject({ ok: false });
    expect(monitor.declareStep(1.5)).toMatchObject({ ok: false });
  });

  it('says what is wrong with a bad configuration', () => {
    expect(() => new TrainingMonitor({ config: { windowEpisodes: 0 } })).toThrow(/positive whole number of episodes/);
    expect(() => new TrainingMonitor({ config: { detector: { maxClimbSteps: 1 } } })).toThrow(
      /the longest climb must be a whole number of steps, at least 4/,
    );
    expect(() => new TrainingMonitor({ config: { detector: { z: Number.NaN } } })).toThrow(/z threshold/);
    expect(() => new TrainingMonitor({ config: { detector: { maxClimbSteps: 60 } } })).toThrow(
      /must hold the baseline and the longest climb/,
    );
  });
});

describe('alerts and the file', () => {
  it('raises an alert on the loophole curve, extends it while it holds, closes it when it stops, logs it, and writes it all to monitor.jsonl', () => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-monitor-'));
    const logged: string[] = [];
    const monitor = new TrainingMonitor({
      config: { windowEpisodes: 2048 },
      sink: monitorFileSink(dir),
      log: (l) => logged.push(l),
      about: { domain: 'scripted', curve: LOOPHOLE_CURVE.name },
      now: () => new Date('2026-12-01T12:00:00Z'),
    });
    // 120 steps: the climb ends at step 50, and once the test's history (50 steps) holds only the new level, the alert stops holding.
    for (const { episodes } of scriptedTrainingRun({ curve: LOOPHOLE_CURVE, seed: 3, episodesPerStep: 2048, steps: 120 }))
      monitor.record(episodes);
    const alerts = monitor.alerts.filter((a) => a.metric === 'over_escalation');
    expect(alerts.length).toBeGreaterThanOrEqual(1);
    const first = alerts[0] as NonNullable<(typeof alerts)[0]>;
    expect(first.raised_at_step).toBeGreaterThan(30);
    expect(first.to_step).toBeGreaterThan(first.raised_at_step); // extended while the climb went on
    expect(first.open).toBe(false); // the climb ends at step 50 and the run goes on flat
    expect(first.closed_at_step).toBeGreaterThan(first.to_step);
    expect(logged.some((l) => l.startsWith(`ALERT ${first.id} (over_escalation) after step ${first.raised_at_step}:`))).toBe(true);
    expect(logged.some((l) => l.includes(`${first.id} (over_escalation) stopped holding`))).toBe(true);

    const run = readMonitorRun(dir);
    expect(run.steps).toEqual(monitor.steps);
    expect(run.alerts).toEqual(monitor.alerts);
    expect(run.about).toEqual({ domain: 'scripted', curve: 'loophole' });
    expect(run.config).toEqual(monitor.config);
    expect(run.started).toBe('2026-12-01T12:00:00.000Z');
    expect(readMonitorRun(join(dir, MONITOR_FILE)).steps).toHaveLength(120);
  });

  it('reads back only a well-formed file, naming the line that is not', () => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-monitor-'));
    expect(() => readMonitorRun(dir)).toThrow(/no such file/);
    const sink = monitorFileSink(dir);
    const monitor = new TrainingMonitor({ sink, config: { windowEpisodes: 2 } });
    monitor.record([WIN]);
    expect(() => readMonitorRun(dir)).toThrow(/no such file/); // nothing is written before a step closes
    monitor.record([WIN]);
    const path = join(dir, MONITOR_FILE);
    const good = readFileSync(path, 'utf8');
    expect(readMonitorRun(dir).steps).toHaveLength(1);
    writeFileSync(path, `${good}{"type":"step.closed","at":"x","source":"episodes","figures":{"step":-1}}\n`);
    expect(() => readMonitorRun(dir)).toThrow(/monitor\.jsonl:3: not a monitor line of version 2/);
    writeFileSync(path, `${good}not json\n`);
    expect(() => readMonitorRun(dir)).toThrow(/:3: not JSON/);
    writeFileSync(path, '');
    expect(() => readMonitorRun(dir)).toThrow(/empty/);
  });
});
