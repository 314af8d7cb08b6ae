import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { MemoryStore } from './memory-store.js';
import { PostgresStore } from './postgres-store.js';
import { SqliteStore } from './sqlite-store.js';
import type { Directory } from './directory.js';
import { MemoryDirectory } from './memory-directory.js';
import { PostgresDirectory, SqliteDirectory } from './sql-directory.js';
import type { Store } from './store.js';
import Database from 'better-sqlite3';
import { routingTablesSqlite } from './migrations.js';
import { RoutingStore, type RoutingSetup } from './routing-store.js';
import { postgresRunner, sqliteRunner } from './routing-sql.js';
import { localTurnLeases, sqlTurnLeases, type TurnLeases } from './turn-leases.js';

export type StoreKind = Store['kind'];
export const STORE_KINDS: readonly StoreKind[] = ['memory', 'sqlite', 'postgres'];

/** Where a store lives. */
export type StoreConfig =
  | { kind: 'memory' }
  | { kind: 'sqlite'; path: string; synchronous?: 'full' | 'normal'; busyTimeoutMs?: number }
  | { kind: 'postgres'; url: string; poolSize?: number; statementTimeoutMs?: number };

/** Opens (and migrates) the configured store. */
export async function openStore(config: StoreConfig): Promise<Store> {
  switch (config.kind) {
    case 'memory':
      return new MemoryStore();
    case 'sqlite':
      if (config.path !== ':memory:') mkdirSync(dirname(config.path), { recursive: true });
      return new SqliteStore({
        path: config.path,
        ...(config.synchronous ? { synchronous: config.synchronous } : {}),
        ...(config.busyTimeoutMs === undefined ? {} : { busyTimeoutMs: config.busyTimeoutMs }),
      });
    case 'postgres':
      return PostgresStore.open({
        url: config.url,
        ...(config.poolSize ? { poolSize: config.poolSize } : {}),
        ...(config.statementTimeoutMs !== undefined ? { statementTimeoutMs: config.statementTimeoutMs } : {}),
      });
  }
}

/** The Directory kept beside a store's conversations, in the same database. */
export function directoryFor(store: Store): Directory {
  if (store instanceof SqliteStore) return new SqliteDirectory(store.db);
  if (store instanceof PostgresStore) return new PostgresDirectory(store.pool);
  return new MemoryDirectory();
}

/**
 * The router's state kept beside a store's conversations, in the same database (so every process
 * on it shares one router). A memory store gets a private in-memory SQLite database for it.
 */
export function routingStoreFor(store: Store, setup: RoutingSetup, newId: (kind: 'request' | 'reservation') => string): RoutingStore {
  if (store instanceof SqliteStore) return new RoutingStore(sqliteRunner(store.db, { busyTimeoutMs: store.busyTimeoutMs }), setup, newId);
  if (store instanceof PostgresStore) return new RoutingStore(postgresRunner(store.pool), setup, newId);
  const db = new Database(':memory:');
  db.pragma('foreign_keys = OFF'); // the conversations live in the memory store, not here
  db.exec(routingTablesSqlite());
  return new RoutingStore(sqliteRunner(db, { owned: true }), setup, newId);
}

/** The turn leases beside a store's conversations (every process on the database shares them); a memory store needs none. */
export function turnLeasesFor(store: Store): TurnLeases {
  if (store instanceof SqliteStore) return sqlTurnLeases(sqliteRunner(store.db, { busyTimeoutMs: store.busyTimeoutMs }));
  if (store instanceof PostgresStore) return sqlTurnLeases(postgresRunner(store.pool));
  return localTurnLeases;
}
