/**
 * A scripted OpenAI-compatible HTTP server: a test double, not a model. It understands nothing
 * it is sent; each `POST /v1/chat/completions` gets the next step of a script written in advance
 * (a reply with content and tool calls, an HTTP error, a malformed body, a hang, a dropped
 * connection), streamed as server-sent events when the request asks for `stream: true`. It
 * records every request for assertions and counts requests in flight.
 *
 * It is a product module: the model client's tests run against it over real HTTP, and the lab
 * uses it when no model endpoint is configured, so that a run still goes end to end.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { completionBody, ScriptedStepSchema, streamChunks, type ReplyContext, type ScriptedStep } from './scripted-openai-replies.js';

export { ScriptedStepSchema, ScriptedToolCallSchema, type ScriptedStep, type ScriptedToolCall } from './scripted-openai-replies.js';

/** One request as the server received it. */
export interface RecordedRequest {
  /** 1-based, in order of arrival. */
  number: number;
  method: string;
  path: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The JSON body, parsed; `undefined` when it was not JSON. */
  body: unknown;
}

/** Picks the step for a request: the alternative to a fixed list, for scripts that depend on what was asked. */
export type ScriptResponder = (request: RecordedRequest, completionNumber: number) => ScriptedStep | Promise<ScriptedStep>;

/** Options of `startScriptedOpenAiServer`. */
export interface ScriptedOpenAiServerOptions {
  /** The steps, one per chat-completions request in order, or a function choosing each step. */
  script: readonly ScriptedStep[] | ScriptResponder;
  /** Slices that streamed content and each tool call's arguments are cut into (default 3). */
  streamPieces?: number;
  /** The model `GET /v1/models` lists (default `scripted`); replies echo the requested model. */
  model?: string;
  /** Host to listen on (default 127.0.0.1: never exposed beyond the machine unless asked). */
  host?: string;
  /** Port (default 0: any free port). */
  port?: number;
}

/** A running scripted server. */
export interface ScriptedOpenAiServer {
  /** The base URL to give a client, with the version path: `http://127.0.0.1:<port>/v1`. */
  url: string;
  /** Every request received so far, in order (a live array). */
  requests: RecordedRequest[];
  /** Chat-completions requests being answered now. */
  readonly inFlight: number;
  /** The most chat-completions requests ever answered at once. */
  readonly maxInFlight: number;
  /** Steps of a list script not yet used (0 for a responder). */
  readonly stepsLeft: number;
  /** Stops listening and drops every open connection, hanging ones included. */
  close(): Promise<void>;
}

/** The least a chat-completions request must carry; anything else passes through unchecked. */
const ChatRequestSchema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(z.unknown()).min(1),
  stream: z.boolean().optional(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullable().optional(),
});

/** Starts the server on 127.0.0.1 and a free port. The script is validated before it listens. */
export async function startScriptedOpenAiServer(options: ScriptedOpenAiServerOptions): Promise<ScriptedOpenAiServer> {
  const steps = typeof options.script === 'function' ? null : options.script.map((step) => ScriptedStepSchema.parse(step));
  const responder = typeof options.script === 'function' ? options.script : null;
  const pieces = options.streamPieces ?? 3;
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let completions = 0;
  let nextStep = 0;
  let inFlight = 0;
  let maxInFlight = 0;

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      if (ms <= 0) return resolve();
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  const stepFor = async (request: RecordedRequest, completionNumber: number) => {
    if (responder) return ScriptedStepSchema.parse(await responder(request, completionNumber));
    const step = steps?.[nextStep];
    if (!step) return undefined;
    nextStep++;
    return step;
  };

  const answerCompletion = async (request: RecordedRequest, res: ServerResponse, arrivedAt: number) => {
    const checked = ChatRequestSchema.safeParse(request.body);
    if (!checked.success) {
      return sendJson(res, 400, errorBody(`invalid chat-completions request: ${z.prettifyError(checked.error)}`, 'invalid_request_error'));
    }
    const completionNumber = ++completions;
    const step = await stepFor(request, completionNumber);
    if (!step) {
      // A client error, not a 5xx, so that a client under test fails at once instead of retrying.
      const message = `scripted OpenAI server: the script is exhausted (request ${completionNumber}, ${steps?.length ?? 0} steps)`;
      return sendJson(res, 400, errorBody(message, 'script_exhausted'));
    }
    if (step.type === 'hang') return; // The response stays open until the client or close() ends it.
    // The delay runs from the request's arrival: a server's latency includes its own work.
    if ('delayMs' in step && step.delayMs) await wait(step.delayMs - (performance.now() - arrivedAt));
    if (res.destroyed) return;
    switch (step.type) {
      case 'disconnect':
        res.socket?.destroy();
        return;
      case 'error':
        return sendJson(res, step.status, step.body ?? errorBody(`scripted error ${step.status}`, errorType(step.status)), step.headers);
      case 'raw':
        return sendRaw(res, step.status, typeof step.body === 'string' ? step.body : JSON.stringify(step.body), step.headers);
      case 'reply': {
        const context: ReplyContext = {
          requestNumber: completionNumber,
          model: checked.data.model,
          messages: checked.data.messages,
          created: Math.floor(Date.now() / 1000),
        };
        if (checked.data.stream !== true) return sendJson(res, 200, completionBody(step, context));
        const includeUsage = checked.data.stream_options?.include_usage === true;
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
        for (const chunk of streamChunks(step, context, { pieces, includeUsage })) {
          if (res.destroyed) return;
          res.write(`data: ${JSON.stringify(chunk)}\n\n`);
          if (step.chunkDelayMs) await wait(step.chunkDelayMs);
        }
        if (!res.destroyed) res.end('data: [DONE]\n\n');
        return;
      }
    }
  };

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, errorBody(`scripted OpenAI server failed: ${String(error)}`, 'server_error'));
      else res.destroy();
    });
  });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const arrivedAt = performance.now();
    const text = await readBody(req);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const request: RecordedRequest = {
      number: requests.length + 1,
      method: req.method ?? 'GET',
      path,
      headers: Object.fromEntries(
        Object.entries(req.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')]),
      ),
      body: parseJson(text),
    };
    requests.push(request);
    if (request.method === 'GET' && path === '/v1/models') {
      const model = options.model ?? 'scripted';
      return sendJson(res, 200, { object: 'list', data: [{ id: model, object: 'model', created: 0, owned_by: 'baton-scripted' }] });
    }
    if (request.method !== 'POST' || path !== '/v1/chat/completions') {
      return sendJson(res, 404, errorBody(`scripted OpenAI server: no route ${request.method} ${path}`, 'not_found'));
    }
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.once('close', () => inFlight--);
    await answerCompletion(request, res, arrivedAt);
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}/v1`,
    requests,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    get stepsLeft() {
      return steps ? steps.length - nextStep : 0;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

function errorType(status: number): string {
  if (status === 429) return 'rate_limit_exceeded';
  return status >= 500 ? 'server_error' : 'invalid_request_error';
}

function errorBody(message: string, type: string) {
  return { error: { message, type, param: null, code: null } };
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  sendRaw(res, status, JSON.stringify(body), { 'content-type': 'application/json', ...headers });
}

function sendRaw(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
