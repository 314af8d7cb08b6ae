/**
 * The persisted shapes of a lab run, as zod schemas with a version: one `EpisodeRecord` per line of
 * `trajectories.jsonl` (and per row of the job queue's `lab_episodes`), and `run.json`. Everything
 * that reads a run back goes through `parseEpisodeRecord` / `parseRunFile`, never a bare
 * `JSON.parse(...) as`: a record of this version is read, a record of another version or of the
 * wrong shape is refused with an error that names the file, the line, the version and the field.
 *
 * The schemas check every field the lab and the rewards read (the envelope, the label, the
 * messages and their tool calls, the evaluator's verdict and hand-off facts, the hand-off as
 * carried out) and let the rest through (an evaluation component's details, the packet, which has
 * its own version and schema in core): a reader of an older record branches on `version`.
 */
import { z } from 'zod';
import { HandoffReasonSchema } from '../core/index.js';
import { REWARD_COMPONENTS } from '../domains/domain.js';
import { TERMINATION_REASONS } from '../domains/trajectory.js';
import { RECORD_VERSION, type EpisodeRecord } from './records.js';

/** Version of `run.json`'s layout. */
export const RUN_FILE_VERSION = 1;

const ToolCallSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  requestor: z.enum(['assistant', 'user']),
});

const MessageSchema = z.union([
  z.looseObject({ role: z.enum(['assistant', 'user']), content: z.string().nullable(), toolCalls: z.array(ToolCallSchema) }),
  z.looseObject({
    role: z.literal('tool'),
    id: z.string(),
    content: z.string(),
    error: z.boolean(),
    requestor: z.enum(['assistant', 'user']),
    executed: z.boolean().optional(),
    refusal: z.string().optional(),
  }),
]);

const nullableInt = z.number().int().nullable();

const HandoffFactsSchema = z.looseObject({
  transferred: z.boolean(),
  message: nullableInt,
  toolCall: nullableInt,
  customerTurn: nullableInt,
  early: z.boolean(),
  tool: z.string().nullable(),
  target: z.string().nullable(),
  reason: z.string().nullable(),
  label: z.looseObject({ expected: z.boolean(), queue: z.string().nullable() }),
});

const ComponentSchema = z.looseObject({ reward: z.number().nullable() });

const EvaluationSchema = z.looseObject({
  domain: z.string(),
  taskId: z.string(),
  taskVersion: z.string(),
  termination: z.enum(TERMINATION_REASONS),
  status: z.enum(['scored', 'unscored']),
  unscoredWhy: z.string().nullable(),
  reward: z.number().nullable(),
  success: z.boolean().nullable(),
  rewardBasis: z.array(z.enum(REWARD_COMPONENTS)),
  db: ComponentSchema.optional(),
  communicate: ComponentSchema.extend({ missing: z.array(z.string()) }).optional(),
  action: ComponentSchema.extend({ missing: z.array(z.string()) }).optional(),
  nl: z.looseObject({ status: z.enum(['scored', 'unscored', 'not_needed']) }).optional(),
  handoffCheck: ComponentSchema.extend({ why: z.string() }).optional(),
  handoff: HandoffFactsSchema,
});

/** One line of `trajectories.jsonl`, at `RECORD_VERSION`. */
export const EpisodeRecordSchema = z.looseObject({
  version: z.literal(RECORD_VERSION),
  key: z.string().min(1),
  domain: z.string().min(1),
  task_id: z.string().min(1),
  variant_id: z.string().nullable(),
  kind: z.string().min(1),
  split: z.string(),
  agent: z.string(),
  user: z.enum(['scripted', 'llm']),
  style: z.string(),
  trial: z.number().int().nonnegative(),
  seed: z.number(),
  label: z.looseObject({
    should_transfer: z.boolean(),
    expected_target: z.string().nullable(),
    expected_reason: z.string().nullable(),
    due_turn: nullableInt,
    label_rule: z.string().nullable(),
  }),
  termination: z.enum(TERMINATION_REASONS),
  customer_turns: z.number().int().nonnegative(),
  evaluation: EvaluationSchema,
  handoff: z
    .object({
      turn: z.number().int(),
      reason: HandoffReasonSchema,
      target: z.string(),
      decidedBy: z.enum(['model', 'decider', 'harness']),
      evidence: z.string().nullable(),
    })
    .nullable(),
  packet: z.record(z.string(), z.unknown()).nullable(),
  messages: z.array(MessageSchema),
  wall_ms: z.number().optional(),
  infrastructure_failure: z.enum(['provider_down', 'user_error', 'provider_unreachable']).optional(),
  model_calls: z.looseObject({ answered: z.number().int(), failed: z.number().int() }).optional(),
});

/** `run.json`, at `RUN_FILE_VERSION`: the run's configuration and provenance (other fields kept as written). */
export const RunFileSchema = z.looseObject({
  version: z.literal(RUN_FILE_VERSION),
  config: z.looseObject({ domain: z.string().optional(), agent: z.string().optional(), seed: z.number().optional() }),
  git_sha: z.string().nullable().optional(),
  planned_episodes: z.number().int().nonnegative().optional(),
});
export type RunFile = z.infer<typeof RunFileSchema>;

/** A persisted record or run file that cannot be read: what, where, and why. */
export class RecordFormatError extends Error {
  override readonly name = 'RecordFormatError';
}

function versionProblem(value: unknown, current: number, what: string): string | null {
  const version = value !== null && typeof value === 'object' ? (value as { version?: unknown }).version : undefined;
  if (version === current) return null;
  if (version === undefined) return `not a Baton ${what}: it has no "version" field`;
  if (typeof version === 'number' && Number.isInteger(version) && version > current) {
    return `${what} version ${version} was written by a newer Baton; this one reads version ${current}. Upgrade Baton to read it`;
  }
  return `${what} version ${JSON.stringify(version)} is not one this Baton reads (it reads version ${current})`;
}

function shapeProblem(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length > 0 ? i.path.join('.') : '(the record)'}: ${i.message}`)
    .join('; ');
}

/**
 * A parsed line of `trajectories.jsonl` (or a queue row) as an `EpisodeRecord`, validated; `where`
 * names it in the error (`runs/x/trajectories.jsonl:12`).
 */
export function parseEpisodeRecord(value: unknown, where: string): EpisodeRecord {
  const problem = versionProblem(value, RECORD_VERSION, 'episode record');
  if (problem) throw new RecordFormatError(`${where}: ${problem}.`);
  const parsed = EpisodeRecordSchema.safeParse(value);
  if (!parsed.success) throw new RecordFormatError(`${where}: not a valid episode record (${shapeProblem(parsed.error)}).`);
  // The schema checks what the lab reads; the record is returned as written (its keys in their
  // order), so that a folder assembled from read records is byte-identical to one written directly.
  return value as EpisodeRecord;
}

/** A parsed `run.json`, validated; `where` names it in the error. */
export function parseRunFile(value: unknown, where: string): RunFile {
  const problem = versionProblem(value, RUN_FILE_VERSION, 'run.json');
  if (problem) throw new RecordFormatError(`${where}: ${problem}.`);
  const parsed = RunFileSchema.safeParse(value);
  if (!parsed.success) throw new RecordFormatError(`${where}: not a valid run.json (${shapeProblem(parsed.error)}).`);
  return parsed.data;
}
