import { describe, expect, it } from 'vitest';
import { openStore } from '../src/store/open-store.js';
import type { PostgresStore } from '../src/store/postgres-store.js';
import { testPostgres } from './support/postgres.js';

describe('PostgreSQL connection options', () => {
  it('sizes the pool and cancels a statement that runs past its timeout', async () => {
    const server = await testPostgres();
    const url = await server.createDatabase();
    const store = (await openStore({ kind: 'postgres', url, poolSize: 3, statementTimeoutMs: 200 })) as PostgresStore;
    try {
      expect(store.pool.options.max).toBe(3);
      const { rows } = await store.pool.query<{ statement_timeout: string }>('SHOW statement_timeout');
      expect(rows[0]!.statement_timeout).toBe('200ms');
      await expect(store.pool.query('SELECT pg_sleep(5)')).rejects.toThrow(/statement timeout/);
    } finally {
      await store.close();
    }
    const defaults = (await openStore({ kind: 'postgres', url })) as PostgresStore;
    try {
      expect((await defaults.pool.query<{ statement_timeout: string }>('SHOW statement_timeout')).rows[0]!.statement_timeout).toBe('30s');
    } finally {
      await defaults.close();
    }
  });
});
