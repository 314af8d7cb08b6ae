import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replayTask } from '../src/domains/replay.js';
import { canonicalDbHash, floatPaths } from '../src/domains/tau2/canonical-db.js';
import { pythonJson } from '../src/domains/tau2/python-json.js';
import { tau2DirForTests } from './support/tau2-dir.js';
import { tau2Domain } from './support/tau2-domains.js';

// Gold replay through episodes: copy-on-write databases and the cached canonical hasher must give
// the very bytes, records and hashes tau2-bench's Python tools gave (the parity files).

interface GoldTask {
  task_id: string;
  steps: { i: number; name: string; output: string; error: boolean }[];
  db_initial_sha256: string;
  db_final_sha256: string;
  db_changes: Record<string, Record<string, { op: 'added' | 'changed' | 'removed'; value: unknown }>>;
}

const goldOf = (name: string) =>
  readFileSync(join(tau2DirForTests(), name, 'gold_replay_train.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as GoldTask);

describe.each(['airline', 'retail'] as const)('%s gold replay through episodes', (name) => {
  const gold = goldOf(name);

  it.each(gold.map((g) => [g.task_id, g] as const))('task %s', async (_id, g) => {
    const domain = await tau2Domain(name);
    const task = domain.tasks.find((t) => t.id === g.task_id);
    if (!task) throw new Error(`no task ${g.task_id}`);
    const result = replayTask(domain, task);
    expect(result.steps.map((s) => ({ output: s.output, error: s.error }))).toEqual(
      g.steps.map((s) => ({ output: s.output, error: s.error })),
    );
    expect(result.db_final_sha256).toBe(g.db_final_sha256);
    // The changed records, checked on a second episode's snapshot.
    const episode = domain.newEpisode();
    for (const action of task.actions ?? []) episode.call(action.name, action.arguments);
    const db = episode.db as Record<string, Record<string, unknown>>;
    const record = (collection: string, key: string, value: unknown) => pythonJson({ [collection]: { [key]: value } }, floatPaths(name));
    for (const [collection, records] of Object.entries(g.db_changes)) {
      for (const [key, change] of Object.entries(records)) {
        if (change.op === 'removed') expect(Object.hasOwn(db[collection] ?? {}, key)).toBe(false);
        else expect(record(collection, key, db[collection]?.[key])).toBe(record(collection, key, change.value));
      }
    }
  });

  it('leaves the initial database as it was, for every later episode', async () => {
    const domain = await tau2Domain(name);
    const initial = gold[0]?.db_initial_sha256;
    for (const task of domain.tasks) replayTask(domain, task);
    expect(domain.newEpisode().hash()).toBe(initial);
    expect(canonicalDbHash(name, domain.initialDb as Record<string, unknown>)).toBe(initial);
  });

  it('gives the same hash as a full canonical dump of the snapshot', async () => {
    const domain = await tau2Domain(name);
    const changing = gold.filter((g) => g.db_final_sha256 !== g.db_initial_sha256).slice(0, 4);
    expect(changing.length).toBe(4);
    for (const g of changing) {
      const episode = domain.newEpisode();
      for (const action of domain.tasks.find((t) => t.id === g.task_id)?.actions ?? []) episode.call(action.name, action.arguments);
      expect(canonicalDbHash(name, episode.db as Record<string, unknown>)).toBe(episode.hash());
      expect(episode.hash()).toBe(g.db_final_sha256);
    }
  });
});

describe('episodes', () => {
  it('keep their writes to themselves and share every record they did not touch', async () => {
    const domain = await tau2Domain('airline');
    const a = domain.newEpisode();
    const b = domain.newEpisode();
    const before = b.hash();
    const reservations = (domain.initialDb as { reservations: Record<string, { status: string | null }> }).reservations;
    const [target, other] = Object.keys(reservations).filter((id) => reservations[id]?.status === null);
    if (!target || !other) throw new Error('the airline data has active reservations');
    const cancelled = a.call('cancel_reservation', { reservation_id: target });
    expect(cancelled.error).toBe(false);
    expect(a.hash()).not.toBe(before);
    expect(b.hash()).toBe(before);
    const dbA = a.db as { reservations: Record<string, { status: string | null }>; flights: object; users: Record<string, object> };
    const dbB = b.db as typeof dbA;
    expect(dbA.reservations[target]?.status).toBe('cancelled');
    expect(dbB.reservations[target]?.status).toBeNull();
    // Structural sharing: untouched collections and records are the very same objects.
    expect(dbA.flights).toBe(dbB.flights);
    expect(dbA.reservations[other]).toBe(dbB.reservations[other]);
    expect(dbA.reservations[target]).not.toBe(dbB.reservations[target]);
    expect(Object.isFrozen(dbA.reservations[target])).toBe(true);
    expect(Object.isFrozen(domain.initialDb)).toBe(true);
  });

  it('keep what a failing write changed before it failed, as upstream does, and report the failure', async () => {
    const domain = await tau2Domain('airline');
    const episode = domain.newEpisode();
    const result = episode.call('cancel_reservation', { reservation_id: 'NOPE00' });
    expect(result).toEqual({ output: 'Error: Reservation NOPE00 not found', error: true });
    expect(episode.hash()).toBe(domain.newEpisode().hash());
  });

  it('report an exception a tool did not expect as an Error output, as any Python exception upstream', async () => {
    const domain = await tau2Domain('retail');
    const episode = domain.newEpisode();
    const result = episode.call('get_order_details', { order_id: ['#W2611340'] });
    expect(result.error).toBe(true);
    expect(result.output).toMatch(/^Error: /);
  });
});
