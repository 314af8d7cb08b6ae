/**
 * The WhatsApp Cloud API channel over real HTTP against a real runtime (SQLite, and PostgreSQL for
 * storing once), with a scripted Cloud API on the other side: the verification handshake, signed
 * webhooks (a bad one is 401 and stores nothing), one stored message per message id however
 * often it is delivered, status callbacks recorded once, and the 24-hour window: a person's
 * free-form reply 25 hours after the customer's last message is refused with a message that says
 * a template is needed, and an approved template goes out.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { StaffId } from '../src/core/index.js';
import { channelStoreFor } from '../src/store/sql-channel-store.js';
import { fixedClock } from '../src/testing/fixed-clock.js';
import { call, conversationOf, ofType, ORDER_TEMPLATE, settled, signIn, startWhatsAppRuntime } from './support/channel-runtime.js';
import { openTestStore, type TestStoreKind } from './support/runtime-server.js';

const HOUR = 60 * 60_000;
let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.reverse()) await close();
  closers = [];
});

async function start(kind: TestStoreKind = 'sqlite') {
  const clock = fixedClock(Date.UTC(2026, 5, 1, 9));
  const running = await startWhatsAppRuntime(kind, clock);
  closers.push(running.close);
  return { ...running, clock };
}

describe('WhatsApp: the verification handshake', () => {
  it('answers the challenge when the verify token matches, and 403 otherwise', async () => {
    const { server, secrets } = await start();
    const url = (mode: string, token: string) =>
      `${server.base}/v1/channels/whatsapp/webhook?hub.mode=${mode}&hub.verify_token=${encodeURIComponent(token)}&hub.challenge=1158201444`;
    const ok = await fetch(url('subscribe', secrets.BATON_WHATSAPP_VERIFY_TOKEN));
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await ok.text()).toBe('1158201444');
    const wrong = await fetch(url('subscribe', `${secrets.BATON_WHATSAPP_VERIFY_TOKEN}x`));
    expect(wrong.status).toBe(403);
    expect(((await wrong.json()) as { error: { code: string } }).error.code).toBe('forbidden');
    expect((await fetch(url('unsubscribe', secrets.BATON_WHATSAPP_VERIFY_TOKEN))).status).toBe(403);
    expect((await fetch(`${server.base}/v1/channels/whatsapp/webhook?hub.mode=subscribe&hub.challenge=1`)).status).toBe(403);
  });
});

describe('WhatsApp: inbound webhooks', () => {
  it('refuses a webhook with a bad, missing or mismatched signature with 401 and stores nothing', async () => {
    const { server, wa } = await start();
    const before = await server.store.listConversationIds();
    const wrongSecret = await wa.customerWrites({ from: '447700900001', text: 'hello', signWith: 'not-the-app-secret' });
    const unsigned = await wa.customerWrites({ from: '447700900001', text: 'hello', signWith: null });
    const body = JSON.stringify({ object: 'whatsapp_business_account', entry: [] });
    const malformed = await wa.post(body, { 'x-hub-signature-256': 'sha1=abc' });
    // A signature of another body: the bytes are what is signed.
    const { hubSignature } = await import('../src/runtime/channels/signatures.js');
    const tampered = await wa.post(body.replace('[]', '[ ]'), { 'x-hub-signature-256': hubSignature('x', body) });
    for (const answer of [wrongSecret, unsigned, malformed, tampered]) {
      expect(answer.status).toBe(401);
      expect((answer.body as { error: { code: string } }).error.code).toBe('bad_signature');
    }
    await settled(server);
    expect(await server.store.listConversationIds()).toEqual(before);
    expect(await channelStoreFor(server.store).listBindings(10)).toEqual([]);
    expect(wa.accepted).toEqual([]);
  });

  it('answers 400 to a signed body that is not a Cloud API webhook, and stores nothing', async () => {
    const { server, wa, secrets } = await start();
    const { hubSignature } = await import('../src/runtime/channels/signatures.js');
    for (const body of [
      '{"object": "page"}',
      'not json',
      '{"object":"whatsapp_business_account","entry":[{"id":"1","changes":[{"field":"messages","value":{"metadata":{"phone_number_id":"x"}}}]}]}',
    ]) {
      const answer = await wa.post(body, { 'x-hub-signature-256': hubSignature(secrets.BATON_WHATSAPP_APP_SECRET, body) });
      expect(answer.status, body).toBe(400);
    }
    expect(await server.store.listConversationIds()).toEqual([]);
  });

  for (const kind of ['sqlite', 'postgres'] as const) {
    it(`stores a message delivered three times once, even after its conversation closed (${kind})`, async () => {
      const { server, wa } = await start(kind);
      const first = await wa.customerWrites({
        from: '447700900002',
        text: 'Where is my refund?',
        id: 'wamid.HBgMNDQ3NzAwOTAwMDAyFQIAEhgg',
      });
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ received: 1, duplicates: 0 });
      const again = await Promise.all(
        [1, 2].map(() => wa.customerWrites({ from: '447700900002', text: 'Where is my refund?', id: first.id! })),
      );
      for (const a of again) expect(a.body).toMatchObject({ received: 0, duplicates: 1 });
      await settled(server);
      const id = (await conversationOf(server, wa.phoneNumberId, '447700900002'))!;
      const events = await server.store.listEvents(id);
      expect(ofType(events, 'message.received').map((e) => e.data.message.text)).toEqual(['Where is my refund?']);
      // The agent answered once, and the answer reached WhatsApp once.
      expect(wa.accepted.map((m) => m.text)).toEqual(['Noted.']);
      expect(ofType(events, 'delivery.succeeded')).toHaveLength(1);

      // Closed: the next message opens a new conversation, and a late redelivery of the old one is still a duplicate.
      const staff = await server.staff('supervisor');
      const c = (await server.store.getConversation(id))!;
      const claimed = await server.runtime.service.claim(id, staff.id as StaffId, c.version);
      expect(claimed.ok).toBe(true);
      if (!claimed.ok) return;
      expect(
        (await server.runtime.service.close(id, staff.id as StaffId, { version: claimed.conversation.version, reason: 'done' })).ok,
      ).toBe(true);
      const late = await wa.customerWrites({ from: '447700900002', text: 'Where is my refund?', id: first.id! });
      expect(late.body).toMatchObject({ received: 0, duplicates: 1 });
      const next = await wa.customerWrites({ from: '447700900002', text: 'One more thing' });
      expect(next.body).toMatchObject({ received: 1 });
      await settled(server);
      const now = (await conversationOf(server, wa.phoneNumberId, '447700900002'))!;
      expect(now).not.toBe(id);
      expect(ofType(await server.store.listEvents(now), 'message.received').map((e) => e.data.message.text)).toEqual(['One more thing']);
      expect(await server.store.listConversationIds()).toHaveLength(2);
    });
  }

  it('records each status callback once, against the message it is about', async () => {
    const { server, wa } = await start();
    await wa.customerWrites({ from: '447700900003', text: 'hi' });
    await settled(server);
    const [reply] = wa.accepted;
    expect(reply?.text).toBe('Noted.');
    for (const status of ['sent', 'delivered', 'delivered', 'read'] as const) {
      const answer = await wa.reportStatus({ wamid: reply!.wamid, status });
      expect(answer.status).toBe(200);
    }
    expect((await wa.reportStatus({ wamid: 'wamid.unknown', status: 'read' })).body).toMatchObject({ statuses: 0 });
    const id = (await conversationOf(server, wa.phoneNumberId, '447700900003'))!;
    const events = await server.store.listEvents(id);
    const sent = ofType(events, 'message.sent')[0]!;
    const statuses = ofType(events, 'delivery.status_reported');
    expect(statuses.map((e) => e.data.status)).toEqual(['sent', 'delivered', 'read']);
    for (const s of statuses)
      expect(s.data).toMatchObject({ channel: 'whatsapp', messageId: sent.data.message.id, providerMessageId: reply!.wamid });
  });
});

describe('WhatsApp: the 24-hour customer-service window', () => {
  it('refuses a free-form reply 25 hours after the customer last wrote, saying a template is needed; a template goes out', async () => {
    const { server, wa, clock } = await start();
    await wa.customerWrites({ from: '447700900004', text: 'My order never came' });
    await settled(server);
    const id = (await conversationOf(server, wa.phoneNumberId, '447700900004'))!;
    const person = await server.staff('supervisor');
    const taken = await call(server, 'POST', `/v1/conversations/${id}/claim`, person.token, {
      version: (await server.store.getConversation(id))!.version,
    });
    expect(taken.status).toBe(200);
    const version = (taken.body['conversation'] as { version: number }).version;
    const inside = await call(server, 'POST', `/v1/conversations/${id}/replies`, person.token, { text: 'Looking into it now.', version });
    expect(inside.status).toBe(201);
    await settled(server);
    expect(wa.accepted.map((m) => m.text)).toEqual(['Noted.', 'Looking into it now.']);
    const channel = await call(server, 'GET', `/v1/conversations/${id}/channel`, person.token);
    expect(channel.body).toMatchObject({ channel: 'whatsapp', windowOpen: true });
    expect(await server.runtime.channels!.windowDeadline({ id })).toEqual(new Date(channel.body['windowDeadline'] as string));

    clock.advance(25 * HOUR);
    const token = await signIn(server, person);
    const late = await call(server, 'POST', `/v1/conversations/${id}/replies`, token, { text: 'Your parcel is at the depot.', version });
    expect(late.status).toBe(409);
    expect(late.body['error']).toMatchObject({ code: 'template_required' });
    expect((late.body['error'] as { message: string }).message).toMatch(/a template is needed/);
    await settled(server);
    expect(wa.accepted).toHaveLength(2);
    let events = await server.store.listEvents(id);
    expect(ofType(events, 'message.sent').map((e) => e.data.message.text)).not.toContain('Your parcel is at the depot.');
    expect(ofType(events, 'delivery.refused').at(-1)?.data).toMatchObject({ channel: 'whatsapp', reason: 'template_required' });
    expect((await call(server, 'GET', `/v1/conversations/${id}/channel`, token)).body).toMatchObject({ windowOpen: false });

    const unknown = await call(server, 'POST', `/v1/conversations/${id}/templates`, token, {
      name: 'not_approved',
      language: 'en',
      parameters: [],
      version,
    });
    expect(unknown.status).toBe(400);
    const wrongCount = await call(server, 'POST', `/v1/conversations/${id}/templates`, token, {
      ...ORDER_TEMPLATE,
      body: undefined,
      parameters: [],
      version,
    });
    expect(wrongCount.status).toBe(400);
    const template = await call(server, 'POST', `/v1/conversations/${id}/templates`, token, {
      name: ORDER_TEMPLATE.name,
      language: ORDER_TEMPLATE.language,
      parameters: ['A-1001'],
      version,
    });
    expect(template.status).toBe(201);
    expect((template.body['message'] as { text: string }).text).toBe('Hello, there is news about your order A-1001. Reply to continue.');
    await settled(server);
    expect(wa.accepted.at(-1)).toMatchObject({
      type: 'template',
      template: { name: 'order_update', language: 'en', parameters: ['A-1001'] },
    });
    events = await server.store.listEvents(id);
    expect(ofType(events, 'delivery.succeeded')).toHaveLength(3);

    // The customer answers the template: the window is open again, and free-form replies go out.
    await wa.customerWrites({ from: '447700900004', text: 'Thanks, what now?' });
    const again = await call(server, 'POST', `/v1/conversations/${id}/replies`, token, { text: 'Collect it tomorrow.', version });
    expect(again.status).toBe(201);
    await settled(server);
    expect(wa.accepted.at(-1)).toMatchObject({ type: 'text', text: 'Collect it tomorrow.' });
    expect(wa.accepted.filter((m) => m.outsideWindow)).toEqual([]);
  });
});

describe('WhatsApp: delivery survives a restart', () => {
  it('delivers after a restart what a stopped process was still retrying: the log is the outbox', async () => {
    const opened = await openTestStore('sqlite');
    const clock = fixedClock(Date.UTC(2026, 5, 1, 9));
    // Long back-off: the first process is stopped while it waits to try again.
    const delivery = { attempts: 5, baseMs: 60_000, maxMs: 60_000 };
    const first = await startWhatsAppRuntime('sqlite', clock, { store: opened.store, delivery });
    first.wa.failNext(1, 503);
    await first.wa.customerWrites({ from: '447700900005', text: 'Where is my refund?' });
    await first.wa.waitForRequests(1);
    const id = (await conversationOf(first.server, first.wa.phoneNumberId, '447700900005'))!;
    await first.server.close();
    expect(first.wa.accepted).toEqual([]);

    const second = await startWhatsAppRuntime('sqlite', clock, {
      store: await opened.reopen(),
      delivery,
      secrets: first.secrets,
      wa: first.wa,
    });
    closers.push(async () => {
      await second.server.close();
      await first.wa.close();
      opened.cleanup();
    });
    await second.server.runtime.channels!.recover();
    await settled(second.server);
    expect(first.wa.accepted.map((m) => m.text)).toEqual(['Noted.']);
    const events = await second.server.store.listEvents(id);
    expect(ofType(events, 'delivery.succeeded')).toHaveLength(1);
    expect(ofType(events, 'delivery.failed')).toEqual([]);
  });
});

describe('WhatsApp: two processes on one PostgreSQL', () => {
  it('send each message once when both send to the same conversation at the same time', async () => {
    const opened = await openTestStore('postgres');
    const clock = { now: () => Date.now() };
    const a = await startWhatsAppRuntime('postgres', clock, { store: opened.store });
    const b = await startWhatsAppRuntime('postgres', clock, { store: await opened.reopen(), wa: a.wa, secrets: a.secrets });
    closers.push(async () => {
      await b.server.close();
      await a.close();
    });
    await a.wa.customerWrites({ from: '447700900006', text: 'Where is my parcel?' });
    await settled(b.server);
    const id = (await conversationOf(a.server, a.wa.phoneNumberId, '447700900006'))!;
    const person = await a.server.staff('supervisor');
    const taken = await call(a.server, 'POST', `/v1/conversations/${id}/claim`, person.token, {
      version: (await a.server.store.getConversation(id))!.version,
    });
    expect(taken.status).toBe(200);
    const version = (taken.body['conversation'] as { version: number }).version;
    const texts = Array.from({ length: 20 }, (_, i) => `update ${i + 1}`);
    const answers = await Promise.all(
      texts.map((text, i) =>
        call(i % 2 === 0 ? a.server : b.server, 'POST', `/v1/conversations/${id}/replies`, person.token, { text, version }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(texts.map(() => 201));
    for (const s of [a.server, b.server, a.server, b.server]) await settled(s);
    const sent = a.wa.accepted.map((m) => m.text!);
    expect(sent.filter((t) => t === 'Noted.')).toHaveLength(1);
    expect(sent.filter((t) => t.startsWith('update ')).sort()).toEqual([...texts].sort());
    expect(ofType(await a.server.store.listEvents(id), 'delivery.succeeded')).toHaveLength(21);
  });
});
