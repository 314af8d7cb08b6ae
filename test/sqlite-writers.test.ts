import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteStore } from '../src/store/sqlite-store.js';
import { StoreBusyError } from '../src/store/store-busy.js';
import { gatewayFor } from '../src/testing/gateway-fixture.js';
import { notedPolicy, startTestRuntime } from './support/runtime-server.js';

/** A second OS process on the file, holding its write lock on demand. */
function lockHolder(path: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'workers', 'sqlite-lock-holder.ts'), path], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async (): Promise<string> => {
    const line = await lines.next();
    if (line.done) throw new Error('the lock holder exited');
    return line.value;
  };
  const ask = async (command: string) => {
    child.stdin.write(`${command}\n`);
    return next();
  };
  return {
    ready: next(),
    lock: () => ask('lock'),
    release: () => ask('release'),
    stop: async () => {
      child.stdin.end();
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

const holders: ReturnType<typeof lockHolder>[] = [];
afterEach(async () => {
  await Promise.all(holders.splice(0).map((h) => h.stop()));
});

function setUp(busyTimeoutMs?: number) {
  const path = join(mkdtempSync(join(tmpdir(), 'baton-writers-')), 'baton.sqlite');
  const store = new SqliteStore(busyTimeoutMs === undefined ? { path } : { path, busyTimeoutMs });
  const holder = lockHolder(path);
  holders.push(holder);
  return { store, gateway: gatewayFor(store), holder };
}

describe('a SQLite file written by two OS processes', () => {
  it('waits for the other process’s lock off the event loop: reads and timers go on, the write lands after the release', async () => {
    const { store, gateway, holder } = setUp();
    try {
      const c = await gateway.open();
      await holder.ready;
      expect(await holder.lock()).toMatch(/^locked \d+$/);
      let settled = false;
      const write = gateway.receive(c.id, { text: 'written while locked', idempotencyKey: 'k' }).finally(() => (settled = true));
      // Had the write waited inside SQLite, this line would run only once it had given up.
      for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
      expect(await store.getConversation(c.id)).toEqual(c);
      expect(settled).toBe(false);
      expect(await holder.release()).toBe('released');
      expect(await write).toMatchObject({ ok: true, duplicate: false });
      expect((await store.listMessages(c.id)).map((m) => m.text)).toEqual(['written while locked']);
    } finally {
      await store.close();
    }
  });

  it('gives up after its bound with StoreBusyError, having written nothing, and writes again once the lock is free', async () => {
    const { store, gateway, holder } = setUp(50);
    try {
      const c = await gateway.open();
      await holder.ready;
      await holder.lock();
      const refused = await gateway.receive(c.id, { text: 'too late', idempotencyKey: 'k' }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(StoreBusyError);
      expect(refused).toMatchObject({ store: 'sqlite', message: expect.stringMatching(/nothing was written/) });
      await holder.release();
      expect(await store.listMessages(c.id)).toEqual([]);
      expect(await gateway.receive(c.id, { text: 'now', idempotencyKey: 'k' })).toMatchObject({ ok: true, duplicate: false });
    } finally {
      await store.close();
    }
  });

  it('answers 503 with Retry-After over HTTP when the lock stays taken, and 201 once it is free', async () => {
    const { store, holder } = setUp(50);
    const server = await startTestRuntime('sqlite', { store, policy: notedPolicy });
    const app = server.runtime.app;
    try {
      const c = await server.open();
      await holder.ready;
      await holder.lock();
      const post = () =>
        app.inject({
          method: 'POST',
          url: `/v1/conversations/${c.id}/messages`,
          headers: { 'content-type': 'application/json', 'idempotency-key': 'k', authorization: `Bearer ${c.token}` },
          payload: JSON.stringify({ text: 'hello' }),
        });
      const busy = await post();
      expect(busy.statusCode).toBe(503);
      expect(busy.headers['retry-after']).toBe('1');
      expect(JSON.parse(busy.body)).toMatchObject({ error: { code: 'store_busy' } });
      await holder.release();
      expect((await post()).statusCode).toBe(201);
    } finally {
      await server.close();
    }
  });
});
