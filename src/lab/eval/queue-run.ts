/**
 * `baton eval --queue`: the run's episodes as jobs, one per episode, and the records as the
 * workers commit them. Enqueueing the same run again (the command started again after a crash)
 * adds no job twice and takes the records already committed; an episode whose job failed for good
 * is enqueued afresh. The records come back to `runEval`, which writes the folder as it does for
 * episodes run in this process.
 */
import type { EpisodeRecord } from '../records.js';
import {
  episodeJobKey,
  EPISODE_JOB,
  EPISODE_MAX_ATTEMPTS,
  RECORDED_CHANNEL,
  type QueueDatabase,
  type QueueRunSpec,
} from './queue-database.js';
import type { EpisodeTiming, Planned } from './run-eval.js';
import { parseEpisodeRecord } from '../record-schema.js';

export interface QueueRunInput {
  /** The queue's database, opened by the caller (before it writes anything: a bad queue changes no folder). */
  db: QueueDatabase;
  runId: string;
  spec: QueueRunSpec;
  todo: readonly Planned[];
  /** Keys whose earlier record the run drops (failed for infrastructure reasons): run again. */
  rerun: readonly string[];
  finish: (record: EpisodeRecord, timing: EpisodeTiming) => void;
  /** Longest wait between looks for records when no notification comes (ms, default 1000). */
  pollIntervalMs?: number;
}

/** Shortest time between two reads of the records (ms): the progress bar's latency at most. */
const TAKE_EVERY_MS = 200;

interface RecordRow {
  key: string;
  record: string;
  attempt: number;
  worker: string;
  wall_ms: number;
}

/** Enqueues the episodes of `todo` that the database has no record of, and hands every record to `finish` as it is committed. */
export async function runOnQueue(input: QueueRunInput): Promise<void> {
  const { runId, spec, db } = input;
  const pool = db.store.pool;
  const listener = await pool.connect();
  try {
    const existing = await pool.query<{ spec: string }>(
      `INSERT INTO lab_runs (run_id, spec, created_at) VALUES ($1, $2, $3)
       ON CONFLICT (run_id) DO UPDATE SET run_id = excluded.run_id RETURNING spec`,
      [runId, JSON.stringify(spec), new Date().toISOString()],
    );
    if (existing.rows[0]?.spec !== JSON.stringify(spec)) {
      throw new Error(`run ${runId} in the queue database was enqueued with another configuration or code; use another --out`);
    }
    if (input.rerun.length > 0)
      await pool.query('DELETE FROM lab_episodes WHERE run_id = $1 AND key = ANY($2::text[])', [runId, input.rerun]);

    const pending = new Set(input.todo.map((p) => p.key));
    let wake: (() => void) | null = null;
    let woken = false;
    listener.on('notification', (message) => {
      if (message.payload !== runId) return;
      woken = true;
      wake?.();
    });
    await listener.query(`LISTEN ${RECORDED_CHANNEL}`);
    const take = async () => {
      woken = false;
      const { rows } = await pool.query<RecordRow>(
        'SELECT key, record, attempt, worker, wall_ms FROM lab_episodes WHERE run_id = $1 AND key = ANY($2::text[])',
        [runId, [...pending]],
      );
      for (const row of rows) {
        pending.delete(row.key);
        input.finish(parseEpisodeRecord(JSON.parse(row.record), `lab_episodes row ${row.key}`), {
          wall_ms: row.wall_ms,
          worker: row.worker,
          attempt: row.attempt,
        });
      }
    };
    // Committed before this command (an earlier one died waiting): taken as they are.
    await take();
    await db.jobs.addOnce(
      [...pending].map((key) => ({
        key: episodeJobKey(runId, key),
        name: EPISODE_JOB,
        payload: { run: runId, key },
        runAt: new Date(),
        maxAttempts: EPISODE_MAX_ATTEMPTS,
      })),
    );
    const pollMs = input.pollIntervalMs ?? 1_000;
    let lastTake = performance.now();
    // The notification is the wake-up, the table the truth: a missed one costs a poll's latency.
    while (pending.size > 0) {
      if (!woken) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, pollMs);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = null;
      }
      // A burst of commits is taken in one read, not one read per commit (each reads every key still pending).
      const since = performance.now() - lastTake;
      if (since < TAKE_EVERY_MS) await new Promise((resolve) => setTimeout(resolve, TAKE_EVERY_MS - since));
      lastTake = performance.now();
      await take();
      if (pending.size === 0) break;
      const failed = await db.jobs.failedOf([...pending].map((key) => episodeJobKey(runId, key)));
      if (failed.length > 0) {
        const first = failed[0]!;
        throw new Error(
          `${failed.length} episode${failed.length === 1 ? '' : 's'} failed on the workers after ${EPISODE_MAX_ATTEMPTS} attempts; first: ${first.key.slice(episodeJobKey(runId, '').length)}: ${first.lastError}\n` +
            'Fix the cause and run the same command again: the failed episodes are enqueued afresh, the recorded ones kept.',
        );
      }
    }
  } finally {
    await listener.query(`UNLISTEN ${RECORDED_CHANNEL}`).catch(() => {});
    listener.release();
  }
}
