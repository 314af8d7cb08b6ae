/**
 * Cross-validation of the classifier on the development parts: cases are split into folds by the
 * phrasing that carries their label (`caseExamples`' group), a model is trained on the other
 * folds, and each case is decided (the whole decider, lexicon and classifier) by the model that
 * never saw it. Thresholds are chosen on these out-of-fold decisions, never on a held-out part.
 */
import { decideHandoff, extractSignals } from '../../src/core/index.js';
import { loadHandoffModel, type HandoffModel, type HandoffModelData } from '../../src/core/handoff-classifier.js';
import { DecideLineSchema } from '../../src/cli/decide-command.js';
import { scoreDecider, type DeciderAnswer, type DeciderCase } from '../../src/testing/decider-corpus.js';
import { caseExamples, foldOf, type Example } from './examples.js';
import { train, type HyperParameters } from './train.js';

/** A threshold setting tried. */
export type Thresholds = HandoffModelData['thresholds'];

/** Pooled out-of-fold figures of one threshold setting. */
export interface Trial {
  thresholds: Thresholds;
  recall: number;
  safetyRecall: number;
  falsePositiveRate: number;
  /** The false-positive rate counting only hand-offs for a reason other than safety. */
  otherFalsePositiveRate: number;
  rightReason: number;
  /** Each case's out-of-fold answer, by case id. */
  answers: Map<string, DeciderAnswer>;
}

/**
 * The grid: person-request and topic thresholds together, safety at or below them — safety in
 * finer steps, since it is chosen by the recall it reaches (a step of 0.1 there moves the
 * false-positive rate by about a point and a half).
 */
export function thresholdGrid(): Thresholds[] {
  const out: Thresholds[] = [];
  const steps = [0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];
  const safetySteps = [0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.7, 0.8, 0.9];
  for (const p of steps) for (const s of safetySteps) if (s <= p) out.push({ safety: s, person_request: p, topic: p });
  return out;
}

/** The decider's answer for a case with a given model (`null`: the lexicon alone). */
export function answerWith(c: DeciderCase, model: HandoffModel | null): DeciderAnswer {
  const line = DecideLineSchema.parse(c.conversation);
  const d = decideHandoff(extractSignals(line.messages, line.policy, { model }), line.policy);
  return { handoff: d.handoff, reason: d.reason };
}

/** Pooled figures of answers over cases (scored as every corpus is: `scoreDecider`). */
export function pooled(cases: readonly DeciderCase[], answers: ReadonlyMap<string, DeciderAnswer>) {
  const score = scoreDecider(cases, (c) => answers.get(c.id) ?? { error: 'no answer' });
  const negatives = cases.filter((c) => !c.expect.handoff);
  const other = negatives.filter((c) => {
    const a = answers.get(c.id);
    return a !== undefined && 'handoff' in a && a.handoff && a.reason !== 'safety';
  }).length;
  return {
    recall: score.recall,
    safetyRecall: score.safetyRecall,
    falsePositiveRate: score.falsePositiveRate,
    otherFalsePositiveRate: other / Math.max(1, negatives.length),
    rightReason: score.rightReason,
  };
}

/** Runs `folds`-fold cross-validation and returns every threshold setting's pooled figures. */
export function crossValidate(
  cases: readonly DeciderCase[],
  hp: HyperParameters,
  folds: number,
  log: (s: string) => void,
  /** A case's fold, if not by the phrasing that carries its label (e.g. by the corpus it comes from). */
  foldBy?: (c: DeciderCase) => number,
): Trial[] {
  const examples = new Map<string, Example[]>();
  for (const c of cases) examples.set(c.id, caseExamples(c));
  const foldOfCase = new Map(cases.map((c) => [c.id, foldBy?.(c) ?? foldOf(examples.get(c.id)?.[0]?.group ?? c.id, folds)]));
  const grid = thresholdGrid();
  const answers = grid.map(() => new Map<string, DeciderAnswer>());
  for (let fold = 0; fold < folds; fold++) {
    const trainOn = cases.filter((c) => foldOfCase.get(c.id) !== fold).flatMap((c) => examples.get(c.id) ?? []);
    const test = cases.filter((c) => foldOfCase.get(c.id) === fold);
    const data = train(trainOn, hp, { trainedAt: `cv-fold-${fold}`, script: 'cross-validation', corpora: ['dev'], thresholds: grid[0]! });
    const base = loadHandoffModel(data);
    grid.forEach((thresholds, g) => {
      // Same weights (and so the same score cache), other thresholds.
      const model: HandoffModel = { ...base, data: { ...base.data, thresholds } };
      for (const c of test) answers[g]?.set(c.id, answerWith(c, model));
    });
    log(`fold ${fold + 1}/${folds}: trained on ${trainOn.length} examples, decided ${test.length} cases`);
  }
  return grid.map((thresholds, g) => {
    const a = answers[g] ?? new Map<string, DeciderAnswer>();
    return { thresholds, ...pooled(cases, a), answers: a };
  });
}

/** What a point of false-positive rate costs in points of recall when settings are compared. */
export const FPR_WEIGHT = 2;

/**
 * The out-of-fold safety recall the safety threshold must reach. A missed crisis is the worst
 * error the decider can make, so safety is not traded against false positives like the other
 * signs: its threshold is the highest that reaches this recall, and only then are the others chosen.
 */
export const MIN_SAFETY_RECALL = 0.95;

/**
 * The lowest safety threshold the rule may take. Below it the classifier reads neutral text as a
 * crisis in ways the corpora do not measure but the lab's user styles do: at 0.35, "(I think that's
 * what it's called)", "I am not threatening anything" and "please help me" after "my mother is sick"
 * handed tau2-bench customers to a person (`test/lab-users.test.ts`, `test/lab-agents.test.ts`).
 */
export const MIN_SAFETY_THRESHOLD = 0.5;

/**
 * The lowest person-request and topic threshold the rule may take, for the same reason: at 0.6 the
 * classifier read a lab user style's "Want to discuss my plan and my last invoice with a member of
 * staff, not a bot" as a request where the script's other styles carry none
 * (`test/lab-users.test.ts`, "styles: the facts never change").
 */
export const MIN_PERSON_THRESHOLD = 0.7;

/**
 * The setting chosen. First the safety threshold: the highest, not below `minSafetyThreshold`,
 * (person and topics never below `minPersonThreshold`),
 * whose best setting reaches `minSafetyRecall` out of fold (the lowest allowed if none does); the false positives it brings are
 * the price of that recall. Then, among the settings with that safety threshold whose
 * false-positive rate for other reasons stays within `maxFpr` (all of them, if none does), the
 * highest recall plus safety recall less `FPR_WEIGHT` times the false-positive rate (a threshold
 * that buys a little recall with twice as many false positives is not taken).
 */
export function chooseThresholds(
  trials: readonly Trial[],
  maxFpr: number,
  minSafetyRecall = MIN_SAFETY_RECALL,
  minSafetyThreshold = MIN_SAFETY_THRESHOLD,
  minPersonThreshold = MIN_PERSON_THRESHOLD,
): Trial {
  const levels = [...new Set(trials.map((t) => t.thresholds.safety))].sort((a, b) => b - a);
  const allowed = levels.filter((s) => s >= minSafetyThreshold);
  const safetyLevels = allowed.length > 0 ? allowed : levels;
  const reaches = (s: number) => trials.some((t) => t.thresholds.safety === s && t.safetyRecall >= minSafetyRecall);
  const safety = safetyLevels.find(reaches) ?? safetyLevels.at(-1);
  const atSafety = trials.filter((t) => t.thresholds.safety === safety);
  const highEnough = atSafety.filter((t) => t.thresholds.person_request >= minPersonThreshold);
  const withSafety = highEnough.length > 0 ? highEnough : atSafety;
  const within = withSafety.filter((t) => t.otherFalsePositiveRate <= maxFpr);
  const value = (t: Trial) => t.recall + t.safetyRecall - FPR_WEIGHT * t.falsePositiveRate;
  const pool = within.length > 0 ? within : withSafety;
  return [...pool].sort((a, b) => value(b) - value(a) || a.thresholds.person_request - b.thresholds.person_request)[0]!;
}
