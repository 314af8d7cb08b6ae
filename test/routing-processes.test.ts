/**
 * Four router processes on one database (PostgreSQL, and a shared SQLite file), 2,000
 * conversations: while they race, every sampled snapshot of the router's tables has no person
 * over capacity and each person's count equal to what they hold; at the end every reservation was
 * resolved exactly once (accepted, declined or timed out), by exactly one process.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ConversationId, StaffId } from '../src/core/index.js';
import { RoutingQueueSchema } from '../src/core/router/index.js';
import { openStore, routingStoreFor, type StoreConfig } from '../src/store/open-store.js';
import type { RoutingFact } from '../src/store/routing-store.js';
import { PostgresStore } from '../src/store/postgres-store.js';
import type { SqliteStore } from '../src/store/sqlite-store.js';
import { gatewayFor } from '../src/testing/gateway-fixture.js';
import { testPostgres } from './support/postgres.js';

const CONVERSATIONS = 2_000;
const PROCESSES = 4;

interface Report {
  resolved: Array<{ reservation: string; how: string }>;
  submitted: number;
}

function runWorker(args: Record<string, unknown>): Promise<Report> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, 'workers', 'routing-worker.ts'), JSON.stringify(args)],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as Report) : reject(new Error(`worker exited ${code}: ${err}`))));
  });
}

async function storeConfig(kind: 'sqlite' | 'postgres'): Promise<{ config: StoreConfig; cleanup: () => void }> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'baton-routing-'));
    // Four processes and a sampler take turns on one write lock on a busy machine: a generous bound.
    return {
      config: { kind: 'sqlite', path: join(dir, 'baton.sqlite'), busyTimeoutMs: 60_000 },
      cleanup: () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const server = await testPostgres();
  return { config: { kind: 'postgres', url: await server.createDatabase(), poolSize: 4 }, cleanup: () => {} };
}

type Snapshot = Array<{ staff_id: string; used: number; capacity: number; pending: number; assigned: number }>;
const SNAPSHOT = `SELECT s.staff_id, s.used, s.capacity,
    (SELECT coalesce(sum(r.weight), 0) FROM routing_reservations r WHERE r.staff_id = s.staff_id AND r.status = 'pending') AS pending,
    (SELECT count(*) FROM routing_requests q WHERE q.staff_id = s.staff_id AND q.status = 'assigned') AS assigned
  FROM routing_staff s`;

describe.each(['postgres', 'sqlite'] as const)('four router processes on one %s database', (kind) => {
  it(`${CONVERSATIONS} conversations: no capacity violation in any snapshot, every reservation resolved exactly once`, async () => {
    const { config, cleanup } = await storeConfig(kind);
    const store = await openStore(config);
    try {
      const gateway = gatewayFor(store);
      const ids: ConversationId[] = [];
      for (let i = 0; i < CONVERSATIONS; i += 1) ids.push((await gateway.open()).id);
      const queue = RoutingQueueSchema.parse({ id: 'queue_billing', skills: [], reservationTimeoutSeconds: 1 });
      const routing = routingStoreFor(
        store,
        { queues: new Map([[queue.id, queue]]), weights: { chat: 1, callback: 2 } },
        (k) => `${k === 'request' ? 'rq' : 'res'}_${randomBytes(12).toString('hex')}`,
      );
      const staff = Array.from({ length: 20 }, (_, i) => ({ id: `staff_router${i}` as StaffId, capacity: 1 + (i % 3) }));
      for (const s of staff)
        await routing.setPresence({ staff: s.id, skills: [], capacity: s.capacity, presence: 'available' }, Date.now());

      const snapshot = async (): Promise<Snapshot> => {
        if (store instanceof PostgresStore)
          return (await store.pool.query(SNAPSHOT)).rows.map((r) => ({ ...r, pending: Number(r.pending), assigned: Number(r.assigned) }));
        return (store as SqliteStore).db.prepare(SNAPSHOT).all() as Snapshot;
      };
      const violations: string[] = [];
      let samples = 0;
      let racing = true;
      const sampling = (async () => {
        while (racing) {
          for (const s of await snapshot()) {
            if (s.used > s.capacity) violations.push(`${s.staff_id} holds ${s.used} of ${s.capacity}`);
            if (s.used !== s.pending + s.assigned)
              violations.push(`${s.staff_id} counts ${s.used} but holds ${s.pending} offers + ${s.assigned} assigned`);
          }
          samples += 1;
          await new Promise((r) => setImmediate(r));
        }
      })();
      const slice = CONVERSATIONS / PROCESSES;
      const reports = await Promise.all(
        Array.from({ length: PROCESSES }, (_, w) =>
          runWorker({ store: config, conversations: ids.slice(w * slice, (w + 1) * slice), staff, operations: 2_600, seed: w + 1 }),
        ),
      ).finally(() => {
        racing = false;
      });
      await sampling;

      // The shift ends (nobody takes new offers), and the offers left pending lapse in a last sweep.
      for (const s of staff) await routing.setPresence({ staff: s.id, skills: [], capacity: s.capacity, presence: 'away' }, Date.now());
      const last: RoutingFact[] = await routing.sweep(Date.now() + 3_600_000);
      const resolutions = [
        ...reports.flatMap((r) => r.resolved),
        ...last.flatMap((f) => (f.kind === 'timed_out' ? [{ reservation: f.reservation, how: 'timed_out' }] : [])),
      ];
      const rows = (
        store instanceof PostgresStore
          ? (await store.pool.query('SELECT id, status FROM routing_reservations')).rows
          : (store as SqliteStore).db.prepare('SELECT id, status FROM routing_reservations').all()
      ) as Array<{ id: string; status: string }>;

      expect(violations).toEqual([]);
      expect(samples).toBeGreaterThan(10);
      expect(reports.reduce((n, r) => n + r.submitted, 0)).toBeGreaterThan(CONVERSATIONS * 0.9);
      // The processes really competed: thousands of offers, all three endings seen.
      expect(rows.length).toBeGreaterThan(1_000);
      const byId = new Map(rows.map((r) => [r.id, r.status]));
      const counted = new Map<string, number>();
      for (const r of resolutions) counted.set(r.reservation, (counted.get(r.reservation) ?? 0) + 1);
      expect([...counted.values()].filter((n) => n !== 1)).toEqual([]);
      expect(rows.filter((r) => !counted.has(r.id))).toEqual([]);
      expect(resolutions.filter((r) => byId.get(r.reservation) !== r.how)).toEqual([]);
      expect(new Set(resolutions.map((r) => r.how))).toEqual(new Set(['accepted', 'declined', 'timed_out']));
      // And the final state adds up.
      const final = await snapshot();
      expect(final.filter((s) => s.used !== s.pending + s.assigned || s.used > s.capacity)).toEqual([]);
    } finally {
      await store.close();
      cleanup();
    }
  }, 600_000);
});
