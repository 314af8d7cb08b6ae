import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ECHO_CHARS } from '../src/core/index.js';
import type { Domain } from '../src/domains/domain.js';
import { loadDomain } from '../src/domains/load-domain.js';
import { envSessionOptions } from '../src/lab/env/setup.js';
import { buildEnvServer, DEFAULT_MAX_FRAME_BYTES } from '../src/server/env-server.js';
import { connect } from './support/env-ws-client.js';

let domain: Domain;
const servers: { close(): Promise<void> }[] = [];

/** A server with one session at a time (so a leaked session would refuse the next connection). */
async function serve(maxFrameBytes?: number) {
  const session = envSessionOptions(domain, { tasks: 'main', split: 'train', reward: 'task', checks: 'off' });
  const app = buildEnvServer({
    name: 'baton-billing',
    description: 'limits',
    session,
    maxSessions: 1,
    idleTimeoutMs: 60_000,
    ...(maxFrameBytes === undefined ? {} : { maxFrameBytes }),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  servers.push(app);
  const base = `127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return { ws: `ws://${base}/ws`, http: `http://${base}` };
}

beforeAll(async () => {
  domain = await loadDomain('billing');
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** A frame of exactly `bytes` bytes of JSON: `{"type":"<x…>"}`. */
const frameOf = (bytes: number) => `{"type":"${'x'.repeat(bytes - '{"type":""}'.length)}"}`;

describe('the environment server bounds what it reads and what it repeats', () => {
  it('closes a connection whose frame is over 1 MiB by default (1009), answers one at the cap, and frees the session', async () => {
    const server = await serve();
    const client = await connect(server.ws);
    const atCap = await client.send(frameOf(DEFAULT_MAX_FRAME_BYTES));
    expect(atCap).toMatchObject({ type: 'error', data: { code: 'UNKNOWN_TYPE' } });
    expect(JSON.stringify(atCap).length).toBeLessThan(1_000);
    void client.send(frameOf(DEFAULT_MAX_FRAME_BYTES + 1));
    expect(await client.closed).toBe(1009);
    // The closed connection's session is released: the one session this server allows is free.
    const next = await connect(server.ws);
    expect(await next.send({ type: 'reset', data: { seed: 0 } })).toMatchObject({ type: 'observation' });
    next.close();
    await next.closed;
  });

  it('takes a configured cap for frames and HTTP bodies', async () => {
    const server = await serve(4_096);
    const client = await connect(server.ws);
    expect(await client.send(frameOf(4_096))).toMatchObject({ type: 'error', data: { code: 'UNKNOWN_TYPE' } });
    void client.send(frameOf(4_097));
    expect(await client.closed).toBe(1009);
    const big = await fetch(`${server.http}/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ task: 'x'.repeat(5_000) }),
    });
    expect(big.status).toBe(413);
  });

  it('quotes at most 200 characters of any value the caller sent, over /ws and HTTP', async () => {
    const server = await serve();
    const client = await connect(server.ws);
    const long = 'x'.repeat(100_000);
    const many = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`${i}${long.slice(0, 1_000)}`, 1]));
    const answers = [
      await client.send({ type: long }),
      await client.send({ type: 'reset', data: { task: long } }),
      await client.send({ type: 'reset', data: { seed: long } }),
      await client.send({ type: 'step', data: { type: 'message', content: 'hi', [long]: 1 } }),
      await client.send({ type: 'step', data: { type: 'message', content: 'hi', ...many } }),
      await client.send({ type: 'step', data: { type: long } }),
    ];
    const http = await fetch(`${server.http}/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ task: long.slice(0, 900_000) }),
    });
    expect(http.status).toBe(422);
    answers.push({ type: 'http', data: (await http.json()) as Record<string, unknown> });
    for (const answer of answers) {
      const text = JSON.stringify(answer);
      expect(answer.type, text.slice(0, 300)).toMatch(/^(error|http)$/);
      expect(text).not.toMatch(new RegExp(`x{${MAX_ECHO_CHARS + 1}}`));
      expect(text.length, text.slice(0, 300)).toBeLessThan(20_000);
    }
    // Still useful: the start of the bad value is quoted, with its real length.
    expect(answers[1]!.data['message']).toMatch(new RegExp(`no task "x{${MAX_ECHO_CHARS}}… \\(100000 characters\\)"`));
    client.close();
    await client.closed;
  });
});
