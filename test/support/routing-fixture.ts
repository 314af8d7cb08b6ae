/**
 * The router's tables on a fresh database of either kind, for tests that drive `RoutingStore`
 * directly: two queues (`queue_billing`, `queue_overflow`), weights chat 1 and callback 2, and
 * readable ordered ids so that both databases can be compared fact by fact.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConversationId } from '../../src/core/index.js';
import { RoutingQueueSchema, type RouterRequest } from '../../src/core/router/index.js';
import { openStore, routingStoreFor, type StoreConfig } from '../../src/store/open-store.js';
import { PostgresStore } from '../../src/store/postgres-store.js';
import type { RoutingStore } from '../../src/store/routing-store.js';
import type { SqliteStore } from '../../src/store/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { gatewayFor } from '../../src/testing/gateway-fixture.js';
import { testPostgres } from './postgres.js';

export const billing = RoutingQueueSchema.parse({ id: 'queue_billing', skills: [], reservationTimeoutSeconds: 600 });
export const overflow = RoutingQueueSchema.parse({ id: 'queue_overflow', skills: [], reservationTimeoutSeconds: 600 });

export interface RoutingFixture {
  store: Store;
  routing: RoutingStore;
  open(): Promise<ConversationId>;
  query(sql: string): Promise<Array<Record<string, unknown>>>;
  close(): Promise<void>;
}

export async function routingFixture(kind: 'sqlite' | 'postgres'): Promise<RoutingFixture> {
  let config: StoreConfig;
  let cleanup = () => {};
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'baton-routing-'));
    config = { kind: 'sqlite', path: join(dir, 'baton.sqlite') };
    cleanup = () => rmSync(dir, { recursive: true, force: true });
  } else {
    config = { kind: 'postgres', url: await (await testPostgres()).createDatabase(), poolSize: 4 };
  }
  const store = await openStore(config);
  const gateway = gatewayFor(store);
  let n = 0;
  const routing = routingStoreFor(
    store,
    {
      queues: new Map([
        [billing.id, billing],
        [overflow.id, overflow],
      ]),
      weights: { chat: 1, callback: 2 },
    },
    // Readable, ordered ids, so that both databases can be compared fact by fact.
    (k) => `${k === 'request' ? 'rq' : 'res'}_${String((n += 1)).padStart(4, '0')}`,
  );
  return {
    store,
    routing,
    open: async () => (await gateway.open()).id,
    query: async (sql) =>
      store instanceof PostgresStore
        ? (await store.pool.query(sql)).rows
        : ((store as SqliteStore).db.prepare(sql).all() as Array<Record<string, unknown>>),
    close: async () => {
      await store.close();
      cleanup();
    },
  };
}

/** A chat request in `queue_billing` (or along `targets`). */
export const request = (skills: string[], priority: number, targets?: RouterRequest['targets']): Omit<RouterRequest, 'id'> => ({
  skills,
  channel: 'chat',
  priority,
  safety: false,
  targets: targets ?? [{ type: 'queue', queue: billing.id, timeoutSeconds: 3600 }],
});
