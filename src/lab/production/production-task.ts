/**
 * A production task: a reviewed production conversation as a labelled hand-off task. The
 * customer's turns (redacted, as the log holds them) are a replay script for the scripted
 * customer; the label and the due turn are the person's verdict; the domain and the customer's
 * facts come from the conversation's tool log. It is persisted as one JSON file per task in a
 * task set (`task-set.ts`), so it has a schema with a version, and it runs in the lab as a hand-off
 * variant of a synthetic source task that scores only `HANDOFF` (there are no gold actions).
 */
import { z } from 'zod';
import { ConversationIdSchema, DeciderReasonSchema, StaffIdSchema } from '../../core/index.js';
import { DOMAIN_NAMES, type DomainTask } from '../../domains/domain.js';
import { DOMAIN_VERSIONS } from '../../domains/load-domain.js';
import { PRODUCTION_KINDS, type HandoffVariant, type UserScript } from '../variant.js';

/** The schema version of a production task file. */
export const PRODUCTION_TASK_VERSION = 1 as const;

const ScriptFactSchema = z.strictObject({
  key: z.string().min(1).max(100),
  value: z.string().min(1).max(500),
  askedBy: z.array(z.string().min(1).max(100)).max(20),
  volunteered: z.boolean(),
});

/** A replay script (`UserScript` with `replay: true`): every turn is a message as written. */
export const ReplayScriptSchema = z.strictObject({
  request: z.string().min(1).max(16_000),
  facts: z.array(ScriptFactSchema).max(100),
  beats: z.array(z.strictObject({ turn: z.number().int().min(2), kind: z.literal('said'), text: z.string().min(1).max(16_000) })).max(500),
  onTransfer: z.literal('accept'),
  confirms: z.boolean(),
  maxTurns: z.number().int().positive(),
  replay: z.literal(true),
});

/** Which verdict the label comes from, and what the agent did in production. */
export const ProductionSourceSchema = z.strictObject({
  conversation: ConversationIdSchema,
  /** The verdict the label comes from (see `chooseVerdict`). */
  review: z.strictObject({
    seq: z.number().int().positive(),
    at: z.string(),
    by: StaffIdSchema,
    as: z.enum(['owner', 'supervisor']),
    subject: z.enum(['handoff', 'kept']),
    needed: z.boolean(),
    timing: z.enum(['on_time', 'late']).nullable(),
    due_at: z.number().int().positive().nullable(),
    /** The reason the reviewer gave, as written (the label keeps it only if it is the decider's). */
    reason: z.string().max(200).nullable(),
    note: z.string().max(2000).nullable(),
  }),
  /** Verdicts in the log that were not chosen (an owner's under a supervisor's, earlier ones). */
  other_reviews: z.number().int().nonnegative(),
  /** The agent's hand-off that was reviewed (null: the agent kept the conversation). */
  handoff: z.strictObject({ seq: z.number().int().positive(), reason: z.string().max(200), queue: z.string().nullable() }).nullable(),
  agent: z.string().min(1).max(200),
  /** The domain's tools the agent called, in order of first use (what the domain was read from). */
  tools: z.array(z.string().min(1).max(200)).max(200),
});

/** One production task, as its file holds it. */
export const ProductionTaskSchema = z
  .strictObject({
    schema_version: z.literal(PRODUCTION_TASK_VERSION),
    /** The conversation's id: one task per conversation. */
    id: ConversationIdSchema,
    domain: z.enum(DOMAIN_NAMES),
    /** The domain's task version the conversation was served with (its default). */
    task_version: z.string().min(1),
    split: z.enum(['train', 'dev', 'test']),
    /**
     * Set only when the task was put in the test split on purpose (`--split test`): a production
     * task is never in test otherwise, and a file that says `test` without it is refused.
     */
    held_out: z.literal(true).optional(),
    kind: z.enum(PRODUCTION_KINDS),
    should_transfer: z.boolean(),
    expected_target: z.string().min(1).max(200).nullable(),
    expected_reason: DeciderReasonSchema.nullable(),
    due_turn: z.number().int().positive().nullable(),
    label_rule: z.string().min(1).max(4000),
    script: ReplayScriptSchema,
    source: ProductionSourceSchema,
    created_at: z.string(),
  })
  .superRefine((task, ctx) => {
    if (task.split === 'test' && task.held_out !== true)
      ctx.addIssue({
        code: 'custom',
        path: ['split'],
        message: 'a production task is in the test split only when marked held_out (--split test)',
      });
    if (task.split !== 'test' && task.held_out === true)
      ctx.addIssue({ code: 'custom', path: ['held_out'], message: 'held_out marks a test task; this one is not in test' });
    if (!task.should_transfer && (task.expected_target !== null || task.expected_reason !== null || task.due_turn !== null))
      ctx.addIssue({ code: 'custom', path: ['should_transfer'], message: 'a task without a hand-off has no target, reason or due turn' });
    if (task.due_turn !== null && task.due_turn > task.script.maxTurns)
      ctx.addIssue({ code: 'custom', path: ['due_turn'], message: `due at turn ${task.due_turn}, after the script's last turn` });
  });
export type ProductionTask = z.infer<typeof ProductionTaskSchema>;

/** The default task version of each domain (what `baton serve` loads). */
export const servedTaskVersion = (domain: ProductionTask['domain']): string => DOMAIN_VERSIONS[domain][0] ?? 'current';

/** The task as the lab runs it: a hand-off variant of its own synthetic source task. */
export function productionVariant(task: ProductionTask): HandoffVariant {
  const script: UserScript = { ...task.script };
  return {
    id: `${task.domain}/${task.id}/${task.kind}`,
    domain: task.domain,
    source: task.id,
    kind: task.kind,
    split: task.split,
    should_transfer: task.should_transfer,
    expected_target: task.expected_target,
    expected_reason: task.expected_reason,
    due_turn: task.due_turn,
    label_rule: task.label_rule,
    script,
    outage: null,
    instruction: '',
  };
}

/** What an LLM customer is told: the messages to write, in order (the scripted customer replays them as they are). */
function replayInstructions(task: ProductionTask): string {
  const turns = [task.script.request, ...task.script.beats.map((b) => b.text)];
  return [
    'You are the customer of a real support conversation, replayed. Write these messages, one per turn, in this order, as written; answer nothing beyond them.',
    ...turns.map((text, i) => `Turn ${i + 1}: ${text}`),
    'After the last one, end the conversation.',
  ].join('\n');
}

/**
 * The synthetic source task of a production task: no gold actions (nothing is known of what the
 * right actions were), scored on `HANDOFF` alone, with the verdict's label.
 */
export function productionDomainTask(task: ProductionTask): DomainTask {
  return {
    domain: task.domain,
    id: task.id,
    version: task.task_version,
    split: task.split === 'test' ? 'test' : 'train',
    rewardBasis: ['HANDOFF'],
    actions: null,
    envAssertions: null,
    communicateInfo: [],
    nlAssertions: [],
    needsJudge: false,
    handoff: {
      expected: task.should_transfer,
      queue: task.expected_target,
      reason: task.expected_reason,
      source: 'label',
      dueTurn: task.due_turn,
    },
    userScenario: { persona: null, instructions: replayInstructions(task) },
  };
}
