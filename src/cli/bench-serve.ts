/**
 * `baton bench serve`: customer messages per second through `baton serve` over HTTP on loopback
 * (SQLite), with an agent answering each, and the latency from posting a message to the agent's
 * reply being readable; beside the same run's bare `gateway.receive` + `gateway.send` rate on the
 * same kind of database, the floor of any service built on the gateway. The customers' HTTP client
 * runs on a worker thread, as real customers are other machines. Beside them, the HTTP floor: the
 * same customers against a bare Fastify app that answers the same two requests at once, which is
 * what the transport and the client alone cost on this machine.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConversationId, Policy } from '../core/index.js';
import { noRedaction } from '../runtime/service/redactor.js';
import { secureRandom } from '../server/auth/secrets.js';
import { newToken, tokenHash } from '../server/auth/secrets.js';
import { openStore } from '../store/open-store.js';
import { gatewayFor } from '../testing/gateway-fixture.js';
import { scriptedPolicy } from '../testing/scripted-policy.js';
import { ServeConfigSchema } from './serve-config.js';
import { composeServeRuntime } from './serve-runtime.js';
import { createIdGenerator } from '../core/index.js';
import Fastify from 'fastify';
import { Worker } from 'node:worker_threads';
import type { ClientJob, ClientResult } from './bench-serve-client.js';

export interface BenchServeOptions {
  /** Conversations in flight at once. */
  concurrency: number;
  /** Customer messages per measurement (one per conversation, each answered). */
  messages: number;
  rounds: number;
  progress?: (line: string) => void;
}

interface Figures {
  messagesPerSecond: number;
  latencyMs: { p50: number; p99: number };
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Runs `count` jobs with at most `concurrency` at once. */
async function pool(count: number, concurrency: number, job: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) await job(next++);
    }),
  );
}

const dir = () => mkdtempSync(join(tmpdir(), 'baton-bench-serve-'));

/** The baseline: what the gateway alone does per message (store the customer's, store a reply). */
async function baseline(options: BenchServeOptions): Promise<Figures> {
  const folder = dir();
  const store = await openStore({ kind: 'sqlite', path: join(folder, 'b.sqlite') });
  try {
    const gateway = gatewayFor(store, { ids: createIdGenerator({ now: Date.now, random: secureRandom }) });
    const ids: ConversationId[] = [];
    for (let i = 0; i < options.messages; i += 1) ids.push((await gateway.open()).id);
    const latencies: number[] = [];
    const start = performance.now();
    await pool(ids.length, options.concurrency, async (i) => {
      const t = performance.now();
      const id = ids[i]!;
      await gateway.receive(id, { text: `Which plans do you offer? (${i})`, idempotencyKey: `k${i}` });
      await gateway.send(id, { type: 'agent', id: 'agent_support' as never }, 'We offer three plans.');
      latencies.push(performance.now() - t);
    });
    const seconds = (performance.now() - start) / 1000;
    latencies.sort((a, b) => a - b);
    return { messagesPerSecond: ids.length / seconds, latencyMs: { p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99) } };
  } finally {
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Runs the customers on their worker thread against `base`. */
function customers(job: ClientJob): Promise<ClientResult> {
  return new Promise<ClientResult>((resolve, reject) => {
    const worker = new Worker(new URL('./bench-serve-client.js', import.meta.url), { workerData: job });
    worker.once('message', (m: { ok: true; result: ClientResult } | { ok: false; error: string }) => {
      void worker.terminate();
      if (m.ok) resolve(m.result);
      else reject(new Error(m.error));
    });
    worker.once('error', reject);
  });
}

const figuresOf = (count: number, out: ClientResult): Figures => {
  const latencies = out.latencies.sort((a, b) => a - b);
  return { messagesPerSecond: count / out.seconds, latencyMs: { p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99) } };
};

/**
 * The HTTP floor: the same customers, the same two requests on loopback, answered at once by a
 * bare Fastify app (no store, no auth, no agent): what any HTTP service pays here before doing
 * anything, the transport and the client included.
 */
async function httpFloor(options: BenchServeOptions): Promise<Figures> {
  const app = Fastify();
  app.post('/v1/conversations/:id/messages', async (_request, reply) =>
    reply.code(201).send({ message: { text: 'Which plans do you offer?' }, duplicate: false, cursor: '2' }),
  );
  app.get('/v1/conversations/:id/messages', async () => ({
    messages: [{ id: 'msg_floor', from: 'agent', text: 'We offer three plans.', at: new Date().toISOString() }],
    cursor: '3',
  }));
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  try {
    const conversations = Array.from({ length: options.messages }, (_, i) => ({ id: `conv_floor_${i}`, token: 'ct_floor' }));
    return figuresOf(conversations.length, await customers({ base, conversations, concurrency: options.concurrency }));
  } finally {
    await app.close();
  }
}

/** Through `baton serve` over HTTP: post, then read by cursor (long-poll) until the agent's reply. */
async function throughServe(options: BenchServeOptions, policy: 'scripted' | 'rule'): Promise<Figures & { handoffs: number }> {
  const folder = dir();
  const store = await openStore({ kind: 'sqlite', path: join(folder, 's.sqlite') });
  const zeroLatency = (): Policy => scriptedPolicy([{ reply: 'We offer three plans.' }], { whenExhausted: 'repeat_last' });
  const runtime = await composeServeRuntime({
    store,
    config: ServeConfigSchema.parse({}),
    ...(policy === 'scripted' ? { policyOverride: zeroLatency } : {}),
    // The baseline stores text as given; so does this, so that the two do the same work.
    redact: noRedaction,
  });
  const base = await runtime.app.listen({ host: '127.0.0.1', port: 0 });
  try {
    const conversations: Array<{ id: string; token: string }> = [];
    for (let i = 0; i < options.messages; i += 1) {
      const c = await runtime.service.open();
      const token = newToken('ct');
      await runtime.directory.setCustomerToken(c.id, tokenHash(token));
      conversations.push({ id: c.id, token });
    }
    const out = await customers({ base, conversations, concurrency: options.concurrency });
    return { ...figuresOf(conversations.length, out), handoffs: out.handoffs };
  } finally {
    await runtime.app.close();
    await runtime.service.idle();
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Alternates baseline and serve rounds; reports medians and the ratio of the medians. */
export async function benchServe(options: BenchServeOptions) {
  const results = { baseline: [] as Figures[], floor: [] as Figures[], scripted: [] as Figures[], rule: [] as Figures[] };
  // A warm-up of each, untimed: JIT and the first SQLite pages.
  await baseline({ ...options, messages: Math.min(200, options.messages) });
  await throughServe({ ...options, messages: Math.min(200, options.messages) }, 'scripted');
  for (let round = 1; round <= options.rounds; round += 1) {
    results.baseline.push(await baseline(options));
    results.floor.push(await httpFloor(options));
    results.scripted.push(await throughServe(options, 'scripted'));
    results.rule.push(await throughServe(options, 'rule'));
    options.progress?.(
      `round ${round}/${options.rounds}: baseline ${results.baseline.at(-1)!.messagesPerSecond.toFixed(0)}/s, ` +
        `HTTP floor ${results.floor.at(-1)!.messagesPerSecond.toFixed(0)}/s, ` +
        `serve (scripted) ${results.scripted.at(-1)!.messagesPerSecond.toFixed(0)}/s, serve (rule) ${results.rule.at(-1)!.messagesPerSecond.toFixed(0)}/s`,
    );
  }
  const summary = (xs: Figures[]) => ({
    messages_per_second: Math.round(median(xs.map((x) => x.messagesPerSecond))),
    latency_ms: { p50: +median(xs.map((x) => x.latencyMs.p50)).toFixed(2), p99: +median(xs.map((x) => x.latencyMs.p99)).toFixed(2) },
  });
  const b = summary(results.baseline);
  const floor = summary(results.floor);
  const scripted = summary(results.scripted);
  const rule = summary(results.rule);
  return {
    benchmark: 'serve',
    store: 'sqlite',
    concurrency: options.concurrency,
    messages_per_round: options.messages,
    rounds: options.rounds,
    baseline_gateway_receive_send: b,
    http_floor: { ...floor, ratio: +(floor.messages_per_second / b.messages_per_second).toFixed(3) },
    serve_scripted_zero_latency: {
      ...scripted,
      ratio: +(scripted.messages_per_second / b.messages_per_second).toFixed(3),
      of_http_floor: +(scripted.messages_per_second / floor.messages_per_second).toFixed(3),
    },
    serve_rule_agent: {
      ...rule,
      ratio: +(rule.messages_per_second / b.messages_per_second).toFixed(3),
      of_http_floor: +(rule.messages_per_second / floor.messages_per_second).toFixed(3),
    },
    goal: {
      ratio_at_least: 0.5,
      p99_ms_at_most: 50,
      met: scripted.messages_per_second / b.messages_per_second >= 0.5 && scripted.latency_ms.p99 <= 50,
    },
  };
}
