/**
 * A `fetch` for the OpenAI SDK over `node:http`/`node:https` with keep-alive agents.
 *
 * Node's global `fetch` (undici, with WHATWG streams) costs about 1.4 ms of CPU per chat
 * completion on this project's machines; this costs about 0.6. That matters when one process
 * keeps dozens of conversations in flight against a local model server (the lab's runner, a
 * gateway with many agents): there the client's CPU, not the server, limits throughput
 * (BENCHMARKS.md, "runner"). JSON answers are read whole into the `Response`; event streams
 * (`stream: true`) are passed through as they arrive. Anything this does not handle — a body
 * other than text or bytes, a scheme other than http(s) — goes to the global `fetch`.
 *
 * Differences from the global `fetch` a caller could notice: redirects are not followed (an
 * OpenAI-compatible endpoint does not redirect; a 3xx comes back as it is), and no proxy
 * variables are read (the global `fetch` reads none either).
 */
import * as http from 'node:http';
import * as https from 'node:https';
import { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

const agents = {
  'http:': new http.Agent({ keepAlive: true }),
  'https:': new https.Agent({ keepAlive: true }),
};

/** Statuses whose `Response` may not have a body. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

function requestBody(body: RequestInit['body']): string | Uint8Array | undefined | null {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  return null;
}

function decoded(response: http.IncomingMessage): Readable {
  const encoding = String(response.headers['content-encoding'] ?? '').toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : null;
  if (!decoder) return response;
  // `pipe` does not pass errors on: a connection cut mid-body must fail the decoded stream too.
  response.on('error', (error) => decoder.destroy(error));
  return response.pipe(decoder);
}

function readAll(stream: Readable): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

function responseHeaders(response: http.IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  // The body handed on is already decoded.
  headers.delete('content-encoding');
  headers.delete('content-length');
  return headers;
}

/** `fetch(input, init)` over node:http(s); see the module comment for what it does not do. */
export async function nodeFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const url = new URL(input instanceof Request ? input.url : input);
  const agent = agents[url.protocol as keyof typeof agents];
  const body = requestBody(init.body);
  if (input instanceof Request || !agent || body === null) return fetch(input, init);
  const signal = init.signal ?? undefined;
  signal?.throwIfAborted();

  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, name) => {
    headers[name] = value;
  });
  if (body !== undefined && headers['content-length'] === undefined) headers['content-length'] = String(Buffer.byteLength(body));

  const message = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const request = (url.protocol === 'https:' ? https : http).request(
      url,
      { method: init.method ?? 'GET', headers, agent, ...(signal ? { signal } : {}) },
      resolve,
    );
    request.on('error', (error) => reject(signal?.aborted ? signal.reason : error));
    request.end(body);
  });

  const status = message.statusCode ?? 0;
  const options = { status, statusText: message.statusMessage ?? '', headers: responseHeaders(message) };
  if (NULL_BODY.has(status) || init.method === 'HEAD') {
    message.resume();
    return new Response(null, options);
  }
  const stream = decoded(message);
  // An event stream is handed on as it arrives; anything else is read whole first.
  if (String(message.headers['content-type'] ?? '').startsWith('text/event-stream')) {
    return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, options);
  }
  try {
    return new Response(await readAll(stream), options);
  } catch (error) {
    throw signal?.aborted ? signal.reason : error;
  }
}
