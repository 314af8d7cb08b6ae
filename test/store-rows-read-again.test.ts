import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConversationSchema, StoredEventSchema, type QueueId, type StaffId } from '../src/core/index.js';
import type { EventRow } from '../src/store/rows.js';
import { SqliteStore } from '../src/store/sqlite-store.js';
import { gatewayFor, TEST_AGENT } from '../src/testing/gateway-fixture.js';

describe('rows read again', () => {
  it('are the same values as on their first, validated read: fields, values and key order, for every kind of entry of a hand-off and back', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'baton-rows-')), 'baton.sqlite');
    const store = new SqliteStore({ path });
    try {
      const gateway = gatewayFor(store);
      const queue = 'queue_billing' as QueueId;
      const staff = 'staff_ana' as StaffId;
      const c = await gateway.open();
      await gateway.receive(c.id, { text: 'I was charged twice', idempotencyKey: 'k1' });
      await gateway.record(c.id, [
        { type: 'tool.called', data: { agent: TEST_AGENT, name: 'lookup', arguments: { order: 'o1' }, ok: true, output: '{"total": 12}' } },
      ]);
      await gateway.send(c.id, { type: 'agent', id: TEST_AGENT }, 'Let me get a person for you.');
      await gateway.transfer(c.id, {
        agent: TEST_AGENT,
        target: { type: 'queue', id: queue },
        reason: 'customer_request',
        summary: 'refund',
      });
      await gateway.enqueue(c.id, queue);
      const claimed = await gateway.claimNext(queue, staff);
      expect(claimed?.ok).toBe(true);
      await gateway.send(c.id, { type: 'human', id: staff }, 'Refunded.');
      const now = await store.getConversation(c.id);
      await gateway.commandAt(c.id, { type: 'HandBack', staff, agent: null, notes: 'refund done', constraints: [] }, now!.version);

      const first = { conversation: await store.getConversation(c.id), events: await store.listEvents(c.id) };
      const again = { conversation: await store.getConversation(c.id), events: await store.listEvents(c.id) };
      expect(new Set(first.events.map((e) => e.type)).size).toBeGreaterThanOrEqual(6);
      expect(again).toStrictEqual(first);
      expect(JSON.stringify(again)).toBe(JSON.stringify(first));
      // Both are what validating the rows afresh gives.
      const doc = store.db.prepare('SELECT doc FROM conversations WHERE id = ?').get(c.id) as { doc: string };
      expect(again.conversation).toStrictEqual(ConversationSchema.parse(JSON.parse(doc.doc)));
      const rows = store.db.prepare('SELECT * FROM events WHERE conversation_id = ? ORDER BY seq').all(c.id) as EventRow[];
      const fresh = rows.map((r) =>
        StoredEventSchema.parse({
          schemaVersion: r.schema_version,
          id: r.id,
          conversationId: r.conversation_id,
          at: r.at,
          type: r.type,
          data: JSON.parse(r.data),
          seq: Number(r.seq),
        }),
      );
      expect(again.events).toStrictEqual(fresh);
      expect(JSON.stringify(again.events)).toBe(JSON.stringify(fresh));
      // And what is answered is a copy: changing it changes nothing read later.
      (again.events[0]!.data as Record<string, unknown>)['changed'] = true;
      expect(await store.listEvents(c.id)).toStrictEqual(first.events);
    } finally {
      await store.close();
    }
  });
});
