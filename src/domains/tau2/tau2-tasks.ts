import { z } from 'zod';
import { criteriaOf, EvaluationCriteriaSchema, type RewardComponent } from '../domain.js';
import type { Tau2Data } from './tau2-data.js';

export const TASK_VERSIONS = ['current', 'release-37199f3'] as const;
export type Tau2TaskVersion = (typeof TASK_VERSIONS)[number];
export type Tau2Split = 'train' | 'test' | 'base';

/** A tau2-bench task, with the fields Baton reads; the rest is kept as upstream wrote it. */
export const Tau2TaskSchema = z
  .object({
    id: z.string(),
    description: z.unknown().optional(),
    user_scenario: z.object({
      persona: z.string().nullable().optional(),
      instructions: z.union([
        z.string(),
        z.object({
          domain: z.string(),
          reason_for_call: z.string(),
          known_info: z.string().nullable(),
          unknown_info: z.string().nullable(),
          task_instructions: z.string(),
        }),
      ]),
    }),
    initial_state: z.unknown().nullable().optional(),
    evaluation_criteria: EvaluationCriteriaSchema,
  })
  .passthrough();
export type Tau2TaskRecord = z.infer<typeof Tau2TaskSchema>;

/** A task as the lab uses it: its split, its version, and its reward basis resolved. */
export interface Tau2Task {
  domain: 'airline' | 'retail';
  id: string;
  version: Tau2TaskVersion;
  split: 'train' | 'test';
  rewardBasis: RewardComponent[];
  /** Scoring needs an LLM judge: NL_ASSERTION in the basis and assertions to judge. */
  needsJudge: boolean;
  record: Tau2TaskRecord;
}

const SplitsSchema = z.object({ train: z.array(z.string()), test: z.array(z.string()), base: z.array(z.string()) });

/**
 * The tasks of a tau2 domain in one task version, optionally one split. The split files came
 * after the release, with the same ids, so they serve both versions. A task's basis defaults to
 * `["DB", "COMMUNICATE"]` where the file has none, as upstream does.
 */
export function loadTau2Tasks(
  data: Tau2Data,
  domain: 'airline' | 'retail',
  options: { version?: Tau2TaskVersion; split?: Tau2Split } = {},
): Tau2Task[] {
  const version = options.version ?? 'current';
  const file = version === 'current' ? `${domain}/tasks.json` : `${domain}/${version}/tasks.json`;
  const records = z.array(Tau2TaskSchema).parse(JSON.parse(data.read(file)));
  const splits = SplitsSchema.parse(JSON.parse(data.read(`${domain}/split_tasks.json`)));
  const train = new Set(splits.train);
  const tasks = records.map((record): Tau2Task => {
    // The default basis and the judge rule are the evaluator's (`criteriaOf`), not restated here.
    const { rewardBasis, needsJudge } = criteriaOf(record.evaluation_criteria);
    return {
      domain,
      id: record.id,
      version,
      split: train.has(record.id) ? 'train' : 'test',
      rewardBasis: [...rewardBasis],
      needsJudge,
      record,
    };
  });
  const split = options.split ?? 'base';
  return split === 'base' ? tasks : tasks.filter((t) => t.split === split);
}
