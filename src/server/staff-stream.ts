import type {} from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { ConversationId, StaffId, StoredEvent } from '../core/index.js';
import type { ConversationService } from '../runtime/service/conversation-service.js';
import { requireStaff, SESSION_COOKIE, type CallerDeps, type StaffCaller } from './auth/callers.js';
import { staffForToken } from './auth/staff-accounts.js';
import { HttpError } from './http-errors.js';
import { createQueueWatch } from './queue-watch.js';
import type { StaffedQueue } from './staff-routes.js';
import { STREAM_CLOSE, StreamRequestSchema, type Colleague, type QueueItem, type StreamMessage } from './staff-stream-protocol.js';

/** Options of {@link registerStaffStream}. */
export interface StaffStreamOptions {
  service: ConversationService;
  auth: CallerDeps;
  queues: readonly StaffedQueue[];
  /** Host names the server answers to: a cookie-authenticated stream must come from a page on one of them. */
  allowedHosts: ReadonlySet<string>;
  /** How often a reader looks at the log without a wake-up (writes by other processes), ms. Default 1000. */
  rereadMs?: number;
  /** How often the session is checked, so that signing out or expiry ends the stream, ms. Default 15 000. */
  sessionCheckMs?: number;
}

/** Log entries sent in one batch at most. */
const BATCH = 200;
/** Bytes queued for one console before its readers wait for the socket. */
const HIGH_WATER_BYTES = 1024 * 1024;
/** Conversations one connection may follow at once. */
const MAX_FOLLOWS = 20;
/** Largest message a console may send (bytes); a follow request is far smaller. */
const MAX_REQUEST_BYTES = 4096;

/** The staff ids a log entry mentions (who acted, who owns it, who wrote). */
function staffMentioned(event: StoredEvent): string[] {
  const ids: string[] = [];
  const data = event.data as Record<string, unknown>;
  if (typeof data['staff'] === 'string') ids.push(data['staff']);
  for (const owner of [data['owner'], (data['from'] as { owner?: unknown } | undefined)?.owner, (data['by'] as unknown) ?? null]) {
    const o = owner as { type?: string; id?: string } | null | undefined;
    if (o?.type === 'human' && typeof o.id === 'string') ids.push(o.id);
  }
  const sender = (data['message'] as { sender?: { type?: string; id?: string } } | undefined)?.sender;
  if (sender?.type === 'human' && typeof sender.id === 'string') ids.push(sender.id);
  return ids;
}

/** A page on one of the allowed hosts, or a refusal: a cookie stream opened by another site is a cross-site WebSocket hijack. */
function checkOrigin(request: FastifyRequest, allowed: ReadonlySet<string>): void {
  const origin = request.headers.origin;
  let host: string | null = null;
  try {
    const url = origin ? new URL(origin) : null;
    if (url && (url.protocol === 'http:' || url.protocol === 'https:')) host = url.hostname.toLowerCase();
  } catch {
    host = null;
  }
  // URL.hostname drops an IPv6 address's brackets; the allowed list keeps them.
  const bracketed = host !== null && host.includes(':') ? `[${host}]` : host;
  if (bracketed === null || !allowed.has(bracketed)) {
    throw new HttpError(403, 'forbidden_origin', 'a stream signed in by cookie must be opened by a page this server serves (Origin)');
  }
}

/**
 * The staff stream: a WebSocket that sends a console the log of the conversations it follows,
 * from the cursor it gives, in order, each entry once, then every new entry as it is written;
 * and the queue, whenever it changes. The log is the truth: a wake-up from this process's
 * writes only makes a reader look sooner, and a bounded re-read finds what other processes
 * wrote. After a disconnect the console follows again from its last cursor and misses nothing.
 *
 * Staff see on the stream exactly what `GET /v1/conversations/:id` shows them (the log, stored
 * redacted) and what `GET /v1/queue` shows them (only the queues they may work): one view, one
 * policy, never more.
 */
export function registerStaffStream(app: FastifyInstance, options: StaffStreamOptions): void {
  const { service, auth } = options;
  const store = service.gateway.store;
  const wakeups = service.wakeups;
  const rereadMs = options.rereadMs ?? 1000;
  const sessionCheckMs = options.sessionCheckMs ?? 15_000;
  const watch = createQueueWatch({ store, wakeups, rereadMs });
  const callers = new WeakMap<FastifyRequest, StaffCaller>();
  const sockets = new Set<WebSocket>();
  // Consoles that follow one conversation wake together at the same cursor: they share one read
  // of the log (the same query has the same answer) and one serialisation of what it returned.
  const reads = new Map<string, Promise<StoredEvent[]>>();
  const serialised = new WeakMap<readonly StoredEvent[], string>();
  const readAfter = (id: ConversationId, after: number): Promise<StoredEvent[]> => {
    const key = `${id}:${after}`;
    let read = reads.get(key);
    if (!read) {
      read = store.listEvents(id, { afterSeq: after, limit: BATCH }).finally(() => reads.delete(key));
      reads.set(key, read);
    }
    return read;
  };
  const eventsJson = (events: readonly StoredEvent[]): string => {
    let json = serialised.get(events);
    if (json === undefined) serialised.set(events, (json = JSON.stringify(events)));
    return json;
  };
  app.addHook('preClose', async () => {
    watch.close();
    for (const socket of sockets) socket.close(STREAM_CLOSE.goingAway, 'the server is stopping');
  });

  app.get(
    '/v1/staff/stream',
    {
      websocket: true,
      preValidation: async (request) => {
        const caller = await requireStaff(request, auth);
        if (caller.via === 'cookie') checkOrigin(request, options.allowedHosts);
        callers.set(request, caller);
      },
    },
    (socket, request) => {
      const caller = callers.get(request)!;
      sockets.add(socket);
      const ended = new AbortController();
      const follows = new Map<ConversationId, AbortController>();
      const named = new Set<string>();
      let stopQueue: (() => void) | null = null;

      const sendText = (text: string): Promise<void> => {
        if (socket.readyState !== socket.OPEN) return Promise.resolve();
        // Past the high-water mark the reader waits for the write: a slow console slows its own
        // reader and holds a bounded buffer, never the server's memory.
        if (socket.bufferedAmount < HIGH_WATER_BYTES) {
          socket.send(text);
          return Promise.resolve();
        }
        return new Promise((resolve) => socket.send(text, () => resolve()));
      };
      const send = (message: StreamMessage): Promise<void> => sendText(JSON.stringify(message));
      /** An `events` message, its shared part serialised once for every console that reads the same entries. */
      const sendEvents = (id: ConversationId, events: readonly StoredEvent[], found: Colleague[]): Promise<void> =>
        sendText(
          `{"type":"events","conversation":${JSON.stringify(id)},"events":${eventsJson(events)},"cursor":"${events.at(-1)!.seq}","people":${JSON.stringify(found)}}`,
        );
      const end = (code: number, reason: string) => {
        if (socket.readyState === socket.OPEN) socket.close(code, reason);
      };

      const people = async (events: readonly StoredEvent[]): Promise<Colleague[]> => {
        const fresh = [...new Set(events.flatMap(staffMentioned))].filter((id) => !named.has(id));
        const found: Colleague[] = [];
        for (const id of fresh) {
          named.add(id);
          const account = await auth.directory.staffById(id as StaffId);
          if (account) found.push({ id: account.id, name: account.name, email: account.email });
        }
        return found;
      };

      async function follow(id: ConversationId, after: number, signal: AbortSignal): Promise<void> {
        const conversation = await store.getConversation(id);
        if (signal.aborted) return;
        if (!conversation) return send({ type: 'error', code: 'not_found', message: `there is no conversation ${id}`, conversation: id });
        await send({ type: 'conversation', conversation });
        let cursor = after;
        while (!signal.aborted) {
          const mark = wakeups.mark(id);
          let events: StoredEvent[];
          try {
            events = await readAfter(id, cursor);
          } catch {
            events = [];
          }
          if (signal.aborted) return;
          const last = events.at(-1);
          if (last) {
            await sendEvents(id, events, await people(events));
            cursor = last.seq;
            continue;
          }
          const started = Date.now();
          await wakeups.wait(id, rereadMs, mark, signal);
          // Woken at once with nothing written: the wake-ups are closed, the server is stopping.
          // The console reconnects and resumes from its cursor.
          if (!signal.aborted && wakeups.mark(id) === mark && Date.now() - started < rereadMs / 2) {
            return end(STREAM_CLOSE.goingAway, 'the server is stopping');
          }
        }
      }

      let queueBusy = false;
      let queueAgain = false;
      let lastQueue = '';
      async function sendQueue(): Promise<void> {
        if (queueBusy) {
          queueAgain = true;
          return;
        }
        queueBusy = true;
        try {
          do {
            queueAgain = false;
            // The queue view is the route's, with the caller's own credentials: the same items, the same rules.
            const answer = await app.inject({
              method: 'GET',
              url: '/v1/queue?limit=200',
              headers: {
                host: request.headers.host ?? 'localhost',
                ...(caller.via === 'bearer'
                  ? { authorization: `Bearer ${caller.token}` }
                  : { cookie: `${SESSION_COOKIE}=${caller.token}` }),
              },
            });
            if (answer.statusCode === 401) return end(STREAM_CLOSE.signedOut, 'the session ended: sign in again');
            if (answer.statusCode !== 200) continue;
            const conversations = (answer.json() as { conversations: QueueItem[] }).conversations;
            const same = JSON.stringify(conversations.map(({ waitedMs: _w, ...rest }) => rest));
            if (same === lastQueue) continue;
            lastQueue = same;
            await send({ type: 'queue', conversations });
          } while (queueAgain && !ended.signal.aborted);
        } finally {
          queueBusy = false;
        }
      }

      const sessionTimer = setInterval(() => {
        void staffForToken(auth.directory, caller.token, auth.clock).then(
          (staff) => staff ?? end(STREAM_CLOSE.signedOut, 'the session ended: sign in again'),
          () => {},
        );
      }, sessionCheckMs);

      /** One request, after checking that the session still holds (a signed-out console acts on nothing). */
      async function handle(text: string | null): Promise<void> {
        if (!(await staffForToken(auth.directory, caller.token, auth.clock)))
          return end(STREAM_CLOSE.signedOut, 'the session ended: sign in again');
        if (text === null || text.length > MAX_REQUEST_BYTES) {
          return send({ type: 'error', code: 'invalid_request', message: `send JSON text of at most ${MAX_REQUEST_BYTES} bytes` });
        }
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          return send({ type: 'error', code: 'invalid_request', message: 'a request is a JSON object' });
        }
        const request = StreamRequestSchema.safeParse(parsed);
        if (!request.success) {
          const issue = request.error.issues[0];
          return send({
            type: 'error',
            code: 'invalid_request',
            message: `${issue?.path.join('.') || 'request'}: ${issue?.message ?? 'invalid'}`,
          });
        }
        const r = request.data;
        if (r.type === 'queue') {
          stopQueue?.();
          stopQueue = null;
          lastQueue = '';
          if (r.follow) {
            stopQueue = watch.subscribe(() => void sendQueue().catch(() => {}));
            void sendQueue().catch(() => {});
          }
          return;
        }
        const id = r.conversation as ConversationId;
        follows.get(id)?.abort();
        follows.delete(id);
        if (r.type === 'unfollow') return;
        if (follows.size >= MAX_FOLLOWS) {
          return send({
            type: 'error',
            code: 'too_many_follows',
            message: `follow at most ${MAX_FOLLOWS} conversations at once`,
            conversation: id,
          });
        }
        const controller = new AbortController();
        follows.set(id, controller);
        ended.signal.addEventListener('abort', () => controller.abort(), { once: true });
        void follow(id, Number(r.after), controller.signal).catch(() => end(1011, 'the stream failed: reconnect'));
      }

      // Requests are handled one at a time, in the order they came.
      let handling: Promise<void> = Promise.resolve();
      socket.on('message', (data, isBinary) => {
        const text = isBinary ? null : data.toString();
        handling = handling.then(() => handle(text)).catch(() => end(1011, 'the stream failed: reconnect'));
      });

      socket.on('close', () => {
        sockets.delete(socket);
        ended.abort();
        stopQueue?.();
        clearInterval(sessionTimer);
      });

      void send({
        type: 'hello',
        staff: { id: caller.staff.id, name: caller.staff.name, email: caller.staff.email, role: caller.staff.role },
        queues: options.queues.map((q) => q.id),
      });
    },
  );
}
