import { pino } from 'pino';
import { openStore, type StoreConfig } from '../store/open-store.js';
import { loadServeConfig } from './serve-config.js';
import { composeServeRuntime, llmEndpointFromEnv } from './serve-runtime.js';
import { startRouterTimers } from '../runtime/router/router-timers.js';
import { jobQueueFor } from '../runtime/jobs/index.js';

/** Resolved options of `baton serve`. */
export interface ServeOptions {
  store: StoreConfig;
  host: string;
  port: number;
  /** The configuration file, or null for the defaults. */
  configPath: string | null;
  /** `--domain`, over the configuration's. */
  domain?: 'billing' | 'airline' | 'retail';
  /** `--agent rule|llm`: the default agent's policy when the configuration lists no agents. */
  agent: 'rule' | 'llm';
  /** The lab's runs folder the console lists. */
  runsDir?: string;
  /** `--turn-lease-ms`: how long a turn lease lasts unless renewed (on PostgreSQL; default 30 s). */
  turnLeaseMs?: number;
}

/** Describes where the store lives, for the start-up line. */
export function describeStore(store: StoreConfig): string {
  if (store.kind === 'sqlite') return `SQLite at ${store.path}`;
  if (store.kind === 'postgres') return `PostgreSQL at ${new URL(store.url).host}`;
  return 'memory (nothing is kept after exit)';
}

const isLoopback = (host: string) => host === 'localhost' || host === '::1' || /^127\./.test(host);

/**
 * Opens the store, composes the runtime, answers what a crash left unanswered, and serves until
 * SIGINT or SIGTERM; then lets running turns finish and closes everything cleanly.
 */
export async function serve(options: ServeOptions): Promise<void> {
  const loaded = loadServeConfig(options.configPath);
  const config = options.domain ? { ...loaded, domain: options.domain } : loaded;
  const log = pino({ level: process.env['LOG_LEVEL'] ?? 'info' }, pino.destination(2));
  const store = await openStore(options.store);
  const bindHost = options.host.replace(/^\[|\]$/g, '');
  const runtime = await composeServeRuntime({
    store,
    config,
    agentPolicy: options.agent,
    llm: llmEndpointFromEnv(),
    extraHosts: isLoopback(bindHost) || bindHost === '0.0.0.0' || bindHost === '::' ? [] : [bindHost],
    metricsToken: process.env['BATON_METRICS_TOKEN'] || null,
    runsDir: options.runsDir ?? 'runs',
    ...(options.turnLeaseMs ? { turnLeaseMs: options.turnLeaseMs } : {}),
    logger: { level: process.env['LOG_LEVEL'] ?? 'warn' },
    onTurnError: (conversationId, error) => log.error({ conversationId, err: error }, 'an agent turn failed'),
  }).catch(async (error: unknown) => {
    await store.close();
    throw error;
  });
  const { app, service } = runtime;
  try {
    await app.listen({ host: options.host, port: options.port });
  } catch (error) {
    await store.close();
    throw new Error(`could not listen on ${options.host}:${options.port}: ${(error as Error).message}. Choose another --port.`);
  }
  const recovered = await service.recover();
  if (recovered.turns + recovered.handoffs > 0) log.info(recovered, 'recovered work a previous process left');
  // The router's timers are durable jobs on the store's own job queue (a table in the SQLite file,
  // graphile-worker on PostgreSQL): each deadline fires once, in whichever process runs its job;
  // what came due while no process ran fires at start. Each job is one sweep: two at a time, and
  // few connections beside the store's pool.
  const jobs = await jobQueueFor(store, {
    concurrency: 2,
    poolSize: 4,
    onEvent: (event) => log.warn({ event: event.type, error: 'error' in event ? event.error : undefined }, 'a router timer job'),
  });
  const timers = await startRouterTimers(runtime.router, jobs, {
    clock: { now: Date.now },
    onError: (error) => log.error({ err: error }, 'scheduling a router timer failed'),
  });
  // Channels: deliver what the log says was sent and a previous process did not deliver.
  runtime.channels?.onDeliveryError((conversationId, error) => log.error({ conversationId, err: error }, 'a channel delivery failed'));
  await runtime.channels?.recover();
  // The signal handlers are in place before the process says it serves: a SIGTERM sent the moment
  // a supervisor reads "serving on" (a rolling restart's next step) drains, instead of killing.
  const stopped = new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const agents = [...runtime.agents.keys()].join(', ');
  process.stderr.write(
    `baton: serving on http://${options.host}:${port} — store: ${describeStore(options.store)}; domain: ${runtime.domain.name}; agents: ${agents}\n` +
      `baton: try  curl -s -XPOST http://${options.host}:${port}/v1/conversations   (README: "Run it for your team")\n` +
      `baton: staff console at http://${options.host}:${port}/console/\n` +
      `baton: web chat at http://${options.host}:${port}/chat/ (embed: <script src="http://${options.host}:${port}/chat/widget.js" async></script>)\n` +
      'baton: press Ctrl-C to stop\n',
  );
  if (!isLoopback(bindHost)) {
    process.stderr.write(
      `baton: warning: listening on ${options.host}, which other machines can reach. Serve behind HTTPS, set "secureCookies" and "allowedHosts" in baton.config.json, and set BATON_METRICS_TOKEN.\n`,
    );
  }
  await stopped;
  process.stderr.write('baton: stopping…\n');
  await timers.stop();
  service.stopWaiting();
  await app.close();
  await service.idle();
  await runtime.channels?.close();
  await runtime.notifications?.close();
  await jobs.close();
  await store.close();
}
