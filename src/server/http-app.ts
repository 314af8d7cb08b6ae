import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Gateway } from '../runtime/gateway.js';
import { registerConversationRoutes } from './conversation-routes.js';
import { frameworkErrorHandler, installErrorHandlers } from './http-errors.js';

/** Largest request body accepted unless configured (bytes). */
export const DEFAULT_BODY_LIMIT_BYTES = 256 * 1024;

/** Longest path parameter the router accepts; above the longest valid id, so ids fail validation, not routing. */
const MAX_PARAM_LENGTH = 256;

/** Options of {@link buildHttpApp}. */
export interface HttpAppOptions {
  gateway: Gateway;
  /** The store's kind, reported by `/health`. */
  storeKind: string;
  /** Largest request body accepted (bytes); larger ones get 413. Default 256 KiB. */
  bodyLimitBytes?: number;
  /** Fastify's logger: off (default), on, or pino options. */
  logger?: FastifyServerOptions['logger'];
}

/**
 * Builds the HTTP API over a gateway, not yet listening. Bodies are JSON only; every error,
 * including unknown routes and unparsable bodies, answers `{error: {code, message}}`.
 */
export function buildHttpApp(options: HttpAppOptions): FastifyInstance {
  const bodyLimitBytes = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: bodyLimitBytes,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: frameworkErrorHandler(bodyLimitBytes),
  });
  // JSON only: without the default text/plain parser, any other content type gets 415.
  app.removeContentTypeParser('text/plain');
  installErrorHandlers(app, bodyLimitBytes);

  app.get('/health', async () => ({ status: 'ok', store: options.storeKind }));
  registerConversationRoutes(app, options.gateway);
  return app;
}
