/**
 * What the hierarchical rewards read from one episode of a support team (seed 004): an L1 agent
 * working the customer, an L2 supervisor reviewing L1's high-risk actions, an L3 manager taking
 * escalations. Every score here is already in [0, 1] and every count is the episode's own; the
 * lab (or a test) builds it, and the rewards in this folder are pure functions of it.
 */
import { z } from 'zod';

/** A task's priority, lowest first. */
export const PRIORITIES = ['low', 'medium', 'high', 'critical'] as const;
export const PrioritySchema = z.enum(PRIORITIES);
export type Priority = z.infer<typeof PrioritySchema>;

/** The three roles of the team. */
export const ROLES = ['l1', 'l2', 'l3'] as const;
export const RoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof RoleSchema>;

/** What a supervisor answers to a proposed high-risk action. */
export const VERDICTS = ['approve', 'reject', 'take_over'] as const;
export const VerdictSchema = z.enum(VERDICTS);
export type Verdict = z.infer<typeof VerdictSchema>;

/** One review of one of L1's proposed high-risk actions. */
export const ReviewFactSchema = z.strictObject({
  /** The tool L1 proposed to call. */
  action: z.string(),
  verdict: VerdictSchema,
  /** What a correct supervisor answers under the policy in force (the label). */
  right: VerdictSchema,
  /** The supervisor's feedback with a rejection (null with an approval or a take-over). */
  feedback: z.string().nullable(),
  /** What L1 did next, as text (its words and the call it made), null when it did nothing more. */
  response: z.string().nullable(),
});
export type ReviewFact = z.infer<typeof ReviewFactSchema>;

export const HierarchyEpisodeSchema = z.strictObject({
  priority: PrioritySchema,
  /** The episode reached its end (the customer was served and left, or a person closed it). */
  terminal: z.boolean(),
  /** The evaluator's outcome (the rule check), 0 or 1. */
  resolution_rule: z.number().min(0).max(1),
  /** A judge's resolution rating in [0, 1]; null without a judge (the rule's outcome stands in). */
  resolution_judge: z.number().min(0).max(1).nullable(),
  /** L1's empathy, accuracy, tone, efficiency, SLA and policy adherence, each in [0, 1]. */
  empathy: z.number().min(0).max(1),
  accuracy: z.number().min(0).max(1),
  tone: z.number().min(0).max(1),
  efficiency: z.number().min(0).max(1),
  sla: z.number().min(0).max(1),
  policy_adherence: z.number().min(0).max(1),
  /** L1's actions (tool calls and replies) before it escalated, or in all when it did not. */
  l1_actions: z.number().int().nonnegative(),
  /** L1 escalated the conversation to its supervisor (asked to be taken over). */
  l1_escalated: z.boolean(),
  reviews: z.array(ReviewFactSchema),
  /** The supervisor escalated to the manager, and whether the task's label wants that. */
  manager_escalated: z.boolean(),
  manager_escalation_due: z.boolean(),
  /** Whether the manager's decision was the right one, in [0, 1]; null when no manager was involved. */
  decision_quality: z.number().min(0).max(1).nullable(),
  /** Steps the team took, and the task's ideal step count. */
  steps: z.number().int().nonnegative(),
  ideal_steps: z.number().int().positive(),
  /** The single-agent guards' product (dense's fake resolution, stuffing, empathy spam, contradiction), in (0, 1]. */
  reward_guard: z.number().gt(0).max(1),
  /** Text signals of L1's messages. */
  loops: z.number().int().nonnegative(),
  contradictions: z.number().int().nonnegative(),
  keyword_stuffing: z.boolean(),
  /** The roles whose text addressed the grader (the injection detector's finding). */
  injection: z.array(RoleSchema),
});
export type HierarchyEpisode = z.infer<typeof HierarchyEpisodeSchema>;

/** The judge's resolution when there is one, else the rule's outcome. */
export const judgedResolution = (e: HierarchyEpisode): number => e.resolution_judge ?? e.resolution_rule;

export const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));
