/**
 * Seed 004's four-stage curriculum: from dense, forgiving rewards on easy tasks to sparse, harsh
 * ones on every task. A stage fixes three things:
 *
 * - **difficulty**: which task priorities are served, and whether policy drift events fire;
 * - **reward density**: `dense` (the role's reward at the end, with per-step shaping in every
 *   observation), `terminal` (the role's reward at the end only), or `sparse` (the role's reward at
 *   the end, and 0 unless the evaluator's rule check passed);
 * - **guard severity**: how much of each HierarchyGuard penalty applies (see `hierarchy-guard.ts`).
 *
 * Promotion: a trainer moves to the next stage once its dev success rate has been at least
 * `threshold` in each of the last `evaluations` evaluations ({@link promotion}).
 */
import { z } from 'zod';
import { PRIORITIES, PrioritySchema, type Priority } from './hierarchy-episode.js';

export const STAGES = ['stage1', 'stage2', 'stage3', 'stage4'] as const;
export const StageSchema = z.enum(STAGES);
export type Stage = z.infer<typeof StageSchema>;

export const REWARD_DENSITIES = ['dense', 'terminal', 'sparse'] as const;
export type RewardDensity = (typeof REWARD_DENSITIES)[number];

export const StageConfigSchema = z.strictObject({
  stage: StageSchema,
  priorities: z.array(PrioritySchema).min(1),
  drift: z.boolean(),
  density: z.enum(REWARD_DENSITIES),
  guard_severity: z.number().min(0).max(1),
});
export type StageConfig = z.infer<typeof StageConfigSchema>;

export const PromotionRuleSchema = z.strictObject({
  threshold: z.number().min(0).max(1),
  evaluations: z.number().int().positive(),
});
export type PromotionRule = z.infer<typeof PromotionRuleSchema>;

/** The curriculum's stages, easiest first. */
export const CURRICULUM: Readonly<Record<Stage, StageConfig>> = {
  stage1: { stage: 'stage1', priorities: ['low', 'medium'], drift: false, density: 'dense', guard_severity: 0.25 },
  stage2: { stage: 'stage2', priorities: ['low', 'medium', 'high'], drift: false, density: 'dense', guard_severity: 0.5 },
  stage3: { stage: 'stage3', priorities: [...PRIORITIES], drift: true, density: 'terminal', guard_severity: 0.75 },
  stage4: { stage: 'stage4', priorities: [...PRIORITIES], drift: true, density: 'sparse', guard_severity: 1 },
};

export const PROMOTION_DEFAULTS: Readonly<PromotionRule> = { threshold: 0.8, evaluations: 3 };

/** Parses `--curriculum stageN`, saying which stages exist. */
export function parseStage(name: string): Stage {
  const parsed = StageSchema.safeParse(name);
  if (!parsed.success) throw new Error(`unknown curriculum stage ${JSON.stringify(name)}: use ${STAGES.join(', ')}`);
  return parsed.data;
}

/** Whether a task of this priority is served at this stage. */
export const servesPriority = (config: StageConfig, priority: Priority): boolean => config.priorities.includes(priority);

/** A role's reward value at a stage's density: `sparse` pays nothing unless the rule check passed. */
export function atDensity(config: StageConfig, value: number, ruleSuccess: boolean): number {
  return config.density === 'sparse' && !ruleSuccess ? 0 : value;
}

export interface PromotionDecision {
  promote: boolean;
  /** The next stage (null at the last one, or when not promoted). */
  next: Stage | null;
  reason: string;
}

/**
 * The promotion rule: promote when each of the last `rule.evaluations` dev success rates (oldest
 * first in `history`) is at least `rule.threshold`.
 */
export function promotion(stage: Stage, history: readonly number[], rule: PromotionRule = PROMOTION_DEFAULTS): PromotionDecision {
  const index = STAGES.indexOf(stage);
  const last = history.slice(-rule.evaluations);
  if (index === STAGES.length - 1) return { promote: false, next: null, reason: `${stage} is the last stage` };
  if (last.length < rule.evaluations)
    return { promote: false, next: null, reason: `${last.length} of ${rule.evaluations} evaluations so far` };
  const below = last.filter((rate) => rate < rule.threshold);
  if (below.length > 0)
    return { promote: false, next: null, reason: `${below.length} of the last ${rule.evaluations} evaluations below ${rule.threshold}` };
  const next = STAGES[index + 1] as Stage;
  return { promote: true, next, reason: `dev success ≥ ${rule.threshold} in each of the last ${rule.evaluations} evaluations` };
}
