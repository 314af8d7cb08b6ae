import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteStore } from '../src/store/sqlite-store.js';
import { gatewayFor } from '../src/testing/gateway-fixture.js';

const stores: SqliteStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
});

function setUp() {
  const path = join(mkdtempSync(join(tmpdir(), 'baton-group-commit-')), 'baton.sqlite');
  const store = new SqliteStore({ path });
  stores.push(store);
  return { path, store, gateway: gatewayFor(store) };
}

/** Frames in the WAL since it was last emptied: every commit writes at least one. */
const walFrames = (store: SqliteStore) => (store.db.pragma('wal_checkpoint(PASSIVE)') as Array<{ log: number }>)[0]!.log;
const emptyWal = (store: SqliteStore) => store.db.pragma('wal_checkpoint(TRUNCATE)');

describe('SQLite group commit', () => {
  it('commits the writes asked for together in one transaction: fewer WAL frames than writes, each caller with its own result, in the order asked', async () => {
    const { store, gateway } = setUp();
    const c = await gateway.open();
    emptyWal(store);
    const writes = 40;
    const results = await Promise.all(
      Array.from({ length: writes }, (_, i) => gateway.receive(c.id, { text: `message ${i}`, idempotencyKey: `k${i}` })),
    );
    // One commit per write would have left at least `writes` frames in the WAL.
    expect(walFrames(store)).toBeLessThan(writes);
    expect(results.map((r) => (r.ok ? r.message.text : r.rejection.code))).toEqual(
      Array.from({ length: writes }, (_, i) => `message ${i}`),
    );
    expect(results.map((r) => (r.ok ? r.seq : 0))).toEqual(Array.from({ length: writes }, (_, i) => i + 2));
    const logged = (await store.listEvents(c.id)).filter((e) => e.type === 'message.received');
    expect(logged.map((e) => (e.type === 'message.received' ? e.data.message.text : ''))).toEqual(
      Array.from({ length: writes }, (_, i) => `message ${i}`),
    );
  });

  it('a write that fails in a group fails alone: it leaves nothing, and the others of its group are committed', async () => {
    const { path, store, gateway } = setUp();
    const c = await gateway.open();
    const again = await store.getConversation(c.id);
    const before = (await store.listEvents(c.id)).length;
    const [first, duplicate, second, missing] = await Promise.allSettled([
      gateway.receive(c.id, { text: 'before', idempotencyKey: 'a' }),
      // The same conversation id again: the primary key refuses it inside the transaction.
      store.createConversation(again!, {
        schemaVersion: 1,
        id: 'evt_duplicate' as never,
        conversationId: c.id,
        at: new Date().toISOString(),
        type: 'conversation.created',
        data: { conversation: again! },
      }),
      gateway.receive(c.id, { text: 'after', idempotencyKey: 'b' }),
      gateway.receive('conv_missing' as never, { text: 'nobody', idempotencyKey: 'c' }),
    ]);
    expect(first.status).toBe('fulfilled');
    expect(duplicate.status).toBe('rejected');
    expect(String((duplicate as PromiseRejectedResult).reason)).toMatch(/UNIQUE constraint failed/);
    expect(second.status).toBe('fulfilled');
    expect(missing.status === 'fulfilled' && !missing.value.ok && missing.value.rejection.code).toBe('not_found');
    // What was committed is on disk, seen by another connection.
    const other = new Database(path, { readonly: true });
    try {
      const rows = other.prepare('SELECT type FROM events WHERE conversation_id = ? ORDER BY seq').all(c.id) as Array<{ type: string }>;
      expect(rows.length).toBe(before + 2);
      expect(rows.filter((r) => r.type === 'conversation.created')).toHaveLength(1);
    } finally {
      other.close();
    }
  });

  it('close waits for the writes already asked for: they are on disk when it returns', async () => {
    const { path, store, gateway } = setUp();
    // `open` asks the store for its write at once, before its first await.
    const pending = gateway.open();
    await store.close();
    const opened = await pending;
    const reopened = new SqliteStore({ path });
    stores.push(reopened);
    expect((await reopened.getConversation(opened.id))?.id).toBe(opened.id);
  });
});
