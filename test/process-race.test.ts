/**
 * The race suite across OS processes (issue 16): 1,000 randomised schedules of customer messages,
 * agent replies, claims (fresh and from a stale copy), human replies, hand-offs and hand-backs,
 * run by 4 processes at once on one PostgreSQL database (and on one SQLite file), with a process
 * killed at a random point of every batch of 100 and restarted to finish its work. Every invariant
 * of the foundation holds after every batch: no double reply, nothing acknowledged lost, versions
 * in order, every log replays to its stored conversation. `baton check races --schedules 100000`
 * runs the same suite for longer.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StoreConfig } from '../src/store/open-store.js';
import { runProcessRace } from '../src/testing/process-race.js';
import { testPostgres } from './support/postgres.js';

const SCHEDULES = 1_000;

async function storeConfig(kind: 'sqlite' | 'postgres'): Promise<StoreConfig> {
  if (kind === 'sqlite') return { kind, path: join(mkdtempSync(join(tmpdir(), 'baton-process-race-')), 'race.sqlite') };
  const server = await testPostgres();
  return { kind, url: await server.createDatabase(), poolSize: 8 };
}

describe.each(['postgres', 'sqlite'] as const)('4 processes racing on %s, with kills', (kind) => {
  it(`${SCHEDULES} randomised schedules: every invariant holds after every batch`, async () => {
    const result = await runProcessRace({
      store: await storeConfig(kind),
      schedules: SCHEDULES,
      processes: 4,
      batch: 100,
      killsPerBatch: 1,
      seed: kind === 'postgres' ? 16 : 17,
    });
    expect(result).toMatchObject({
      schedules: SCHEDULES,
      conversations: SCHEDULES,
      processes: 4,
      kills: 10,
      double_replies: 0,
      lost_messages: 0,
      version_violations: 0,
      replay_mismatches: 0,
      other_violations: 0,
    });
    // The schedules did real work and really raced: replies both delivered and refused, and
    // kills that cut operations off (run again by the restarted process).
    expect(result.operations).toBeGreaterThan(SCHEDULES * 4);
    expect(result.delivered).toBeGreaterThan(SCHEDULES / 2);
    expect(result.suppressed).toBeGreaterThan(SCHEDULES / 10);
    expect(result.rerun).toBeGreaterThan(0);
  }, 600_000);
});

describe('the race suite can fail', () => {
  it('a worker that acknowledges a message it never stored is caught as a lost message', async () => {
    const result = await runProcessRace({
      store: await storeConfig('sqlite'),
      schedules: 40,
      processes: 2,
      batch: 20,
      killsPerBatch: 0,
      seed: 3,
      fault: 'phantom_ack',
    });
    expect(result.lost_messages).toBeGreaterThan(0);
    expect(result).toMatchObject({ double_replies: 0, version_violations: 0, replay_mismatches: 0, other_violations: 0 });
  }, 120_000);
});

describe('baton check races', () => {
  const BIN = join(import.meta.dirname, '..', 'bin', 'baton.js');
  it('runs the suite from the built CLI and prints the counters; a bad store is refused', () => {
    const run = spawnSync(
      process.execPath,
      [BIN, 'check', 'races', '--store', 'sqlite', '--schedules', '30', '--batch', '15', '--processes', '2', '--json'],
      {
        encoding: 'utf8',
      },
    );
    expect(run.status, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(result).toMatchObject({ ok: true, store: 'sqlite', schedules: 30, processes: 2, kills: 2, double_replies: 0, lost_messages: 0 });
    expect(run.stderr).toContain('30/30 schedules');
    const bad = spawnSync(process.execPath, [BIN, 'check', 'races', '--store', 'mysql'], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--store is postgres or sqlite');
  }, 120_000);
});
