import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeFetch } from './node-fetch.js';

let server: Server;
let base: string;
const seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = [];

const routes: Record<string, (req: IncomingMessage, res: ServerResponse, body: string) => void> = {
  '/json': (_req, res, body) => {
    res.writeHead(200, { 'content-type': 'application/json', 'x-echo': 'one' });
    res.end(JSON.stringify({ got: body }));
  },
  '/gzip': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    res.end(gzipSync(JSON.stringify({ packed: true })));
  },
  '/empty': (_req, res) => {
    res.writeHead(204);
    res.end();
  },
  '/error': (_req, res) => {
    res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '2' });
    res.end('{"error":{"message":"slow down"}}');
  },
  '/stream': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: 1\n\n');
    setTimeout(() => res.end('data: 2\n\n'), 30);
  },
  '/slow': (_req, res) => {
    setTimeout(() => res.end('late'), 2_000).unref();
  },
  '/cut': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
    res.write('{"partial":');
    setTimeout(() => res.socket?.destroy(), 20);
  },
};

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      (routes[req.url ?? ''] ?? ((_q, r) => r.writeHead(404).end()))(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('nodeFetch', () => {
  it('sends the method, headers and body, and returns status, headers and the body', async () => {
    const response = await nodeFetch(`${base}/json`, {
      method: 'POST',
      headers: new Headers({ 'content-type': 'application/json', authorization: 'Bearer k' }),
      body: '{"a":"é"}',
    });
    expect(response.status).toBe(200);
    expect(response.ok).toBe(true);
    expect(response.headers.get('x-echo')).toBe('one');
    expect(await response.json()).toEqual({ got: '{"a":"é"}' });
    const request = seen.at(-1);
    expect(request).toMatchObject({ method: 'POST', url: '/json', body: '{"a":"é"}' });
    expect(request?.headers['authorization']).toBe('Bearer k');
    expect(request?.headers['content-length']).toBe(String(Buffer.byteLength('{"a":"é"}')));
  });

  it('decodes a compressed body and drops the encoding headers', async () => {
    const response = await nodeFetch(`${base}/gzip`);
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(await response.json()).toEqual({ packed: true });
  });

  it('gives a body-less response for 204 and an error status as it came', async () => {
    const empty = await nodeFetch(`${base}/empty`);
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
    const limited = await nodeFetch(`${base}/error`, { method: 'POST', body: '{}' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
    expect(await limited.text()).toContain('slow down');
  });

  it('passes an event stream through as it arrives', async () => {
    const response = await nodeFetch(`${base}/stream`);
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: 1\n\n');
    let rest = '';
    for (let next = await reader.read(); !next.done; next = await reader.read()) rest += new TextDecoder().decode(next.value);
    expect(rest).toBe('data: 2\n\n');
  });

  it('rejects with the abort reason when the signal fires, before or during the request', async () => {
    const before = new AbortController();
    before.abort(new Error('cancelled first'));
    await expect(nodeFetch(`${base}/json`, { signal: before.signal })).rejects.toThrow('cancelled first');
    const during = new AbortController();
    setTimeout(() => during.abort(new DOMException('timed out', 'AbortError')), 50);
    await expect(nodeFetch(`${base}/slow`, { signal: during.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('rejects when the connection is refused or cut mid-body', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(nodeFetch(`http://127.0.0.1:${port}/`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await expect(nodeFetch(`${base}/cut`)).rejects.toThrow();
  });

  it('hands what it does not handle to the global fetch', async () => {
    const form = new URLSearchParams({ a: '1' });
    const response = await nodeFetch(`${base}/json`, { method: 'POST', body: form });
    expect(await response.json()).toEqual({ got: 'a=1' });
    const viaRequest = await nodeFetch(new Request(`${base}/json`, { method: 'POST', body: 'r' }));
    expect(await viaRequest.json()).toEqual({ got: 'r' });
  });
});
