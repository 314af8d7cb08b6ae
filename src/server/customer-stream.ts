import type {} from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { ConversationId } from '../core/index.js';
import { parseCursor } from '../runtime/service/customer-feed.js';
import type { ConversationService } from '../runtime/service/conversation-service.js';
import { checkCustomerToken, type CallerDeps } from './auth/callers.js';
import { CUSTOMER_STREAM_CLOSE, CUSTOMER_STREAM_PROTOCOL, type CustomerStreamMessage } from './customer-stream-protocol.js';
import { HttpError } from './http-errors.js';
import { ConversationParamsSchema, CustomerFeedQuerySchema, parseInput } from './http-schemas.js';
import { originHostName } from './request-origin.js';

/** Options of {@link registerCustomerStream}. */
export interface CustomerStreamOptions {
  service: ConversationService;
  auth: CallerDeps;
  /** Host names the server answers to: a browser's stream must come from a page on one of them (the web chat). */
  allowedHosts: ReadonlySet<string>;
  /** How long one read of the feed waits for something new before it reads again, ms. Default 25 000. */
  waitMs?: number;
  /** How often the server pings a quiet client; one that has not answered the last ping is dropped, ms. Default 30 000. */
  pingMs?: number;
}

/** Messages sent in one batch at most. */
const BATCH = 100;
/** Streams one conversation may have open at once in this process (a customer's tabs and reconnects). */
const MAX_STREAMS_PER_CONVERSATION = 10;
/** Bytes queued for one client before it is told to reconnect (it resumes from its cursor). */
const HIGH_WATER_BYTES = 1024 * 1024;

/**
 * The customer's token from `Sec-WebSocket-Protocol: baton.customer.v1, <token>`: 401 without it.
 * (Browsers cannot set headers on a WebSocket; the subprotocol list is the one header they send
 * that is not the URL, and URLs end up in logs.)
 */
function tokenOf(request: FastifyRequest): string {
  const offered = String(request.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const [protocol, token, ...rest] = offered;
  if (protocol !== CUSTOMER_STREAM_PROTOCOL || token === undefined || rest.length > 0 || !/^[A-Za-z0-9_-]{1,200}$/.test(token)) {
    throw new HttpError(
      401,
      'unauthenticated',
      `send the conversation's customer token as the WebSocket subprotocols "${CUSTOMER_STREAM_PROTOCOL}, <customerToken>"`,
    );
  }
  return token;
}

/**
 * The customer stream: a WebSocket that sends the web chat what its customer may see (their own
 * messages, the agent's and staff's replies, system notices — exactly what the long-poll route
 * `GET /v1/conversations/:id/messages` answers, read by the same `customerFeed`) after the cursor
 * it gives, in order, each once, then whatever comes, live. After a disconnect the chat opens it
 * again from its last cursor and misses nothing. The log is the truth: a wake-up from this
 * process's writes only makes the read come sooner, and the feed re-reads for other processes'.
 */
export function registerCustomerStream(app: FastifyInstance, options: CustomerStreamOptions): void {
  const { service, auth } = options;
  const waitMs = options.waitMs ?? 25_000;
  const pingMs = options.pingMs ?? 30_000;
  const sockets = new Set<WebSocket>();
  const open = new Map<ConversationId, number>();
  const starts = new WeakMap<FastifyRequest, { id: ConversationId; after: number }>();

  app.addHook('preClose', async () => {
    for (const socket of sockets) socket.close(CUSTOMER_STREAM_CLOSE.goingAway, 'the server is stopping');
  });

  app.get(
    '/v1/conversations/:id/stream',
    {
      websocket: true,
      schema: { hide: true },
      preValidation: async (request) => {
        const { id } = parseInput(ConversationParamsSchema, request.params, 'params');
        // Any page may open a WebSocket to any server; only the web chat this server serves may open this one.
        const origin = request.headers.origin;
        if (origin !== undefined) {
          const host = originHostName(origin);
          if (host === null || !options.allowedHosts.has(host))
            throw new HttpError(403, 'forbidden_origin', 'the customer stream must be opened by the web chat this server serves (Origin)');
        }
        await checkCustomerToken(auth, id, tokenOf(request));
        const query = parseInput(CustomerFeedQuerySchema.pick({ after: true }), request.query, 'query');
        const after = parseCursor(query.after);
        if (after === null) throw new HttpError(400, 'invalid_request', 'query.after: a cursor is the `cursor` a previous answer gave');
        if ((open.get(id) ?? 0) >= MAX_STREAMS_PER_CONVERSATION)
          throw new HttpError(429, 'too_many_streams', `a conversation may have ${MAX_STREAMS_PER_CONVERSATION} streams open at once`);
        starts.set(request, { id, after });
      },
    },
    (socket, request) => {
      const { id, after } = starts.get(request)!;
      sockets.add(socket);
      open.set(id, (open.get(id) ?? 0) + 1);
      const ended = new AbortController();
      const end = (code: number, reason: string) => {
        if (socket.readyState === socket.OPEN) socket.close(code, reason);
      };
      const send = (message: CustomerStreamMessage): Promise<void> =>
        new Promise((resolve) => {
          if (socket.readyState !== socket.OPEN) return resolve();
          // Past the high-water mark the client is too far behind to hold in memory: it reconnects
          // and resumes from its cursor, missing nothing.
          if (socket.bufferedAmount >= HIGH_WATER_BYTES) {
            end(CUSTOMER_STREAM_CLOSE.tooSlow, 'too far behind: reconnect and resume from your cursor');
            return resolve();
          }
          socket.send(JSON.stringify(message), () => resolve());
        });

      async function tail(): Promise<void> {
        let cursor = after;
        await send({ type: 'ready', cursor: String(after) });
        while (!ended.signal.aborted) {
          const started = Date.now();
          const page = await service.customerFeed(id, { after: cursor, limit: BATCH, waitMs, signal: ended.signal });
          if (ended.signal.aborted) return;
          if (page.messages.length > 0) await send({ type: 'messages', messages: page.messages, cursor: page.cursor });
          // An empty page well before the wait was up: the service has stopped waiting (it is shutting down).
          else if (Date.now() - started < waitMs / 2) return end(CUSTOMER_STREAM_CLOSE.goingAway, 'the server is stopping');
          cursor = Number(page.cursor);
        }
      }
      void tail().catch(() => end(1011, 'the stream failed: reconnect and resume from your cursor'));

      // A client that vanished without closing (a cut network) is found by the ping it does not answer.
      let answered = true;
      socket.on('pong', () => (answered = true));
      const beat = setInterval(() => {
        if (!answered) return socket.terminate();
        answered = false;
        socket.ping();
      }, pingMs);

      socket.on('message', () => {
        void send({
          type: 'error',
          code: 'invalid_request',
          message: 'the customer stream takes no messages: write with POST /v1/conversations/:id/messages',
        });
      });
      socket.on('close', () => {
        sockets.delete(socket);
        ended.abort();
        clearInterval(beat);
        const left = (open.get(id) ?? 1) - 1;
        if (left <= 0) open.delete(id);
        else open.set(id, left);
      });
    },
  );
}
