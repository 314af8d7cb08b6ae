/**
 * A graphile-worker worker that cannot record a job's end (here: PostgreSQL refuses the delete of
 * the finished job, as a connection lost at that moment would) stops for good, and graphile-worker
 * 0.16 starts no other. The queue must notice: stop renewing that worker's lease, so the job it
 * held is released and runs to its end, and start a worker in its place, so later jobs run.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PostgresStore } from '../../store/postgres-store.js';
import type { JobEvent } from './job-queue.js';
import { PostgresJobQueue } from './postgres-job-queue.js';
import { testPostgres } from '../../../test/support/postgres.js';

const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});
const waitUntil = (check: () => Promise<void> | void) => vi.waitFor(check, { timeout: 60_000, interval: 100 });

const REFUSE = `
CREATE FUNCTION refuse_job_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'the test refuses to end this job'; END $$;
CREATE TRIGGER refuse_job_delete BEFORE DELETE ON graphile_worker._private_jobs FOR EACH ROW EXECUTE FUNCTION refuse_job_delete();`;
const ALLOW = 'DROP TRIGGER refuse_job_delete ON graphile_worker._private_jobs; DROP FUNCTION refuse_job_delete();';

describe('a worker graphile-worker lost', () => {
  it('gives its job back once its lease lapses, and a new worker takes its place', async () => {
    const server = await testPostgres();
    const url = await server.createDatabase();
    const store = await PostgresStore.open({ url, poolSize: 2 });
    closing.push(() => store.close());
    const events: JobEvent[] = [];
    const queue = await PostgresJobQueue.open({ url, pollIntervalMs: 50, concurrency: 1, leaseMs: 1_500, onEvent: (e) => events.push(e) });
    closing.push(() => queue.close());
    const runs: string[] = [];
    await queue.start({
      'test.fire': async (job) => {
        runs.push(job.key);
        // The first run's end cannot be recorded: graphile-worker's delete of the job fails.
        if (job.key === 'first' && runs.length === 1) await store.pool.query(REFUSE);
      },
    });
    const due = (key: string) => ({ key, name: 'test.fire', payload: {}, runAt: new Date(), maxAttempts: 5 });
    await queue.schedule(due('first'));
    // graphile-worker's own word that the worker gave up on the job it could not end.
    await waitUntil(() => expect(events.some((e) => e.type === 'queue.error' && /Failed to release job/.test(e.error))).toBe(true));
    await store.pool.query(ALLOW);
    await queue.schedule(due('second'));
    await waitUntil(async () => expect(await queue.status('second')).toMatchObject({ state: 'done' }));
    await waitUntil(async () => expect(await queue.status('first')).toMatchObject({ state: 'done' }));
    // Nothing is left locked by the lost worker, and no job is left behind.
    const left = await store.pool.query('SELECT id, locked_by FROM graphile_worker._private_jobs');
    expect(left.rows).toEqual([]);
    expect(runs.filter((k) => k === 'second')).toEqual(['second']);
    expect(runs[0]).toBe('first');
  });
});
