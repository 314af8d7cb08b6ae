import type {} from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { roleAtLeast, type ConversationId, type StaffId, type StoredEvent } from '../core/index.js';
import type { ConversationService } from '../runtime/service/conversation-service.js';
import { requireStaff, SESSION_COOKIE, type CallerDeps, type StaffCaller } from './auth/callers.js';
import { staffForToken } from './auth/staff-accounts.js';
import { HttpError } from './http-errors.js';
import { createLogTails } from './log-tails.js';
import { createQueueWatch } from './queue-watch.js';
import { createViewPush } from './view-push.js';
import type { StaffedQueue } from './staff-routes.js';
import {
  STREAM_CLOSE,
  StreamRequestSchema,
  type ApprovalItem,
  type Colleague,
  type OfferItem,
  type QueueItem,
  type StreamMessage,
} from './staff-stream-protocol.js';

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
 * and the queue and the caller's offers, whenever they change. The log is the truth: a wake-up from this process's
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
  const tails = createLogTails({ store, wakeups, rereadMs, batch: BATCH });
  // The staff ids a batch mentions, found once for every console it is handed to.
  const mentions = new WeakMap<readonly StoredEvent[], string[]>();
  const mentionedIn = (events: readonly StoredEvent[]): string[] => {
    let ids = mentions.get(events);
    if (!ids) mentions.set(events, (ids = [...new Set(events.flatMap(staffMentioned))]));
    return ids;
  };
  const colleagues = async (ids: readonly string[]): Promise<Colleague[]> => {
    const found: Colleague[] = [];
    for (const id of ids) {
      const account = await auth.directory.staffById(id as StaffId);
      if (account) found.push({ id: account.id, name: account.name, email: account.email });
    }
    return found;
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
      /** What this connection follows; `stop` ends one follow (before it has started, too). */
      const follows = new Map<ConversationId, { stopped: boolean; stop: () => void }>();
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
      const end = (code: number, reason: string) => {
        if (socket.readyState === socket.OPEN) socket.close(code, reason);
      };

      // Entries are sent in log order: a batch that must wait for colleagues' names holds the ones after it.
      let named: Promise<void> = Promise.resolve();
      let waitingForNames = 0;
      const eventsText = (id: ConversationId, json: string, cursor: number, found: readonly Colleague[]) =>
        `{"type":"events","conversation":${JSON.stringify(id)},"events":${json},"cursor":"${cursor}","people":${JSON.stringify(found)}}`;

      /** Follows a conversation's log after `after`: its state first, then every entry, in order, once. */
      async function follow(id: ConversationId, after: number, entry: { stopped: boolean; stop: () => void }): Promise<void> {
        const conversation = await store.getConversation(id);
        if (!conversation) return send({ type: 'error', code: 'not_found', message: `there is no conversation ${id}`, conversation: id });
        if (entry.stopped) return;
        await send({ type: 'conversation', conversation });
        if (entry.stopped) return;
        const stop = tails.follow(id, {
          cursor: after,
          deliver(events, json) {
            const cursor = events.at(-1)!.seq;
            // Past the high-water mark the console is too far behind to hold in memory: it
            // reconnects and resumes from its cursor, missing nothing.
            if (socket.bufferedAmount >= HIGH_WATER_BYTES)
              return end(STREAM_CLOSE.tooSlow, 'too far behind: reconnect and resume from your cursor');
            const ids = mentionedIn(events);
            if (ids.length === 0 && waitingForNames === 0) return void sendText(eventsText(id, json, cursor, []));
            waitingForNames += 1;
            named = named
              .then(async () => void (await sendText(eventsText(id, json, cursor, await colleagues(ids)))))
              .catch(() => end(1011, 'the stream failed: reconnect'))
              .finally(() => (waitingForNames -= 1));
          },
          stopping: () => end(STREAM_CLOSE.goingAway, 'the server is stopping'),
        });
        entry.stop = () => {
          entry.stopped = true;
          stop();
        };
      }

      /** A GET route answered with the caller's own credentials: the stream shows what the route would, never more. */
      const asCaller = (url: string) =>
        app.inject({
          method: 'GET',
          url,
          headers: {
            host: request.headers.host ?? 'localhost',
            ...(caller.via === 'bearer' ? { authorization: `Bearer ${caller.token}` } : { cookie: `${SESSION_COOKIE}=${caller.token}` }),
          },
        });

      // Views pushed whenever they change — the offers made to the caller (`GET /v1/offers`) and,
      // for supervisors, the actions waiting for approval (`GET /v1/approvals`): looked at on every
      // write in this process (an offer, an answer, a timeout, an approval asked or decided is an
      // entry in some log) and every `rereadMs` for other processes' writes.
      const pushedView = <T>(url: string, pick: (body: Record<string, unknown>) => T, deliver: (view: T) => Promise<void>) => {
        let stop: (() => void) | null = null;
        const view = createViewPush({
          read: async () => {
            const answer = await asCaller(url);
            if (answer.statusCode === 401) return 'signed_out';
            return answer.statusCode === 200 ? pick(answer.json() as Record<string, unknown>) : null;
          },
          deliver,
          signedOut: () => end(STREAM_CLOSE.signedOut, 'the session ended: sign in again'),
        });
        const follow = (on: boolean) => {
          stop?.();
          stop = null;
          view.reset();
          if (!on) return;
          const stopListening = wakeups.listen(() => view.look());
          const timer = setInterval(() => view.look(), rereadMs);
          stop = () => {
            stopListening();
            clearInterval(timer);
          };
          view.look();
        };
        return { follow, stop: () => follow(false) };
      };
      const offersView = pushedView(
        '/v1/offers',
        (body) => body['offers'] as OfferItem[],
        (offers) => send({ type: 'offers', offers }),
      );
      const approvalsView = pushedView(
        '/v1/approvals',
        (body) => body['approvals'] as ApprovalItem[],
        (approvals) => send({ type: 'approvals', approvals }),
      );

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
            const answer = await asCaller('/v1/queue?limit=200');
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
        if (r.type === 'offers') return offersView.follow(r.follow);
        if (r.type === 'approvals') {
          if (r.follow && !roleAtLeast(caller.staff.role, 'supervisor'))
            return send({ type: 'error', code: 'forbidden', message: 'the actions waiting for approval are for supervisors' });
          return approvalsView.follow(r.follow);
        }
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
        follows.get(id)?.stop();
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
        const entry = { stopped: false, stop: () => void (entry.stopped = true) };
        follows.set(id, entry);
        void follow(id, Number(r.after), entry).catch(() => end(1011, 'the stream failed: reconnect'));
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
        for (const entry of follows.values()) entry.stop();
        follows.clear();
        stopQueue?.();
        offersView.stop();
        approvalsView.stop();
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
