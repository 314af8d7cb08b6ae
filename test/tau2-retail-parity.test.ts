import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalDbHash, floatPaths } from '../src/domains/tau2/canonical-db.js';
import { pythonJson } from '../src/domains/tau2/python-json.js';
import { cloneRetailDb, loadRetailDb, RETAIL_TOOLSET } from '../src/domains/tau2/retail/index.js';
import { callDomainTool } from '../src/domains/domain-tool.js';
import { goldReplays } from './support/gold-replays.js';
import { tau2DirForTests } from './support/tau2-dir.js';

const dir = join(tau2DirForTests(), 'retail');
const initial = loadRetailDb(readFileSync(join(dir, 'db.json'), 'utf8'));
const gold = goldReplays('retail');

/** A record as the canonical dump writes it (sorted keys, floats by field type). */
const canonicalRecord = (collection: string, key: string, value: unknown) =>
  pythonJson({ [collection]: { [key]: value } }, floatPaths('retail'));

describe('retail tools replay the gold trajectories byte for byte', () => {
  it('covers the 74 train tasks', () => {
    expect(gold).toHaveLength(74);
  });

  it.each(gold.map((task) => [task.task_id, task] as const))('task %s', (_id, task) => {
    const db = cloneRetailDb(initial);
    expect(canonicalDbHash('retail', db)).toBe(task.db_initial_sha256);
    for (const step of task.steps) {
      const result = callDomainTool(RETAIL_TOOLSET, db, step.name, step.arguments);
      expect({ step: step.i, name: step.name, ...result }).toEqual({
        step: step.i,
        name: step.name,
        output: step.output,
        error: step.error,
      });
    }
    for (const [collection, records] of Object.entries(task.db_changes)) {
      const actual = (db as unknown as Record<string, Record<string, unknown>>)[collection] ?? {};
      for (const [key, change] of Object.entries(records)) {
        if (change.op === 'removed') expect(Object.hasOwn(actual, key)).toBe(false);
        else expect(canonicalRecord(collection, key, actual[key])).toBe(canonicalRecord(collection, key, change.value));
      }
    }
    expect(canonicalDbHash('retail', db)).toBe(task.db_final_sha256);
  });
});
