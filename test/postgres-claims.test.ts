import { describe, expect, it, vi } from 'vitest';
import type { QueueId, StaffId } from '../src/core/index.js';
import { PostgresStore } from '../src/store/postgres-store.js';
import { gatewayFor, TEST_AGENT } from '../src/testing/gateway-fixture.js';
import { testPostgres } from './support/postgres.js';

describe('queue claims on PostgreSQL', () => {
  it('a conversation held for a moment by an ordinary write is still claimed, not reported as an empty queue', async () => {
    const server = await testPostgres();
    const store = await PostgresStore.open({ url: await server.createDatabase() });
    try {
      const gateway = gatewayFor(store);
      const queue = 'queue_billing' as QueueId;
      const c = await gateway.open();
      await gateway.transfer(c.id, { agent: TEST_AGENT, target: { type: 'queue', id: queue }, reason: 'customer_request', summary: null });
      await gateway.enqueue(c.id, queue);
      // Another session holds the row, as a holding message being written does.
      const holder = await store.pool.connect();
      await holder.query('BEGIN');
      await holder.query('UPDATE conversations SET event_seq = event_seq WHERE id = $1', [c.id]);
      const claim = gateway.claimNext(queue, 'staff_ana' as StaffId);
      // Wait until the claim is waiting on the held row (not for a fixed time), then release it.
      await vi.waitFor(async () => {
        const { rows } = await store.pool.query<{ n: string }>("SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock'");
        expect(Number(rows[0]!.n)).toBeGreaterThan(0);
      });
      await holder.query('COMMIT');
      holder.release();
      expect(await claim).toMatchObject({ ok: true, conversation: { id: c.id, state: 'HUMAN_ACTIVE' } });
    } finally {
      await store.close();
    }
  });
});
