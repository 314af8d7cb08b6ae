import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Conversation, ConversationId, StaffId } from '../core/index.js';
import type { CommandOutcome } from '../runtime/gateway.js';
import { openStore } from '../store/open-store.js';
import type { PostgresStore } from '../store/postgres-store.js';
import type { SqliteStore } from '../store/sqlite-store.js';
import type { Store } from '../store/store.js';
import { gatewayFor, TEST_AGENT } from '../testing/gateway-fixture.js';
import { runRaceInterleavings, type RaceCounters } from '../testing/gateway-race.js';
import { startThrowawayPostgres } from '../testing/throwaway-postgres.js';

/** Options of {@link benchGateway}. */
export interface GatewayBenchOptions {
  stores: Array<'sqlite' | 'postgres'>;
  /** Alternating measurement rounds per store (raw, then gateway). */
  rounds: number;
  /** Length of one measurement (ms). */
  roundMs: number;
  /** Race interleavings per store for the counters. */
  raceInterleavings: number;
  progress: (line: string) => void;
}

export interface StoreBenchResult {
  /** Owner-checked sends and CAS transitions through the gateway, per second (median round). */
  gateway_ops_per_sec: number;
  /** The same, with every transition reading the conversation first (no basis given). */
  gateway_with_read_ops_per_sec: number;
  /** Bare single-row `UPDATE … WHERE id = ? AND version = ?`, per second (median round), same database. */
  raw_cas_per_sec: number;
  ratio: number;
  ratio_with_read: number;
  rounds: Array<{ gateway_ops_per_sec: number; gateway_with_read_ops_per_sec: number; raw_cas_per_sec: number }>;
  durability: string;
  race: RaceCounters & { interleavings: number };
}

interface RawCas {
  setup(rows: number): Promise<void>;
  update(id: number, version: number): Promise<boolean>;
}

function rawCasFor(store: Store): RawCas {
  if (store.kind === 'sqlite') {
    const db = (store as SqliteStore).db;
    let stmt: ReturnType<typeof db.prepare<[number, number]>> | undefined;
    return {
      async setup(rows) {
        db.exec('DROP TABLE IF EXISTS bench_cas; CREATE TABLE bench_cas (id INTEGER PRIMARY KEY, version INTEGER NOT NULL)');
        const insert = db.prepare('INSERT INTO bench_cas (id, version) VALUES (?, 0)');
        db.transaction(() => {
          for (let i = 0; i < rows; i += 1) insert.run(i);
        })();
        stmt = db.prepare<[number, number]>('UPDATE bench_cas SET version = version + 1 WHERE id = ? AND version = ?');
      },
      async update(id, version) {
        return stmt!.run(id, version).changes === 1;
      },
    };
  }
  const pool = (store as PostgresStore).pool;
  return {
    async setup(rows) {
      await pool.query('DROP TABLE IF EXISTS bench_cas');
      await pool.query('CREATE TABLE bench_cas (id INTEGER PRIMARY KEY, version INTEGER NOT NULL)');
      await pool.query('INSERT INTO bench_cas SELECT g, 0 FROM generate_series(0, $1 - 1) g', [rows]);
    },
    async update(id, version) {
      // A named (server-side prepared) statement: the strongest baseline the driver offers.
      const r = await pool.query({
        name: 'bench_cas',
        text: 'UPDATE bench_cas SET version = version + 1 WHERE id = $1 AND version = $2',
        values: [id, version],
      });
      return r.rowCount === 1;
    },
  };
}

async function timed(ms: number, step: (i: number) => Promise<void>): Promise<number> {
  const start = performance.now();
  let n = 0;
  while (performance.now() - start < ms) await step(n++);
  return n / ((performance.now() - start) / 1000);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

async function benchStore(store: Store, durability: string, options: GatewayBenchOptions): Promise<StoreBenchResult> {
  const gateway = gatewayFor(store);
  const raw = rawCasFor(store);
  const K = 64;
  await raw.setup(K);
  const versions = new Array<number>(K).fill(0);
  const ids: ConversationId[] = [];
  for (let i = 0; i < K; i += 1) ids.push((await gateway.open()).id);
  const phase = new Array<number>(K).fill(0);
  const seen = new Map<ConversationId, Conversation>();
  const staff = 'staff_bench' as StaffId;

  // One gateway operation: the conversation cycles agent send → human claims → human send →
  // hand-back. `withBasis`: transitions pass the copy the previous command returned, as a console
  // or the harness does; without it every transition first reads the conversation.
  const gatewayOp = (withBasis: boolean) => async (i: number) => {
    const k = i % K;
    const id = ids[k]!;
    const p = phase[k]!;
    phase[k] = (p + 1) % 4;
    const basis = withBasis ? seen.get(id) : undefined;
    const remember = (r: CommandOutcome) => {
      if (r.ok) seen.set(id, r.conversation);
      return r.ok;
    };
    const ok =
      p === 0
        ? (await gateway.send(id, { type: 'agent', id: TEST_AGENT }, 'agent reply')).ok
        : p === 1
          ? remember(await gateway.claim(id, staff, basis))
          : p === 2
            ? (await gateway.send(id, { type: 'human', id: staff }, 'human reply')).ok
            : remember(await gateway.handBack(id, { staff, notes: null }, basis));
    if (!ok) throw new Error(`benchmark operation ${p} failed on ${id}`);
  };
  const rawOp = async (i: number) => {
    const k = i % K;
    if (!(await raw.update(k, versions[k]!))) throw new Error('raw compare-and-set lost unexpectedly');
    versions[k]! += 1;
  };

  const hot = gatewayOp(true);
  const cold = gatewayOp(false);
  // Warm up every path (prepared statements, connections, caches) before measuring.
  await timed(200, rawOp);
  await timed(200, hot);
  await timed(200, cold);
  const rounds: StoreBenchResult['rounds'] = [];
  for (let r = 0; r < options.rounds; r += 1) {
    const rawRate = await timed(options.roundMs, rawOp);
    const gatewayRate = await timed(options.roundMs, hot);
    const coldRate = await timed(options.roundMs, cold);
    rounds.push({
      gateway_ops_per_sec: Math.round(gatewayRate),
      gateway_with_read_ops_per_sec: Math.round(coldRate),
      raw_cas_per_sec: Math.round(rawRate),
    });
    options.progress(
      `${store.kind}: round ${r + 1}/${options.rounds}: gateway ${Math.round(gatewayRate)}/s (with a read per transition ${Math.round(coldRate)}/s), raw CAS ${Math.round(rawRate)}/s`,
    );
  }
  const gatewayRate = median(rounds.map((r) => r.gateway_ops_per_sec));
  const coldRate = median(rounds.map((r) => r.gateway_with_read_ops_per_sec));
  const rawRate = median(rounds.map((r) => r.raw_cas_per_sec));
  options.progress(`${store.kind}: ${options.raceInterleavings} race interleavings…`);
  const race = await runRaceInterleavings({ gateway, store, count: options.raceInterleavings, concurrency: 32, seed: 7 });
  return {
    gateway_ops_per_sec: gatewayRate,
    gateway_with_read_ops_per_sec: coldRate,
    raw_cas_per_sec: rawRate,
    // Each round measures both paths back to back, so the ratio is taken per round (paired) and
    // the median over rounds is reported: the machine's drift between rounds cancels out.
    ratio: Number(median(rounds.map((r) => r.gateway_ops_per_sec / r.raw_cas_per_sec)).toFixed(3)),
    ratio_with_read: Number(median(rounds.map((r) => r.gateway_with_read_ops_per_sec / r.raw_cas_per_sec)).toFixed(3)),
    rounds,
    durability,
    race,
  };
}

/**
 * `baton bench gateway`: the gateway's owner-checked send + CAS transition rate against a bare
 * single-row compare-and-set on the same database, measured in alternating rounds of one run,
 * plus the race counters. Starts its own throwaway PostgreSQL unless BATON_PG_URL is set.
 */
export async function benchGateway(options: GatewayBenchOptions) {
  const results: Partial<Record<'sqlite' | 'postgres', StoreBenchResult>> = {};
  for (const kind of options.stores) {
    if (kind === 'sqlite') {
      const dir = mkdtempSync(join(tmpdir(), 'baton-bench-'));
      const store = await openStore({ kind: 'sqlite', path: join(dir, 'bench.sqlite') });
      try {
        results.sqlite = await benchStore(store, 'WAL, synchronous=FULL (the default)', options);
      } finally {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      }
    } else {
      options.progress('postgres: starting a throwaway server…');
      const server = await startThrowawayPostgres();
      try {
        const store = await openStore({ kind: 'postgres', url: await server.createDatabase() });
        try {
          results.postgres = await benchStore(store, 'server defaults (fsync on, synchronous_commit on)', options);
        } finally {
          await store.close();
        }
      } finally {
        await server.stop();
      }
    }
  }
  const all = Object.values(results);
  return {
    benchmark: 'gateway',
    unit: 'operations per second; a gateway operation is one owner-checked send or one CAS transition',
    stores: results,
    double_replies: all.reduce((n, r) => n + r.race.double_replies, 0),
    lost_messages: all.reduce((n, r) => n + r.race.lost_messages, 0),
    goal: { min_ratio: 0.5, met: all.every((r) => r.ratio >= 0.5) },
    node: process.version,
    at: new Date().toISOString(),
  };
}
