import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../src/testing/throwaway-postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * Where a test file asks for the run's PostgreSQL server (test/support/postgres.ts): a loopback
     * address and the run's token. The server is started by the first file that asks, never for a
     * run whose files need none.
     */
    pgBroker: { url: string; token: string };
  }
}

/** A server that answers SELECT 1, or why not. */
async function reachable(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * PostgreSQL on demand for the whole run: a loopback HTTP endpoint that starts one real server
 * (throwaway unless BATON_PG_URL is set) the first time a test file asks, and answers every later
 * ask with the same one. A run of files that need no PostgreSQL never starts it, and passes where
 * none can run; a file that needs it and cannot have it is told why, and fails.
 */
export default async function setup(project: TestProject) {
  const token = randomBytes(24).toString('base64url');
  let server: Promise<ThrowawayPostgres> | null = null;
  const start = (): Promise<ThrowawayPostgres> => {
    const given = process.env['BATON_PG_URL'];
    return given
      ? reachable(given).then(
          () => startThrowawayPostgres({ env: { BATON_PG_URL: given } }),
          (error: Error) => {
            throw new Error(`the PostgreSQL server at BATON_PG_URL does not answer (${error.message})`, { cause: error });
          },
        )
      : startThrowawayPostgres({ flags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off'] });
  };
  const answer = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const broker = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.headers.authorization !== `Bearer ${token}`) return answer(res, 401, { error: 'not this run' });
    if (req.method !== 'POST' || req.url !== '/postgres') return answer(res, 404, { error: 'POST /postgres only' });
    server ??= start();
    server.then(
      (s) => answer(res, 200, { url: s.url }),
      (error: Error) => answer(res, 503, { error: error.message }),
    );
  });
  await new Promise<void>((resolve) => broker.listen(0, '127.0.0.1', resolve));
  const { port } = broker.address() as AddressInfo;
  project.provide('pgBroker', { url: `http://127.0.0.1:${port}`, token });
  return async () => {
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    const started = await server?.catch(() => null);
    await started?.stop();
  };
}
