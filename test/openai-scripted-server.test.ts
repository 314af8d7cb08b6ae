import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  startScriptedOpenAiServer,
  type ScriptedOpenAiServer,
  type ScriptedOpenAiServerOptions,
} from '../src/testing/scripted-openai-server.js';

// The scripted OpenAI-compatible server on its own, spoken to with plain fetch.

const servers: ScriptedOpenAiServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(options: ScriptedOpenAiServerOptions): Promise<ScriptedOpenAiServer> {
  const server = await startScriptedOpenAiServer(options);
  servers.push(server);
  return server;
}

const post = (server: ScriptedOpenAiServer, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

const chat = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };

/** The JSON payloads of an SSE body, and whether it ended with `[DONE]`. */
function events(text: string): { chunks: Record<string, unknown>[]; done: boolean } {
  const lines = text.split('\n\n').filter((block) => block.startsWith('data: '));
  const payloads = lines.map((line) => line.slice('data: '.length));
  return {
    done: payloads.at(-1) === '[DONE]',
    chunks: payloads.filter((p) => p !== '[DONE]').map((p) => JSON.parse(p) as Record<string, unknown>),
  };
}

describe('scripted OpenAI-compatible server', () => {
  it('listens on 127.0.0.1 and records method, path, headers and body', async () => {
    const server = await serve({ script: [{ type: 'reply', content: 'hello' }] });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const response = await post(server, chat, { 'x-trace': 'abc' });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ object: 'chat.completion', model: 'm', choices: [{ message: { content: 'hello' } }] });
    expect(server.requests[0]).toMatchObject({ number: 1, method: 'POST', path: '/v1/chat/completions', body: chat });
    expect(server.requests[0]?.headers['x-trace']).toBe('abc');
    expect(server.stepsLeft).toBe(0);
  });

  it('streams tool-call arguments split over several chunks, then usage, then [DONE]', async () => {
    const server = await serve({
      script: [
        {
          type: 'reply',
          toolCalls: [
            { name: 'a', arguments: { x: 'abcdefghij' } },
            { name: 'b', arguments: '{"y":1}' },
          ],
        },
      ],
      streamPieces: 3,
    });
    const response = await post(server, { ...chat, stream: true, stream_options: { include_usage: true } });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const { chunks, done } = events(await response.text());
    expect(done).toBe(true);
    type Delta = { tool_calls?: { index: number; function?: { arguments?: string } }[] };
    const pieces = (index: number) =>
      chunks
        .flatMap((c) => (c.choices as { delta: Delta }[]).flatMap((choice) => choice.delta.tool_calls ?? []))
        .filter((call) => call.index === index && call.function?.arguments)
        .map((call) => call.function?.arguments);
    expect(pieces(0).length).toBeGreaterThan(1);
    expect(pieces(0).join('')).toBe('{"x":"abcdefghij"}');
    expect(pieces(1).join('')).toBe('{"y":1}');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: expect.any(Number) } });
  });

  it('sends scripted errors with their headers, and a clear 400 when the script runs out', async () => {
    const server = await serve({ script: [{ type: 'error', status: 429, headers: { 'retry-after': '3' } }] });
    const limited = await post(server, chat);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    expect(await limited.json()).toMatchObject({ error: { type: 'rate_limit_exceeded' } });
    const exhausted = await post(server, chat);
    expect(exhausted.status).toBe(400);
    expect(JSON.stringify(await exhausted.json())).toContain('script is exhausted');
  });

  it('refuses a request without model or messages, without using a step', async () => {
    const server = await serve({ script: [{ type: 'reply', content: 'kept' }] });
    expect((await post(server, { messages: [] })).status).toBe(400);
    expect(server.stepsLeft).toBe(1);
  });

  it('lists its model and answers 404 elsewhere', async () => {
    const server = await serve({ script: [], model: 'scripted-7b' });
    expect(await (await fetch(`${server.url}/models`)).json()).toMatchObject({ data: [{ id: 'scripted-7b' }] });
    expect((await fetch(`${server.url}/embeddings`, { method: 'POST', body: '{}' })).status).toBe(404);
  });

  it('asks a responder for each step when given one', async () => {
    const server = await serve({
      script: (request, n) => ({
        type: 'reply',
        content: `reply ${n} to ${JSON.stringify((request.body as typeof chat).messages[0]?.content)}`,
      }),
    });
    await post(server, chat);
    const second = (await (await post(server, chat)).json()) as { choices: { message: { content: string } }[] };
    expect(second.choices[0]?.message.content).toBe('reply 2 to "hi"');
  });

  it('rejects an invalid script before listening', async () => {
    await expect(startScriptedOpenAiServer({ script: [{ type: 'error', status: 200 }] })).rejects.toThrow();
  });

  it('closes even while a request hangs', async () => {
    const server = await startScriptedOpenAiServer({ script: [{ type: 'hang' }] });
    const pending = post(server, chat).catch((error: unknown) => error);
    // Wait for the request to arrive, not for a fixed time.
    await vi.waitFor(() => expect(server.inFlight).toBe(1));
    await server.close();
    expect(await pending).toBeInstanceOf(Error);
  });
});
