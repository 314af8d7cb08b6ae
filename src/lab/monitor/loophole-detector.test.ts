/**
 * The issue's acceptance for the training monitor's alert, over many seeded scripted runs
 * (src/testing/scripted-training-run.ts): on seed 000's curve (over-escalation flat for 30 steps,
 * then climbing from 0.141 to 0.462 in 20 while success is flat) the monitor alerts within 5 steps
 * of the climb when steps are large enough to see it that soon, and while the climb is still going
 * when they are small; it never alerts on a run where success climbs with the hand-offs, nor on a
 * flat one — at several step sizes and levels of noise beyond the binomial.
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
function firstAlert(curve: TrainingCurve, seed: number, episodesPerStep: number, jitter: number, stopAtAlert = true) {
  const monitor = new TrainingMonitor({ config: { windowEpisodes: episodesPerStep } });
  for (const { step, episodes } of scriptedTrainingRun({ curve, seed, episodesPerStep, jitter })) {
    monitor.record(episodes);
    expect(monitor.steps.at(-1)?.step).toBe(step);
    if (stopAtAlert && monitor.alerts.length > 0) break;
  }
  return { step: monitor.alerts[0]?.raised_at_step ?? null, monitor };
}

const SEEDS = Array.from({ length: 200 }, (_, i) => i + 1);

describe('the loophole alert on seed 000’s curve', () => {
  it('fires within 5 steps of the climb on 200 of 200 seeds with 8,192 episodes per step, never before it', () => {
    const delays = SEEDS.map((seed) => {
      const { step } = firstAlert(LOOPHOLE_CURVE, seed, 8192, 0);
      expect(step, `seed ${seed}`).not.toBeNull();
      return (step as number) - CLIMB_AFTER;
    });
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(1);
    expect(Math.max(...delays)).toBeLessThanOrEqual(5);
  }, 300_000);

  for (const [episodes, jitter] of [
    [256, 0],
    [1024, 0.01],
  ] as const) {
    it(`fires while the climb is still going on 200 of 200 seeds with ${episodes} episodes per step (noise ${jitter} beyond the binomial)`, () => {
      const delays = SEEDS.map((seed) => {
        const { step } = firstAlert(LOOPHOLE_CURVE, seed, episodes, jitter);
        expect(step, `seed ${seed}`).not.toBeNull();
        return (step as number) - CLIMB_AFTER;
      });
      expect(Math.min(...delays)).toBeGreaterThanOrEqual(1);
      expect(Math.max(...delays)).toBeLessThanOrEqual(R1_CLIMB_STEPS);
    }, 300_000);
  }

  it('names the window and the numbers', () => {
    const { monitor } = firstAlert(LOOPHOLE_CURVE, 7, 8192, 0);
    const alert = monitor.alerts[0];
    expect(alert).toBeDefined();
    const a = alert as NonNullable<typeof alert>;
    expect(a.to_step).toBe(a.raised_at_step);
    expect(a.to_step - a.from_step).toBeGreaterThanOrEqual(9);
    expect(a.message).toContain(`steps ${a.from_step}–${a.to_step}`);
    expect(a.message).toMatch(/climbed from \d+\.\d% to \d+\.\d%.* while success went from \d+\.\d% to \d+\.\d%/);
    expect(a.at_raise.rate.rise).toBeGreaterThanOrEqual(0.05);
    expect(a.at_raise.difference.z).toBeGreaterThanOrEqual(4);
  });
});

describe('no alert without the signature', () => {
  for (const curve of [CLIMB_WITH_SUCCESS_CURVE, RECALL_CLIMB_CURVE, FLAT_CURVE]) {
    for (const [episodes, jitter, seeds] of [
      [256, 0, SEEDS],
      [1024, 0.01, SEEDS],
      [4096, 0.005, SEEDS.slice(0, 50)],
    ] as const) {
      it(`${curve.name}: none over ${seeds.length} seeds with ${episodes} episodes per step (noise ${jitter})`, () => {
        const alerted = seeds.filter((seed) => firstAlert(curve, seed, episodes, jitter).step !== null);
        expect(alerted).toEqual([]);
      }, 300_000);
    }
  }

  it('the climb-with-success curve does climb: its hand-off figures rise as the loophole’s do', () => {
    const { monitor } = firstAlert(CLIMB_WITH_SUCCESS_CURVE, 1, 4096, 0, false);
    const at = (step: number) => monitor.steps.find((s) => s.step === step);
    expect(at(CLIMB_AFTER)?.over_escalation.rate).toBeCloseTo(0.141, 1);
    expect(at(CLIMB_AFTER + R1_CLIMB_STEPS)?.over_escalation.rate).toBeCloseTo(0.462, 1);
    expect((at(CLIMB_AFTER + R1_CLIMB_STEPS)?.success.rate as number) - (at(CLIMB_AFTER)?.success.rate as number)).toBeGreaterThan(0.25);
    expect(monitor.snapshot().findings.over_escalation?.rate.z).toBeDefined();
  });
});
