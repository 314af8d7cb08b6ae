/**
 * `baton bench console`: events per second pushed to N connected consoles over the staff stream,
 * and the delay from an event being in the log (its write committed) to its arrival in a console,
 * beside the same run's raw WebSocket broadcast (a bare `ws` server sending each event to every
 * client: no cursor, no log read), which stores each event the same way first, so that both pay
 * the same commit; and, for scale, the bare broadcast without any store. The consoles run on a worker thread. The events are customer
 * messages to a conversation a person owns (so no agent turn adds entries), each one a store
 * write through the runtime service, which wakes the followers, each in its own turn of the event
 * loop as a request would be; the baseline broadcasts each event in its own turn too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { WebSocketServer } from 'ws';
import type { ConversationId, StaffId } from '../core/index.js';
import { noRedaction } from '../runtime/service/redactor.js';
import { addStaff } from '../server/auth/staff-accounts.js';
import { openStore } from '../store/open-store.js';
import { scriptedPolicy } from '../testing/scripted-policy.js';
import type { ConsoleClientJob, ConsoleClientMessage } from './bench-console-client.js';
import { ServeConfigSchema } from './serve-config.js';
import { composeServeRuntime } from './serve-runtime.js';

export interface BenchConsoleOptions {
  consoles: number;
  /** Events written per round. */
  events: number;
  rounds: number;
  progress?: (line: string) => void;
}

interface Figures {
  eventsPerSecond: number;
  delayMs: { p50: number; p99: number; max: number };
}

const now = () => performance.timeOrigin + performance.now();
const quantile = (sorted: Float64Array | number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (x: number, digits = 2) => Number(x.toFixed(digits));

/** Starts the consoles; resolves `ready` once all follow, and `done` with their arrival times. */
function consolesOn(job: ConsoleClientJob) {
  const worker = new Worker(new URL('./bench-console-client.js', import.meta.url), { workerData: job });
  let onReady!: () => void;
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  const done = new Promise<{ arrivals: Float64Array; duplicates: number }>((resolve, reject) => {
    worker.on('message', (m: ConsoleClientMessage) => (m.type === 'ready' ? onReady() : resolve(m)));
    worker.on('error', reject);
  });
  return { ready, done: done.finally(() => void worker.terminate()) };
}

/** Rate and delays from the write times (one per event) and every console's arrival times. */
function figures(writes: number[], started: number, arrivals: Float64Array, consoles: number): Figures {
  const count = writes.length;
  const delays = new Float64Array(consoles * count);
  let last = 0;
  for (let c = 0; c < consoles; c += 1)
    for (let i = 0; i < count; i += 1) {
      const at = arrivals[c * count + i]!;
      if (Number.isNaN(at)) throw new Error(`console ${c} never received event ${i + 1}`);
      delays[c * count + i] = Math.max(0, at - writes[i]!);
      last = Math.max(last, at);
    }
  delays.sort();
  return {
    eventsPerSecond: Math.round((consoles * count) / ((last - started) / 1000)),
    delayMs: { p50: round(quantile(delays, 0.5)), p99: round(quantile(delays, 0.99)), max: round(delays[delays.length - 1]!) },
  };
}

/**
 * A bare WebSocket server that broadcasts each event to every client (`ws`, no cursor, no log
 * read, no bookkeeping). With `write`, each event is first stored exactly as the stream's are, so
 * both sides pay the same commit and the ratio measures what the stream adds to a broadcast.
 */
async function broadcast(options: BenchConsoleOptions, payload: string, write: ((i: number) => Promise<void>) | null): Promise<Figures> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as { port: number };
  const consoles = consolesOn({
    mode: 'raw',
    url: `ws://127.0.0.1:${port}`,
    headers: {},
    consoles: options.consoles,
    count: options.events,
    after: 0,
  });
  await consoles.ready;
  const writes: number[] = [];
  const started = now();
  for (let i = 1; i <= options.events; i += 1) {
    await nextTurn();
    if (write) await write(i);
    writes.push(now());
    const text = `{"seq":${i},"event":${payload}}`;
    for (const client of server.clients) client.send(text);
  }
  const { arrivals } = await consoles.done;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return figures(writes, started, arrivals, options.consoles);
}

/** One round on a fresh composed `baton serve` runtime on SQLite: the staff stream, then the two broadcasts. */
async function oneRound(options: BenchConsoleOptions) {
  const folder = mkdtempSync(join(tmpdir(), 'baton-bench-console-'));
  const store = await openStore({ kind: 'sqlite', path: join(folder, 'b.sqlite') });
  const handoff = scriptedPolicy(
    [{ toolCalls: [{ name: 'handoff', arguments: { target: 'queue_billing', reason: 'customer_request' } }] }],
    {
      whenExhausted: 'repeat_last',
    },
  );
  const runtime = await composeServeRuntime({
    store,
    config: ServeConfigSchema.parse({}),
    policyOverride: () => handoff,
    redact: noRedaction,
  });
  try {
    const base = await runtime.app.listen({ port: 0, host: '127.0.0.1' });
    const password = 'benchmark password 1';
    const added = await addStaff(
      runtime.directory,
      { email: 'bench@example.test', role: 'agent', skills: ['billing'], password },
      { now: Date.now },
    );
    if (!added.ok) throw new Error(added.message);
    const login = await fetch(`${base}/v1/staff/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench@example.test', password }),
    });
    const { token } = (await login.json()) as { token: string };
    const service = runtime.service;
    // Conversations a person owns: the customer's messages are stored and wake the followers, and no agent turn runs.
    const owned = async (): Promise<ConversationId> => {
      const id = (await service.open()).id as ConversationId;
      await service.handleCustomerMessage(id, { text: 'a person, please', idempotencyKey: 'k0' });
      await service.idle();
      const claimed = await service.claim(id, added.profile.id as StaffId, (await store.getConversation(id))!.version);
      if (!claimed.ok) throw new Error('the benchmark could not claim its conversation');
      return id;
    };
    const write = (id: ConversationId) => async (i: number) => {
      const received = await service.receive(id, { text: `message ${i} of the benchmark`, idempotencyKey: `b${i}` });
      if (!received.ok || received.duplicate) throw new Error('the benchmark message was not stored');
    };

    const id = await owned();
    const after = (await store.listEvents(id)).at(-1)!.seq;
    const consoles = consolesOn({
      mode: 'stream',
      url: `${base.replace('http:', 'ws:')}/v1/staff/stream`,
      headers: { authorization: `Bearer ${token}` },
      consoles: options.consoles,
      count: options.events,
      conversation: id,
      after,
    });
    await consoles.ready;
    const writes: number[] = [];
    const started = now();
    const writeStream = write(id);
    for (let i = 1; i <= options.events; i += 1) {
      // Each event is its own turn of the event loop, as a customer's request is (SQLite's calls
      // are synchronous: without this the writer would hold the loop and no console be served).
      await nextTurn();
      await writeStream(i);
      writes.push(now());
    }
    const { arrivals, duplicates } = await consoles.done;
    const stream = figures(writes, started, arrivals, options.consoles);
    const payload = JSON.stringify((await store.listEvents(id, { afterSeq: after, limit: 1 }))[0]);
    const stored = await broadcast(options, payload, write(await owned()));
    const bare = await broadcast(options, payload, null);
    return { stream, broadcast: stored, broadcastWithoutStore: bare, duplicates };
  } finally {
    await runtime.app.close();
    await runtime.service.idle();
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

export async function benchConsole(options: BenchConsoleOptions) {
  const rounds: Array<{ stream: Figures; broadcast: Figures; broadcastWithoutStore: Figures; ratio: number }> = [];
  let duplicates = 0;
  for (let r = 0; r < options.rounds; r += 1) {
    const { duplicates: d, ...figures } = await oneRound(options);
    duplicates += d;
    rounds.push({ ...figures, ratio: round(figures.stream.eventsPerSecond / figures.broadcast.eventsPerSecond, 3) });
    options.progress?.(
      `round ${r + 1}: stream ${figures.stream.eventsPerSecond} events/s (p99 ${figures.stream.delayMs.p99} ms), ` +
        `broadcast ${figures.broadcast.eventsPerSecond} (p99 ${figures.broadcast.delayMs.p99} ms), without the store ${figures.broadcastWithoutStore.eventsPerSecond}`,
    );
  }
  const ratio = median(rounds.map((r) => r.ratio));
  const p99 = median(rounds.map((r) => r.stream.delayMs.p99));
  return {
    bench: 'console',
    consoles: options.consoles,
    events: options.events,
    rounds,
    stream_events_per_sec: median(rounds.map((r) => r.stream.eventsPerSecond)),
    broadcast_events_per_sec: median(rounds.map((r) => r.broadcast.eventsPerSecond)),
    broadcast_without_store_events_per_sec: median(rounds.map((r) => r.broadcastWithoutStore.eventsPerSecond)),
    ratio,
    stream_p99_ms: p99,
    duplicates,
    goal: { ratio: 0.5, p99_ms: 100, met: ratio >= 0.5 && p99 <= 100 },
  };
}
