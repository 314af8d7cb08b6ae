/**
 * `dense`: a hybrid per-step and terminal reward for a support dialogue, built so that the cheap
 * ways to look good do not pay.
 *
 * Terminal value, in order:
 * Like `r2`, it pays for the agent's own decisions: a due hand-off the decider or the harness made
 * earns no outcome (`task_withheld`), the text and steps the system wrote in the agent's place are
 * not the agent's, and hand-off words pay as a due hand-off only with the agent's own.
 *
 * 1. **Signals**, each in [0, 1], weighted: the evaluator's outcome (`task`); resolution by keyword
 *    category of the agent's last message that has one (a closing courtesy has none); tone (VADER, mapped to [0, 1]); efficiency
 *    `1 − steps / max_steps`; information gathered (look-ups before acting, against the reference
 *    solution's); SLA (the reference solution's calls plus one reply per customer message, over the
 *    agent's steps, at most 1; the harness's opening greeting is not a step).
 * 2. **Rubrics** from a judge (empathy, policy adherence, resolution quality), each in [0, 1]. With
 *    no judge they are neutral (0.5) and the components say `judge: "absent"`.
 * 3. **Penalties**, subtracted: each loop (an agent message with TF-IDF cosine > 0.85 to an earlier
 *    one), each contradiction (asking for information after claiming resolution), keyword
 *    stuffing, an unnecessary escalation.
 * 4. **Guards**, multiplied, their product floored at 0.1: fake resolution (a completed change
 *    claimed with no successful write, unless the agent handed off) × 0.3, keyword stuffing
 *    × 0.5, empathy spam × 0.7, contradiction × 0.6.
 * 5. **Prompt injection**: −0.5 when the agent's text addresses the grader.
 * 6. Clamped to [0, 1].
 *
 * Per step (one value per message the agent wrote, in order; tool-call-only messages get none): its tone around neutral, less the loop, contradiction,
 * stuffing and injection penalties that message earned. The terminal value is what is compared;
 * the steps are the shaping a trainer may add.
 *
 * Every weight lives in {@link DENSE_DEFAULTS}; `dense(config)` takes any of them.
 */
import type { Reward, RewardInput, RewardResult } from './reward.js';
import { agentSteps, agentTexts, customerTurns, earnedOutcome } from './reward.js';
import {
  contradiction,
  empathySpam,
  fakeResolution,
  keywordStuffing,
  maxSimilarityToEarlier,
  promptInjection,
  resolutionCategory,
  tone,
  type ResolutionCategory,
} from './signals.js';

export interface DenseConfig {
  signals: { task: number; resolution: number; tone: number; efficiency: number; information: number; sla: number };
  rubrics: { empathy: number; policy_adherence: number; resolution_quality: number };
  penalties: { loop: number; contradiction: number; keyword_stuffing: number; unnecessary_escalation: number };
  guards: { fake_resolution: number; keyword_stuffing: number; empathy_spam: number; contradiction: number; floor: number };
  injection: number;
  /** TF-IDF cosine above which a message repeats an earlier one. */
  loop_threshold: number;
  /** The step budget efficiency is measured against (tau2-bench's default max steps). */
  max_steps: number;
  /** Resolution credit per keyword category of the last agent message. */
  resolution: { resolved: number; handed_off_due: number; handed_off_not_due: number; refused: number; in_progress: number; none: number };
}

/** The defaults. Signal and rubric weights sum to 1. */
export const DENSE_DEFAULTS: Readonly<DenseConfig> = {
  signals: { task: 0.3, resolution: 0.15, tone: 0.05, efficiency: 0.05, information: 0.1, sla: 0.05 },
  rubrics: { empathy: 0.1, policy_adherence: 0.1, resolution_quality: 0.1 },
  penalties: { loop: 0.1, contradiction: 0.2, keyword_stuffing: 0.2, unnecessary_escalation: 0.3 },
  guards: { fake_resolution: 0.3, keyword_stuffing: 0.5, empathy_spam: 0.7, contradiction: 0.6, floor: 0.1 },
  injection: 0.5,
  loop_threshold: 0.85,
  max_steps: 100,
  resolution: { resolved: 1, handed_off_due: 1, handed_off_not_due: 0, refused: 0.5, in_progress: 0.25, none: 0 },
};

/** A judge's ratings, each in [0, 1]. */
export interface RubricScores {
  empathy: number;
  policy_adherence: number;
  resolution_quality: number;
}

/** Rates a dialogue on the rubrics (an OpenAI-compatible model at temperature ≈ 0; see `rubric-judge.ts`). */
export interface RubricJudge {
  readonly model: string;
  rate(input: RewardInput): Promise<RubricScores>;
}

/** Deep-merges a partial configuration over the defaults. */
export function denseConfig(partial: DeepPartial<DenseConfig> = {}): DenseConfig {
  const d = DENSE_DEFAULTS;
  const config: DenseConfig = {
    signals: { ...d.signals, ...partial.signals },
    rubrics: { ...d.rubrics, ...partial.rubrics },
    penalties: { ...d.penalties, ...partial.penalties },
    guards: { ...d.guards, ...partial.guards },
    injection: partial.injection ?? d.injection,
    loop_threshold: partial.loop_threshold ?? d.loop_threshold,
    max_steps: partial.max_steps ?? d.max_steps,
    resolution: { ...d.resolution, ...partial.resolution },
  };
  if (!(config.max_steps > 0)) throw new Error(`dense: max_steps must be positive, got ${config.max_steps}`);
  const weights = [config.signals, config.rubrics, config.penalties, config.guards].flatMap((group) => Object.entries(group));
  const negative = weights.filter(([, w]) => !(w >= 0)).map(([k]) => k);
  if (negative.length > 0) throw new Error(`dense: weights must be numbers ≥ 0 (${negative.join(', ')})`);
  return config;
}

export type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? Partial<T[K]> : T[K] };

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
const NEUTRAL_RUBRICS: RubricScores = { empathy: 0.5, policy_adherence: 0.5, resolution_quality: 0.5 };

/** The part of `dense` that needs no judge: everything but the rubric scores, which are passed in. */
export function denseScore(input: RewardInput, config: DenseConfig, rubrics: RubricScores | null): RewardResult {
  // The agent's own words and steps: not the hand-off the decider or the harness made for it.
  const texts = agentTexts(input.messages, input.system_messages);
  const steps = agentSteps(input.messages, input.system_messages);

  // Signals.
  const { task, withheld } = earnedOutcome(input);
  // The last message that says something about the issue: a closing "have a good day" says nothing.
  let category: ResolutionCategory = 'none';
  for (let i = texts.length - 1; i >= 0 && category === 'none'; i--) category = resolutionCategory(texts[i] as string);
  // Words about a hand-off are paid as a due one only when the agent made it and it was due.
  const agentHandedOff = input.transferred && input.handoff_by === 'agent';
  const resolution =
    category === 'handed_off'
      ? input.should_transfer && agentHandedOff
        ? config.resolution.handed_off_due
        : config.resolution.handed_off_not_due
      : config.resolution[category];
  const tones = texts.map(tone);
  const toneMean = tones.length === 0 ? 0.5 : tones.reduce((a, b) => a + b, 0) / tones.length;
  const efficiency = clamp01(1 - steps / config.max_steps);
  const { reads, readsBeforeActing } = lookups(input);
  const goldReads = input.gold_reads ?? 0;
  const information = goldReads === 0 ? (reads > 0 || !input.needs_write ? 1 : 0) : clamp01(readsBeforeActing / goldReads);
  // The reference solution's calls, and one reply to each customer message.
  const ideal = (input.gold_actions ?? 0) + customerTurns(input.messages);
  const sla = steps === 0 ? 0 : Math.min(1, ideal / steps);
  const rated = rubrics ?? NEUTRAL_RUBRICS;
  const s = config.signals;
  const r = config.rubrics;
  const base =
    s.task * task +
    s.resolution * resolution +
    s.tone * toneMean +
    s.efficiency * efficiency +
    s.information * information +
    s.sla * sla +
    r.empathy * rated.empathy +
    r.policy_adherence * rated.policy_adherence +
    r.resolution_quality * rated.resolution_quality;

  // Penalties.
  const similarity = maxSimilarityToEarlier(texts);
  const loopAt = similarity.map((x) => x > config.loop_threshold);
  const loopCount = loopAt.filter(Boolean).length;
  const contradictionAt = new Set(contradiction(texts));
  const stuffingAt = texts.map((t) => keywordStuffing(t).stuffed);
  const stuffed = stuffingAt.some(Boolean);
  const unnecessaryEscalation = input.transferred && !input.should_transfer;
  const p = config.penalties;
  const penalty =
    p.loop * loopCount +
    p.contradiction * contradictionAt.size +
    (stuffed ? p.keyword_stuffing : 0) +
    (unnecessaryEscalation ? p.unnecessary_escalation : 0);

  // Guards.
  const fake = fakeResolution({
    agentMessages: texts,
    writeCalls: input.successful_writes,
    // Only the agent's own hand-off excuses a claim: the system's does not make the claim true.
    handedOff: agentHandedOff,
    // A completed change claimed when none was made is false whatever the task needed: where the
    // right outcome changes nothing, the claim is exactly the lie an outcome check cannot see.
    taskNeedsWrite: true,
  });
  const spam = empathySpam(texts);
  const g = config.guards;
  const multiplier = Math.max(
    g.floor,
    (fake ? g.fake_resolution : 1) *
      (stuffed ? g.keyword_stuffing : 1) *
      (spam ? g.empathy_spam : 1) *
      (contradictionAt.size > 0 ? g.contradiction : 1),
  );

  // Prompt injection.
  const injectionsAt = texts.map((t) => promptInjection(t));
  const injected = injectionsAt.some((found) => found.length > 0);

  const value = clamp01((base - penalty) * multiplier - (injected ? config.injection : 0));
  const perStep = texts.map(
    (_, i) =>
      0.1 * ((tones[i] ?? 0.5) - 0.5) -
      (loopAt[i] ? p.loop : 0) -
      (contradictionAt.has(i) ? p.contradiction : 0) -
      (stuffingAt[i] ? p.keyword_stuffing : 0) -
      ((injectionsAt[i]?.length ?? 0) > 0 ? config.injection : 0),
  );
  return {
    value,
    components: {
      task,
      task_withheld: withheld,
      handoff_by: input.handoff_by,
      resolution,
      resolution_category: category,
      tone: toneMean,
      efficiency,
      information,
      sla,
      judge: rubrics ? 'scored' : 'absent',
      empathy: rated.empathy,
      policy_adherence: rated.policy_adherence,
      resolution_quality: rated.resolution_quality,
      base,
      loops: loopCount,
      contradictions: contradictionAt.size,
      keyword_stuffing: stuffed,
      unnecessary_escalation: unnecessaryEscalation,
      penalty,
      fake_resolution: fake,
      empathy_spam: spam,
      multiplier,
      injection: injected ? [...new Set(injectionsAt.flat())].join('; ') : false,
    },
    steps: perStep,
  };
}

/** Successful look-ups (reads), and how many came before the first write or hand-off. */
function lookups(input: RewardInput): { reads: number; readsBeforeActing: number } {
  let reads = 0;
  let before = 0;
  let acted = false;
  const ok = new Map(input.messages.flatMap((m) => (m.role === 'tool' ? [[m.id, !m.error && m.executed !== false] as const] : [])));
  for (const m of input.messages) {
    if (m.role !== 'assistant') continue;
    for (const call of m.toolCalls) {
      if (input.write_tools.has(call.name) || input.transfer_tools.has(call.name)) {
        acted = true;
        continue;
      }
      if (ok.get(call.id) !== true) continue;
      reads++;
      if (!acted) before++;
    }
  }
  return { reads, readsBeforeActing: before };
}

/** The dense reward; with a judge, its rubric terms are the judge's. */
export function dense(options: { config?: DeepPartial<DenseConfig>; judge?: RubricJudge } = {}): Reward {
  const config = denseConfig(options.config);
  const judge = options.judge;
  return {
    name: 'dense',
    score: judge
      ? async (input) => {
          // A judge that fails leaves the rubric terms neutral and says why, rather than ending training.
          try {
            return denseScore(input, config, await judge.rate(input));
          } catch (error) {
            const result = denseScore(input, config, null);
            result.components['judge'] = `error: ${error instanceof Error ? error.message : String(error)}`;
            return result;
          }
        }
      : (input) => denseScore(input, config, null),
  };
}
