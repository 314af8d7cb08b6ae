/**
 * `baton bench router`: routing decisions per second on PostgreSQL with 1,000 staff and 10,000
 * conversations waiting, beside the same run's rate of the simplest claim a queue can make — one
 * indexed `SELECT … FOR UPDATE SKIP LOCKED` and an UPDATE in a transaction — at the same
 * concurrency on the same server. A routing decision is one reservation made by the router's
 * transaction (here: a person declines an offer, their slot is released, and the dispatch offers
 * the best waiting request they are eligible for), with capacity counted in that transaction.
 */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { RoutingQueueSchema } from '../core/router/index.js';
import type { StaffId } from '../core/index.js';
import { openStore, routingStoreFor } from '../store/open-store.js';
import { PostgresStore } from '../store/postgres-store.js';
import { startThrowawayPostgres } from '../testing/throwaway-postgres.js';

export interface BenchRouterOptions {
  staff: number;
  waiting: number;
  concurrency: number;
  rounds: number;
  roundMs: number;
  progress?: (line: string) => void;
}

const SKILLS = ['billing', 'refunds', 'disputes', 'fraud', 'legal'];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Runs `worker` on `concurrency` loops until `ms` pass; returns operations per second. */
async function timed(ms: number, concurrency: number, worker: () => Promise<number>): Promise<number> {
  const end = performance.now() + ms;
  const start = performance.now();
  let done = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        // Awaited first, then added: `done += await worker()` reads `done` before the await and
        // writes back over what the other loops added meanwhile (it counted about 1/concurrency).
        const made = await worker();
        done += made;
      }
    }),
  );
  return done / ((performance.now() - start) / 1000);
}

/** Fills the database: conversations, staff (every one available and full), and requests waiting behind them. */
async function seed(pool: pg.Pool, options: BenchRouterOptions, capacity: number): Promise<void> {
  const total = options.waiting + options.staff * capacity;
  await pool.query(
    `INSERT INTO conversations (id, state, owner_type, owner_id, speaker, version, event_seq, queued_at, created_at, schema_version, doc)
     SELECT 'conv_bench' || g, 'QUEUED', 'queue', 'queue_billing', NULL, 1, 0, NULL, '2026-12-01T00:00:00.000Z', 1, '{}'
     FROM generate_series(1, $1) g`,
    [total],
  );
  await pool.query(
    `INSERT INTO routing_staff (staff_id, skills, capacity, presence, used, idle_since)
     SELECT 'staff_bench' || g, '["' || (ARRAY[$2::text[]])[1][1 + g % 5] || '","' || (ARRAY[$2::text[]])[1][1 + (g + 2) % 5] || '"]', $3, 'available', 0, g
     FROM generate_series(1, $1) g`,
    [options.staff, SKILLS, capacity],
  );
  await pool.query(
    `INSERT INTO routing_requests (id, conversation_id, seq, channel, skills, priority, safety, targets, target_index, queue,
       target_deadline, enqueued_at, status, excluded)
     SELECT 'rq_bench' || g, 'conv_bench' || g, g, 'chat', '["' || (ARRAY[$2::text[]])[1][1 + g % 5] || '"]', g % 3, 0,
       '[{"type":"queue","queue":"queue_billing","timeoutSeconds":86400},{"type":"callback"}]', 0, 'queue_billing',
       9000000000000, g, 'waiting', '[]'
     FROM generate_series(1, $1) g`,
    [total, SKILLS],
  );
  await pool.query('ANALYZE');
}

/** The baseline table: jobs claimed one at a time, oldest of the highest priority first. */
async function seedBaseline(pool: pg.Pool, rows: number): Promise<void> {
  await pool.query(
    `CREATE TABLE bench_claims (id BIGINT PRIMARY KEY, priority INTEGER NOT NULL, enqueued_at BIGINT NOT NULL, status TEXT NOT NULL, claimed_by TEXT)`,
  );
  await pool.query(`CREATE INDEX bench_claims_waiting ON bench_claims (priority DESC, enqueued_at) WHERE status = 'waiting'`);
  await pool.query(`INSERT INTO bench_claims SELECT g, g % 3, g, 'waiting', NULL FROM generate_series(1, $1) g`, [rows]);
  await pool.query('ANALYZE bench_claims');
}

export async function benchRouter(options: BenchRouterOptions) {
  const progress = options.progress ?? (() => {});
  progress('starting a throwaway PostgreSQL server…');
  const server = await startThrowawayPostgres();
  try {
    const store = await openStore({ kind: 'postgres', url: await server.createDatabase(), poolSize: options.concurrency + 2 });
    try {
      if (!(store instanceof PostgresStore)) throw new Error('bench router needs PostgreSQL');
      const capacity = 3;
      progress(`seeding ${options.staff} staff and ${options.waiting} waiting conversations…`);
      await seed(store.pool, options, capacity);
      // Enough baseline rows that no round runs out of waiting jobs.
      await seedBaseline(store.pool, 2_000_000);
      const queue = RoutingQueueSchema.parse({ id: 'queue_billing', skills: [], reservationTimeoutSeconds: 3600 });
      const routing = routingStoreFor(
        store,
        { queues: new Map([[queue.id, queue]]), weights: { chat: 1, callback: 2 } },
        (kind) => `${kind === 'request' ? 'rq' : 'res'}_${randomBytes(12).toString('hex')}`,
      );
      // Fill every slot: the router's first dispatch makes staff × capacity reservations.
      await routing.sweep(Date.now());
      const offers = (
        await store.pool.query<{ id: string; staff_id: string }>("SELECT id, staff_id FROM routing_reservations WHERE status = 'pending'")
      ).rows;
      progress(`${offers.length} offers held; ${options.waiting} conversations waiting`);
      const pendingOffers = offers.map((o) => ({ id: o.id, staff: o.staff_id as StaffId }));

      const decide = async (): Promise<number> => {
        const offer = pendingOffers.shift();
        if (!offer) return 0;
        const declined = await routing.decline(offer.id, offer.staff, 'busy', Date.now());
        let made = 0;
        for (const f of declined.facts) {
          if (f.kind === 'offered') {
            pendingOffers.push({ id: f.reservation, staff: f.staff });
            made += 1;
          }
        }
        return made;
      };
      const claim = async (): Promise<number> => {
        const client = await store.pool.connect();
        try {
          await client.query('BEGIN');
          const { rows } = await client.query<{ id: string }>(
            "SELECT id FROM bench_claims WHERE status = 'waiting' ORDER BY priority DESC, enqueued_at LIMIT 1 FOR UPDATE SKIP LOCKED",
          );
          if (rows[0]) await client.query("UPDATE bench_claims SET status = 'claimed', claimed_by = 'bench' WHERE id = $1", [rows[0].id]);
          await client.query('COMMIT');
          return rows.length;
        } finally {
          client.release();
        }
      };
      // Warm-ups, untimed.
      await timed(Math.min(1000, options.roundMs), options.concurrency, claim);
      await timed(Math.min(1000, options.roundMs), options.concurrency, decide);
      const baseline: number[] = [];
      const router: number[] = [];
      for (let round = 1; round <= options.rounds; round += 1) {
        baseline.push(await timed(options.roundMs, options.concurrency, claim));
        router.push(await timed(options.roundMs, options.concurrency, decide));
        progress(
          `round ${round}/${options.rounds}: claim ${baseline.at(-1)!.toFixed(0)}/s, routing decisions ${router.at(-1)!.toFixed(0)}/s`,
        );
      }
      const waitingNow = Number(
        (await store.pool.query<{ n: string }>("SELECT count(*) AS n FROM routing_requests WHERE status = 'waiting'")).rows[0]!.n,
      );
      const b = median(baseline);
      const r = median(router);
      return {
        benchmark: 'router',
        store: 'postgres',
        staff: options.staff,
        waiting_at_start: options.waiting,
        waiting_at_end: waitingNow,
        concurrency: options.concurrency,
        rounds: options.rounds,
        round_ms: options.roundMs,
        baseline_skip_locked_claims_per_second: Math.round(b),
        routing_decisions_per_second: Math.round(r),
        ratio: +(r / b).toFixed(3),
        goal: { ratio_at_least: 0.5, met: r / b >= 0.5 },
        node: process.version,
      };
    } finally {
      await store.close();
    }
  } finally {
    await server.stop();
  }
}
