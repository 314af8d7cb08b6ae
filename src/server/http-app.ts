import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Clock, ConversationId } from '../core/index.js';
import type { ConversationService } from '../runtime/service/conversation-service.js';
import type { Directory } from '../store/directory.js';
import { DEFAULT_SESSION_MS } from './auth/staff-accounts.js';
import { registerConsoleStatic } from './console-static.js';
import { registerChannelRoutes, type ChannelRoutesOptions } from './channel-routes.js';
import { registerConversationRoutes } from './conversation-routes.js';
import { errorBody, frameworkErrorHandler, HttpError, installErrorHandlers } from './http-errors.js';
import { registerMetricsRoutes } from './metrics-routes.js';
import { routeDocs } from './route-docs.js';
import { registerStaffRoutes, type StaffedQueue } from './staff-routes.js';
import { registerOfferRoutes } from './offer-routes.js';
import { registerLabRunsRoutes } from './lab-runs-routes.js';
import { registerApprovalRoutes } from './approval-routes.js';
import { registerLabTaskRoutes, type LabTaskRoutesOptions } from './lab-task-routes.js';
import { registerReviewRoutes } from './review-routes.js';
import type { RuntimeRouter } from '../runtime/router/runtime-router.js';
import { registerStaffStream } from './staff-stream.js';
import { registerChatStatic, type ChatStaticOptions } from './chat-static.js';
import { registerCustomerStream } from './customer-stream.js';

/** Largest request body accepted unless configured (bytes). */
export const DEFAULT_BODY_LIMIT_BYTES = 256 * 1024;

/** Longest path parameter the router accepts; above the longest valid id, so ids fail validation, not routing. */
const MAX_PARAM_LENGTH = 256;

/** Options of {@link buildHttpApp}. */
export interface HttpAppOptions {
  service: ConversationService;
  directory: Directory;
  clock: Clock;
  /** The queues people work, with their skills (who may see and claim what). */
  queues: readonly StaffedQueue[];
  /** The store's kind, reported by `/health`. */
  storeKind: string;
  /**
   * Host names the server answers to (the `Host` header, without its port); any other gets 421,
   * which stops DNS-rebinding attacks. Default: localhost, 127.0.0.1 and [::1].
   */
  allowedHosts?: readonly string[];
  /** Mark the session cookie Secure (serve behind HTTPS). Default false. */
  secureCookies?: boolean;
  /** Bearer token of the Prometheus scrape; null answers `/metrics` on loopback only. */
  metricsToken?: string | null;
  /** Sign-in attempts per minute per client address (default 10). */
  loginsPerMinute?: number;
  sessionMs?: number;
  /** Largest request body accepted (bytes); larger ones get 413. Default 256 KiB. */
  bodyLimitBytes?: number;
  /** Fastify's logger: off (default), on, or pino options. */
  logger?: FastifyServerOptions['logger'];
  /** Where the lab's runs are (the console lists them and opens their reports); null: none. */
  runsDir?: string | null;
  /** The router: presence and offers for staff (absent: the queue is worked by claiming only). */
  router?: RuntimeRouter;
  /** Where the built staff console is (default: web/dist/console of this package). */
  consoleDir?: string;
  /** The configured channels and their inbound routes (WhatsApp, signed webhooks); none by default. */
  channels?: ChannelRoutesOptions;
  /** The web chat: where it is built, and the origins whose pages may embed it (docs/chat.md). */
  chat?: ChatStaticOptions;
  /** Lab tasks from reviewed conversations: the domain served, and the production task set they go to (null: none). */
  labTasks?: Omit<LabTaskRoutesOptions, 'store' | 'auth'>;
}

/** Largest WebSocket message accepted (bytes). */
const MAX_WS_MESSAGE_BYTES = 64 * 1024;

/** Host names a server on loopback answers to by default. */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** The host name of a Host header, without the port, lower-cased. */
export function hostNameOf(host: string | undefined): string | null {
  if (!host) return null;
  const match = /^(\[[0-9a-f:.]+\]|[^:]+)(?::\d{1,5})?$/i.exec(host.trim());
  return match ? match[1]!.toLowerCase() : null;
}

/** Query parameters whose values are secrets (WhatsApp's handshake sends its verify token in the URL). */
const SECRET_QUERY = /([?&]hub\.verify_token=)[^&]*/gi;

/** The request URL as logged: secret query values replaced. */
export const loggableUrl = (url: string): string => url.replace(SECRET_QUERY, '$1[redacted]');

/** Fastify's logger option, with request URLs logged without secret query values. */
function withoutSecretsInUrls(logger: NonNullable<FastifyServerOptions['logger']>): NonNullable<FastifyServerOptions['logger']> {
  if (logger === false) return logger;
  const base = logger === true ? {} : logger;
  const req = (request: { method: string; url: string; hostname: string; ip: string }) => ({
    method: request.method,
    url: loggableUrl(request.url),
    host: request.hostname,
    remoteAddress: request.ip,
  });
  return { ...base, serializers: { ...(base.serializers ?? {}), req } };
}

/**
 * Builds the HTTP API over the runtime service, not yet listening. Every route knows who calls
 * (customer token, staff session, or nobody); bodies are JSON only; every error, including unknown
 * routes and unparsable bodies, answers `{error: {code, message}}`; the OpenAPI document is at
 * `/openapi.json`.
 */
export async function buildHttpApp(options: HttpAppOptions): Promise<FastifyInstance> {
  const bodyLimitBytes = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const app = Fastify({
    logger: withoutSecretsInUrls(options.logger ?? false),
    bodyLimit: bodyLimitBytes,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: frameworkErrorHandler(bodyLimitBytes),
    // A slow or stalled client is dropped rather than holding a connection for ever.
    requestTimeout: 60_000,
    connectionTimeout: 60_000,
    keepAliveTimeout: 10_000,
    // Errors Node's parser raises before any route (headers too large, bad framing) get the same
    // `{error: {code, message}}` body as every other error.
    clientErrorHandler: (error, socket) => {
      const code = (error as NodeJS.ErrnoException).code;
      const [status, reason, body] =
        code === 'HPE_HEADER_OVERFLOW'
          ? [
              431,
              'Request Header Fields Too Large',
              errorBody('headers_too_large', 'the request headers are larger than the server accepts'),
            ]
          : code === 'ERR_HTTP_REQUEST_TIMEOUT'
            ? [408, 'Request Timeout', errorBody('request_timeout', 'the request took too long to arrive')]
            : [400, 'Bad Request', errorBody('bad_request', 'the request is not valid HTTP')];
      if (!socket.writable) return socket.destroy();
      const text = JSON.stringify(body);
      socket.end(
        `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
      );
    },
  });
  // JSON only: without the default text/plain parser, any other content type gets 415.
  app.removeContentTypeParser('text/plain');
  // Input is validated by the handlers' zod schemas; the route schemas only document it.
  app.setValidatorCompiler(() => () => true);
  installErrorHandlers(app, bodyLimitBytes);

  const allowed = new Set((options.allowedHosts ?? LOOPBACK_HOSTS).map((h) => h.toLowerCase()));
  app.addHook('onRequest', async (request, reply) => {
    const name = hostNameOf(request.headers.host);
    if (name === null || !allowed.has(name)) {
      return reply
        .code(421)
        .send(
          errorBody(
            'misdirected_request',
            `this server does not answer to the host ${String(request.headers.host ?? '(none)').slice(0, 100)}: add it with --allowed-host`,
          ),
        );
    }
  });

  await app.register(cookie);
  // One registration for every WebSocket route of this app (the staff stream, …): a second one
  // would answer each upgrade twice.
  await app.register(websocket, { options: { maxPayload: MAX_WS_MESSAGE_BYTES } });
  await app.register(rateLimit, {
    global: false,
    // What this returns is thrown, and answered by the error handler like every other error.
    errorResponseBuilder: (_request, context) =>
      new HttpError(429, 'rate_limited', `too many attempts: try again in ${Math.ceil(context.ttl / 1000)} s`),
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Baton runtime API',
        version: '1',
        description: 'Customers, staff, metrics. Errors are {"error": {"code", "message"}}.',
      },
      components: {
        securitySchemes: {
          customerToken: { type: 'http', scheme: 'bearer', description: 'The customerToken that POST /v1/conversations returned.' },
          staffSession: {
            type: 'http',
            scheme: 'bearer',
            description: 'The token POST /v1/staff/login returned (or its HttpOnly cookie plus x-csrf-token).',
          },
        },
      },
    },
  });

  const auth = { directory: options.directory, clock: options.clock };
  app.get('/health', routeDocs('Liveness: the process answers, and its store kind', 'anyone'), async () => ({
    status: 'ok',
    store: options.storeKind,
  }));
  // Ready when the store answers: a load balancer sends nothing to a process that cannot store it.
  app.get('/ready', routeDocs('Readiness for a load balancer: the store answers', 'anyone'), async (_request, reply) => {
    try {
      await options.service.gateway.store.getConversation('conv_ready' as ConversationId);
      return { status: 'ready' };
    } catch {
      return reply.code(503).send(errorBody('not_ready', 'the store does not answer'));
    }
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  registerConversationRoutes(app, options.service, auth);
  registerStaffRoutes(app, {
    service: options.service,
    auth,
    queues: options.queues,
    secureCookies: options.secureCookies ?? false,
    loginsPerMinute: options.loginsPerMinute ?? 10,
    sessionMs: options.sessionMs ?? DEFAULT_SESSION_MS,
    ...(options.router ? { router: options.router } : {}),
  });
  registerLabRunsRoutes(app, { runsDir: options.runsDir ?? null, auth });
  registerApprovalRoutes(app, { service: options.service, auth });
  registerLabTaskRoutes(app, { store: options.service.gateway.store, auth, ...(options.labTasks ?? { taskSet: null }) });
  registerReviewRoutes(app, { service: options.service, auth });
  registerMetricsRoutes(app, {
    store: options.service.gateway.store,
    auth,
    metricsToken: options.metricsToken ?? null,
    queues: options.queues,
  });
  if (options.router) registerOfferRoutes(app, { router: options.router, auth, store: options.service.gateway.store });

  // The staff console: its live stream and its static files (docs/console.md).
  registerStaffStream(app, { service: options.service, auth, queues: options.queues, allowedHosts: allowed });
  registerConsoleStatic(app, options.consoleDir);

  // The web chat: the customer's live stream and its static files (docs/chat.md).
  registerCustomerStream(app, { service: options.service, auth, allowedHosts: allowed });
  registerChatStatic(app, options.chat);
  if (options.channels) {
    await registerChannelRoutes(app, { ...options.channels, service: options.service, auth, clock: options.clock, bodyLimitBytes });
  }
  return app;
}
