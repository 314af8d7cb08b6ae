import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Conversation, ConversationId } from '../src/core/index.js';
import { noRedaction } from '../src/runtime/service/redactor.js';
import { toHttpError } from '../src/server/http-errors.js';
import { StoreBusyError } from '../src/store/store-busy.js';
import type { Store } from '../src/store/store.js';
import { UnstorableTextError } from '../src/store/unstorable-text.js';
import { notedPolicy, startTestRuntime, type TestRuntime } from './support/runtime-server.js';
import { STORABLE_TEXTS, UNSTORABLE_TEXTS } from './support/store-text-conformance.js';

describe.each(['memory', 'sqlite', 'postgres'] as const)('text over HTTP on %s', (kind) => {
  let store: Store;
  let server: TestRuntime;
  const tokens = new Map<string, string>();
  beforeAll(async () => {
    // Storage itself is under test: the text must come back exactly as sent, so nothing redacts it.
    server = await startTestRuntime(kind, { policy: notedPolicy, redact: noRedaction });
    store = server.store;
  });
  afterAll(() => server.close());

  const post = async (url: string, payload: unknown, headers: Record<string, string> = {}) => {
    const id = /conversations\/(conv_[^/]+)/.exec(url)?.[1];
    const auth: Record<string, string> = id && tokens.has(id) ? { authorization: `Bearer ${tokens.get(id)}` } : {};
    const answer = await server.runtime.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json', ...auth, ...headers },
      payload: JSON.stringify(payload),
    });
    const body = JSON.parse(answer.body) as { conversation?: Conversation; customerToken?: string };
    if (body.conversation && body.customerToken) tokens.set(body.conversation.id, body.customerToken);
    return answer;
  };
  const newConversation = async () =>
    (JSON.parse((await post('/v1/conversations', {})).body) as { conversation: Conversation }).conversation;
  const receivedOf = async (id: ConversationId) =>
    (await store.listEvents(id)).flatMap((e) => (e.type === 'message.received' ? [e.data.message] : []));

  it('stores every text of the corpus exactly as sent and gives it back exactly', async () => {
    for (const [name, text] of Object.entries(STORABLE_TEXTS)) {
      const opened = await post('/v1/conversations', { customerId: text, channel: [...text].slice(0, 50).join('') });
      expect(opened.statusCode, name).toBe(201);
      const c = (JSON.parse(opened.body) as { conversation: Conversation }).conversation;
      expect(c.customerId === text, name).toBe(true);
      expect((await post(`/v1/conversations/${c.id}/messages`, { text, idempotencyKey: text })).statusCode, name).toBe(201);
      const again = await post(`/v1/conversations/${c.id}/messages`, { text: 'redelivered', idempotencyKey: text });
      expect(again.statusCode, name).toBe(200);
      expect((await store.getConversation(c.id))!.customerId === text, name).toBe(true);
      expect(
        (await receivedOf(c.id)).map((m) => [m.text, m.idempotencyKey]),
        name,
      ).toEqual([[text, text]]);
    }
  });

  it('refuses a lone surrogate or NUL in any field with 400 naming the field, and writes nothing', async () => {
    const c = await newConversation();
    const before = { ids: await store.listConversationIds(), events: await store.listEvents(c.id) };
    for (const [name, { text }] of Object.entries(UNSTORABLE_TEXTS)) {
      const answers = [
        await post('/v1/conversations', { customerId: text }),
        await post('/v1/conversations', { channel: text }),
        await post(`/v1/conversations/${c.id}/messages`, { text, idempotencyKey: 'k' }),
        await post(`/v1/conversations/${c.id}/messages`, { text: 'hello', idempotencyKey: text }),
      ];
      const fields = ['customerId', 'channel', 'text', 'idempotencyKey'];
      answers.forEach((answer, i) => {
        expect(answer.statusCode, `${name}: ${fields[i]}`).toBe(400);
        const { error } = JSON.parse(answer.body) as { error: { code: string; message: string } };
        expect(error.code).toBe('invalid_request');
        expect(error.message).toMatch(new RegExp(`body\\.${fields[i]}: contains (a lone surrogate|NUL)`));
      });
    }
    expect(await store.listConversationIds()).toEqual(before.ids);
    expect(await store.listEvents(c.id)).toEqual(before.events);
  });

  it('no longer merges two keys that differ only in a lone surrogate: neither is stored, neither answered duplicate', async () => {
    const c = await newConversation();
    for (const key of ['key-\uD800', 'key-\uD801']) {
      expect((await post(`/v1/conversations/${c.id}/messages`, { text: 'x', idempotencyKey: key })).statusCode).toBe(400);
    }
    expect(await receivedOf(c.id)).toEqual([]);
  });
});

describe('store errors the HTTP layer answers', () => {
  const request = { headers: {}, url: '/v1/x' } as FastifyRequest;
  it('maps UnstorableTextError to 400 and StoreBusyError to 503', () => {
    expect(toHttpError(new UnstorableTextError('message.text', 'nul', 'contains NUL'), request, 1)).toMatchObject({
      statusCode: 400,
      code: 'unstorable_text',
    });
    expect(toHttpError(new StoreBusyError('sqlite', 5000), request, 1)).toMatchObject({ statusCode: 503, code: 'store_busy' });
  });
});
