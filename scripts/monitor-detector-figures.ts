/**
 * Measures the training monitor's change-point detector on seeded scripted runs
 * (src/testing/scripted-training-run.ts) and prints JSON: for each step size, the delay of the
 * first signature on seed 000's loophole curve (steps after the climb began: median, 95th
 * percentile, share within 5) and the number of steps showing the signature on the runs without it
 * (flat, climb-with-success, recall-climb), for every threshold z in a grid — one pass per run,
 * since a finding's score (the smaller of its two z's, among candidates whose rises count) says
 * at once which thresholds it passes. docs/training-monitor.md records the figures.
 *
 *   npx tsx scripts/monitor-detector-figures.ts [--sizes 256,1024,4096] [--seeds 200] [--steps 200] [--min-rise R] [--min-climb N] [--jitter 0] [--z 3,3.5,4]
 */
import { parseArgs } from 'node:util';
import { DETECTOR_DEFAULTS, detectSignature, WATCHED_RATES } from '../src/lab/monitor/loophole-detector.js';
import { stepFigures, type StepFigures } from '../src/lab/monitor/step-figures.js';
import {
  CLIMB_AFTER,
  CLIMB_WITH_SUCCESS_CURVE,
  FLAT_CURVE,
  LOOPHOLE_CURVE,
  RECALL_CLIMB_CURVE,
  scriptedTrainingRun,
  type TrainingCurve,
} from '../src/testing/scripted-training-run.js';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '256,1024,4096' },
    seeds: { type: 'string', default: '200' },
    steps: { type: 'string', default: '200' },
    'min-rise': { type: 'string', default: String(DETECTOR_DEFAULTS.minRise) },
    jitter: { type: 'string', default: '0' },
    'min-climb': { type: 'string', default: String(DETECTOR_DEFAULTS.minClimbSteps) },
    z: { type: 'string', default: '3,3.25,3.5,3.75,4,4.25,4.5' },
  },
});
const sizes = values.sizes.split(',').map(Number);
const seeds = Number(values.seeds);
const steps = Number(values.steps);
const jitter = Number(values.jitter);
const grid = values.z.split(',').map(Number);
const config = { ...DETECTOR_DEFAULTS, minRise: Number(values['min-rise']), minClimbSteps: Number(values['min-climb']) };

/** Per step of a run, the highest score of the two watched rates (−∞ when none counts). */
function scores(curve: TrainingCurve, seed: number, episodesPerStep: number, runSteps: number): number[] {
  const closed: StepFigures[] = [];
  const out: number[] = [];
  for (const { step, episodes } of scriptedTrainingRun({ curve, seed, episodesPerStep, jitter, steps: runSteps })) {
    closed.push(stepFigures(step, episodes));
    let best = Number.NEGATIVE_INFINITY;
    for (const metric of WATCHED_RATES) {
      const f = detectSignature(closed, metric, { ...config, z: 0 });
      if (f?.signature) best = Math.max(best, Math.min(f.rate.z, f.difference.z));
    }
    out.push(best);
  }
  return out;
}

const quantile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number;

const result = [];
for (const size of sizes) {
  const loophole = Array.from({ length: seeds }, (_, i) => scores(LOOPHOLE_CURVE, i + 1, size, CLIMB_AFTER + 20));
  const nulls = [FLAT_CURVE, CLIMB_WITH_SUCCESS_CURVE, RECALL_CLIMB_CURVE].map((curve) => ({
    curve: curve.name,
    runs: Array.from({ length: seeds }, (_, i) => scores(curve, i + 1, size, steps)),
  }));
  for (const z of grid) {
    const delays = loophole.map((run) => {
      const first = run.findIndex((s) => s >= z);
      return first < 0 ? Number.POSITIVE_INFINITY : first + 1 - CLIMB_AFTER;
    });
    const sorted = [...delays].sort((a, b) => a - b);
    result.push({
      episodes_per_step: size,
      jitter,
      z,
      min_rise: config.minRise,
      min_climb: config.minClimbSteps,
      loophole: {
        before_climb: delays.filter((d) => d <= 0).length,
        median: quantile(sorted, 0.5),
        p95: quantile(sorted, 0.95),
        within_5: delays.filter((d) => d >= 1 && d <= 5).length,
        never: delays.filter((d) => !Number.isFinite(d)).length,
        seeds,
      },
      null_steps_alerting: Object.fromEntries(nulls.map((n) => [n.curve, n.runs.flat().filter((s) => s >= z).length])),
      null_runs_alerting: Object.fromEntries(nulls.map((n) => [n.curve, n.runs.filter((r) => r.some((s) => s >= z)).length])),
      null_steps: seeds * steps,
    });
  }
}
process.stdout.write(`${JSON.stringify(result, null, 1)}\n`);
