import { describe, expect, it } from 'vitest';
import type { ConversationId, QueueId, StaffId } from '../core/index.js';
import { MemoryStore } from '../store/memory-store.js';
import { fixedClock } from '../testing/fixed-clock.js';
import { gatewayFor, TEST_AGENT } from '../testing/gateway-fixture.js';
import { sequentialIds } from '../testing/sequential-ids.js';

const ana = 'staff_ana' as StaffId;
const ben = 'staff_ben' as StaffId;
const queue = 'queue_general' as QueueId;

/** A memory store that counts reads of a conversation. */
class CountingStore extends MemoryStore {
  reads = 0;
  override async getConversation(id: ConversationId) {
    this.reads += 1;
    return super.getConversation(id);
  }
}
const countingStore = () => new CountingStore();

describe('gateway', () => {
  it('is deterministic with injected ids and clock', async () => {
    const run = async () => {
      const store = new MemoryStore();
      const gateway = gatewayFor(store, { ids: sequentialIds(), clock: fixedClock(Date.UTC(2026, 0, 1), 1000) });
      const c = await gateway.open();
      await gateway.receive(c.id, { text: 'hi', idempotencyKey: 'k' });
      await gateway.claim(c.id, ana);
      return gateway.read(c.id);
    };
    const first = await run();
    expect(await run()).toEqual(first);
    expect(first?.conversation.id).toBe('conv_000001');
    expect(first?.events.map((e) => e.at)).toEqual(['2026-01-01T00:00:00.000Z', '2026-01-01T00:00:01.000Z', '2026-01-01T00:00:02.000Z']);
  });

  it('a fresh basis saves the read; a stale one is decided again against the winner', async () => {
    const store = countingStore();
    const gateway = gatewayFor(store);
    const opened = await gateway.open();
    const claimed = await gateway.claim(opened.id, ana, opened);
    expect(claimed.ok).toBe(true);
    expect(store.reads).toBe(0);
    // Ben's console still shows the conversation as the agent's: his claim must not win.
    const late = await gateway.claim(opened.id, ben, opened);
    expect(late).toMatchObject({ ok: false, rejection: { code: 'already_claimed' } });
    expect((await store.getConversation(opened.id))?.owner).toEqual({ type: 'human', id: ana });
  });

  it('a refusal decided on a stale basis is decided again on the current conversation', async () => {
    const store = countingStore();
    const gateway = gatewayFor(store);
    const opened = await gateway.open();
    const claimed = await gateway.claim(opened.id, ana);
    if (!claimed.ok) throw new Error('claim failed');
    await gateway.handBack(opened.id, { staff: ana });
    // The copy says Ana owns it, so on the copy Ben's claim would be refused; it is the agent's now.
    const result = await gateway.claim(opened.id, ben, claimed.conversation);
    expect(result).toMatchObject({ ok: true, conversation: { owner: { type: 'human', id: ben } } });
  });

  it('a basis of another conversation is ignored', async () => {
    const store = countingStore();
    const gateway = gatewayFor(store);
    const a = await gateway.open();
    const b = await gateway.open();
    const result = await gateway.claim(b.id, ana, a);
    expect(result.ok && result.conversation.id).toBe(b.id);
    expect(store.reads).toBe(1);
  });

  it('reports unknown conversations as not found, for every command', async () => {
    const gateway = gatewayFor(new MemoryStore());
    const id = 'conv_nope' as ConversationId;
    const outcomes = await Promise.all([
      gateway.claim(id, ana),
      gateway.enqueue(id, queue),
      gateway.handBack(id, { staff: ana }),
      gateway.transfer(id, { agent: TEST_AGENT, target: { type: 'queue', id: queue }, reason: 'x', summary: null }),
      gateway.close(id, { type: 'customer' }, 'bye'),
    ]);
    for (const outcome of outcomes) expect(outcome).toMatchObject({ ok: false, rejection: { code: 'not_found' } });
    expect(await gateway.claimNext(queue, ana)).toBeNull();
    expect(await gateway.read(id)).toBeNull();
  });
});
