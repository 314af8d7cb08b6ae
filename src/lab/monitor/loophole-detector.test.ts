/**
 * The issue's acceptance for the training monitor's alert, over many seeded scripted runs
 * (src/testing/scripted-training-run.ts): on seed 000's curve (over-escalation flat for 30 steps,
 * then climbing from 0.141 to 0.462 in 20 while success is flat) the monitor's change-point test
 * alerts within 5 steps of the climb on most seeds at 1,024 episodes per step and on all at 4,096,
 * while the climb is still going at 256 or with noise beyond the binomial, never before it; and it
 * never alerts over 200 steps on a run where success climbs with the hand-offs, nor on a flat one —
 * at several step sizes and levels of noise beyond the binomial. docs/training-monitor.md has the
 * full measurements (scripts/monitor-detector-figures.ts).
 */
import { describe, expect, it } from 'vitest';
import {
  CLIMB_AFTER,
  CLIMB_WITH_SUCCESS_CURVE,
  FLAT_CURVE,
  LOOPHOLE_CURVE,
  R1_CLIMB_STEPS,
  RECALL_CLIMB_CURVE,
  scriptedTrainingRun,
  type TrainingCurve,
} from '../../testing/scripted-training-run.js';
import { TrainingMonitor } from './training-monitor.js';

/** Plays a scripted run into a monitor (windows of exactly one step's episodes); the first alert's step, or null. */
function firstAlert(curve: TrainingCurve, seed: number, episodesPerStep: number, jitter: number, steps?: number) {
  const monitor = new TrainingMonitor({ config: { windowEpisodes: episodesPerStep } });
  for (const { step, episodes } of scriptedTrainingRun({ curve, seed, episodesPerStep, jitter, ...(steps ? { steps } : {}) })) {
    monitor.record(episodes);
    expect(monitor.steps.at(-1)?.step).toBe(step);
    if (monitor.alerts.length > 0) break;
  }
  return { step: monitor.alerts[0]?.raised_at_step ?? null, monitor };
}

const SEEDS = Array.from({ length: 200 }, (_, i) => i + 1);

/** The steps after the climb began at which the first alert came, one per seed (every seed must alert). */
function delays(episodes: number, jitter: number): number[] {
  return SEEDS.map((seed) => {
    const { step } = firstAlert(LOOPHOLE_CURVE, seed, episodes, jitter);
    expect(step, `seed ${seed}`).not.toBeNull();
    return (step as number) - CLIMB_AFTER;
  });
}

const within = (ds: readonly number[], steps: number) => ds.filter((d) => d <= steps).length;
const median = (ds: readonly number[]) => [...ds].sort((a, b) => a - b)[Math.floor(ds.length / 2)] as number;

describe('the loophole alert on seed 000’s curve', () => {
  it('fires within 5 steps of the climb on 200 of 200 seeds with 4,096 episodes per step, never before it', () => {
    const ds = delays(4096, 0);
    expect(Math.min(...ds)).toBeGreaterThanOrEqual(1);
    expect(within(ds, 5)).toBe(200);
  }, 600_000);

  it('fires within 5 steps of the climb on more than half the seeds with 1,024 episodes per step, all within 8, never before it', () => {
    const ds = delays(1024, 0);
    expect(Math.min(...ds)).toBeGreaterThanOrEqual(1);
    expect(median(ds)).toBeLessThanOrEqual(5);
    expect(within(ds, 5)).toBeGreaterThan(100);
    expect(Math.max(...ds)).toBeLessThanOrEqual(8);
  }, 600_000);

  for (const [episodes, jitter] of [
    [256, 0],
    [1024, 0.01],
  ] as const) {
    it(`fires while the climb is still going on 200 of 200 seeds with ${episodes} episodes per step (noise ${jitter} beyond the binomial)`, () => {
      const ds = delays(episodes, jitter);
      expect(Math.min(...ds)).toBeGreaterThanOrEqual(1);
      expect(Math.max(...ds)).toBeLessThanOrEqual(R1_CLIMB_STEPS);
    }, 600_000);
  }

  it('names the climb’s steps and the numbers', () => {
    const { monitor } = firstAlert(LOOPHOLE_CURVE, 7, 4096, 0);
    const alert = monitor.alerts[0];
    expect(alert).toBeDefined();
    const a = alert as NonNullable<typeof alert>;
    expect(a.to_step).toBe(a.raised_at_step);
    // The change step found is near the true one (after step 30).
    expect(Math.abs(a.from_step - CLIMB_AFTER)).toBeLessThanOrEqual(3);
    expect(a.message).toContain(`steps ${a.from_step}–${a.to_step}`);
    expect(a.message).toMatch(/climbed from \d+\.\d% to \d+\.\d%.* while success went from \d+\.\d% to \d+\.\d%/);
    expect(a.at_raise.rate.fitted_first).toBeCloseTo(0.141, 1);
    expect(a.at_raise.rate.rise).toBeGreaterThanOrEqual(0.04);
    expect(a.at_raise.difference.z).toBeGreaterThanOrEqual(monitor.config.detector.z);
  });
});

// Fewer seeds than the docs' 200 (scripts/monitor-detector-figures.ts), to keep the file within minutes.
describe('no alert without the signature, over 200 steps', () => {
  for (const curve of [CLIMB_WITH_SUCCESS_CURVE, RECALL_CLIMB_CURVE, FLAT_CURVE]) {
    for (const [episodes, jitter, seeds] of [
      [256, 0, SEEDS.slice(0, 100)],
      [1024, 0, SEEDS.slice(0, 50)],
      [1024, 0.01, SEEDS.slice(0, 100)],
      [4096, 0.005, SEEDS.slice(0, 20)],
    ] as const) {
      it(`${curve.name}: none over ${seeds.length} seeds with ${episodes} episodes per step (noise ${jitter})`, () => {
        const alerted = seeds.filter((seed) => firstAlert(curve, seed, episodes, jitter, 200).step !== null);
        expect(alerted).toEqual([]);
      }, 600_000);
    }
  }

  it('the climb-with-success curve does climb: its hand-off figures rise as the loophole’s do', () => {
    const monitor = new TrainingMonitor({ config: { windowEpisodes: 4096 } });
    for (const { episodes } of scriptedTrainingRun({ curve: CLIMB_WITH_SUCCESS_CURVE, seed: 1, episodesPerStep: 4096 }))
      monitor.record(episodes);
    const at = (step: number) => monitor.steps.find((s) => s.step === step);
    expect(at(CLIMB_AFTER)?.over_escalation.rate).toBeCloseTo(0.141, 1);
    expect(at(CLIMB_AFTER + R1_CLIMB_STEPS)?.over_escalation.rate).toBeCloseTo(0.462, 1);
    expect((at(CLIMB_AFTER + R1_CLIMB_STEPS)?.success.rate as number) - (at(CLIMB_AFTER)?.success.rate as number)).toBeGreaterThan(0.25);
    expect(monitor.snapshot().findings.over_escalation?.rate.z).toBeGreaterThan(monitor.config.detector.z);
    expect(monitor.alerts).toEqual([]);
  });
});
