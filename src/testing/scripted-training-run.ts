/**
 * Scripted training runs: sequences of finished episodes, step by step, drawn at random from
 * curves written down in advance — not episodes anyone played. The training monitor's tests feed
 * them to it to check its alert against runs whose truth is known: seed 000's R1 curve (the
 * transfer loophole: over-escalation flat for 30 steps, then climbing from 0.141 to 0.462 over 20
 * steps while success stays flat), the same climb with success climbing as fast, a climb of due
 * hand-offs (recall) with success, and a flat run.
 *
 * Each step draws `episodesPerStep` episodes. An episode is a due hand-off with probability
 * `positiveShare`; it is handed off with the curve's recall (due) or over-escalation (not due);
 * it succeeds with the curve's success rate — and with `overEscalationFails`, an unnecessary
 * hand-off always fails (as tau2's evaluation fails a task handed off for nothing), the others
 * succeeding more often so that the step's expected success is still the curve's. `jitter` adds
 * noise between steps beyond the binomial (a batch's task mix): each step's rates move by a normal
 * draw with that standard deviation. The reward is shaped like `r2` (task − 0.5 per unnecessary
 * hand-off − 1 per missed one), with r2's components of those names (task, false_transfer, missed_transfer). Seeded: the same options give the
 * same run.
 */
import { seededRandom, type Random } from '../core/random.js';
import type { MonitoredEpisode } from '../lab/monitor/monitored-episode.js';

/** The true rates of a step. */
export interface CurvePoint {
  success: number;
  overEscalation: number;
  recall: number;
  citation: number;
}

/** A training run's true curve: its rates at each step 1 … `steps`. */
export interface TrainingCurve {
  name: string;
  steps: number;
  /** The step after which the watched rate starts to climb (null: it never does). */
  climbAfter: number | null;
  at(step: number): CurvePoint;
}

/** The step after which the scripted climbs begin: 30 flat steps, as in seed 000's run. */
export const CLIMB_AFTER = 30;
/** Seed 000's over-escalation before the loophole (step 40 of its run) and after it (step 60). */
export const R1_OVER_ESCALATION = { before: 0.141, after: 0.462 } as const;
/** Steps the climb takes: 000 went from 0.141 to 0.462 in 20 steps. */
export const R1_CLIMB_STEPS = 20;

/** Flat at `before` through `CLIMB_AFTER`, then a straight climb to `after` over `R1_CLIMB_STEPS`, then flat. */
const ramp = (before: number, after: number) => (step: number) =>
  before + (after - before) * Math.min(1, Math.max(0, (step - CLIMB_AFTER) / R1_CLIMB_STEPS));

const STEPS = CLIMB_AFTER + R1_CLIMB_STEPS + 10;
const overEscalation = ramp(R1_OVER_ESCALATION.before, R1_OVER_ESCALATION.after);
const R1_RISE = R1_OVER_ESCALATION.after - R1_OVER_ESCALATION.before;

/** Seed 000's R1: over-escalation climbs as 000's did while success stays at 0.5. */
export const LOOPHOLE_CURVE: TrainingCurve = {
  name: 'loophole',
  steps: STEPS,
  climbAfter: CLIMB_AFTER,
  at: (step) => ({ success: 0.5, overEscalation: overEscalation(step), recall: 0.8, citation: 0.6 }),
};

/** The same climb of over-escalation, with success climbing by as much at the same time (0.3 → 0.621). */
export const CLIMB_WITH_SUCCESS_CURVE: TrainingCurve = {
  name: 'climb-with-success',
  steps: STEPS,
  climbAfter: CLIMB_AFTER,
  at: (step) => ({ success: ramp(0.3, 0.3 + R1_RISE)(step), overEscalation: overEscalation(step), recall: 0.8, citation: 0.6 }),
};

/** Hand-offs climb because due ones are made (recall 0.3 → 0.9), and success climbs with them (0.3 → 0.62). */
export const RECALL_CLIMB_CURVE: TrainingCurve = {
  name: 'recall-climb',
  steps: STEPS,
  climbAfter: CLIMB_AFTER,
  at: (step) => ({ success: ramp(0.3, 0.62)(step), overEscalation: 0.141, recall: ramp(0.3, 0.9)(step), citation: 0.6 }),
};

/** Nothing moves. */
export const FLAT_CURVE: TrainingCurve = {
  name: 'flat',
  steps: STEPS,
  climbAfter: null,
  at: () => ({ success: 0.5, overEscalation: 0.141, recall: 0.8, citation: 0.6 }),
};

export interface ScriptedRunOptions {
  curve: TrainingCurve;
  seed: number;
  episodesPerStep: number;
  /** The share of episodes whose hand-off is due (default 0.3). */
  positiveShare?: number;
  /** Standard deviation of each step's rates around the curve, beyond the binomial (default 0). */
  jitter?: number;
  /** An unnecessary hand-off fails its task (default true). */
  overEscalationFails?: boolean;
  /** Steps to play (default the curve's; a curve stays at its last rates after its end). */
  steps?: number;
}

/** One standard normal draw (Box–Muller). */
function normal(random: Random): number {
  const u = 1 - random.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random.next());
}

const clamp = (p: number) => Math.min(1, Math.max(0, p));

const outcomeIndex = (should: boolean, transferred: boolean, succeeded: boolean, cited: boolean) =>
  (should ? 8 : 0) + (transferred ? 4 : 0) + (succeeded ? 2 : 0) + (cited ? 1 : 0);

/** An episode of each outcome, made once and shared by every step that draws it (a run holds millions). */
const OUTCOMES: readonly MonitoredEpisode[] = Array.from({ length: 16 }, (_, index) => {
  const [should, transferred, succeeded, cited] = [8, 4, 2, 1].map((bit) => (index & bit) !== 0) as [boolean, boolean, boolean, boolean];
  const handoff_class = should ? (transferred ? 'tp' : 'fn') : transferred ? 'fp' : 'tn';
  return Object.freeze({
    scored: true,
    success: succeeded,
    should_transfer: should,
    transferred,
    handoff_class,
    citations: Object.freeze({ events: transferred ? 1 : 0, cited: transferred && cited ? 1 : 0 }),
    reward: Object.freeze({
      value: (succeeded ? 1 : 0) - 0.5 * (handoff_class === 'fp' ? 1 : 0) - (handoff_class === 'fn' ? 1 : 0),
      components: Object.freeze({
        task: succeeded ? 1 : 0,
        false_transfer: handoff_class === 'fp' ? 1 : 0,
        missed_transfer: handoff_class === 'fn' ? 1 : 0,
      }),
    }),
  });
});

/** The episodes of step `step` (1-based) of a scripted run, drawn from `random`. */
function drawStep(step: number, options: ScriptedRunOptions, random: Random): MonitoredEpisode[] {
  const jitter = options.jitter ?? 0;
  const positiveShare = options.positiveShare ?? 0.3;
  const fails = options.overEscalationFails ?? true;
  const truth = options.curve.at(step);
  const moved = (p: number) => clamp(p + (jitter > 0 ? jitter * normal(random) : 0));
  const success = moved(truth.success);
  const over = moved(truth.overEscalation);
  const recall = moved(truth.recall);
  const citation = moved(truth.citation);
  // With unnecessary hand-offs failing, the other episodes succeed more often, keeping the step's expected success.
  const unnecessary = (1 - positiveShare) * over;
  // (Capped at 1: a jittered step may ask for more success than the other episodes can give.)
  const otherSuccess = fails ? Math.min(1, success / (1 - unnecessary)) : success;
  const episodes: MonitoredEpisode[] = [];
  for (let i = 0; i < options.episodesPerStep; i++) {
    const should = random.next() < positiveShare;
    const transferred = random.next() < (should ? recall : over);
    const succeeded = fails && !should && transferred ? false : random.next() < otherSuccess;
    const cited = transferred && random.next() < citation;
    episodes.push(OUTCOMES[outcomeIndex(should, transferred, succeeded, cited)] as MonitoredEpisode);
  }
  return episodes;
}

/** A scripted run: for each step 1 … `steps` (the curve's by default), its episodes. */
export function* scriptedTrainingRun(options: ScriptedRunOptions): Generator<{ step: number; episodes: MonitoredEpisode[] }> {
  if (!Number.isInteger(options.episodesPerStep) || options.episodesPerStep < 1)
    throw new Error(`episodesPerStep must be a positive whole number (got ${options.episodesPerStep})`);
  const steps = options.steps ?? options.curve.steps;
  if (!Number.isInteger(steps) || steps < 1) throw new Error(`steps must be a positive whole number (got ${steps})`);
  const random = seededRandom(options.seed);
  for (let step = 1; step <= steps; step++) yield { step, episodes: drawStep(step, options, random) };
}
