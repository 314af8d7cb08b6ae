import { createIdGenerator, DEFAULT_OWNERSHIP_POLICY, type AgentId } from '../core/index.js';
import { createGateway } from '../runtime/gateway.js';
import { buildHttpApp } from '../server/http-app.js';
import { openStore, type StoreConfig } from '../store/open-store.js';

/** Resolved options of `baton serve`. */
export interface ServeOptions {
  store: StoreConfig;
  host: string;
  port: number;
  agent: AgentId;
}

/** Describes where the store lives, for the start-up line. */
export function describeStore(store: StoreConfig): string {
  if (store.kind === 'sqlite') return `SQLite at ${store.path}`;
  if (store.kind === 'postgres') return `PostgreSQL at ${new URL(store.url).host}`;
  return 'memory (nothing is kept after exit)';
}

/** Opens the store and serves the HTTP API until SIGINT or SIGTERM, then closes both cleanly. */
export async function serve(options: ServeOptions): Promise<void> {
  const store = await openStore(options.store);
  const clock = { now: Date.now };
  const gateway = createGateway({
    store,
    clock,
    ids: createIdGenerator({ now: clock.now, random: Math.random }),
    policy: DEFAULT_OWNERSHIP_POLICY,
    defaultAgent: options.agent,
  });
  const app = buildHttpApp({ gateway, storeKind: store.kind, logger: { level: process.env['LOG_LEVEL'] ?? 'warn' } });
  try {
    await app.listen({ host: options.host, port: options.port });
  } catch (error) {
    await store.close();
    throw new Error(`could not listen on ${options.host}:${options.port}: ${(error as Error).message}. Choose another --port.`);
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  process.stderr.write(
    `baton: serving on http://${options.host}:${port} — store: ${describeStore(options.store)}\n` +
      `baton: try  curl -s -XPOST http://${options.host}:${port}/v1/conversations\n` +
      'baton: press Ctrl-C to stop\n',
  );
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  process.stderr.write('baton: stopping…\n');
  await app.close();
  await store.close();
}
