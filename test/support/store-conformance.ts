import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditLog,
  plan,
  SCHEMA_VERSION,
  type AgentId,
  type Conversation,
  type ConversationId,
  type EventId,
  type Message,
  type NewEvent,
  type QueueId,
  type StaffId,
} from '../../src/core/index.js';
import { gatewayFor, TEST_AGENT } from '../../src/testing/gateway-fixture.js';
import type { Gateway } from '../../src/runtime/gateway.js';
import type { Store } from '../../src/store/store.js';
import { describeStorableText } from './store-text-conformance.js';

/** Makes a store for the suite; `reopen` opens the same data again (persistent adapters only). */
export interface StoreHarness {
  store: Store;
  reopen?: () => Promise<Store>;
}

const queueA = 'queue_billing' as QueueId;
const queueB = 'queue_tech' as QueueId;
const staff = 'staff_ana' as StaffId;

/**
 * The Store conformance suite: every adapter must pass it unchanged. The memory store is the
 * reference; where results carry data (events, suppressed messages), adapters must agree exactly.
 */
export function describeStoreConformance(name: string, open: () => Promise<StoreHarness>, options: { persistent: boolean }): void {
  describe(`Store conformance: ${name}`, () => {
    let harness: StoreHarness;
    let store: Store;
    let gateway: Gateway;

    beforeAll(async () => {
      harness = await open();
      store = harness.store;
      gateway = gatewayFor(store);
    });
    afterAll(async () => {
      await store.close();
    });

    async function queued(queue: QueueId): Promise<Conversation> {
      const c = await gateway.open();
      const t = await gateway.transfer(c.id, {
        agent: TEST_AGENT,
        target: { type: 'queue', id: queue },
        reason: 'customer_request',
        summary: null,
      });
      expect(t.ok).toBe(true);
      const q = await gateway.enqueue(c.id, queue);
      if (!q.ok) throw new Error(q.rejection.message);
      return q.conversation;
    }

    it('creates a conversation with its creation event and reads it back unchanged', async () => {
      const c = await gateway.open({ channel: 'web', customerId: 'cust_1' });
      expect(await store.getConversation(c.id)).toEqual(c);
      const events = await store.listEvents(c.id);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ seq: 1, type: 'conversation.created', conversationId: c.id, schemaVersion: SCHEMA_VERSION });
      expect(await store.listConversationIds()).toContain(c.id);
    });

    it('returns null and empty lists for an unknown conversation', async () => {
      const id = 'conv_unknown' as ConversationId;
      expect(await store.getConversation(id)).toBeNull();
      expect(await store.listMessages(id)).toEqual([]);
      expect(await store.listEvents(id)).toEqual([]);
    });

    it('stores an inbound message once per idempotency key', async () => {
      const c = await gateway.open();
      const first = await gateway.receive(c.id, { text: 'hello', idempotencyKey: 'k1' });
      const again = await gateway.receive(c.id, { text: 'hello (redelivered)', idempotencyKey: 'k1' });
      const other = await gateway.receive(c.id, { text: 'second', idempotencyKey: 'k2' });
      if (!first.ok || !again.ok || !other.ok) throw new Error('receive failed');
      expect([first.duplicate, again.duplicate, other.duplicate]).toEqual([false, true, false]);
      expect(again.message).toEqual(first.message);
      const messages = await store.listMessages(c.id);
      expect(messages.map((m) => m.text)).toEqual(['hello', 'second']);
      expect((await store.listEvents(c.id)).filter((e) => e.type === 'message.received')).toHaveLength(2);
    });

    it('keeps idempotency keys per conversation', async () => {
      const a = await gateway.open();
      const b = await gateway.open();
      const ra = await gateway.receive(a.id, { text: 'x', idempotencyKey: 'same' });
      const rb = await gateway.receive(b.id, { text: 'x', idempotencyKey: 'same' });
      expect(ra.ok && rb.ok && !ra.duplicate && !rb.duplicate).toBe(true);
    });

    it('stores 100 concurrent deliveries of one message once', async () => {
      const c = await gateway.open();
      const results = await Promise.all(Array.from({ length: 100 }, () => gateway.receive(c.id, { text: 'once', idempotencyKey: 'dup' })));
      expect(results.filter((r) => r.ok && !r.duplicate)).toHaveLength(1);
      expect(results.filter((r) => r.ok && r.duplicate)).toHaveLength(99);
      expect(await store.listMessages(c.id)).toHaveLength(1);
      expect((await store.listEvents(c.id)).filter((e) => e.type === 'message.received')).toHaveLength(1);
    });

    it('refuses inbound and outbound messages for an unknown conversation', async () => {
      const id = 'conv_missing' as ConversationId;
      expect(await gateway.receive(id, { text: 'x', idempotencyKey: 'k' })).toMatchObject({ ok: false });
      expect(await gateway.send(id, { type: 'agent', id: TEST_AGENT }, 'x')).toMatchObject({ ok: false });
    });

    it('applies a transition only at the expected version (compare-and-set)', async () => {
      const c = await gateway.open();
      const planned = plan(c, { type: 'ClaimConversation', staff }, gateway.policy, new Date().toISOString());
      if (!planned.ok) throw new Error('plan failed');
      const event = (type: 'conversation.claimed') =>
        ({
          schemaVersion: 1,
          id: `evt_${Math.random().toString(36).slice(2)}` as EventId,
          conversationId: c.id,
          at: planned.next.updatedAt,
          type,
          data: planned.events[0]!.data,
        }) as NewEvent;
      const stale = await store.transition({
        conversationId: c.id,
        expectedVersion: c.version - 1,
        next: planned.next,
        events: [event('conversation.claimed')],
      });
      expect(stale).toEqual({ ok: false, reason: 'version_conflict', current: c });
      const ok = await store.transition({
        conversationId: c.id,
        expectedVersion: c.version,
        next: planned.next,
        events: [event('conversation.claimed')],
      });
      expect(ok.ok && ok.events.map((e) => e.seq)).toEqual([2]);
      expect(await store.getConversation(c.id)).toEqual(planned.next);
      const again = await store.transition({
        conversationId: c.id,
        expectedVersion: c.version,
        next: planned.next,
        events: [event('conversation.claimed')],
      });
      expect(again.ok).toBe(false);
      const missing = await store.transition({
        conversationId: 'conv_nope' as ConversationId,
        expectedVersion: 1,
        next: planned.next,
        events: [event('conversation.claimed')],
      });
      expect(missing).toEqual({ ok: false, reason: 'not_found', current: null });
    });

    it('delivers only from the party who may speak, and logs what it suppresses', async () => {
      const c = await gateway.open();
      const agent = { type: 'agent', id: TEST_AGENT } as const;
      const delivered = await gateway.send(c.id, agent, 'agent reply');
      expect(delivered).toMatchObject({ ok: true, delivered: true });
      const fromHuman = await gateway.send(c.id, { type: 'human', id: staff }, 'too early');
      expect(fromHuman).toMatchObject({ ok: true, delivered: false, reason: 'not_speaker' });
      expect(await gateway.claim(c.id, staff)).toMatchObject({ ok: true });
      const late = await gateway.send(c.id, agent, 'late agent reply');
      if (!late.ok || late.delivered) throw new Error('expected suppression');
      expect(late.event.type).toBe('message.suppressed');
      expect(late.event.data).toEqual({ sender: agent, text: 'late agent reply', speaker: `human:${staff}`, state: 'HUMAN_ACTIVE' });
      const human = await gateway.send(c.id, { type: 'human', id: staff }, 'hi, I am Ana');
      expect(human).toMatchObject({ ok: true, delivered: true });
      const texts = (await store.listMessages(c.id)).map((m) => m.text);
      expect(texts).toEqual(['agent reply', 'hi, I am Ana']);
      const types = (await store.listEvents(c.id)).map((e) => e.type);
      expect(types).toEqual([
        'conversation.created',
        'message.sent',
        'message.suppressed',
        'conversation.claimed',
        'message.suppressed',
        'message.sent',
      ]);
    });

    it('lets the system speak only while the conversation waits for a human', async () => {
      const c = await queued(queueA);
      expect(await gateway.send(c.id, { type: 'system' }, 'A person will be with you shortly.')).toMatchObject({ delivered: true });
      await gateway.claim(c.id, staff);
      expect(await gateway.send(c.id, { type: 'system' }, 'still waiting?')).toMatchObject({ delivered: false });
      await gateway.close(c.id, { type: 'human', id: staff }, 'resolved');
      expect(await gateway.send(c.id, { type: 'human', id: staff }, 'after close')).toMatchObject({ delivered: false });
    });

    it('claims the oldest queued conversation of a queue first, and only from that queue', async () => {
      const first = await queued(queueA);
      const other = await queued(queueB);
      const second = await queued(queueA);
      const claims: ConversationId[] = [];
      for (;;) {
        const r = await gateway.claimNext(queueA, staff);
        if (r === null) break;
        if (!r.ok) throw new Error(r.rejection.message);
        claims.push(r.conversation.id);
        expect(r.conversation).toMatchObject({ state: 'HUMAN_ACTIVE', owner: { type: 'human', id: staff } });
      }
      expect(claims.indexOf(first.id)).toBeLessThan(claims.indexOf(second.id));
      expect(claims).not.toContain(other.id);
      expect(await store.getConversation(other.id)).toMatchObject({ state: 'QUEUED' });
    });

    it('never lets two concurrent claimers win the same conversation', async () => {
      const queue = `queue_race_${Math.random().toString(36).slice(2)}` as QueueId;
      const ids = new Set<string>();
      for (let i = 0; i < 6; i += 1) ids.add((await queued(queue)).id);
      const results = await Promise.all(Array.from({ length: 24 }, (_, i) => gateway.claimNext(queue, `staff_${i}` as StaffId)));
      const won = results.flatMap((r) => (r && r.ok ? [r.conversation.id] : []));
      expect(new Set(won).size).toBe(won.length);
      expect(new Set(won)).toEqual(ids);
      for (const id of ids) {
        const claimed = (await store.listEvents(id as ConversationId)).filter((e) => e.type === 'conversation.claimed');
        expect(claimed).toHaveLength(1);
      }
    });

    it('keeps a log that replays to the stored conversation through a full life cycle', async () => {
      const c = await gateway.open();
      const agent = TEST_AGENT;
      await gateway.receive(c.id, { text: 'I want a refund', idempotencyKey: 'a' });
      await gateway.send(c.id, { type: 'agent', id: agent }, 'Let me check.');
      await gateway.transfer(c.id, {
        agent,
        target: { type: 'queue', id: queueA },
        reason: 'value_threshold',
        summary: 'refund above limit',
      });
      await gateway.enqueue(c.id, queueA);
      await gateway.claim(c.id, staff);
      await gateway.startAssist(c.id, staff);
      await gateway.endAssist(c.id, staff);
      const constraints = [{ tool: 'refund_charge', args: { order_id: '7731' }, note: 'no refund for order 7731' }];
      await gateway.handBack(c.id, { staff, notes: 'refused the refund', constraints, agent: 'agent_followup' as AgentId });
      await gateway.close(c.id, { type: 'customer' }, 'done');
      const stored = await store.getConversation(c.id);
      const events = await store.listEvents(c.id);
      const messages: Message[] = await store.listMessages(c.id);
      const audit = auditLog(events, messages);
      expect(audit.violations).toEqual([]);
      expect(audit.replayed).toEqual(stored);
      expect(stored).toMatchObject({
        state: 'CLOSED',
        version: 8,
        handoffCount: 1,
        lastHumanId: staff,
        constraints,
        agentId: 'agent_followup',
      });
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    });

    it('appends records of the agent’s work in log order, and refuses anything else as records', async () => {
      const c = await gateway.open();
      await gateway.receive(c.id, { text: 'refund my duplicate charge', idempotencyKey: 'r1' });
      const stored = await gateway.record(c.id, [
        { type: 'tool.called', data: { agent: TEST_AGENT, name: 'get_charges', arguments: { customer_id: 'c1' }, ok: true, output: '[]' } },
        { type: 'decider.evaluated', data: { phase: 'after_tool', handoff: false, reason: null, target: null, evidence: null } },
      ]);
      expect(stored?.map((e) => e.seq)).toEqual([3, 4]);
      const events = await store.listEvents(c.id);
      expect(events.map((e) => e.type)).toEqual(['conversation.created', 'message.received', 'tool.called', 'decider.evaluated']);
      expect(events[2]).toMatchObject({ data: { name: 'get_charges', arguments: { customer_id: 'c1' }, ok: true } });
      expect(await store.getConversation(c.id)).toEqual(c);
      expect(await gateway.record('conv_unknown' as ConversationId, [{ type: 'packet.built', data: { packet: {} } }])).toBeNull();
      const created = events[0]!;
      await expect(store.appendRecords(c.id, [{ ...created, id: 'evt_x' as EventId }])).rejects.toThrow(/appendRecords takes/);
    });

    it('refuses to rewrite the event log', async () => {
      const c = await gateway.open();
      const before = await store.listEvents(c.id);
      if (store.kind === 'memory') {
        // The memory store hands out its stored entries frozen: they cannot be changed, nor can the
        // list a read returned change the log; and what a writer passes in is copied, not kept.
        expect(() => {
          before[0]!.type = 'message.sent';
        }).toThrow(TypeError);
        before.pop();
        const conversation = await store.getConversation(c.id);
        expect(() => {
          (conversation as { version: number }).version = 99;
        }).toThrow(TypeError);
        await gateway.receive(c.id, { text: 'hello', idempotencyKey: 'k-frozen' });
        const [received] = await store.listMessages(c.id);
        const mine: Message = { ...received!, id: `${received!.id}_2` as Message['id'], idempotencyKey: 'k-mine' };
        expect(await store.appendInbound(mine, 'evt_mine' as EventId)).toMatchObject({ ok: true, duplicate: false });
        mine.text = 'changed after the write';
        const after = await store.listEvents(c.id);
        expect(after.map((e) => e.type)).toEqual(['conversation.created', 'message.received', 'message.received']);
        expect((await store.listMessages(c.id)).map((m) => m.text)).toEqual(['hello', 'hello']);
        return;
      }
      const attempt =
        store.kind === 'sqlite'
          ? async () =>
              (store as unknown as { db: { exec(sql: string): void } }).db.exec(`DELETE FROM events WHERE conversation_id = '${c.id}'`)
          : async () =>
              (store as unknown as { pool: { query(sql: string): Promise<unknown> } }).pool.query(
                `UPDATE events SET type = 'x' WHERE conversation_id = '${c.id}'`,
              );
      await expect(attempt()).rejects.toThrow(/append-only/);
      expect(await store.listEvents(c.id)).toEqual(before);
    });

    describeStorableText(() => ({ store, gateway }));

    it("stores a turn's records and its reply together, records first, delivered or suppressed", async () => {
      const c = await gateway.open();
      const records = [
        { type: 'decider.evaluated', data: { phase: 'input', handoff: false, reason: null, target: null, evidence: null } },
      ] as const;
      const sent = await gateway.send(c.id, { type: 'agent', id: TEST_AGENT }, 'hello', [...records]);
      expect(sent).toMatchObject({ ok: true, delivered: true });
      expect((await store.listEvents(c.id)).map((e) => e.type)).toEqual(['conversation.created', 'decider.evaluated', 'message.sent']);
      await gateway.claim(c.id, staff);
      const late = await gateway.send(c.id, { type: 'agent', id: TEST_AGENT }, 'late', [...records]);
      expect(late).toMatchObject({ ok: true, delivered: false });
      expect((await store.listEvents(c.id)).map((e) => e.type).slice(-2)).toEqual(['decider.evaluated', 'message.suppressed']);
      expect(await gateway.send('conv_missing' as ConversationId, { type: 'system' }, 'x', [...records])).toMatchObject({ ok: false });
    });

    if (options.persistent) {
      it('keeps everything across a reopen', async () => {
        if (!harness.reopen) throw new Error('a persistent store harness must offer reopen');
        const c = await gateway.open();
        await gateway.receive(c.id, { text: 'persist me', idempotencyKey: 'p' });
        const reopened = await harness.reopen();
        try {
          expect(await reopened.getConversation(c.id)).toEqual(c);
          expect((await reopened.listMessages(c.id)).map((m) => m.text)).toEqual(['persist me']);
          expect(await reopened.listEvents(c.id)).toEqual(await store.listEvents(c.id));
        } finally {
          await reopened.close();
        }
      });
    }
  });
}
