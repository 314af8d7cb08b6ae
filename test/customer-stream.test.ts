/**
 * The customer stream (`GET /v1/conversations/:id/stream`) over a real WebSocket (`ws`) against a
 * composed runtime on SQLite and on PostgreSQL: who may open it (the conversation's own customer
 * token, as a subprotocol; from this server's pages or no browser at all); it sends exactly what
 * the long-poll route answers, after the cursor, live, and after a reconnect exactly what was
 * missed; a write that wakes nobody still arrives (the log is the truth). And "Talk to a person"
 * (`POST …/request-person`): stored once per key, the decider hands off (customer_request), the
 * conversation waits in a queue and the customer is told so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ConversationId } from '../src/core/index.js';
import type { CustomerMessage } from '../src/runtime/service/customer-feed.js';
import { TALK_TO_PERSON_TEXT } from '../src/runtime/service/conversation-service.js';
import { CUSTOMER_STREAM_PROTOCOL, type CustomerStreamMessage } from '../src/server/customer-stream-protocol.js';
import { notedPolicy, startTestRuntime, type TestRuntime } from './support/runtime-server.js';

let runtime: TestRuntime;
let wsBase: string;

const protocols = (token: string) => [CUSTOMER_STREAM_PROTOCOL, token];

/** A stream client that queues what it is sent, so a test can wait for the messages it expects. */
async function connect(id: string, token: string, after = '0', headers: Record<string, string> = {}) {
  const socket = new WebSocket(`${wsBase}/v1/conversations/${id}/stream?after=${after}`, protocols(token), { headers });
  const inbox: CustomerStreamMessage[] = [];
  const waiters: Array<() => void> = [];
  socket.on('message', (data) => {
    inbox.push(JSON.parse(data.toString()) as CustomerStreamMessage);
    for (const w of waiters.splice(0)) w();
  });
  // A close wakes whoever waits, so that a stream the server ended fails the test with its code and reason at once.
  let closedWith: string | null = null;
  const closed = new Promise<number>((resolve) =>
    socket.on('close', (code, reason) => {
      closedWith = `${code} ${reason.toString()}`;
      for (const w of waiters.splice(0)) w();
      resolve(code);
    }),
  );
  const waitForMore = async () => {
    if (closedWith !== null) throw new Error(`the stream closed (${closedWith}) before the messages the test waits for came`);
    await new Promise<void>((resolve) => waiters.push(resolve));
  };
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    socket.once('error', reject);
  });
  let cursor = after;
  return {
    socket,
    closed,
    get cursor() {
      return cursor;
    },
    /** Messages until `count` have come, in order, checking each batch's cursor moves on. */
    async take(count: number): Promise<CustomerMessage[]> {
      const got: CustomerMessage[] = [];
      while (got.length < count) {
        const next = inbox.shift();
        if (!next) {
          await waitForMore();
          continue;
        }
        if (next.type === 'ready') {
          expect(next.cursor).toBe(after);
          continue;
        }
        if (next.type !== 'messages') throw new Error(`unexpected ${JSON.stringify(next)}`);
        expect(Number(next.cursor)).toBeGreaterThan(Number(cursor));
        cursor = next.cursor;
        got.push(...next.messages);
      }
      expect(got).toHaveLength(count);
      return got;
    },
    /** The next message of any type. */
    async next(): Promise<CustomerStreamMessage> {
      while (inbox.length === 0) await waitForMore();
      return inbox.shift()!;
    },
    close: () => socket.close(),
  };
}

/** The HTTP status a refused upgrade gets. */
function refusal(path: string, offered: string[], headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${wsBase}${path}`, offered, { headers });
    socket.on('error', () => {});
    socket.once('unexpected-response', (req, res) => {
      resolve(res.statusCode ?? 0);
      req.destroy();
    });
    socket.once('open', () => reject(new Error('the stream opened')));
  });
}

async function post(path: string, token: string, body: unknown, key?: string) {
  const res = await fetch(`${runtime.base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...(key ? { 'idempotency-key': key } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Everything the long-poll route answers after `after`, page by page. */
async function longPoll(id: string, token: string, after = '0'): Promise<CustomerMessage[]> {
  const res = await fetch(`${runtime.base}/v1/conversations/${id}/messages?after=${after}&limit=500`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { messages: CustomerMessage[] }).messages;
}

describe.each(['sqlite', 'postgres'] as const)('the customer stream on %s', (kind) => {
  beforeAll(async () => {
    runtime = await startTestRuntime(kind, { policy: () => notedPolicy() });
    wsBase = runtime.base.replace('http:', 'ws:');
  });
  afterAll(async () => {
    await runtime?.close();
  });

  it("opens only with the conversation's own customer token, as a subprotocol, from this server's pages", async () => {
    const c = await runtime.open();
    const other = await runtime.open();
    const ana = await runtime.staff('agent', ['billing']);
    const path = `/v1/conversations/${c.id}/stream`;
    expect(await refusal(path, [])).toBe(401);
    expect(await refusal(path, [CUSTOMER_STREAM_PROTOCOL])).toBe(401);
    // The token first would be echoed back as the chosen protocol: refused.
    expect(await refusal(path, [c.token, CUSTOMER_STREAM_PROTOCOL])).toBe(401);
    expect(await refusal(path, [CUSTOMER_STREAM_PROTOCOL, 'ct_not-a-token'])).toBe(404);
    expect(await refusal(path, protocols(other.token))).toBe(404);
    expect(await refusal(`/v1/conversations/conv_nobody/stream`, protocols(c.token))).toBe(404);
    expect(await refusal(path, protocols(ana.token))).toBe(403);
    expect(await refusal(path, protocols(c.token), { origin: 'http://evil.example' })).toBe(403);
    expect(await refusal(path, protocols(c.token), { origin: 'null' })).toBe(403);
    expect(await refusal(`${path}?after=-1`, protocols(c.token))).toBe(400);
    expect(await refusal(`${path}?token=${c.token}`, protocols(c.token))).toBe(400);

    const fromPage = await connect(c.id, c.token, '0', { origin: runtime.base });
    // The server picks the protocol name, never the token.
    expect(fromPage.socket.protocol).toBe(CUSTOMER_STREAM_PROTOCOL);
    fromPage.close();
    const noBrowser = await connect(c.id, c.token);
    await expect(noBrowser.next()).resolves.toEqual({ type: 'ready', cursor: '0' });
    noBrowser.socket.send('hello');
    await expect(noBrowser.next()).resolves.toMatchObject({ type: 'error', code: 'invalid_request' });
    noBrowser.close();
  });

  it('sends what the long-poll answers after the cursor, live, and after a reconnect exactly what was missed', async () => {
    const c = await runtime.open();
    const first = await connect(c.id, c.token);
    expect((await post(`/v1/conversations/${c.id}/messages`, c.token, { text: 'hello' }, 'k-1')).status).toBe(201);
    const opening = await first.take(2);
    expect(opening.map((m) => [m.from, m.text])).toEqual([
      ['customer', 'hello'],
      ['agent', 'Noted.'],
    ]);
    expect(opening).toEqual(await longPoll(c.id, c.token));
    const cursor = first.cursor;
    first.close();
    await first.closed;

    // Disconnected: three more exchanges land; a stream from the cursor gets exactly those, once.
    // Each exchange ends before the next message is sent: messages stored before a turn runs are
    // answered by that one turn, so sending them back to back would leave the count to timing. The
    // questions differ, so the decider reads no loop in them.
    const questions = ['what is my balance', 'when is my bill due', 'can I pay by card'];
    for (const [i, text] of questions.entries()) {
      expect((await post(`/v1/conversations/${c.id}/messages`, c.token, { text }, `k-${i + 2}`)).status).toBe(201);
      await runtime.runtime.service.idle();
    }
    const second = await connect(c.id, c.token, cursor);
    const missed = await second.take(6);
    expect(missed).toEqual(await longPoll(c.id, c.token, cursor));
    expect(missed.map((m) => [m.from, m.text])).toEqual(
      questions.flatMap((q) => [
        ['customer', q],
        ['agent', 'Noted.'],
      ]),
    );

    // A redelivered message (same key) is stored once and sent nowhere again.
    expect((await post(`/v1/conversations/${c.id}/messages`, c.token, { text: questions[2] }, 'k-4')).status).toBe(200);
    // A write that wakes nobody (another process's: straight through the gateway) still arrives: the feed reads the log again.
    // It is sent as the one who may speak now (the agent: nobody handed off), or it would be suppressed.
    const owner = (await runtime.store.getConversation(c.id))?.owner;
    if (owner?.type !== 'agent') throw new Error(`the agent should still own the conversation, not ${JSON.stringify(owner)}`);
    const sent = await runtime.runtime.service.gateway.send(c.id as ConversationId, owner, 'A note from another process.');
    expect(sent).toMatchObject({ ok: true, delivered: true });
    const [notice] = await second.take(1);
    expect(notice).toMatchObject({ from: 'agent', text: 'A note from another process.' });
    const all = await longPoll(c.id, c.token);
    expect(all).toEqual([...opening, ...missed, notice]);
    expect(new Set(all.map((m) => m.id)).size).toBe(all.length);
    second.close();
  });
});

describe.each(['sqlite', 'postgres'] as const)('"Talk to a person" on %s, with the rule agent', (kind) => {
  beforeAll(async () => {
    runtime = await startTestRuntime(kind);
    wsBase = runtime.base.replace('http:', 'ws:');
  });
  afterAll(async () => {
    await runtime?.close();
  });

  it('is stored once per key, read by the decider as a request for a person, and hands off with a notice', async () => {
    const c = await runtime.open();
    const stream = await connect(c.id, c.token);
    const asked = await post(`/v1/conversations/${c.id}/request-person`, c.token, {}, 'press-1');
    expect(asked.status).toBe(201);
    expect(asked.body['message']).toMatchObject({ text: TALK_TO_PERSON_TEXT, request: 'person' });
    // The same press again (a retry): stored once.
    const again = await post(`/v1/conversations/${c.id}/request-person`, c.token, { idempotencyKey: 'press-1' });
    expect(again.status).toBe(200);
    expect(again.body['duplicate']).toBe(true);

    const [mine, notice] = await stream.take(2);
    expect(mine).toMatchObject({ from: 'customer', text: TALK_TO_PERSON_TEXT });
    expect(notice).toMatchObject({ from: 'system' });
    await runtime.runtime.service.idle();
    const conversation = await runtime.store.getConversation(c.id);
    expect(conversation?.state).toBe('QUEUED');
    const events = await runtime.store.listEvents(c.id);
    expect(events.filter((e) => e.type === 'message.received')).toHaveLength(1);
    expect(events.find((e) => e.type === 'decider.evaluated' && e.data.handoff)).toMatchObject({
      data: { phase: 'input', reason: 'customer_request' },
    });
    expect(events.find((e) => e.type === 'handoff.requested')).toMatchObject({ data: { reason: 'customer_request' } });
    stream.close();
  });

  it('needs the customer token and a key, and changes nothing otherwise', async () => {
    const c = await runtime.open();
    const other = await runtime.open();
    expect((await post(`/v1/conversations/${c.id}/request-person`, other.token, {}, 'p')).status).toBe(404);
    const res = await fetch(`${runtime.base}/v1/conversations/${c.id}/request-person`, { method: 'POST' });
    expect(res.status).toBe(401);
    const noKey = await post(`/v1/conversations/${c.id}/request-person`, c.token, {});
    expect(noKey.status).toBe(400);
    expect(noKey.body).toMatchObject({ error: { code: 'missing_idempotency_key' } });
    expect((await post(`/v1/conversations/${c.id}/request-person`, c.token, { text: 'x' }, 'p')).status).toBe(400);
    expect(await longPoll(c.id, c.token)).toEqual([]);
    expect((await runtime.store.getConversation(c.id))?.state).toBe('AGENT_ACTIVE');
  });
});
