import { inject } from 'vitest';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../../src/testing/throwaway-postgres.js';

/**
 * The connection string of the test run's PostgreSQL server, started by the first test file that
 * asks (test/global-setup.ts). A file that calls this needs PostgreSQL: when none can be had, it
 * fails with the reason, never skips.
 */
export async function testPostgresUrl(): Promise<string> {
  const broker = inject('pgBroker');
  const res = await fetch(`${broker.url}/postgres`, { method: 'POST', headers: { authorization: `Bearer ${broker.token}` } });
  const body = (await res.json()) as { url?: string; error?: string };
  if (!res.ok || !body.url) {
    throw new Error(
      `this test needs PostgreSQL, and none could be started: ${body.error ?? res.statusText}. ` +
        'Set BATON_PG_URL to a server it may create databases on, or run the test files that do not need one.',
    );
  }
  return body.url;
}

/** The test run's PostgreSQL server, to make fresh databases on (`createDatabase`). */
export async function testPostgres(): Promise<ThrowawayPostgres> {
  return startThrowawayPostgres({ env: { BATON_PG_URL: await testPostgresUrl() } });
}
