import { afterEach, describe, expect, it, vi } from 'vitest';
import { PostgresStore } from '../../store/postgres-store.js';
import type { Job } from './job-queue.js';
import { PostgresJobQueue } from './postgres-job-queue.js';
import { testPostgres } from '../../../test/support/postgres.js';

const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

async function fresh(): Promise<string> {
  const server = await testPostgres();
  return server.createDatabase();
}

async function open(url: string, options: { concurrency?: number } = {}): Promise<PostgresJobQueue> {
  const queue = await PostgresJobQueue.open({ url, pollIntervalMs: 50, ...options });
  closing.push(() => queue.close());
  return queue;
}

const spec = (key: string, maxAttempts = 3) => ({ key, name: 'test.once', payload: { key }, runAt: new Date(), maxAttempts });

describe('PostgresJobQueue.addOnce', () => {
  it('adding the same keys again adds no job while one is pending or running; a job failed for good (or done) is added afresh', async () => {
    const url = await fresh();
    const store = await PostgresStore.open({ url });
    closing.push(() => store.close());
    const queue = await open(url);
    await queue.addOnce([spec('a'), spec('b')]);
    await queue.addOnce([spec('a'), spec('b'), spec('c', 1)]);
    const jobs = async () =>
      (await store.pool.query<{ key: string }>('SELECT key FROM graphile_worker.jobs ORDER BY key')).rows.map((r) => r.key);
    expect(await jobs()).toEqual(['a', 'b', 'c']);

    const runs: string[] = [];
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    closing.push(async () => release());
    await queue.start({
      'test.once': async (job: Job) => {
        runs.push(`${job.key}#${job.attempt}`);
        if (job.key === 'a') await held;
        if (job.key === 'c' && runs.filter((r) => r.startsWith('c#')).length === 1) throw new Error('c fails once');
      },
    });
    await vi.waitFor(
      async () =>
        expect(await queue.failedOf(['a', 'b', 'c'])).toEqual([{ key: 'c', lastError: expect.stringContaining('c fails once') as string }]),
      {
        timeout: 20_000,
      },
    );
    expect(await queue.status('a')).toMatchObject({ state: 'running' });
    // "a" runs: adding it again leaves that run alone; "c" failed for good: it starts afresh; "b"
    // completed, and a completed job is gone: its key is a new job (the lab checks its records first).
    await queue.addOnce([spec('a'), spec('b'), spec('c')]);
    release();
    await vi.waitFor(async () => expect(await jobs()).toEqual([]), { timeout: 20_000 });
    expect(runs.sort()).toEqual(['a#1', 'b#1', 'b#1', 'c#1', 'c#1']);
    expect(await queue.failedOf(['a', 'b', 'c'])).toEqual([]);
  });

  it('processes opening a fresh database at once all get the queue (the schema is migrated under one lock)', async () => {
    const url = await fresh();
    const store = await PostgresStore.open({ url });
    closing.push(() => store.close());
    const queues = await Promise.all(Array.from({ length: 4 }, () => open(url)));
    expect(queues).toHaveLength(4);
  });
});
