/**
 * The staff stream (`GET /v1/staff/stream`) over a real WebSocket against a composed runtime on
 * SQLite and on PostgreSQL: who may open it (staff only; a cookie only from a page this server serves), the log
 * of a followed conversation from a cursor, in order and once, across a reconnect; writes that
 * bypass this process's wake-ups still arrive (the log is the truth); bad requests are answered,
 * never fatal; the queue follows the skills; a signed-out session is closed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createIdGenerator, type ConversationId, type StoredEvent } from '../src/core/index.js';
import type { StreamMessage } from '../src/server/staff-stream-protocol.js';
import { handoffPolicy, startTestRuntime, type TestRuntime } from './support/runtime-server.js';

let runtime: TestRuntime;
let wsBase: string;

/** A stream client that queues what it is sent, so a test can wait for the next message that matches. */
async function connect(headers: Record<string, string>) {
  const socket = new WebSocket(`${wsBase}/v1/staff/stream`, { headers });
  const inbox: StreamMessage[] = [];
  const waiters: Array<() => void> = [];
  socket.on('message', (data) => {
    inbox.push(JSON.parse(data.toString()) as StreamMessage);
    for (const w of waiters.splice(0)) w();
  });
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    socket.once('error', reject);
  });
  return {
    socket,
    closed,
    send: (request: unknown) => socket.send(typeof request === 'string' ? request : JSON.stringify(request)),
    /** The next message (from the start of the inbox) that matches, removing it and those before it. */
    async next<T extends StreamMessage['type']>(type: T, match: (m: Extract<StreamMessage, { type: T }>) => boolean = () => true) {
      for (;;) {
        const at = inbox.findIndex((m) => m.type === type && match(m as Extract<StreamMessage, { type: T }>));
        if (at >= 0) return inbox.splice(0, at + 1).at(-1) as Extract<StreamMessage, { type: T }>;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    close: () => socket.close(),
  };
}

/** The HTTP status a refused upgrade gets. */
function refusal(headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${wsBase}/v1/staff/stream`, { headers });
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

/** Collects events of a conversation from the stream until `count` have come; fails on a gap or a repeat. */
async function events(client: Awaited<ReturnType<typeof connect>>, id: string, after: number, count: number) {
  const got: StoredEvent[] = [];
  let cursor = String(after);
  while (got.length < count) {
    const batch = await client.next('events', (m) => m.conversation === id);
    got.push(...batch.events);
    cursor = batch.cursor;
  }
  expect(got.map((e) => e.seq)).toEqual(Array.from({ length: got.length }, (_, i) => after + i + 1));
  expect(cursor).toBe(String(after + got.length));
  return got;
}

describe.each(['sqlite', 'postgres'] as const)('the staff stream on %s', (kind) => {
  beforeAll(async () => {
    runtime = await startTestRuntime(kind, { policy: () => handoffPolicy() });
    wsBase = runtime.base.replace('http:', 'ws:');
  });
  afterAll(async () => {
    await runtime?.close();
  });

  it('opens for staff only, and by cookie only from a page this server serves', async () => {
    const ana = await runtime.staff('agent', ['billing']);
    const customer = await runtime.open();
    expect(await refusal({})).toBe(401);
    expect(await refusal({ authorization: `Bearer ${customer.token}` })).toBe(403);
    expect(await refusal({ authorization: 'Bearer st_not-a-session' })).toBe(401);
    const cookie = `baton_session=${ana.token}`;
    expect(await refusal({ cookie })).toBe(403);
    expect(await refusal({ cookie, origin: 'http://evil.example' })).toBe(403);
    expect(await refusal({ cookie, origin: 'null' })).toBe(403);
    const byCookie = await connect({ cookie, origin: runtime.base });
    const hello = await byCookie.next('hello');
    expect(hello.staff).toMatchObject({ id: ana.id, email: ana.email, role: 'agent' });
    expect(hello.queues).toContain('queue_billing');
    byCookie.close();
    const byBearer = await connect({ authorization: `Bearer ${ana.token}` });
    await expect(byBearer.next('hello')).resolves.toMatchObject({ staff: { id: ana.id } });
    byBearer.close();
  });

  it('sends a followed log after the cursor, live, and after a reconnect exactly what was missed', async () => {
    const ana = await runtime.staff('agent', ['billing']);
    const c = await runtime.open();
    await post(`/v1/conversations/${c.id}/messages`, c.token, { text: 'I want a person' }, 'm-0');
    await runtime.runtime.service.idle();
    const before = (await runtime.store.listEvents(c.id)).length;
    expect(before).toBeGreaterThan(3);

    const first = await connect({ authorization: `Bearer ${ana.token}` });
    first.send({ type: 'follow', conversation: c.id, after: '0' });
    await expect(first.next('conversation')).resolves.toMatchObject({ conversation: { id: c.id } });
    const all = await events(first, c.id, 0, before);
    expect(all).toEqual(await runtime.store.listEvents(c.id));

    // Live: a new message (and the holding turn it wakes) arrives as it is written.
    await post(`/v1/conversations/${c.id}/messages`, c.token, { text: 'still there?' }, 'm-1');
    await runtime.runtime.service.idle();
    const liveExpected = await runtime.store.listEvents(c.id, { afterSeq: before });
    const live = await events(first, c.id, before, liveExpected.length);
    expect(live).toEqual(liveExpected);
    expect(live[0]).toMatchObject({ type: 'message.received', data: { message: { text: 'still there?' } } });
    const cursor = live.at(-1)!.seq;
    first.close();
    await first.closed;

    // Disconnected: five more messages land; the next connection, from the cursor, gets exactly what came after it.
    for (let i = 2; i <= 6; i += 1) await post(`/v1/conversations/${c.id}/messages`, c.token, { text: `missed ${i}` }, `m-${i}`);
    await runtime.runtime.service.idle();
    const missedExpected = await runtime.store.listEvents(c.id, { afterSeq: cursor });
    const second = await connect({ authorization: `Bearer ${ana.token}` });
    second.send({ type: 'follow', conversation: c.id, after: String(cursor) });
    const missed = await events(second, c.id, cursor, missedExpected.length);
    expect(missed).toEqual(missedExpected);
    expect(missed.flatMap((e) => (e.type === 'message.received' ? [e.data.message.text] : []))).toEqual([
      'missed 2',
      'missed 3',
      'missed 4',
      'missed 5',
      'missed 6',
    ]);
    const end = missed.at(-1)!.seq;

    // A write that wakes nobody (another process's, here straight into the store) still arrives: the log is read again.
    await runtime.store.appendRecords(c.id as ConversationId, [
      {
        schemaVersion: 1,
        id: createIdGenerator({ now: Date.now, random: Math.random }).event(),
        conversationId: c.id as ConversationId,
        at: new Date().toISOString(),
        type: 'decider.evaluated',
        data: { phase: 'input', handoff: false, reason: null, target: null, evidence: null },
      },
    ]);
    await expect(events(second, c.id, end, 1)).resolves.toMatchObject([{ type: 'decider.evaluated' }]);
    second.close();
  });

  it('hands several consoles on one conversation each its own entries after its own cursor, once, in order', async () => {
    const ana = await runtime.staff('agent', ['billing']);
    const c = await runtime.open();
    for (let i = 1; i <= 3; i += 1) await post(`/v1/conversations/${c.id}/messages`, c.token, { text: `early ${i}` }, `e-${i}`);
    await runtime.runtime.service.idle();
    const early = await runtime.store.listEvents(c.id);
    const middle = early[Math.floor(early.length / 2)]!.seq;
    // One console follows live from the end, one from the middle, one from the start; then more lands.
    const consoles = [];
    for (const after of [early.at(-1)!.seq, middle, 0]) {
      const client = await connect({ authorization: `Bearer ${ana.token}` });
      client.send({ type: 'follow', conversation: c.id, after: String(after) });
      consoles.push({ client, after });
    }
    for (let i = 1; i <= 4; i += 1) await post(`/v1/conversations/${c.id}/messages`, c.token, { text: `late ${i}` }, `l-${i}`);
    await runtime.runtime.service.idle();
    const log = await runtime.store.listEvents(c.id);
    for (const { client, after } of consoles) {
      const got = await events(client, c.id, after, log.length - after);
      expect(got).toEqual(log.slice(after));
      client.close();
    }
  });

  it('answers a bad request with an error and stays open', async () => {
    const ana = await runtime.staff('agent', ['billing']);
    const client = await connect({ authorization: `Bearer ${ana.token}` });
    await client.next('hello');
    for (const bad of [
      'not json',
      '{"type":"follow"}',
      '{"type":"follow","conversation":"conv_x","after":"-1"}',
      '{"type":"dance"}',
      'x'.repeat(5000),
    ]) {
      client.send(bad);
      await expect(client.next('error')).resolves.toMatchObject({ code: 'invalid_request' });
    }
    client.send({ type: 'follow', conversation: 'conv_0000000000000000000000000', after: '0' });
    await expect(client.next('error')).resolves.toMatchObject({ code: 'not_found' });
    const c = await runtime.open();
    client.send({ type: 'follow', conversation: c.id, after: '0' });
    await expect(client.next('events', (m) => m.conversation === c.id)).resolves.toMatchObject({
      events: [{ type: 'conversation.created' }],
    });
    client.close();
  });

  it("shows the queue by the person's skills, live, and closes a signed-out session", async () => {
    const ana = await runtime.staff('agent', ['billing']);
    const lee = await runtime.staff('agent', ['legal']);
    const anaQueue = await connect({ authorization: `Bearer ${ana.token}` });
    const leeQueue = await connect({ authorization: `Bearer ${lee.token}` });
    anaQueue.send({ type: 'queue', follow: true });
    leeQueue.send({ type: 'queue', follow: true });
    await anaQueue.next('queue');
    const leeFirst = await leeQueue.next('queue');

    const c = await runtime.open();
    await post(`/v1/conversations/${c.id}/messages`, c.token, { text: 'a person please' }, 'q-1');
    // It may first show as HANDOFF_PENDING (the hand-off under way), then QUEUED once the router placed it.
    const arrived = await anaQueue.next('queue', (m) => m.conversations.some((i) => i.id === c.id && i.state === 'QUEUED'));
    const item = arrived.conversations.find((i) => i.id === c.id)!;
    expect(item).toMatchObject({ queue: 'queue_billing', reason: 'customer_request', state: 'QUEUED' });

    // The legal agent does not see it while it waits (a fresh snapshot, asked for now).
    leeQueue.send({ type: 'queue', follow: true });
    const leeNow = await leeQueue.next('queue');
    expect(leeNow.conversations.some((i) => i.id === c.id)).toBe(false);
    expect(leeFirst.conversations.some((i) => i.queue === 'queue_billing')).toBe(false);

    // Claimed: it leaves the queue.
    expect((await post(`/v1/conversations/${c.id}/claim`, ana.token, { version: item.version })).status).toBe(200);
    await anaQueue.next('queue', (m) => !m.conversations.some((i) => i.id === c.id));

    // Signed out: the next request closes the stream with 4401.
    expect((await post('/v1/staff/logout', ana.token, {})).status).toBe(200);
    anaQueue.send({ type: 'queue', follow: true });
    await expect(anaQueue.closed).resolves.toBe(4401);
    leeQueue.close();
  });
});

async function put(path: string, token: string, body: unknown) {
  const res = await fetch(`${runtime.base}${path}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe.each(['sqlite', 'postgres'] as const)('offers on the staff stream on %s', (kind) => {
  beforeAll(async () => {
    runtime = await startTestRuntime(kind, { policy: () => handoffPolicy() });
    wsBase = runtime.base.replace('http:', 'ws:');
  });
  afterAll(async () => {
    await runtime?.close();
  });

  it("pushes the offers made to the caller as they are made, answered and passed on, and nobody else's", async () => {
    const [ana, bo] = [await runtime.staff('agent', ['billing']), await runtime.staff('agent', ['billing'])];
    const anaStream = await connect({ authorization: `Bearer ${ana.token}` });
    const boStream = await connect({ authorization: `Bearer ${bo.token}` });
    anaStream.send({ type: 'offers', follow: true });
    boStream.send({ type: 'offers', follow: true });
    await expect(anaStream.next('offers')).resolves.toEqual({ type: 'offers', offers: [] });
    await expect(boStream.next('offers')).resolves.toEqual({ type: 'offers', offers: [] });
    // Only Ana is available: the hand-off is offered to her, pushed without her asking again.
    expect((await put('/v1/staff/me/presence', ana.token, { presence: 'available' })).status).toBe(200);
    const c = await runtime.open();
    await post(`/v1/conversations/${c.id}/messages`, c.token, { text: 'a person please' }, 'o-1');
    const offered = await anaStream.next('offers', (m) => m.offers.length > 0);
    expect(offered.offers).toEqual([
      expect.objectContaining({ conversationId: c.id, queue: 'queue_billing', reason: 'customer_request', from: null }),
    ]);
    expect(Date.parse(offered.offers[0]!.expiresAt)).toBeGreaterThan(Date.parse(offered.offers[0]!.offeredAt));
    // Bo becomes available; Ana declines: the offer leaves Ana's list and is pushed to Bo's.
    expect((await put('/v1/staff/me/presence', bo.token, { presence: 'available' })).status).toBe(200);
    const declined = await post(`/v1/offers/${offered.offers[0]!.id}/decline`, ana.token, { reason: 'wrong_skill' });
    expect(declined.status).toBe(200);
    await anaStream.next('offers', (m) => m.offers.length === 0);
    const passed = await boStream.next('offers', (m) => m.offers.length > 0);
    expect(passed.offers.map((o) => o.conversationId)).toEqual([c.id]);
    // A bad follow is refused, and the stream stays open.
    anaStream.send({ type: 'offers', follow: 'yes' });
    await expect(anaStream.next('error')).resolves.toMatchObject({ code: 'invalid_request' });
    // What Ana sees over HTTP is what the stream showed: nothing.
    const res = await fetch(`${runtime.base}/v1/offers`, { headers: { authorization: `Bearer ${ana.token}` } });
    expect(((await res.json()) as { offers: unknown[] }).offers).toEqual([]);
    anaStream.close();
    boStream.close();
  });

  it('pushes the actions waiting for approval to supervisors only', async () => {
    const ana = await runtime.staff('agent', ['billing']);
    const sam = await runtime.staff('supervisor');
    const anaStream = await connect({ authorization: `Bearer ${ana.token}` });
    await anaStream.next('hello');
    anaStream.send({ type: 'approvals', follow: true });
    await expect(anaStream.next('error')).resolves.toMatchObject({ code: 'forbidden' });
    const samStream = await connect({ authorization: `Bearer ${sam.token}` });
    await samStream.next('hello');
    samStream.send({ type: 'approvals', follow: true });
    // The list is the route's (this runtime approves nothing, so it is empty), sent on follow.
    await expect(samStream.next('approvals')).resolves.toEqual({ type: 'approvals', approvals: [] });
    anaStream.close();
    samStream.close();
  });
});
