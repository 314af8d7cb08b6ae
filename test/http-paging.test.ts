import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_MESSAGE_CHARS } from '../src/core/index.js';
import { MAX_LOG_ENTRIES } from '../src/runtime/service/conversation-service.js';
import { notedPolicy, startTestRuntime, type TestRuntime } from './support/runtime-server.js';

let server: TestRuntime;
let staff: string;
beforeAll(async () => {
  server = await startTestRuntime('sqlite', { policy: notedPolicy });
  staff = (await server.staff('agent')).token;
});
afterAll(() => server?.close());

const get = async (path: string, token: string) => {
  const res = await fetch(`${server.base}${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('reads are paged and conversations are bounded', () => {
  it('pages the customer feed and the staff log by cursor, each message once', async () => {
    const c = await server.open();
    for (let i = 0; i < 7; i += 1)
      await server.runtime.service.handleCustomerMessage(c.id, { text: `message ${i}`, idempotencyKey: `k${i}` });
    const texts: string[] = [];
    let cursor = '0';
    for (let page = 0; page < 20; page += 1) {
      const { body } = await get(`/v1/conversations/${c.id}/messages?after=${cursor}&limit=3`, c.token);
      const messages = body['messages'] as Array<{ text: string }>;
      expect(messages.length).toBeLessThanOrEqual(3);
      if (messages.length === 0) break;
      texts.push(...messages.map((m) => m.text));
      cursor = body['cursor'] as string;
    }
    // Everything the customer may see, in log order, none twice.
    const visible = (await server.store.listEvents(c.id)).flatMap((e) =>
      e.type === 'message.received' || e.type === 'message.sent' ? [e.data.message.text] : [],
    );
    expect(visible.length).toBeGreaterThan(7);
    expect(texts).toEqual(visible);
    const all: unknown[] = [];
    cursor = '0';
    for (;;) {
      const { body } = await get(`/v1/conversations/${c.id}?after=${cursor}&limit=5`, staff);
      const events = body['events'] as Array<{ seq: number }>;
      expect(events.length).toBeLessThanOrEqual(5);
      if (events.length === 0) break;
      all.push(...events);
      cursor = body['cursor'] as string;
      // The staff view has no separate message list: each message is once, as its log entry.
      expect(body['messages']).toBeUndefined();
    }
    expect(all).toEqual(await server.store.listEvents(c.id));
    expect((await get(`/v1/conversations/${c.id}/messages?limit=501`, c.token)).status).toBe(400);
  });

  it(`refuses a message over ${MAX_MESSAGE_CHARS} characters, and any once the log holds ${MAX_LOG_ENTRIES} entries`, async () => {
    const c = await server.open();
    const post = (text: string, key: string) =>
      fetch(`${server.base}/v1/conversations/${c.id}/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${c.token}`, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify({ text }),
      });
    expect((await post('x'.repeat(MAX_MESSAGE_CHARS + 1), 'long')).status).toBe(400);
    // Fill the log to its cap with records (as a long conversation's tool calls would).
    const filler = {
      type: 'decider.evaluated',
      data: { phase: 'input', handoff: false, reason: null, target: null, evidence: null },
    } as const;
    const have = (await server.store.listEvents(c.id)).length;
    await server.runtime.service.gateway.record(
      c.id,
      Array.from({ length: MAX_LOG_ENTRIES - have }, () => filler),
    );
    const before = (await server.store.listEvents(c.id)).length;
    const full = await post('one more', 'full');
    expect(full.status).toBe(409);
    expect(((await full.json()) as { error: { code: string } }).error.code).toBe('conversation_full');
    expect((await server.store.listEvents(c.id)).length).toBe(before);
  });

  it('refuses two Idempotency-Key headers rather than joining them', async () => {
    const c = await server.open();
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${server.base}/v1/conversations/${c.id}/messages`, { method: 'POST' }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.setHeader('authorization', `Bearer ${c.token}`);
      req.setHeader('content-type', 'application/json');
      req.setHeader('idempotency-key', ['a', 'b']);
      req.on('error', reject);
      req.end(JSON.stringify({ text: 'hi' }));
    });
    expect(status).toBe(400);
    expect(await server.store.listEvents(c.id)).toHaveLength(1);
  });

  it('answers headers that are too large with 431 and the error body', async () => {
    const { connect } = await import('node:net');
    const url = new URL(server.base);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write(`GET /health HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`);
      });
      let data = '';
      socket.on('data', (d) => (data += d.toString()));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 431/);
    expect(answer).toContain('"code":"headers_too_large"');
  });
});
