import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { newToken, tokenHash } from '../src/server/auth/secrets.js';
import { directoryFor } from '../src/store/open-store.js';
import { PostgresStore } from '../src/store/postgres-store.js';
import { SqliteStore } from '../src/store/sqlite-store.js';
import type { Store } from '../src/store/store.js';
import { gatewayFor } from '../src/testing/gateway-fixture.js';
import { testPostgres } from './support/postgres.js';

/** What every store's directory does with customer token hashes, remembered or not. */
async function tokenLookups(store: Store) {
  const gateway = gatewayFor(store);
  const directory = directoryFor(store);
  const c = await gateway.open();
  const other = await gateway.open();
  // Not set yet: not found, and the miss is not remembered.
  expect(await directory.customerTokenHash(c.id)).toBeNull();
  const hash = tokenHash(newToken('ct'));
  await directory.setCustomerToken(c.id, hash);
  expect(await directory.customerTokenHash(c.id)).toBe(hash);
  expect(await directory.customerTokenHash(c.id)).toBe(hash);
  // Another process's directory on the same database sees it, and a conversation without one has none.
  expect(await directoryFor(store).customerTokenHash(c.id)).toBe(hash);
  expect(await directory.customerTokenHash(other.id)).toBeNull();
  return { directory, c, hash };
}

describe('customer token hashes', () => {
  it('on SQLite: a miss is not remembered, a hash once found is the answer', async () => {
    const store = new SqliteStore({ path: join(mkdtempSync(join(tmpdir(), 'baton-tokens-')), 'baton.sqlite') });
    try {
      await tokenLookups(store);
    } finally {
      await store.close();
    }
  });

  it('on PostgreSQL: the same, and a hash once found is answered without asking the database again', async () => {
    const server = await testPostgres();
    const store = await PostgresStore.open({ url: await server.createDatabase() });
    try {
      const { directory, c, hash } = await tokenLookups(store);
      const queries = vi.spyOn(store.pool, 'query');
      expect(await directory.customerTokenHash(c.id)).toBe(hash);
      expect(queries).not.toHaveBeenCalled();
      queries.mockRestore();
    } finally {
      await store.close();
    }
  });
});
