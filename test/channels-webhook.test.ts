/**
 * The signed webhook channel over real HTTP against a real runtime: inbound requests carry an
 * HMAC-SHA256 over `t.body` (a bad, missing, tampered or old signature is 401 and stores nothing;
 * a replay inside the window is stored once), and outbound deliveries go to a real local receiver,
 * signed the same way, with one delivery id on every retry, retried with back-off when the receiver
 * fails first, and failed for good (and logged) when it refuses or never recovers.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationId } from '../src/core/index.js';
import { backoffMs } from '../src/runtime/channels/channel-outbox.js';
import { signWebhook, verifyWebhook, WEBHOOK_DELIVERY_HEADER, WEBHOOK_SIGNATURE_HEADER } from '../src/runtime/channels/signatures.js';
import { WebhookDeliverySchema, type WebhookDelivery } from '../src/runtime/channels/webhook-channel.js';
import { channelStoreFor } from '../src/store/sql-channel-store.js';
import { channelSecrets, ofType, settled } from './support/channel-runtime.js';
import { startTestRuntime, notedPolicy, type TestRuntime } from './support/runtime-server.js';

/** A receiver of Baton's deliveries: checks each signature, keeps each delivery id once, and fails as told. */
interface Receiver {
  url: string;
  /** Every request, in order: its delivery id and whether its signature checked out. */
  requests: { deliveryId: string | undefined; signed: boolean }[];
  /** Deliveries kept, once per delivery id. */
  kept: Map<string, WebhookDelivery>;
  /** How the next requests are answered, in order; afterwards 200. `lost-ack`: kept, then answered 500. */
  script: (number | 'lost-ack')[];
  always: number | null;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function startReceiver(secret: string): Promise<Receiver> {
  const receiver: Omit<Receiver, 'url' | 'close'> = { requests: [], kept: new Map(), script: [], always: null };
  const server: Server = createServer((req, res) => {
    void readBody(req).then((body) => {
      const signature = req.headers[WEBHOOK_SIGNATURE_HEADER];
      const deliveryId = req.headers[WEBHOOK_DELIVERY_HEADER] as string | undefined;
      const signed = verifyWebhook([secret], typeof signature === 'string' ? signature : undefined, body, Date.now()).ok;
      receiver.requests.push({ deliveryId, signed });
      const step = receiver.script.shift() ?? receiver.always ?? 200;
      if (typeof step === 'number' && step !== 200) return res.writeHead(step).end('scripted failure');
      if (!signed || !deliveryId) return res.writeHead(401).end();
      const delivery = WebhookDeliverySchema.parse(JSON.parse(body.toString('utf8')));
      if (!receiver.kept.has(deliveryId)) receiver.kept.set(deliveryId, delivery);
      res.writeHead(step === 'lost-ack' ? 500 : 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}/baton`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.reverse()) await close();
  closers = [];
});

async function start(): Promise<{ server: TestRuntime; receiver: Receiver; secret: string }> {
  const secrets = channelSecrets();
  const secret = secrets.BATON_WEBHOOK_CRM_SECRET;
  const receiver = await startReceiver(secret);
  const server = await startTestRuntime('sqlite', {
    env: secrets,
    policy: () => notedPolicy(),
    config: {
      channels: {
        webhooks: [{ id: 'crm', deliverTo: receiver.url, secretEnv: 'BATON_WEBHOOK_CRM_SECRET', replayWindowMs: 300_000 }],
        delivery: { attempts: 4, baseMs: 5, maxMs: 40 },
      },
    },
  });
  closers.push(receiver.close, server.close);
  return { server, receiver, secret };
}

/** POSTs a body to the crm channel with the given signature header (or none). */
async function post(server: TestRuntime, body: string, signature: string | null) {
  const res = await fetch(`${server.base}/v1/channels/webhooks/crm`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(signature === null ? {} : { [WEBHOOK_SIGNATURE_HEADER]: signature }) },
    body,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const message = (id: string, text = 'Hello from the CRM') => JSON.stringify({ messageId: id, from: 'crm-contact-77', text });

async function conversationOfContact(server: TestRuntime): Promise<ConversationId | null> {
  return (await channelStoreFor(server.store).bindingOf('webhook:crm', 'crm-contact-77'))?.conversationId ?? null;
}

describe('webhook channel: inbound signatures', () => {
  it('stores a signed message once, and a replay inside the window is a duplicate', async () => {
    const { server, secret } = await start();
    const body = message('m-1');
    const signature = signWebhook(secret, body, Date.now());
    expect(await post(server, body, signature)).toEqual({ status: 201, body: { duplicate: false } });
    // The same request captured and sent again: the signature is still fresh, the message is stored once.
    expect(await post(server, body, signature)).toEqual({ status: 200, body: { duplicate: true } });
    await settled(server);
    const id = (await conversationOfContact(server))!;
    expect(ofType(await server.store.listEvents(id), 'message.received')).toHaveLength(1);
  });

  it('refuses a bad, missing, tampered, old or future signature with 401 and stores nothing', async () => {
    const { server, secret } = await start();
    const body = message('m-2');
    const now = Date.now();
    const cases: [string, string, string | null][] = [
      ['wrong secret', body, signWebhook(`${secret}x`, body, now)],
      ['no header', body, null],
      ['malformed', body, 'v1=deadbeef'],
      ['not hex', body, `t=${Math.floor(now / 1000)},v1=zz`],
      ['tampered body', message('m-2', 'Hello from someone else'), signWebhook(secret, body, now)],
      ['six minutes old', body, signWebhook(secret, body, now - 6 * 60_000)],
      ['six minutes ahead', body, signWebhook(secret, body, now + 6 * 60_000)],
      // The timestamp is in the signed base: moving it breaks the signature.
      ['timestamp changed', body, signWebhook(secret, body, now - 6 * 60_000).replace(/^t=\d+/, `t=${Math.floor(now / 1000)}`)],
    ];
    for (const [what, sent, signature] of cases) {
      const answer = await post(server, sent, signature);
      expect(answer.status, what).toBe(401);
      expect((answer.body['error'] as { code: string }).code, what).toBe('bad_signature');
    }
    expect((await post(server, body, signWebhook(secret, body, now - 6 * 60_000))).body['error']).toMatchObject({
      message: expect.stringMatching(/replay/),
    });
    expect(await server.store.listConversationIds()).toEqual([]);
    const unknown = await fetch(`${server.base}/v1/channels/webhooks/other`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [WEBHOOK_SIGNATURE_HEADER]: signWebhook(secret, body, now) },
      body,
    });
    expect(unknown.status).toBe(404);
  });

  it('answers 400 to a signed body that is not one message, and stores nothing', async () => {
    const { server, secret } = await start();
    for (const body of ['{"messageId": "m"}', 'not json', JSON.stringify({ messageId: 'm', from: 'x', text: 'hi', extra: 1 })]) {
      expect((await post(server, body, signWebhook(secret, body, Date.now()))).status, body).toBe(400);
    }
    expect(await server.store.listConversationIds()).toEqual([]);
  });
});

describe('channel routes: whatever a caller sends is a 4xx and changes nothing', () => {
  it('answers other content types, oversized and odd requests with 4xx', async () => {
    const secrets = channelSecrets();
    const server = await startTestRuntime('sqlite', {
      env: secrets,
      config: {
        channels: {
          whatsapp: {
            graphBaseUrl: 'http://127.0.0.1:9/v21.0',
            appSecretEnv: 'BATON_WHATSAPP_APP_SECRET',
            verifyTokenEnv: 'BATON_WHATSAPP_VERIFY_TOKEN',
            accessTokenEnv: 'BATON_WHATSAPP_ACCESS_TOKEN',
            templates: [],
            windowMarginMs: 60_000,
          },
          webhooks: [{ id: 'crm', deliverTo: 'http://127.0.0.1:9/in', secretEnv: 'BATON_WEBHOOK_CRM_SECRET', replayWindowMs: 300_000 }],
        },
      },
    });
    closers.push(server.close);
    const send = (path: string, init: RequestInit) => fetch(`${server.base}${path}`, init).then((r) => r.status);
    for (const path of ['/v1/channels/whatsapp/webhook', '/v1/channels/webhooks/crm']) {
      expect(await send(path, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hi' }), path).toBe(415);
      expect(await send(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '' }), path).toBe(401);
      expect(
        await send(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(300 * 1024) }),
        path,
      ).toBe(413);
    }
    expect(await send('/v1/channels/webhooks/CRM', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).toBe(
      400,
    );
    expect(await send('/v1/channels/whatsapp/webhook?hub.mode=subscribe&hub.mode=subscribe&hub.verify_token=x&hub.challenge=1', {})).toBe(
      400,
    );
    expect(
      await send(
        `/v1/channels/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=${secrets.BATON_WHATSAPP_VERIFY_TOKEN}&hub.challenge=%3Cscript%3E`,
        {},
      ),
    ).toBe(400);
    // Staff routes of channels: a customer token or nobody is refused; an unknown conversation is 404.
    const c = await server.open();
    expect(await send(`/v1/conversations/${c.id}/channel`, {})).toBe(401);
    expect(await send(`/v1/conversations/${c.id}/channel`, { headers: { authorization: `Bearer ${c.token}` } })).toBe(403);
    const person = await server.staff('agent');
    const auth = { authorization: `Bearer ${person.token}`, 'content-type': 'application/json' };
    expect(await fetch(`${server.base}/v1/conversations/${c.id}/channel`, { headers: auth }).then((r) => r.json())).toEqual({
      channel: null,
    });
    const template = JSON.stringify({ name: 'x', language: 'en', parameters: [], version: 1 });
    expect(await send(`/v1/conversations/${c.id}/templates`, { method: 'POST', headers: auth, body: template })).toBe(403);
    expect(
      await send('/v1/conversations/conv_00000000000000000000000000/templates', { method: 'POST', headers: auth, body: template }),
    ).toBe(404);
    expect(await server.store.listConversationIds()).toEqual([c.id]);
  });
});

describe('webhook channel: outbound deliveries', () => {
  it('signs each delivery and names it, so the receiver can check and keep it once', async () => {
    const { server, receiver, secret } = await start();
    const body = message('m-3');
    expect((await post(server, body, signWebhook(secret, body, Date.now()))).status).toBe(201);
    await settled(server);
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.requests[0]!.signed).toBe(true);
    const [delivery] = [...receiver.kept.values()];
    const id = (await conversationOfContact(server))!;
    const sent = ofType(await server.store.listEvents(id), 'message.sent')[0]!.data.message;
    expect(delivery).toEqual({
      deliveryId: sent.id,
      to: 'crm-contact-77',
      message: { id: sent.id, from: 'agent', text: 'Noted.', at: sent.at },
    });
    expect(receiver.requests[0]!.deliveryId).toBe(sent.id);
  });

  it('retries with back-off when the receiver fails first, with one delivery id, and it is kept once', async () => {
    const { server, receiver, secret } = await start();
    // Two failures, then one the receiver kept but whose answer was lost: the fourth attempt is a repeat it recognises.
    receiver.script = [503, 500, 'lost-ack'];
    const body = message('m-4');
    expect((await post(server, body, signWebhook(secret, body, Date.now()))).status).toBe(201);
    await settled(server);
    expect(receiver.requests).toHaveLength(4);
    const ids = new Set(receiver.requests.map((r) => r.deliveryId));
    expect(ids.size).toBe(1);
    expect(receiver.requests.every((r) => r.signed)).toBe(true);
    expect(receiver.kept.size).toBe(1);
    const events = await server.store.listEvents((await conversationOfContact(server))!);
    expect(ofType(events, 'delivery.succeeded').map((e) => e.data.attempts)).toEqual([4]);
    expect(ofType(events, 'delivery.failed')).toEqual([]);
  });

  it('fails a delivery the receiver refuses (4xx) at once, and one it never accepts after the last retry; both are logged', async () => {
    const { server, receiver, secret } = await start();
    receiver.script = [400];
    const first = message('m-5');
    expect((await post(server, first, signWebhook(secret, first, Date.now()))).status).toBe(201);
    await settled(server);
    expect(receiver.requests).toHaveLength(1);
    receiver.always = 503;
    const second = message('m-6', 'Anyone there?');
    expect((await post(server, second, signWebhook(secret, second, Date.now()))).status).toBe(201);
    await settled(server);
    expect(receiver.requests).toHaveLength(5);
    const events = await server.store.listEvents((await conversationOfContact(server))!);
    expect(ofType(events, 'delivery.failed').map((e) => [e.data.attempts, e.data.reason.match(/answered (\d+)/)?.[1]])).toEqual([
      [1, '400'],
      [4, '503'],
    ]);
    expect(receiver.kept.size).toBe(0);
  });

  it('waits exponentially longer between attempts, up to the cap', () => {
    const policy = { attempts: 8, baseMs: 100, maxMs: 1_000 };
    const fixed = (failures: number, r: number) => backoffMs(policy, failures, () => r);
    expect([1, 2, 3, 4, 5].map((n) => fixed(n, 1))).toEqual([100, 200, 400, 800, 1_000]);
    // Jitter takes at most half off.
    expect([1, 2, 3, 4, 5].map((n) => fixed(n, 0))).toEqual([50, 100, 200, 400, 500]);
  });
});
