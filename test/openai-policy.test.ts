import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage, PolicyRequest, ToolSpec } from '../src/core/policy.js';
import { createEndpointLimiters } from '../src/llm/endpoint-limiter.js';
import { createOpenAiPolicy, type OpenAiPolicyOptions, type Sleep } from '../src/llm/openai-policy.js';
import { fixedClock } from '../src/testing/fixed-clock.js';
import { startScriptedOpenAiServer, type ScriptedOpenAiServer, type ScriptedStep } from '../src/testing/scripted-openai-server.js';

// The OpenAI-compatible client against the scripted OpenAI-compatible server, over real HTTP.

const servers: ScriptedOpenAiServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(script: ScriptedStep[], streamPieces = 3): Promise<ScriptedOpenAiServer> {
  const server = await startScriptedOpenAiServer({ script, streamPieces });
  servers.push(server);
  return server;
}

/** A sleep that returns at once and remembers what it was asked to wait. */
function recordingSleep(): { sleep: Sleep; delays: number[] } {
  const delays: number[] = [];
  return { delays, sleep: async (ms) => void delays.push(ms) };
}

/** A policy with test-friendly defaults: no real waiting, no jitter, its own limiter registry. */
function policyFor(server: ScriptedOpenAiServer, options: Partial<OpenAiPolicyOptions> = {}) {
  const { sleep, delays } = recordingSleep();
  const policy = createOpenAiPolicy({
    baseURL: server.url,
    model: 'test-model',
    sleep,
    random: () => 0,
    retryBaseMs: 100,
    timeoutMs: 2_000,
    limiters: createEndpointLimiters(),
    ...options,
  });
  return { policy, delays };
}

const lookupOrder: ToolSpec = {
  name: 'lookup_order',
  description: 'Find an order by id.',
  parameters: { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'], additionalProperties: false },
};
const refund: ToolSpec = {
  name: 'refund',
  description: 'Refund a charge.',
  parameters: {
    type: 'object',
    properties: { chargeId: { type: 'string' }, amount: { type: 'number' } },
    required: ['chargeId', 'amount'],
  },
};
const ask = (text: string, extra: Partial<PolicyRequest> = {}): PolicyRequest => ({
  messages: [{ role: 'user', content: text }],
  tools: [],
  ...extra,
});
const bodyOf = (server: ScriptedOpenAiServer, index: number) => server.requests[index]?.body as Record<string, unknown>;

describe('replies', () => {
  it('returns a plain reply with its usage, and sends only what was set', async () => {
    const server = await serve([{ type: 'reply', content: 'Hello! How can I help?', usage: { promptTokens: 12, completionTokens: 7 } }]);
    const { policy } = policyFor(server);
    const response = await policy.next(ask('hi'));
    expect(response).toEqual({
      ok: true,
      content: 'Hello! How can I help?',
      toolCalls: [],
      usage: { promptTokens: 12, completionTokens: 7 },
    });
    expect(policy.name).toBe('openai:test-model');
    const body = bodyOf(server, 0);
    expect(body).toEqual({ model: 'test-model', messages: [{ role: 'user', content: 'hi' }] });
    expect(server.requests[0]?.path).toBe('/v1/chat/completions');
  });

  it('returns two parallel tool calls from a non-streamed answer', async () => {
    const server = await serve([
      {
        type: 'reply',
        toolCalls: [
          { id: 'call_a', name: 'lookup_order', arguments: { orderId: '7731' } },
          { id: 'call_b', name: 'refund', arguments: '{"chargeId":"ch_1","amount":12.5}' },
        ],
      },
    ]);
    const { policy } = policyFor(server);
    const response = await policy.next(ask('refund order 7731', { tools: [lookupOrder, refund] }));
    expect(response).toMatchObject({
      ok: true,
      content: null,
      toolCalls: [
        { id: 'call_a', name: 'lookup_order', arguments: '{"orderId":"7731"}' },
        { id: 'call_b', name: 'refund', arguments: '{"chargeId":"ch_1","amount":12.5}' },
      ],
    });
  });

  it('reassembles streamed tool-call arguments split over chunks, two calls interleaved, and reads usage from the last chunk', async () => {
    const longArguments = { chargeId: 'ch_0123456789', amount: 1234.56, reason: 'duplicate charge on the same day' };
    const server = await serve(
      [
        {
          type: 'reply',
          content: 'Let me check that for you.',
          toolCalls: [
            { id: 'call_1', name: 'lookup_order', arguments: { orderId: '7731' } },
            { id: 'call_2', name: 'refund', arguments: longArguments },
          ],
          usage: { promptTokens: 40, completionTokens: 25 },
        },
      ],
      4,
    );
    const { policy } = policyFor(server, { stream: true });
    const response = await policy.next(ask('refund order 7731', { tools: [lookupOrder, refund] }));
    expect(response).toEqual({
      ok: true,
      content: 'Let me check that for you.',
      toolCalls: [
        { id: 'call_1', name: 'lookup_order', arguments: '{"orderId":"7731"}' },
        { id: 'call_2', name: 'refund', arguments: JSON.stringify(longArguments) },
      ],
      usage: { promptTokens: 40, completionTokens: 25 },
    });
    expect(bodyOf(server, 0)).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(policy.usage()).toMatchObject({ promptTokens: 40, completionTokens: 25 });
  });

  it('is a server_error, not retried, when the answer has no choices', async () => {
    const server = await serve([{ type: 'raw', body: { id: 'x', object: 'chat.completion', choices: [] } }]);
    const { policy } = policyFor(server);
    const response = await policy.next(ask('hi'));
    expect(response).toMatchObject({ ok: false, failure: { kind: 'server_error', message: expect.stringContaining('no choices') } });
    expect(server.requests).toHaveLength(1);
  });

  it('is a server_error when the body is not JSON', async () => {
    const server = await serve([{ type: 'raw', body: 'not json at all' }]);
    const { policy } = policyFor(server);
    expect(await policy.next(ask('hi'))).toMatchObject({ ok: false, failure: { kind: 'server_error' } });
  });
});

describe('request shape', () => {
  it('sends tools as function tools, the model, the temperature, the key, and round-trips tool_call_id', async () => {
    const server = await serve([{ type: 'reply', content: 'Your order shipped yesterday.' }]);
    const { policy } = policyFor(server, { temperature: 0.2, apiKey: 'sk-test-123', model: 'qwen2.5-7b-instruct' });
    const messages: ChatMessage[] = [
      { role: 'system', content: 'You are a billing agent.' },
      { role: 'user', content: 'Where is order 7731?' },
      { role: 'assistant', content: null, toolCalls: [{ id: 'call_9', name: 'lookup_order', arguments: '{"orderId":"7731"}' }] },
      { role: 'tool', toolCallId: 'call_9', name: 'lookup_order', content: '{"status":"shipped"}' },
      { role: 'assistant', content: 'One moment.', toolCalls: [] },
    ];
    expect(await policy.next({ messages, tools: [lookupOrder] })).toMatchObject({ ok: true });
    expect(bodyOf(server, 0)).toEqual({
      model: 'qwen2.5-7b-instruct',
      temperature: 0.2,
      tools: [
        { type: 'function', function: { name: 'lookup_order', description: 'Find an order by id.', parameters: lookupOrder.parameters } },
      ],
      messages: [
        { role: 'system', content: 'You are a billing agent.' },
        { role: 'user', content: 'Where is order 7731?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'lookup_order', arguments: '{"orderId":"7731"}' } }],
        },
        { role: 'tool', tool_call_id: 'call_9', content: '{"status":"shipped"}' },
        { role: 'assistant', content: 'One moment.' },
      ],
    });
    expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-test-123');
  });

  it('refuses invalid options before any request, saying what to change', () => {
    expect(() => createOpenAiPolicy({ baseURL: 'not a url', model: 'm' })).toThrow(/baseURL/);
    expect(() => createOpenAiPolicy({ baseURL: 'http://localhost:8000/v1', model: '' })).toThrow(/model/);
    expect(() => createOpenAiPolicy({ baseURL: 'http://localhost:8000/v1', model: 'm', concurrency: 0 })).toThrow(/concurrency/);
  });
});

describe('retries', () => {
  it('waits as long as Retry-After says after a 429, then succeeds, and counts the retry', async () => {
    const server = await serve([
      { type: 'error', status: 429, headers: { 'Retry-After': '2' } },
      { type: 'reply', content: 'ok' },
    ]);
    const { policy, delays } = policyFor(server);
    expect(await policy.next(ask('hi'))).toMatchObject({ ok: true, content: 'ok' });
    expect(delays).toEqual([2_000]);
    expect(policy.usage()).toMatchObject({ calls: 1, requests: 2, retries: 1, failures: 0 });
    expect(server.requests).toHaveLength(2);
  });

  it('honours Retry-After as an HTTP date and retry-after-ms', async () => {
    const clock = fixedClock(Date.UTC(2026, 0, 1, 12, 0, 0));
    const server = await serve([
      { type: 'error', status: 429, headers: { 'Retry-After': new Date(Date.UTC(2026, 0, 1, 12, 0, 5)).toUTCString() } },
      { type: 'error', status: 503, headers: { 'retry-after-ms': '750', 'Retry-After': '9' } },
      { type: 'reply', content: 'ok' },
    ]);
    const { policy, delays } = policyFor(server, { clock });
    expect(await policy.next(ask('hi'))).toMatchObject({ ok: true });
    expect(delays).toEqual([5_000, 750]);
  });

  it('backs off exponentially after 503 twice, then succeeds', async () => {
    const server = await serve([
      { type: 'error', status: 503 },
      { type: 'error', status: 503 },
      { type: 'reply', content: 'back' },
    ]);
    const { policy, delays } = policyFor(server, { retryBaseMs: 100, random: () => 0.5 });
    expect(await policy.next(ask('hi'))).toMatchObject({ ok: true, content: 'back' });
    // Equal jitter: half the ceiling plus random · half; ceilings 100 then 200.
    expect(delays).toEqual([75, 150]);
    expect(policy.usage()).toMatchObject({ requests: 3, retries: 2 });
  });

  it('does not retry a 400: it comes back as bad_request with its status', async () => {
    const server = await serve([
      { type: 'error', status: 400, body: { error: { message: 'tools[0] is invalid', type: 'invalid_request_error' } } },
      { type: 'reply', content: 'never sent' },
    ]);
    const { policy, delays } = policyFor(server);
    const response = await policy.next(ask('hi'));
    expect(response).toMatchObject({
      ok: false,
      failure: { kind: 'bad_request', status: 400, message: expect.stringContaining('tools[0] is invalid') },
    });
    expect(server.requests).toHaveLength(1);
    expect(delays).toEqual([]);
    expect(policy.usage()).toMatchObject({ requests: 1, retries: 0, failures: 1 });
  });

  it('gives up on a persistent 500 after maxRetries + 1 attempts, as server_error', async () => {
    const server = await serve(Array.from({ length: 5 }, (): ScriptedStep => ({ type: 'error', status: 500 })));
    const { policy, delays } = policyFor(server, { maxRetries: 2 });
    const response = await policy.next(ask('hi'));
    expect(response).toMatchObject({
      ok: false,
      failure: { kind: 'server_error', status: 500, message: expect.stringContaining('3 attempts') },
    });
    expect(server.requests).toHaveLength(3);
    expect(delays).toHaveLength(2);
    expect(policy.usage()).toMatchObject({ calls: 1, requests: 3, retries: 2, failures: 1 });
  });

  it('ends the retries when Retry-After asks for longer than maxRetryDelayMs', async () => {
    const server = await serve([
      { type: 'error', status: 429, headers: { 'Retry-After': '120' } },
      { type: 'reply', content: 'never sent' },
    ]);
    const { policy, delays } = policyFor(server, { maxRetryDelayMs: 30_000 });
    const response = await policy.next(ask('hi'));
    expect(response).toMatchObject({
      ok: false,
      failure: { kind: 'rate_limited', status: 429, message: expect.stringContaining('120000 ms') },
    });
    expect(delays).toEqual([]);
  });

  it('retries a dropped connection as a network error', async () => {
    const server = await serve([{ type: 'disconnect' }, { type: 'reply', content: 'ok' }]);
    const { policy } = policyFor(server);
    expect(await policy.next(ask('hi'))).toMatchObject({ ok: true, content: 'ok' });
    expect(policy.usage()).toMatchObject({ retries: 1 });
  });

  it('reports network when nothing listens', async () => {
    const server = await serve([]);
    await servers.splice(0)[0]?.close();
    const { policy } = policyFor(server, { maxRetries: 1 });
    expect(await policy.next(ask('hi'))).toMatchObject({ ok: false, failure: { kind: 'network' } });
  });
});

describe('timeouts and aborts', () => {
  it('times out each attempt, retries, and reports timeout', async () => {
    const server = await serve([{ type: 'hang' }, { type: 'hang' }]);
    const { policy } = policyFor(server, { timeoutMs: 100, maxRetries: 1 });
    const started = Date.now();
    const response = await policy.next(ask('hi'));
    expect(response).toMatchObject({ ok: false, failure: { kind: 'timeout', message: expect.stringContaining('100 ms') } });
    expect(server.requests).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('times out a stream that stalls after its headers went out', async () => {
    const server = await serve([{ type: 'reply', content: 'a slow answer', chunkDelayMs: 60 }], 10);
    const { policy } = policyFor(server, { timeoutMs: 80, maxRetries: 0, stream: true });
    expect(await policy.next(ask('hi'))).toMatchObject({ ok: false, failure: { kind: 'timeout' } });
  });

  it('returns aborted when the caller aborts mid-request, without retrying', async () => {
    const server = await serve([{ type: 'hang' }, { type: 'reply', content: 'never sent' }]);
    const { policy } = policyFor(server);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    expect(await policy.next(ask('hi', { signal: controller.signal }))).toMatchObject({ ok: false, failure: { kind: 'aborted' } });
    expect(server.requests).toHaveLength(1);
  });

  it('returns aborted for a signal aborted before the call, sending nothing', async () => {
    const server = await serve([{ type: 'reply', content: 'never sent' }]);
    const { policy } = policyFor(server);
    expect(await policy.next(ask('hi', { signal: AbortSignal.abort() }))).toMatchObject({ ok: false, failure: { kind: 'aborted' } });
    expect(server.requests).toHaveLength(0);
  });

  it('returns aborted when the caller aborts during the back-off', async () => {
    const server = await serve([
      { type: 'error', status: 503 },
      { type: 'reply', content: 'never sent' },
    ]);
    const controller = new AbortController();
    const { policy } = policyFor(server, {
      sleep: async () => controller.abort(),
    });
    expect(await policy.next(ask('hi', { signal: controller.signal }))).toMatchObject({ ok: false, failure: { kind: 'aborted' } });
    expect(server.requests).toHaveLength(1);
  });
});

describe('concurrency and accounting', () => {
  it('never lets more than `concurrency` requests reach one endpoint, across policy instances', async () => {
    const server = await serve(Array.from({ length: 5 }, (_, i): ScriptedStep => ({ type: 'reply', content: `answer ${i}`, delayMs: 40 })));
    const limiters = createEndpointLimiters();
    const first = policyFor(server, { concurrency: 2, limiters }).policy;
    const second = policyFor(server, { concurrency: 2, limiters }).policy;
    const responses = await Promise.all([first, second, first, second, first].map((policy, i) => policy.next(ask(`question ${i}`))));
    expect(responses.every((response) => response.ok)).toBe(true);
    expect(server.requests).toHaveLength(5);
    expect(server.maxInFlight).toBe(2);
  });

  it('aborts a call still waiting for a slot without sending it', async () => {
    const server = await serve([{ type: 'reply', content: 'slow', delayMs: 150 }]);
    const { policy } = policyFor(server, { concurrency: 1 });
    const slow = policy.next(ask('first'));
    const controller = new AbortController();
    const queued = policy.next(ask('second', { signal: controller.signal }));
    setTimeout(() => controller.abort(), 20);
    expect(await queued).toMatchObject({ ok: false, failure: { kind: 'aborted' } });
    expect(await slow).toMatchObject({ ok: true });
    expect(server.requests).toHaveLength(1);
  });

  it('sums token usage across calls, streamed or not', async () => {
    const server = await serve([
      { type: 'reply', content: 'a', usage: { promptTokens: 10, completionTokens: 1 } },
      { type: 'error', status: 502 },
      { type: 'reply', content: 'b', usage: { promptTokens: 20, completionTokens: 2 } },
      {
        type: 'reply',
        toolCalls: [{ name: 'lookup_order', arguments: { orderId: '1' } }],
        usage: { promptTokens: 30, completionTokens: 3 },
      },
    ]);
    const plain = policyFor(server).policy;
    expect(await plain.next(ask('one'))).toMatchObject({ usage: { promptTokens: 10, completionTokens: 1 } });
    expect(await plain.next(ask('two'))).toMatchObject({ usage: { promptTokens: 20, completionTokens: 2 } });
    expect(plain.usage()).toEqual({ promptTokens: 30, completionTokens: 3, calls: 2, requests: 3, retries: 1, failures: 0 });
    const streamed = policyFor(server, { stream: true }).policy;
    expect(await streamed.next(ask('three', { tools: [lookupOrder] }))).toMatchObject({ usage: { promptTokens: 30, completionTokens: 3 } });
    expect(streamed.usage()).toMatchObject({ promptTokens: 30, completionTokens: 3, calls: 1 });
  });
});
