import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StaffId } from '../src/core/index.js';
import { handoffPolicy, startTestRuntime, type TestRuntime } from './support/runtime-server.js';

let server: TestRuntime;
let supervisor: string;

beforeAll(async () => {
  server = await startTestRuntime('sqlite', {
    policy: handoffPolicy,
    metricsToken: 'scrape-secret-of-this-test',
  });
  supervisor = (await server.staff('supervisor')).token;
  const staff = await server.staff('agent', ['billing']);
  const { service } = server.runtime;
  // Two hand-offs; a person answers one of them.
  for (const n of [1, 2]) {
    const c = await server.open();
    await service.handleCustomerMessage(c.id, { text: 'I was charged twice', idempotencyKey: `k${n}` });
    if (n === 1) {
      const queued = (await server.store.getConversation(c.id))!;
      const claimed = await service.claim(c.id, staff.id as StaffId, queued.version);
      if (!claimed.ok) throw new Error(claimed.rejection.message);
      await service.reply(c.id, staff.id as StaffId, { text: 'Hello, I am here.', version: claimed.conversation.version });
    }
  }
});
afterAll(() => server?.close());

describe('runtime metrics over HTTP', () => {
  it('GET /v1/metrics gives the figures of the log, with their counts', async () => {
    const res = await fetch(`${server.base}/v1/metrics`, { headers: { authorization: `Bearer ${supervisor}` } });
    expect(res.status).toBe(200);
    const m = (await res.json()) as Record<string, unknown>;
    expect(m['handoffs']).toBe(2);
    expect(m['handoffRateByReason']).toEqual({ customer_request: { count: 2, of: 2, rate: 1, handoffs: 2 } });
    expect(m['timeToHumanMs']).toMatchObject({ answered: 1, unanswered: 1 });
    const bad = await fetch(`${server.base}/v1/metrics?since=yesterday`, { headers: { authorization: `Bearer ${supervisor}` } });
    expect(bad.status).toBe(400);
  });

  it('an agent sees the figures of the queues they work, and nothing of the others', async () => {
    const billing = (await server.staff('agent', ['billing'])).token;
    const legal = (await server.staff('agent', ['legal'])).token;
    const mine = (await (await fetch(`${server.base}/v1/metrics`, { headers: { authorization: `Bearer ${billing}` } })).json()) as Record<
      string,
      unknown
    >;
    expect(mine).toMatchObject({ scope: 'own_queues', queues: ['queue_billing'], handoffs: 2, byAgent: {} });
    expect(Object.keys(mine['byQueue'] as object)).toEqual(['queue_billing']);
    // Both hand-offs waited in billing's queue: a legal agent's figures have none of them.
    const other = (await (await fetch(`${server.base}/v1/metrics`, { headers: { authorization: `Bearer ${legal}` } })).json()) as Record<
      string,
      unknown
    >;
    expect(other).toMatchObject({ scope: 'own_queues', queues: ['queue_legal'], handoffs: 0, byQueue: {} });
    const all = (await (await fetch(`${server.base}/v1/metrics`, { headers: { authorization: `Bearer ${supervisor}` } })).json()) as Record<
      string,
      unknown
    >;
    expect(all['scope']).toBe('all');
  });

  it('GET /metrics parses as Prometheus text format and carries the same figures', async () => {
    expect((await fetch(`${server.base}/metrics`)).status).toBe(401);
    expect((await fetch(`${server.base}/metrics`, { headers: { authorization: `Bearer ${supervisor}` } })).status).toBe(401);
    const res = await fetch(`${server.base}/metrics`, { headers: { authorization: 'Bearer scrape-secret-of-this-test' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const families = parsePrometheusTextFormat(await res.text());
    const family = (name: string) => families.find((f) => f.name === name);
    expect(family('baton_handoffs')?.metrics).toEqual([{ labels: { reason: 'customer_request' }, value: '2' }]);
    expect(family('baton_handoffs_unanswered')?.metrics).toEqual([{ value: '1' }]);
    expect(
      family('baton_time_to_human_seconds')
        ?.metrics.map((s) => s.labels?.['quantile'])
        .sort(),
    ).toEqual(['0.5', '0.95']);
    expect(family('baton_conversations_served')?.type).toBe('GAUGE');
  });
});
