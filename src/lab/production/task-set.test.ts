import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ProductionTaskSchema, type ProductionTask } from './production-task.js';
import { addToTaskSet, readTaskSet, taskSetChecksum } from './task-set.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const fresh = () => {
  const d = mkdtempSync(join(tmpdir(), 'baton-taskset-'));
  dirs.push(d);
  return join(d, 'set');
};

/** A task as `taskFromLog` makes one (a kept conversation that needed a person). */
const task = (id: string, overrides: Partial<ProductionTask> = {}): ProductionTask =>
  ProductionTaskSchema.parse({
    schema_version: 1,
    id,
    domain: 'billing',
    task_version: 'v1',
    split: 'train',
    kind: 'missed_handoff',
    should_transfer: true,
    expected_target: 'queue_billing',
    expected_reason: 'frustration_and_loop',
    due_turn: 2,
    label_rule: 'A supervisor found that this conversation the agent kept needed a person from customer turn 2.',
    script: {
      request: 'I was charged twice.',
      facts: [],
      beats: [{ turn: 2, kind: 'said', text: 'Third time I write about this.' }],
      onTransfer: 'accept',
      confirms: true,
      maxTurns: 2,
      replay: true,
    },
    source: {
      conversation: id,
      review: {
        seq: 9,
        at: '2026-12-01T10:00:00.000Z',
        by: 'staff_01M8S0XDHE000AZTQJ5STWRRZ83TA',
        as: 'supervisor',
        subject: 'kept',
        needed: true,
        timing: null,
        due_at: 6,
        reason: 'frustration_and_loop',
        note: null,
      },
      other_reviews: 0,
      handoff: null,
      agent: 'agent_support',
      tools: [],
    },
    created_at: '2026-12-01T10:00:01.000Z',
    ...overrides,
  });

const A = 'conv_01M8S0XDHE000AZTQJ5STWRRZ83TA';
const B = 'conv_01M8S0XDR0000FDG2N194XQMXE6Y9';

describe('the production task set', () => {
  it('versions every change with a revision and a checksum over the tasks, texts included', () => {
    const dir = fresh();
    expect(readTaskSet(dir)).toMatchObject({ manifest: null, tasks: [] });
    expect(addToTaskSet(dir, task(B))).toMatchObject({ change: 'added', manifest: { revision: 1 } });
    const two = addToTaskSet(dir, task(A));
    expect(two.manifest).toMatchObject({ revision: 2, counts: { total: 2, positives: 2, by_split: { train: 2 } } });
    // In id order, whatever order they came in.
    expect(two.manifest.tasks.map((t) => t.id)).toEqual([A, B]);
    expect(two.manifest.checksum.value).toBe(taskSetChecksum([task(A), task(B)]));
    // The same task again (made later) changes nothing; a new verdict replaces it.
    expect(addToTaskSet(dir, task(A, { created_at: '2026-12-02T00:00:00.000Z' }))).toMatchObject({
      change: 'unchanged',
      manifest: { revision: 2 },
    });
    const relabelled = task(A, {
      kind: 'kept_correctly',
      should_transfer: false,
      expected_target: null,
      expected_reason: null,
      due_turn: null,
    });
    expect(addToTaskSet(dir, relabelled)).toMatchObject({ change: 'replaced', manifest: { revision: 3, counts: { positives: 1 } } });
    expect(readTaskSet(dir).tasks.find((t) => t.id === A)?.kind).toBe('kept_correctly');
    // A text changes the checksum too.
    const script = { ...task(B).script, request: 'I was charged three times.' };
    expect(taskSetChecksum([task(B, { script })])).not.toBe(taskSetChecksum([task(B)]));
  });

  it('never moves a task between splits, and writes nothing when it refuses', () => {
    const dir = fresh();
    addToTaskSet(dir, task(A));
    const before = readFileSync(join(dir, 'manifest.json'), 'utf8');
    expect(() => addToTaskSet(dir, task(A, { split: 'test', held_out: true }))).toThrow(
      /already in .* in the train split; a task never changes split/,
    );
    expect(readFileSync(join(dir, 'manifest.json'), 'utf8')).toBe(before);
  });

  it('puts a task in test only when it is marked held out', () => {
    expect(() => task(A, { split: 'test' })).toThrow(/in the test split only when marked held_out/);
    expect(() => task(A, { held_out: true })).toThrow(/held_out marks a test task/);
    expect(task(A, { split: 'test', held_out: true }).split).toBe('test');
  });

  it('refuses a set changed outside Baton: an edited task, a file not in the manifest', () => {
    const dir = fresh();
    addToTaskSet(dir, task(A));
    const file = join(dir, 'tasks', `${A}.json`);
    const original = readFileSync(file, 'utf8');
    writeFileSync(file, original.replace('Third time', 'Fourth time'));
    expect(() => readTaskSet(dir)).toThrow(/checksum .* a task was changed outside Baton/);
    expect(() => addToTaskSet(dir, task(B))).toThrow(/a task was changed outside Baton/);
    writeFileSync(file, original);
    writeFileSync(join(dir, 'tasks', `${B}.json`), JSON.stringify(task(B)));
    expect(() => readTaskSet(dir)).toThrow(/does not match its manifest: not listed conv_/);
  });
});
