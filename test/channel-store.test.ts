/**
 * One suite for every ChannelStore adapter (memory, the reference; SQLite; PostgreSQL): an address
 * binds once however many race for it, moves only from the conversation it led to, the window's
 * start and the delivery cursor never move back, and a provider's message id and each status are
 * known once. The tables are migration 5's, beside the conversations.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION, newConversation, type ConversationId, type EventId } from '../src/core/index.js';
import type { ChannelStore } from '../src/store/channel-store.js';
import { channelStoreFor } from '../src/store/sql-channel-store.js';
import type { Store } from '../src/store/store.js';
import { openTestStore } from './support/runtime-server.js';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups) await c();
});

let n = 0;
async function conversation(store: Store): Promise<ConversationId> {
  n += 1;
  const id = `conv_${String(n).padStart(13, '0')}${'a'.repeat(16)}` as ConversationId;
  const at = new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();
  const c = newConversation({ id, agentId: 'agent_support' as never, channel: 'whatsapp', customerId: null, at });
  await store.createConversation(c, {
    schemaVersion: SCHEMA_VERSION,
    id: `evt_${String(n).padStart(13, '0')}${'b'.repeat(16)}` as EventId,
    conversationId: id,
    at,
    type: 'conversation.created',
    data: { conversation: c },
  });
  return id;
}

for (const kind of ['memory', 'sqlite', 'postgres'] as const) {
  describe(`ChannelStore (${kind})`, () => {
    let store: Store;
    let channels: ChannelStore;
    const ready = (async () => {
      const opened = await openTestStore(kind);
      store = opened.store;
      channels = channelStoreFor(store);
      cleanups.push(async () => {
        await store.close();
        opened.cleanup();
      });
    })();

    it('binds an address once: of two racing binds, both get the winner', async () => {
      await ready;
      const [a, b] = [await conversation(store), await conversation(store)];
      const at = '2026-01-02T00:00:00.000Z';
      const [x, y] = await Promise.all([
        channels.bind({ channel: 'whatsapp', address: '1:44', conversationId: a, boundAt: at }),
        channels.bind({ channel: 'whatsapp', address: '1:44', conversationId: b, boundAt: at }),
      ]);
      expect(x.conversationId).toBe(y.conversationId);
      expect(x).toEqual({
        channel: 'whatsapp',
        address: '1:44',
        conversationId: x.conversationId,
        lastCustomerAt: null,
        deliveredSeq: 0,
        boundAt: at,
      });
      expect(await channels.bindingOf('whatsapp', '1:44')).toEqual(x);
      expect(await channels.bindingFor(x.conversationId)).toEqual(x);
      expect(await channels.bindingOf('whatsapp', '1:45')).toBeNull();
      expect(await channels.bindingOf('webhook:crm', '1:44')).toBeNull();
    });

    it('moves an address only from the conversation it led to, starting afresh', async () => {
      await ready;
      const [a, b, c] = [await conversation(store), await conversation(store), await conversation(store)];
      await channels.bind({ channel: 'whatsapp', address: '2:44', conversationId: a, boundAt: '2026-01-02T00:00:00.000Z' });
      await channels.noteCustomerMessage(a, '2026-01-02T01:00:00.000Z');
      await channels.advanceDelivered(a, 7);
      expect(await channels.rebind('whatsapp', '2:44', b, c, '2026-01-03T00:00:00.000Z')).toBe(false);
      expect(await channels.rebind('whatsapp', '2:44', a, b, '2026-01-03T00:00:00.000Z')).toBe(true);
      expect(await channels.bindingOf('whatsapp', '2:44')).toEqual({
        channel: 'whatsapp',
        address: '2:44',
        conversationId: b,
        lastCustomerAt: null,
        deliveredSeq: 0,
        boundAt: '2026-01-03T00:00:00.000Z',
      });
      expect(await channels.bindingFor(a)).toBeNull();
    });

    it('keeps the latest customer time and the furthest delivery cursor', async () => {
      await ready;
      const a = await conversation(store);
      await channels.bind({ channel: 'whatsapp', address: '3:44', conversationId: a, boundAt: '2026-01-02T00:00:00.000Z' });
      await channels.noteCustomerMessage(a, '2026-01-02T05:00:00.000Z');
      await channels.noteCustomerMessage(a, '2026-01-02T04:00:00.000Z');
      await channels.advanceDelivered(a, 9);
      await channels.advanceDelivered(a, 4);
      expect(await channels.bindingFor(a)).toMatchObject({ lastCustomerAt: '2026-01-02T05:00:00.000Z', deliveredSeq: 9 });
      await channels.noteCustomerMessage(a, '2026-01-02T06:00:00.000Z');
      expect((await channels.bindingFor(a))!.lastCustomerAt).toBe('2026-01-02T06:00:00.000Z');
      expect((await channels.listBindings(1000)).map((b) => b.address)).toContain('3:44');
    });

    it("lends a conversation's delivery to one owner at a time, until the lease runs out or is given up", async () => {
      await ready;
      const a = await conversation(store);
      const t = (minutes: number) => new Date(Date.UTC(2026, 0, 2, 0, minutes)).toISOString();
      expect(await channels.lease(a, 'one', t(0), t(1))).toBe(false); // Not bound yet: nothing to deliver.
      await channels.bind({ channel: 'whatsapp', address: '4:44', conversationId: a, boundAt: t(0) });
      const [x, y] = await Promise.all([channels.lease(a, 'one', t(0), t(1)), channels.lease(a, 'two', t(0), t(1))]);
      expect([x, y].filter(Boolean)).toHaveLength(1);
      const holder = x ? 'one' : 'two';
      const other = x ? 'two' : 'one';
      expect(await channels.lease(a, holder, t(0), t(2))).toBe(true); // Renewed by its holder.
      expect(await channels.lease(a, other, t(1), t(3))).toBe(false);
      expect(await channels.lease(a, other, t(2), t(3))).toBe(true); // Ran out at t(2).
      await channels.release(a, holder); // Not the holder now: changes nothing.
      expect(await channels.lease(a, holder, t(2), t(3))).toBe(false);
      await channels.release(a, other);
      expect(await channels.lease(a, holder, t(2), t(3))).toBe(true);
      // The lease is not part of what a binding says.
      expect(Object.keys((await channels.bindingFor(a))!).sort()).toEqual([
        'address',
        'boundAt',
        'channel',
        'conversationId',
        'deliveredSeq',
        'lastCustomerAt',
      ]);
    });

    it('knows a provider message id and each status once', async () => {
      await ready;
      const a = await conversation(store);
      const m = { channel: 'whatsapp', providerMessageId: 'wamid.X', conversationId: a, messageId: null, direction: 'inbound' as const };
      expect(await channels.rememberMessage(m)).toBe('added');
      expect(await channels.rememberMessage({ ...m, direction: 'outbound' })).toBe('exists');
      expect(await channels.messageByProviderId('whatsapp', 'wamid.X')).toEqual(m);
      expect(await channels.messageByProviderId('webhook:crm', 'wamid.X')).toBeNull();
      expect(await channels.addStatus('whatsapp', 'wamid.X', 'delivered')).toBe('added');
      expect(await channels.addStatus('whatsapp', 'wamid.X', 'delivered')).toBe('exists');
      expect(await channels.addStatus('whatsapp', 'wamid.X', 'read')).toBe('added');
    });
  });
}
