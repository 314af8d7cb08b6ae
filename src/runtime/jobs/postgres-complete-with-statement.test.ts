import { afterEach, describe, expect, it, vi } from 'vitest';
import { PostgresStore } from '../../store/postgres-store.js';
import type { JobEvent } from './job-queue.js';
import { PostgresJobQueue } from './postgres-job-queue.js';
import { testPostgres } from '../../../test/support/postgres.js';

const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});
const waitUntil = (check: () => Promise<void> | void) => vi.waitFor(check, { timeout: 30_000, interval: 50 });

/** A migrated database with a `fired` table whose CHECK refuses attempt 1, and a queue on it. */
async function setUp() {
  const server = await testPostgres();
  const url = await server.createDatabase();
  const store = await PostgresStore.open({ url, poolSize: 2 });
  closing.push(() => store.close());
  await store.pool.query("CREATE TABLE fired (key TEXT NOT NULL, attempt INTEGER NOT NULL CHECK (attempt > 1 OR key <> 'flaky'))");
  const events: JobEvent[] = [];
  const queue = await PostgresJobQueue.open({ url, pollIntervalMs: 50, onEvent: (e) => events.push(e) });
  closing.push(() => queue.close());
  const fired = async () => (await store.pool.query<{ key: string; attempt: number }>('SELECT key, attempt FROM fired ORDER BY key')).rows;
  const doneRows = async (key: string) =>
    Number((await store.pool.query<{ n: string }>('SELECT count(*) AS n FROM jobs_done WHERE key = $1', [key])).rows[0]!.n);
  return { store, queue, events, fired, doneRows };
}

const due = (key: string, maxAttempts = 3) => ({ key, name: 'test.fire', payload: {}, runAt: new Date(), maxAttempts });

describe('PostgresJobContext.completeWithStatement', () => {
  it('commits the statement with the job’s done record as one: a statement that fails commits neither, and the retry commits once', async () => {
    const { queue, fired, doneRows } = await setUp();
    await queue.start({
      'test.fire': (job, ctx) =>
        ctx.completeWithStatement({ text: 'INSERT INTO fired (key, attempt) VALUES ($1, $2)', values: [job.key, job.attempt] }),
    });
    await queue.schedule(due('steady'));
    await queue.schedule(due('flaky'));
    await waitUntil(async () => expect(await queue.status('flaky')).toMatchObject({ state: 'done' }));
    await waitUntil(async () => expect(await queue.status('steady')).toMatchObject({ state: 'done' }));
    // Had the first run of `flaky` committed its done record without its row, the retry would
    // have been skipped and `flaky` would have no row at all.
    expect(await fired()).toEqual([
      { key: 'flaky', attempt: 2 },
      { key: 'steady', attempt: 1 },
    ]);
    expect(await doneRows('flaky')).toBe(1);
    expect(await doneRows('steady')).toBe(1);
  });

  it('a run whose job was completed by another run meanwhile commits nothing and says its lease was lost', async () => {
    const { store, queue, events, fired } = await setUp();
    const thrown: string[] = [];
    await queue.start({
      'test.fire': async (job, ctx) => {
        // What another worker's run of this job commits while this one still runs.
        await store.pool.query('INSERT INTO jobs_done (job_id, key, name, done_at) VALUES ($1, $2, $3, now())', [
          job.id,
          job.key,
          job.name,
        ]);
        try {
          await ctx.completeWithStatement({ text: 'INSERT INTO fired (key, attempt) VALUES ($1, $2)', values: [job.key, job.attempt] });
        } catch (error) {
          thrown.push((error as Error).name);
          throw error;
        }
      },
    });
    await queue.schedule(due('taken'));
    await waitUntil(() => expect(events.map((e) => e.type)).toContain('job.lease_lost'));
    expect(thrown).toEqual(['LeaseLostError']);
    expect(await fired()).toEqual([]);
    await waitUntil(async () => expect(await queue.status('taken')).toMatchObject({ state: 'done' }));
  });

  it('refuses a statement that begins with WITH, committing nothing', async () => {
    const { queue, fired, doneRows } = await setUp();
    await queue.start({
      'test.fire': (job, ctx) =>
        ctx.completeWithStatement({ text: ' with x AS (SELECT 1) INSERT INTO fired (key, attempt) VALUES ($1, 2)', values: [job.key] }),
    });
    await queue.schedule(due('with', 1));
    await waitUntil(async () => expect(await queue.status('with')).toMatchObject({ state: 'failed' }));
    expect(await queue.status('with')).toMatchObject({ lastError: expect.stringMatching(/must not begin with WITH/) });
    expect(await fired()).toEqual([]);
    expect(await doneRows('with')).toBe(0);
  });
});
