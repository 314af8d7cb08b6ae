/**
 * `baton bench cluster`: K real `baton serve --store postgres` OS processes on one throwaway
 * PostgreSQL on loopback, scripted customers spread round-robin over them as a load balancer
 * would (retrying on another gateway, same idempotency key, when one dies), simulated staff
 * (sign in, available, accept offers, reply, hand back) and consoles following conversations on
 * the staff stream; gateways killed with SIGKILL at seeded points of the run and started again,
 * and with `--rolling` restarted one by one with SIGTERM (the graceful drain). The final logs in
 * PostgreSQL are then checked against what every client saw (src/cli/cluster-audit.ts). Before
 * that, without kills, customer messages per second through 1, 2 and 4 gateways, with each
 * process's CPU time, so that the bound of the machine's cores is visible.
 */
import { EventEmitter, once } from 'node:events';
import { cpus } from 'node:os';
import { setTimeout as wait } from 'node:timers/promises';
import { seededRandom } from '../core/index.js';
import { addStaff } from '../server/auth/staff-accounts.js';
import { directoryFor, openStore } from '../store/open-store.js';
import type { Store } from '../store/store.js';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../testing/throwaway-postgres.js';
import { auditCluster, consoleMisses } from './cluster-audit.js';
import { startConsoles } from './cluster-consoles.js';
import { runCustomers, type CustomerRecord } from './cluster-customers.js';
import { startGatewaySlots, treeCpuSeconds, type GatewaySlots } from './cluster-gateways.js';
import { createBalancer } from './cluster-http.js';
import { startStaff, type StaffAccount } from './cluster-staff.js';

export interface BenchClusterOptions {
  gateways: number;
  /** SIGKILLs during the run (each followed by a restart of that gateway). */
  kills: number;
  conversations: number;
  staff: number;
  /** Consoles following conversations on the staff stream (20 each). */
  consoles: number;
  /** Conversations in flight at once. */
  concurrency: number;
  /** Also restart every gateway, one by one, with SIGTERM during the run. */
  rolling: boolean;
  seed: number;
  /** Gateway counts measured for throughput before the run (empty: none). */
  scaling: readonly number[];
  /** Conversations per throughput measurement. */
  scalingConversations: number;
  /** One conversation in this many asks for a person. */
  handoffEvery: number;
  /** `--turn-lease-ms` of the gateways. */
  turnLeaseMs: number;
  /** A hand-off pending longer than this after any kill is stuck (ms). */
  handoffTimeoutMs: number;
  /** An existing PostgreSQL server to make the databases in (default: a throwaway one, or BATON_PG_URL). */
  pgUrl?: string;
  progress?: (line: string) => void;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;
const round = (x: number, digits = 1) => Number(x.toFixed(digits));

/** A fresh database with the schema made (opening the store migrates it). */
async function freshDatabase(pg: ThrowawayPostgres): Promise<{ url: string; store: Store }> {
  const url = await pg.createDatabase();
  return { url, store: await openStore({ kind: 'postgres', url, poolSize: 4 }) };
}

/** CPU seconds now: each gateway slot, PostgreSQL's processes, and this process (the clients). */
function cpuNow(slots: GatewaySlots, pg: ThrowawayPostgres) {
  const usage = process.cpuUsage();
  return { gateways: slots.cpuSeconds(), postgres: pg.pid ? treeCpuSeconds(pg.pid) : null, clients: (usage.user + usage.system) / 1e6 };
}

function cpuBetween(before: ReturnType<typeof cpuNow>, after: ReturnType<typeof cpuNow>, seconds: number) {
  const gateways = after.gateways.map((g, i) => round(g - before.gateways[i]!, 2));
  const postgres = after.postgres !== null && before.postgres !== null ? round(after.postgres - before.postgres, 2) : null;
  const clients = round(after.clients - before.clients, 2);
  const total = gateways.reduce((a, b) => a + b, 0) + (postgres ?? 0) + clients;
  return {
    cpu_seconds: { gateways, postgres, clients },
    /** Cores busy on average over the measurement (of the machine's `cores`). */
    cores_busy: round(total / seconds, 2),
  };
}

/** Customer messages per second through `count` gateways, no kills, no hand-offs. */
async function throughput(pg: ThrowawayPostgres, count: number, options: BenchClusterOptions) {
  const { url, store } = await freshDatabase(pg);
  const slots = await startGatewaySlots({ count, pgUrl: url, turnLeaseMs: options.turnLeaseMs, poolSize: 10 });
  try {
    await slots.startAll();
    const balancer = createBalancer({ bases: slots.slots.map((s) => s.base) });
    // A short warm-up, untimed: JIT, connection pools, the first pages.
    await runCustomers({
      balancer,
      conversations: Math.min(50, options.scalingConversations),
      concurrency: options.concurrency,
      handoffEvery: 0,
      answerTimeoutMs: 60_000,
    });
    const before = cpuNow(slots, pg);
    const started = performance.now();
    const records = await runCustomers({
      balancer,
      conversations: options.scalingConversations,
      concurrency: options.concurrency,
      handoffEvery: 0,
      answerTimeoutMs: 60_000,
    });
    const seconds = (performance.now() - started) / 1000;
    const after = cpuNow(slots, pg);
    const answered = records.reduce((n, r) => n + r.answered, 0);
    const latencies = records.flatMap((r) => r.latenciesMs).sort((a, b) => a - b);
    const result = {
      gateways: count,
      conversations: options.scalingConversations,
      customer_messages_answered: answered,
      seconds: round(seconds, 2),
      messages_per_second: round(answered / seconds),
      answer_latency_ms: { p50: Math.round(quantile(latencies, 0.5)), p99: Math.round(quantile(latencies, 0.99)) },
      ...cpuBetween(before, after, seconds),
    };
    options.progress?.(`throughput with ${count} gateway(s): ${result.messages_per_second} messages/s, ${result.cores_busy} cores busy`);
    return result;
  } finally {
    await slots.closeAll();
    await store.close();
  }
}

/** The disruptions of the run, each at a fraction of the conversations done. */
type Disruption = { at: number; kind: 'kill' } | { at: number; kind: 'rolling' };

function plan(options: BenchClusterOptions): Disruption[] {
  const random = seededRandom(options.seed);
  const list: Disruption[] = Array.from({ length: options.kills }, () => ({ at: 0.05 + random.next() * 0.85, kind: 'kill' as const }));
  if (options.rolling) list.push({ at: 0.3, kind: 'rolling' });
  return list.sort((a, b) => a.at - b.at);
}

/** The run under disruption: customers, staff and consoles on K gateways, kills and restarts; then the audit of the final logs. */
async function disruptedRun(pg: ThrowawayPostgres, options: BenchClusterOptions) {
  const say = options.progress ?? (() => {});
  const random = seededRandom(options.seed + 1);
  const { url, store } = await freshDatabase(pg);
  const slots = await startGatewaySlots({
    count: options.gateways,
    pgUrl: url,
    turnLeaseMs: options.turnLeaseMs,
    poolSize: 10,
    progress: say,
  });
  try {
    // Staff accounts (and one supervisor for the consoles), made as `baton staff add` makes them.
    const password = 'cluster benchmark password';
    const accounts: StaffAccount[] = [];
    for (let i = 0; i < options.staff; i += 1) {
      const email = `staff${i}@bench.example`;
      const added = await addStaff(
        directoryFor(store),
        { email, role: 'agent', name: `Staff ${i}`, skills: ['billing', 'refunds', 'disputes'], password },
        { now: Date.now },
      );
      if (!added.ok) throw new Error(added.message);
      accounts.push({ email, password });
    }
    const consoleAccount = await addStaff(
      directoryFor(store),
      { email: 'console@bench.example', role: 'supervisor', name: 'Console', password },
      { now: Date.now },
    );
    if (!consoleAccount.ok) throw new Error(consoleAccount.message);
    await slots.startAll();
    const balancer = createBalancer({ bases: slots.slots.map((s) => s.base) });
    const staff = await startStaff({ balancer, accounts });
    const login = await balancer.request<{ token: string }>('/v1/staff/login', {
      method: 'POST',
      body: { email: 'console@bench.example', password },
    });
    if (login.status !== 200) throw new Error(`the console account could not sign in: ${login.status}`);
    const consoles = startConsoles({ bases: balancer.bases, token: login.body.token, consoles: options.consoles });
    // Followed conversations are spread over the run, so that kills land while they are followed.
    const stride = Math.max(1, Math.floor(options.conversations / Math.max(1, consoles.capacity)));

    const disruptions = plan(options);
    let done = 0;
    const progressed = new EventEmitter();
    const kills: Array<{ gateway: number; at_conversation: number; restart_ms: number }> = [];
    const rolling: Array<{ gateway: number; exit_code: number | null }> = [];
    let disruptionsOver = disruptions.length === 0;
    const disrupting = (async () => {
      for (const d of disruptions) {
        while (done < d.at * options.conversations) await once(progressed, 'done');
        if (d.kind === 'kill') {
          const slot = random.pick(slots.slots);
          const atConversation = done;
          await slots.kill(slot);
          await wait(random.int(200, 1500));
          const t = performance.now();
          await slots.start(slot);
          kills.push({ gateway: slot.index, at_conversation: atConversation, restart_ms: Math.round(performance.now() - t) });
        } else {
          say('rolling restart: each gateway in turn is stopped with SIGTERM and started again');
          for (const slot of slots.slots) {
            rolling.push({ gateway: slot.index, exit_code: await slots.stop(slot) });
            await slots.start(slot);
          }
        }
      }
    })().finally(() => (disruptionsOver = true));

    const before = cpuNow(slots, pg);
    const started = performance.now();
    let lastSaid = 0;
    const customers: CustomerRecord[] = await runCustomers({
      balancer,
      conversations: options.conversations,
      concurrency: options.concurrency,
      handoffEvery: options.handoffEvery,
      answerTimeoutMs: Math.max(120_000, options.turnLeaseMs * 4),
      // Every disruption happens under load: past the planned conversations, more start until the last restart is done.
      more: () => !disruptionsOver,
      onOpened: (index, id) => {
        if (index % stride === 0) consoles.follow(index / stride, id);
      },
      onDone: () => {
        done += 1;
        progressed.emit('done');
        if (performance.now() - lastSaid > 2000) {
          lastSaid = performance.now();
          say(`${done}/${options.conversations} conversations done; ${kills.length} kills, ${rolling.length} graceful restarts so far`);
        }
      },
    });
    await disrupting;
    const seconds = (performance.now() - started) / 1000;
    const cpu = cpuBetween(before, cpuNow(slots, pg), seconds);
    say('load done; waiting for the staff to finish and the consoles to catch up');
    await staff.settled();
    // The consoles catch up with the final logs (a condition, with a deadline: a console that never does counts its misses).
    const deadline = Date.now() + 30_000;
    for (;;) {
      const { missed } = await consoleMisses(store, consoles.followed());
      if (missed === 0 || Date.now() > deadline) break;
      await wait(200);
    }
    const seen = await consoleMisses(store, consoles.followed());
    const audit = await auditCluster(store, customers, options.handoffTimeoutMs);
    const timesToHuman = customers.flatMap((c) => (c.timeToHumanMs === null ? [] : [c.timeToHumanMs])).sort((a, b) => a - b);
    const result = {
      customer_scripts: customers.length,
      ...audit,
      events_missed_by_consoles: seen.missed,
      unanswered_messages: customers.reduce((n, c) => n + c.unanswered, 0),
      customer_errors: customers.filter((c) => c.error !== null).length,
      customer_error_examples: customers.flatMap((c) => (c.error ? [c.error] : [])).slice(0, 3),
      refused_posts: customers.reduce((n, c) => n + c.refused.length, 0),
      acknowledged_messages: customers.reduce((n, c) => n + c.acknowledged.length, 0),
      asked_for_a_person: customers.filter((c) => c.askedForPerson).length,
      time_to_human_ms: {
        count: timesToHuman.length,
        p50: Math.round(quantile(timesToHuman, 0.5)),
        p95: Math.round(quantile(timesToHuman, 0.95)),
      },
      kills,
      graceful_restarts: rolling,
      staff: {
        accepted: staff.figures.accepted,
        replied: staff.figures.replied,
        handed_back: staff.figures.handedBack,
        offers_gone: staff.figures.offersGone,
        errors: staff.figures.errors.length,
        error_examples: staff.figures.errors.slice(0, 3),
        stream_reconnects: staff.reconnects(),
      },
      consoles: {
        count: options.consoles,
        conversations_followed: seen.followed,
        events_in_their_logs: seen.events,
        events_received_twice: seen.duplicates,
        reconnects: consoles.reconnects(),
        errors: consoles.errors.slice(0, 3),
      },
      requests_sent_to_another_gateway: balancer.failovers,
      gateway_crashes: slots.crashes,
      gateway_errors_logged: slots.errors.count,
      gateway_error_examples: slots.errors.examples,
      seconds: round(seconds, 2),
      messages_per_second: round(customers.reduce((n, c) => n + c.answered, 0) / seconds),
      ...cpu,
    };
    staff.close();
    consoles.close();
    return result;
  } finally {
    await slots.closeAll();
    await store.close();
  }
}

export async function benchCluster(options: BenchClusterOptions) {
  const pg = await startThrowawayPostgres({
    ...(options.pgUrl ? { env: { BATON_PG_URL: options.pgUrl } } : {}),
    // The benchmark is about the gateways: the server's own durability is not what it measures.
    flags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off'],
  });
  try {
    const scaling = [];
    for (const count of options.scaling) scaling.push(await throughput(pg, count, options));
    const run = await disruptedRun(pg, options);
    const base = scaling[0]?.messages_per_second;
    const zero = {
      double_replies: run.double_replies,
      lost_messages: run.lost_messages,
      agent_messages_while_human_owner: run.agent_messages_while_human_owner,
      stuck_handoff_pending: run.stuck_handoff_pending,
      events_missed_by_consoles: run.events_missed_by_consoles,
    };
    return {
      bench: 'cluster',
      cores: cpus().length,
      gateways: options.gateways,
      kills_requested: options.kills,
      rolling: options.rolling,
      conversations: run.customer_scripts,
      staff: options.staff,
      seed: options.seed,
      turn_lease_ms: options.turnLeaseMs,
      ...zero,
      time_to_human_ms: run.time_to_human_ms,
      run,
      throughput: scaling.map((s) => ({ ...s, ratio_to_one_gateway: base ? round(s.messages_per_second / base, 2) : null })),
      goal: {
        zero: Object.keys(zero),
        met:
          Object.values(zero).every((n) => n === 0) &&
          run.log_violations === 0 &&
          run.unanswered_messages === 0 &&
          run.customer_errors === 0 &&
          run.gateway_crashes.length === 0 &&
          run.duplicate_messages === 0 &&
          run.kills.length === options.kills,
      },
    };
  } finally {
    await pg.stop();
  }
}
