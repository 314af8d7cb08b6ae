import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_MESSAGE_CHARS, type Conversation, type ConversationId, type Message, type StoredEvent } from '../src/core/index.js';
import { DEFAULT_BODY_LIMIT_BYTES } from '../src/server/http-app.js';
import type { ErrorBody } from '../src/server/http-errors.js';
import type { Store } from '../src/store/store.js';
import { scriptedPolicy } from '../src/testing/scripted-policy.js';
import { startTestRuntime, type TestRuntime } from './support/runtime-server.js';

type StoreKind = 'sqlite' | 'postgres';

/** The agent of these tests answers every message with one fixed reply: the routes are under test, not the agent. */
const noted = () => scriptedPolicy([{ reply: 'Noted.' }], { whenExhausted: 'repeat_last' });

/** The customer messages a conversation's log holds. */
async function received(store: Store, id: ConversationId): Promise<Message[]> {
  return (await store.listEvents(id)).flatMap((e) => (e.type === 'message.received' ? [e.data.message] : []));
}

/** Every conversation with its message and event counts: what a refused request must leave alone. */
async function snapshot(store: Store) {
  const ids = await store.listConversationIds();
  return Promise.all(ids.map(async (id) => ({ id, received: (await received(store, id)).length })));
}

interface Sent {
  status: number;
  contentType: string | null;
  body: unknown;
}

interface Call {
  method?: string;
  headers?: Record<string, string>;
  /** A string is sent as it is; anything else as JSON with `Content-Type: application/json`. */
  body?: unknown;
}

const JSON_HEADERS = { 'content-type': 'application/json' };

interface BadCase {
  name: string;
  path: (id: ConversationId) => string;
  call: Call;
  status: number;
  code: string;
  message: RegExp[];
}

const messages = (id: ConversationId) => `/v1/conversations/${id}/messages`;
const opened = () => '/v1/conversations';

/** Requests that must be refused with a 4xx and a message naming what is wrong. */
const BAD_INPUT: BadCase[] = [
  {
    name: 'malformed JSON',
    path: messages,
    call: { method: 'POST', headers: JSON_HEADERS, body: '{"text": "hi", ' },
    status: 400,
    code: 'invalid_json',
    message: [/not valid JSON/],
  },
  {
    name: 'malformed JSON when opening',
    path: opened,
    call: { method: 'POST', headers: JSON_HEADERS, body: '{agent:' },
    status: 400,
    code: 'invalid_json',
    message: [/not valid JSON/],
  },
  {
    name: 'empty body with a JSON content type',
    path: messages,
    call: { method: 'POST', headers: JSON_HEADERS, body: '' },
    status: 400,
    code: 'invalid_json',
    message: [/empty/, /application\/json/],
  },
  {
    name: 'no body at all',
    path: messages,
    call: { method: 'POST', headers: { 'idempotency-key': 'k-none' } },
    status: 400,
    code: 'invalid_request',
    message: [/^body: a JSON object is required$/],
  },
  {
    name: 'a JSON array instead of an object',
    path: messages,
    call: { method: 'POST', body: [{ text: 'hi' }] },
    status: 400,
    code: 'invalid_request',
    message: [/^body: expected a JSON object$/],
  },
  {
    name: 'JSON null when opening',
    path: opened,
    call: { method: 'POST', headers: JSON_HEADERS, body: 'null' },
    status: 400,
    code: 'invalid_request',
    message: [/^body: expected a JSON object$/],
  },
  {
    name: 'text of the wrong type',
    path: messages,
    call: { method: 'POST', body: { text: 42, idempotencyKey: 'k-type' } },
    status: 400,
    code: 'invalid_request',
    message: [/body\.text:/, /expected string, received number/],
  },
  {
    name: 'missing text',
    path: messages,
    call: { method: 'POST', body: { idempotencyKey: 'k-missing' } },
    status: 400,
    code: 'invalid_request',
    message: [/body\.text:/, /expected string, received undefined/],
  },
  {
    name: 'empty text',
    path: messages,
    call: { method: 'POST', body: { text: '', idempotencyKey: 'k-empty' } },
    status: 400,
    code: 'invalid_request',
    message: [/body\.text:/, />=1 characters/],
  },
  {
    name: 'text one character too long',
    path: messages,
    call: { method: 'POST', body: { text: 'x'.repeat(MAX_MESSAGE_CHARS + 1), idempotencyKey: 'k-long' } },
    status: 400,
    code: 'invalid_request',
    message: [/body\.text:/, new RegExp(`<=${MAX_MESSAGE_CHARS} characters`)],
  },
  {
    name: 'an unknown field',
    path: messages,
    call: { method: 'POST', body: { text: 'hi', idempotencyKey: 'k-extra', priority: 'high' } },
    status: 400,
    code: 'invalid_request',
    message: [/^body: Unrecognized key: "priority"$/],
  },
  {
    name: 'no idempotency key',
    path: messages,
    call: { method: 'POST', body: { text: 'hi' } },
    status: 400,
    code: 'missing_idempotency_key',
    message: [/Idempotency-Key header/, /body\.idempotencyKey/],
  },
  {
    name: 'header and body idempotency keys that differ',
    path: messages,
    call: { method: 'POST', headers: { 'idempotency-key': 'k-a' }, body: { text: 'hi', idempotencyKey: 'k-b' } },
    status: 400,
    code: 'conflicting_idempotency_key',
    message: [/Idempotency-Key header and body\.idempotencyKey differ/],
  },
  {
    name: 'an empty Idempotency-Key header',
    path: messages,
    call: { method: 'POST', headers: { 'idempotency-key': '' }, body: { text: 'hi' } },
    status: 400,
    code: 'invalid_request',
    message: [/^header Idempotency-Key: /, />=1 characters/],
  },
  {
    name: 'an idempotency key over 200 characters',
    path: messages,
    call: { method: 'POST', body: { text: 'hi', idempotencyKey: 'k'.repeat(201) } },
    status: 400,
    code: 'invalid_request',
    message: [/body\.idempotencyKey:/, /<=200 characters/],
  },
  {
    name: 'a conversation id of the wrong shape (post)',
    path: () => messages('chat_42' as ConversationId),
    call: { method: 'POST', body: { text: 'hi', idempotencyKey: 'k-shape' } },
    status: 400,
    code: 'invalid_request',
    message: [/^params\.id: expected an id of the form conv_…$/],
  },
  {
    name: 'a conversation id of the wrong shape (read)',
    path: () => '/v1/conversations/42/messages',
    call: {},
    status: 400,
    code: 'invalid_request',
    message: [/^params\.id: expected an id of the form conv_…$/],
  },
  {
    name: 'an unknown conversation (post)',
    path: () => messages('conv_doesnotexist' as ConversationId),
    call: { method: 'POST', body: { text: 'hi', idempotencyKey: 'k-unknown' } },
    status: 404,
    code: 'not_found',
    message: [/^there is no conversation conv_doesnotexist$/],
  },
  {
    name: 'an unknown conversation (read)',
    path: () => '/v1/conversations/conv_doesnotexist/messages',
    call: {},
    status: 404,
    code: 'not_found',
    message: [/^there is no conversation conv_doesnotexist$/],
  },
  {
    name: 'an agent id of the wrong shape',
    path: opened,
    call: { method: 'POST', body: { agent: 'support' } },
    status: 400,
    code: 'invalid_request',
    message: [/^body\.agent: expected an id of the form agent_…$/],
  },
  {
    name: 'a customer id of the wrong type',
    path: opened,
    call: { method: 'POST', body: { customerId: 7 } },
    status: 400,
    code: 'invalid_request',
    message: [/body\.customerId:/, /received number/],
  },
  {
    name: 'an empty channel',
    path: opened,
    call: { method: 'POST', body: { channel: '' } },
    status: 400,
    code: 'invalid_request',
    message: [/body\.channel:/, />=1 characters/],
  },
  {
    name: 'an unknown field when opening',
    path: opened,
    call: { method: 'POST', body: { agentId: 'agent_support' } },
    status: 400,
    code: 'invalid_request',
    message: [/^body: Unrecognized key: "agentId"$/],
  },
  {
    name: 'a text/plain body',
    path: messages,
    call: { method: 'POST', headers: { 'content-type': 'text/plain', 'idempotency-key': 'k-plain' }, body: 'hello' },
    status: 415,
    code: 'unsupported_media_type',
    message: [/'text\/plain' is not supported/, /application\/json/],
  },
  {
    name: 'a form body when opening',
    path: opened,
    call: { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'agent=agent_x' },
    status: 415,
    code: 'unsupported_media_type',
    message: [/'application\/x-www-form-urlencoded' is not supported/],
  },
  {
    name: 'an unknown route',
    path: () => '/v1/nothing-here?x=1',
    call: {},
    status: 404,
    code: 'route_not_found',
    message: [/^there is no route GET \/v1\/nothing-here$/],
  },
  {
    name: 'an unknown method on a known path',
    path: (id) => `/v1/conversations/${id}`,
    call: { method: 'DELETE' },
    status: 404,
    code: 'route_not_found',
    message: [/^there is no route DELETE \/v1\/conversations\/conv_/],
  },
  {
    name: 'a URL that does not decode',
    path: () => '/v1/conversations/conv_%zz/messages',
    call: { method: 'POST', body: { text: 'hi', idempotencyKey: 'k-url' } },
    status: 400,
    code: 'bad_url',
    message: [/not valid/, /percent-encoding/],
  },
];

describe.each<{ kind: StoreKind }>([{ kind: 'sqlite' }, { kind: 'postgres' }])('HTTP API over $kind', ({ kind }) => {
  let store: Store;
  let server: TestRuntime;
  let base: string;
  let existing: ConversationId;
  /** Customer tokens by conversation; a request for an unknown one carries `existing`'s. */
  const tokens = new Map<string, string>();
  const tokenFor = (path: string): string => {
    const id = /\/v1\/conversations\/(conv_[A-Za-z0-9_-]+)/.exec(path)?.[1];
    return tokens.get(id ?? '') ?? tokens.get(existing)!;
  };

  async function send(path: string, call: Call = {}): Promise<Sent> {
    const headers: Record<string, string> = { authorization: `Bearer ${tokenFor(path)}`, ...call.headers };
    let body: string | undefined;
    if (typeof call.body === 'string') body = call.body;
    else if (call.body !== undefined) {
      body = JSON.stringify(call.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${base}${path}`, { method: call.method ?? 'GET', headers, ...(body === undefined ? {} : { body }) });
    const text = await response.text();
    return { status: response.status, contentType: response.headers.get('content-type'), body: JSON.parse(text) as unknown };
  }

  const postMessage = (id: ConversationId, text: string, key: string, via: 'header' | 'body' = 'header') =>
    send(
      messages(id),
      via === 'header'
        ? { method: 'POST', headers: { 'idempotency-key': key }, body: { text } }
        : { method: 'POST', body: { text, idempotencyKey: key } },
    );

  beforeAll(async () => {
    server = await startTestRuntime(kind, { policy: noted });
    ({ store, base } = server);
    const first = await server.open();
    existing = first.id;
    tokens.set(first.id, first.token);
    await server.runtime.service.receive(existing, { text: 'already here', idempotencyKey: 'k-existing' });
  });

  afterAll(async () => {
    await server?.close();
  });

  /** Opens a conversation over HTTP and keeps its customer token for later requests. */
  async function openOverHttp(body?: unknown): Promise<Sent & { conversation: Conversation }> {
    const res = await send('/v1/conversations', { method: 'POST', ...(body === undefined ? {} : { body }) });
    const { conversation, customerToken } = res.body as { conversation: Conversation; customerToken: string };
    tokens.set(conversation.id, customerToken);
    return { ...res, conversation };
  }

  it('reports health and the store kind', async () => {
    const res = await send('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', store: kind });
  });

  it('opens a conversation, stores a message once, and reads both back', async () => {
    const created = await openOverHttp({ agent: 'agent_support', channel: 'web', customerId: 'cust_17' });
    expect(created.status).toBe(201);
    const { conversation } = created;
    expect((created.body as { customerToken: string }).customerToken).toMatch(/^ct_[A-Za-z0-9_-]{43}$/);
    expect(conversation).toMatchObject({ state: 'AGENT_ACTIVE', agentId: 'agent_support', channel: 'web', customerId: 'cust_17' });
    expect(conversation.id).toMatch(/^conv_/);

    const first = await postMessage(conversation.id, 'where is my order?', 'order-q-1');
    expect(first.status).toBe(201);
    const posted = first.body as { message: Message; duplicate: boolean };
    expect(posted.duplicate).toBe(false);
    expect(posted.message).toMatchObject({
      conversationId: conversation.id,
      direction: 'inbound',
      text: 'where is my order?',
      idempotencyKey: 'order-q-1',
    });

    const again = await postMessage(conversation.id, 'where is my order?', 'order-q-1', 'body');
    expect(again.status).toBe(200);
    // A redelivery answers the same message at the same cursor: the client reads the answer after it.
    expect(again.body).toEqual({ message: posted.message, duplicate: true, cursor: (first.body as { cursor: string }).cursor });

    await server.runtime.service.idle();
    const read = await send(`/v1/conversations/${conversation.id}/messages`);
    expect(read.status).toBe(200);
    const { messages: seen, cursor } = read.body as { messages: Array<{ id: string; from: string; text: string }>; cursor: string };
    expect(seen.map((m) => [m.from, m.text])).toEqual([
      ['customer', 'where is my order?'],
      ['agent', 'Noted.'],
    ]);
    expect(seen[0]!.id).toBe(posted.message.id);
    const after = await send(`/v1/conversations/${conversation.id}/messages?after=${cursor}`);
    expect(after.body).toEqual({ messages: [], cursor });
    const events: StoredEvent[] = await store.listEvents(conversation.id);
    expect(events.filter((e) => e.type === 'message.received').map((e) => e.data.message)).toEqual([posted.message]);
    expect(events[0]).toMatchObject({ type: 'conversation.created', data: { conversation } });
  });

  it('opens a conversation without a body, served by the default agent', async () => {
    const created = await openOverHttp();
    expect(created.status).toBe(201);
    expect(created.conversation).toMatchObject({
      agentId: 'agent_support',
      channel: 'api',
      customerId: null,
    });
  });

  it.each(BAD_INPUT)('refuses $name with $status, a clear message, and no change', async ({ path, call, status, code, message }) => {
    const before = await snapshot(store);
    const res = await send(path(existing), call);
    expect(res.status).toBe(status);
    expect(res.contentType).toMatch(/^application\/json/);
    const { error } = res.body as ErrorBody;
    expect(error.code).toBe(code);
    for (const pattern of message) expect(error.message).toMatch(pattern);
    expect(await snapshot(store)).toEqual(before);
  });

  it('answers a body over the limit with 413 and stores nothing', async () => {
    const before = await snapshot(store);
    const text = 'x'.repeat(DEFAULT_BODY_LIMIT_BYTES);
    const res = await postMessage(existing, text, 'k-oversize');
    expect(res.status).toBe(413);
    expect(res.body).toEqual({
      error: { code: 'payload_too_large', message: `the request body is larger than the limit of ${DEFAULT_BODY_LIMIT_BYTES} bytes` },
    });
    expect(await snapshot(store)).toEqual(before);
    expect((await received(store, existing)).map((m) => m.idempotencyKey)).toEqual(['k-existing']);
  });

  it('stores one message and one message.received for 100 concurrent posts with one key', async () => {
    const { id, token } = await server.open();
    tokens.set(id, token);
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => postMessage(id, 'refund please', 'k-storm', i % 2 === 0 ? 'header' : 'body')),
    );
    const created = results.filter((r) => r.status === 201);
    const redelivered = results.filter((r) => r.status === 200);
    expect(created).toHaveLength(1);
    expect(redelivered).toHaveLength(99);
    const winner = (created[0]?.body as { message: Message; duplicate: boolean }).message;
    const cursor = (created[0]?.body as { cursor: string }).cursor;
    expect(created[0]?.body).toEqual({ message: winner, duplicate: false, cursor });
    for (const r of redelivered) expect(r.body).toEqual({ message: winner, duplicate: true, cursor });

    expect(await received(store, id)).toEqual([winner]);
  });

  it('answers an unexpected failure with an opaque, logged 500', async () => {
    const logged: string[] = [];
    const failing = new Proxy(store, {
      get(target, key, receiver) {
        if (key === 'listEvents') {
          return async () => {
            throw new Error('disk on fire at /var/secret');
          };
        }
        const value: unknown = Reflect.get(target, key, receiver);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const { composeServeRuntime } = await import('../src/cli/serve-runtime.js');
    const { ServeConfigSchema } = await import('../src/cli/serve-config.js');
    const broken = await composeServeRuntime({
      store: failing,
      config: ServeConfigSchema.parse({}),
      logger: { level: 'error', stream: { write: (line: string) => void logged.push(line) } },
    });
    const url = await broken.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const response = await fetch(`${url}/v1/conversations/${existing}/messages`, {
        headers: { authorization: `Bearer ${tokens.get(existing)}` },
      });
      expect(response.status).toBe(500);
      const text = await response.text();
      expect(JSON.parse(text)).toEqual({ error: { code: 'internal', message: 'internal error' } });
      expect(text).not.toContain('fire');
      expect(logged.join('')).toContain('disk on fire at /var/secret');
    } finally {
      await broken.app.close();
      await broken.notifications?.close();
    }
  });
});
