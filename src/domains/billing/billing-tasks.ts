/**
 * Billing's task file: tau2-bench's task shape plus Baton's fields — the split, the kind of case,
 * and the hand-off label (whether the right outcome is a hand-off, to which queue, for which reason).
 */
import { z } from 'zod';
import { criteriaOf, EvaluationCriteriaSchema, type DomainTask } from '../domain.js';

/** The task file's version (`DomainTask.version`). */
export const BILLING_TASKS_VERSION = 'v1';

const InstructionsSchema = z.object({
  domain: z.literal('billing'),
  reason_for_call: z.string(),
  known_info: z.string().nullable(),
  unknown_info: z.string().nullable(),
  task_instructions: z.string(),
});

/** One task as the file stores it. */
export const BillingTaskRecordSchema = z.object({
  id: z.string().regex(/^billing_\d{3}$/),
  /** For people reading the file; never shown to the agent or the simulated customer. */
  description: z.object({ purpose: z.string(), relevant_policies: z.string(), notes: z.string().nullable() }),
  kind: z.string(),
  split: z.enum(['train', 'test']),
  handoff: z.object({ expected: z.boolean(), queue: z.string().nullable(), reason: z.string().nullable() }),
  user_scenario: z.object({ persona: z.string().nullable(), instructions: InstructionsSchema }),
  initial_state: z.null(),
  evaluation_criteria: EvaluationCriteriaSchema,
});
export type BillingTaskRecord = z.infer<typeof BillingTaskRecordSchema>;

/** Parses the task file's text (a JSON array of tasks). */
export function parseBillingTasks(text: string): BillingTaskRecord[] {
  return z.array(BillingTaskRecordSchema).parse(JSON.parse(text));
}

/** A task record in the evaluator's terms; its hand-off label is the file's. */
export function billingTaskOf(record: BillingTaskRecord): DomainTask {
  return {
    domain: 'billing',
    id: record.id,
    version: BILLING_TASKS_VERSION,
    split: record.split,
    ...criteriaOf(record.evaluation_criteria),
    handoff: { ...record.handoff, source: 'label' },
    userScenario: { persona: record.user_scenario.persona, instructions: record.user_scenario.instructions },
  };
}
