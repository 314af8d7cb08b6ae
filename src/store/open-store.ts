import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { MemoryStore } from './memory-store.js';
import { PostgresStore } from './postgres-store.js';
import { SqliteStore } from './sqlite-store.js';
import type { Directory } from './directory.js';
import { MemoryDirectory } from './memory-directory.js';
import { PostgresDirectory, SqliteDirectory } from './sql-directory.js';
import type { Store } from './store.js';

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
