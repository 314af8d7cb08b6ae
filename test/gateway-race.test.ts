import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ConversationId } from '../src/core/index.js';
import { openStore, type StoreConfig } from '../src/store/open-store.js';
import { gatewayFor } from '../src/testing/gateway-fixture.js';
import { auditConversations, runRaceInterleavings, type Acknowledged } from '../src/testing/gateway-race.js';
import { testPostgres } from './support/postgres.js';

const INTERLEAVINGS = 10_000;
/** A bound for a shared 2-core machine, where the PostgreSQL run alone takes about 90 s. */
const SLOW = 900_000;

async function storeConfig(kind: StoreConfig['kind']): Promise<StoreConfig> {
  if (kind === 'memory') return { kind };
  if (kind === 'sqlite') return { kind, path: join(mkdtempSync(join(tmpdir(), 'baton-race-')), 'race.sqlite'), synchronous: 'normal' };
  const server = await testPostgres();
  return { kind, url: await server.createDatabase(), poolSize: 16 };
}

const zeroViolations = { double_replies: 0, lost_messages: 0, version_violations: 0, replay_mismatches: 0, other_violations: 0 };

describe.each(['memory', 'sqlite', 'postgres'] as const)('agent reply vs human claim races on %s', (kind) => {
  it(
    `${INTERLEAVINGS} randomised interleavings: no double reply, no lost message, log replays`,
    async () => {
      const store = await openStore(await storeConfig(kind));
      try {
        const result = await runRaceInterleavings({
          gateway: gatewayFor(store),
          store,
          count: INTERLEAVINGS,
          concurrency: 64,
          seed: 20261130,
        });
        expect(result).toMatchObject({ interleavings: INTERLEAVINGS, conversations: INTERLEAVINGS, ...zeroViolations });
        // Both sides of the race happened: some late replies were delivered, many were suppressed.
        expect(result.suppressed).toBeGreaterThan(INTERLEAVINGS / 10);
        expect(result.delivered).toBeGreaterThan(INTERLEAVINGS);
      } finally {
        await store.close();
      }
    },
    SLOW,
  );
});

interface WorkerReport {
  acknowledged: Record<string, { inbound: string[]; delivered: string[] }>;
  operations: number;
  suppressed: number;
  delivered: number;
}

function runWorker(args: Record<string, unknown>): Promise<WorkerReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, 'workers', 'race-worker.ts'), JSON.stringify(args)],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as WorkerReport) : reject(new Error(`worker exited ${code}: ${err}`)),
    );
  });
}

describe.each(['sqlite', 'postgres'] as const)('several OS processes writing the same conversations on %s', (kind) => {
  it(
    '4 processes × 2,500 racing operations on 200 shared conversations: every invariant holds',
    async () => {
      const config = await storeConfig(kind);
      const store = await openStore(config);
      try {
        const gateway = gatewayFor(store);
        const ids: ConversationId[] = [];
        for (let i = 0; i < 200; i += 1) ids.push((await gateway.open()).id);
        const workerStore: StoreConfig = config.kind === 'postgres' ? { ...config, poolSize: 8 } : config;
        const reports = await Promise.all(
          [1, 2, 3, 4].map((worker) => runWorker({ store: workerStore, conversations: ids, operations: 2_500, seed: worker, worker })),
        );
        const acknowledged = new Map<string, Acknowledged>();
        for (const report of reports) {
          for (const [id, ack] of Object.entries(report.acknowledged)) {
            const into = acknowledged.get(id) ?? { inbound: new Set(), delivered: new Set() };
            ack.inbound.forEach((m) => into.inbound.add(m));
            ack.delivered.forEach((m) => into.delivered.add(m));
            acknowledged.set(id, into);
          }
        }
        const counters = await auditConversations(store, ids, acknowledged);
        expect(counters).toMatchObject({ conversations: 200, ...zeroViolations });
        expect(reports.reduce((n, r) => n + r.operations, 0)).toBe(10_000);
        // The processes really competed: replies were both delivered and suppressed.
        expect(counters.suppressed).toBeGreaterThan(100);
        expect(counters.delivered).toBeGreaterThan(100);
        expect(counters.delivered).toBe(reports.reduce((n, r) => n + r.delivered, 0));
      } finally {
        await store.close();
      }
    },
    SLOW,
  );
});
