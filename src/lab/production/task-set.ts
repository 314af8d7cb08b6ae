/**
 * The production task set: a folder with one file per task (`tasks/<conversation id>.json`) and
 * a manifest (`manifest.json`) — labels, splits and counts, a revision that grows by one with
 * every change, and a SHA-256 checksum of the canonical JSON of every task in id order, texts
 * included (the hand-off variants' convention, `variants/manifest.ts`). Reading checks the
 * checksum and every file's schema, so a set edited by hand, or half written, is refused, never
 * run. A task keeps its split for good: adding a conversation again (a newer verdict) replaces
 * its task only in the split it already has.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { DOMAIN_NAMES } from '../../domains/domain.js';
import { canonicalJson } from '../variants/manifest.js';
import { PRODUCTION_KINDS } from '../variant.js';
import { ProductionTaskSchema, type ProductionTask } from './production-task.js';

/** The manifest's schema version. */
export const TASK_SET_VERSION = 1 as const;

const EntrySchema = z.strictObject({
  id: z.string(),
  domain: z.enum(DOMAIN_NAMES),
  kind: z.enum(PRODUCTION_KINDS),
  split: z.enum(['train', 'dev', 'test']),
  should_transfer: z.boolean(),
  expected_target: z.string().nullable(),
  expected_reason: z.string().nullable(),
  due_turn: z.number().int().nullable(),
});

export const TaskSetManifestSchema = z.strictObject({
  schema_version: z.literal(TASK_SET_VERSION),
  description: z.string(),
  /** 1 for the first task; one more with every change. */
  revision: z.number().int().positive(),
  checksum: z.strictObject({ algorithm: z.literal('sha256'), of: z.string(), value: z.string().regex(/^[0-9a-f]{64}$/) }),
  counts: z.strictObject({
    total: z.number().int().nonnegative(),
    positives: z.number().int().nonnegative(),
    negatives: z.number().int().nonnegative(),
    by_domain: z.record(z.string(), z.number().int()),
    by_split: z.record(z.string(), z.number().int()),
    by_kind: z.record(z.string(), z.number().int()),
  }),
  tasks: z.array(EntrySchema),
});
export type TaskSetManifest = z.infer<typeof TaskSetManifestSchema>;

/** A task set as read: its manifest and its tasks in id order. */
export interface TaskSet {
  dir: string;
  manifest: TaskSetManifest | null;
  tasks: ProductionTask[];
}

/** A task set that cannot be read or changed as asked. */
export class TaskSetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TaskSetError';
  }
}

const MANIFEST = 'manifest.json';
const TASKS = 'tasks';
const byId = (a: ProductionTask, b: ProductionTask) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** SHA-256 (hex) of the canonical JSON of the tasks in id order, texts included. */
export function taskSetChecksum(tasks: readonly ProductionTask[]): string {
  return createHash('sha256')
    .update(canonicalJson([...tasks].sort(byId)))
    .digest('hex');
}

function countBy(tasks: readonly ProductionTask[], of: (t: ProductionTask) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const t of tasks) counts[of(t)] = (counts[of(t)] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** The manifest of `tasks` at `revision`. */
export function buildTaskSetManifest(tasks: readonly ProductionTask[], revision: number): TaskSetManifest {
  const sorted = [...tasks].sort(byId);
  const positives = sorted.filter((t) => t.should_transfer).length;
  return {
    schema_version: TASK_SET_VERSION,
    description:
      'Labelled hand-off tasks made from reviewed production conversations (baton tasks from-conversation; docs/production-tasks.md). ' +
      'One file per task under tasks/; the checksum covers every task, texts included.',
    revision,
    checksum: {
      algorithm: 'sha256',
      of: 'canonical JSON (sorted keys, no whitespace) of the list of tasks in id order, texts included',
      value: taskSetChecksum(sorted),
    },
    counts: {
      total: sorted.length,
      positives,
      negatives: sorted.length - positives,
      by_domain: countBy(sorted, (t) => t.domain),
      by_split: countBy(sorted, (t) => t.split),
      by_kind: countBy(sorted, (t) => t.kind),
    },
    tasks: sorted.map((t) => ({
      id: t.id,
      domain: t.domain,
      kind: t.kind,
      split: t.split,
      should_transfer: t.should_transfer,
      expected_target: t.expected_target,
      expected_reason: t.expected_reason,
      due_turn: t.due_turn,
    })),
  };
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new TaskSetError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
}

const issues = (error: z.ZodError) => error.issues.map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`).join('; ');

/**
 * Reads a task set. A folder that does not exist, or has no manifest and no tasks, is an empty
 * set; anything else must match its manifest exactly (files, schema, checksum).
 */
export function readTaskSet(dir: string): TaskSet {
  const manifestFile = join(dir, MANIFEST);
  const tasksDir = join(dir, TASKS);
  const files = existsSync(tasksDir)
    ? readdirSync(tasksDir)
        .filter((f) => f.endsWith('.json'))
        .sort()
    : [];
  if (!existsSync(manifestFile)) {
    if (files.length > 0) throw new TaskSetError(`${dir} has task files but no ${MANIFEST}: it was not written by Baton, or only half`);
    return { dir, manifest: null, tasks: [] };
  }
  const parsed = TaskSetManifestSchema.safeParse(readJson(manifestFile));
  if (!parsed.success) throw new TaskSetError(`${manifestFile} is not a task-set manifest: ${issues(parsed.error)}`);
  const manifest = parsed.data;
  const listed = manifest.tasks.map((t) => `${t.id}.json`).sort();
  const extra = files.filter((f) => !listed.includes(f));
  const missing = listed.filter((f) => !files.includes(f));
  if (extra.length > 0 || missing.length > 0) {
    throw new TaskSetError(
      `${dir} does not match its manifest:${extra.length > 0 ? ` not listed ${extra.join(', ')};` : ''}${missing.length > 0 ? ` missing ${missing.join(', ')};` : ''} add tasks with baton tasks from-conversation only`,
    );
  }
  const tasks = manifest.tasks.map((entry) => {
    const file = join(tasksDir, `${entry.id}.json`);
    const task = ProductionTaskSchema.safeParse(readJson(file));
    if (!task.success) throw new TaskSetError(`${file} is not a production task: ${issues(task.error)}`);
    if (task.data.id !== entry.id) throw new TaskSetError(`${file} holds task ${task.data.id}, not ${entry.id}`);
    return task.data;
  });
  const checksum = taskSetChecksum(tasks);
  if (checksum !== manifest.checksum.value) {
    throw new TaskSetError(
      `${dir}: the tasks' checksum is ${checksum}, the manifest says ${manifest.checksum.value}: a task was changed outside Baton`,
    );
  }
  return { dir, manifest, tasks: tasks.sort(byId) };
}

/** Replaces `file` whole, so a reader never sees half of it. */
function writeAtomically(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

/** What adding a task did. */
export interface AddedTask {
  /** `added`, `replaced` (a newer verdict on a conversation already in the set), or `unchanged`. */
  change: 'added' | 'replaced' | 'unchanged';
  file: string;
  manifest: TaskSetManifest;
}

/**
 * Adds a task to the set at `dir` (made if need be), or replaces the task of the same
 * conversation. A task keeps the split it was first given: one that would move is refused, so
 * nothing seen in train or dev ever lands in test, nor the reverse. Checks everything before
 * writing anything; writes the task, then the manifest.
 */
export function addToTaskSet(dir: string, task: ProductionTask): AddedTask {
  const checked = ProductionTaskSchema.parse(task);
  const set = readTaskSet(dir);
  const earlier = set.tasks.find((t) => t.id === checked.id);
  if (earlier && earlier.split !== checked.split) {
    throw new TaskSetError(
      `${checked.id} is already in ${dir} in the ${earlier.split} split; a task never changes split (asked: ${checked.split})`,
    );
  }
  const file = join(dir, TASKS, `${checked.id}.json`);
  // The same label and script again is no change (the time it was made aside).
  if (earlier && canonicalJson({ ...earlier, created_at: '' }) === canonicalJson({ ...checked, created_at: '' }) && set.manifest) {
    return { change: 'unchanged', file, manifest: set.manifest };
  }
  const tasks = [...set.tasks.filter((t) => t.id !== checked.id), checked];
  const manifest = buildTaskSetManifest(tasks, (set.manifest?.revision ?? 0) + 1);
  mkdirSync(join(dir, TASKS), { recursive: true });
  writeAtomically(file, `${JSON.stringify(checked, null, 2)}\n`);
  writeAtomically(join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return { change: earlier ? 'replaced' : 'added', file, manifest };
}
