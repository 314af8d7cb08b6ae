import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AIRLINE_TOOLSET, type AirlineDb } from '../src/domains/tau2/airline/index.js';
import { canonicalDbHash, floatPaths, withModelDefaults } from '../src/domains/tau2/canonical-db.js';
import { pythonJson } from '../src/domains/tau2/python-json.js';
import { callDomainTool } from '../src/domains/domain-tool.js';
import { goldReplays } from './support/gold-replays.js';
import { tau2DirForTests } from './support/tau2-dir.js';

const dir = join(tau2DirForTests(), 'airline');
const initial = withModelDefaults('airline', JSON.parse(readFileSync(join(dir, 'db.json'), 'utf8')) as Record<string, unknown>);
const tasks = goldReplays('airline');

/** A record as the canonical hash serialises it (sorted keys, Python floats by field path). */
const canonicalRecord = (collection: string, key: string, record: unknown): string =>
  pythonJson({ [collection]: { [key]: record } }, floatPaths('airline'));

describe('airline tools replay the gold actions byte for byte', () => {
  it('covers every train task, all starting from the initial database', () => {
    expect(tasks).toHaveLength(30);
    const initialHash = canonicalDbHash('airline', initial);
    for (const task of tasks) expect(task.db_initial_sha256).toBe(initialHash);
  });

  it.each(tasks.map((task) => [task.task_id, task] as const))('task %s', (_id, task) => {
    const db = structuredClone(initial);
    for (const step of task.steps) {
      const result = callDomainTool(AIRLINE_TOOLSET, db as unknown as AirlineDb, step.name, step.arguments);
      expect({ step: step.i, output: result.output, error: result.error }).toEqual({
        step: step.i,
        output: step.output,
        error: step.error,
      });
    }
    expect(canonicalDbHash('airline', db)).toBe(task.db_final_sha256);
    for (const [collection, records] of Object.entries(task.db_changes)) {
      const actual = db[collection] as Record<string, unknown>;
      for (const [key, change] of Object.entries(records)) {
        if (change.op === 'removed') {
          expect(Object.hasOwn(actual, key), `${collection}.${key} removed`).toBe(false);
        } else {
          expect(canonicalRecord(collection, key, actual[key]), `${collection}.${key}`).toBe(
            canonicalRecord(collection, key, change.value),
          );
        }
      }
    }
  });
});
