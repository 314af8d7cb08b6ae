/**
 * `baton check races`: the multi-process race suite (src/testing/process-race.ts) for as long as
 * asked — randomised schedules of customer messages, agent replies, claims, hand-offs and
 * hand-backs, run by several OS processes on one store, with processes killed and restarted at
 * random. Prints the invariant counters as JSON; exits 1 if any is not zero. `npm test` runs
 * 1,000 schedules (test/process-race.test.ts); a long run is `--schedules 100000`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StoreConfig } from '../store/open-store.js';
import { runProcessRace, type ProcessRaceResult } from '../testing/process-race.js';
import { startThrowawayPostgres } from '../testing/throwaway-postgres.js';

export interface CheckRacesOptions {
  store: 'postgres' | 'sqlite';
  /** An existing PostgreSQL server to make the database on (else a throwaway one on loopback). */
  pgUrl?: string;
  schedules: number;
  processes: number;
  batch: number;
  killsPerBatch: number;
  seed: number;
  progress?: (line: string) => void;
}

const VIOLATIONS = ['double_replies', 'lost_messages', 'version_violations', 'replay_mismatches', 'other_violations'] as const;

export async function checkRaces(options: CheckRacesOptions): Promise<ProcessRaceResult & { store: string; seed: number; ok: boolean }> {
  let cleanup = async () => {};
  let store: StoreConfig;
  if (options.store === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'baton-races-'));
    store = { kind: 'sqlite', path: join(dir, 'races.sqlite') };
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  } else {
    const server = await startThrowawayPostgres(options.pgUrl ? { env: { BATON_PG_URL: options.pgUrl } } : {});
    store = { kind: 'postgres', url: await server.createDatabase(), poolSize: 8 };
    cleanup = () => server.stop();
  }
  const started = Date.now();
  try {
    const result = await runProcessRace({
      store,
      schedules: options.schedules,
      processes: options.processes,
      batch: options.batch,
      killsPerBatch: options.killsPerBatch,
      seed: options.seed,
      progress: (done, total) => {
        const s = (Date.now() - started) / 1000;
        options.progress?.(`${done}/${total} schedules, ${s.toFixed(0)} s`);
      },
    });
    return { store: options.store, seed: options.seed, ...result, ok: VIOLATIONS.every((k) => result[k] === 0) };
  } finally {
    await cleanup();
  }
}
