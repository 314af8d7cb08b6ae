import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { StoreBusyError } from '../store/store-busy.js';
import { UnstorableTextError } from '../store/unstorable-text.js';

/** The body of every error response: a stable machine code and a sentence for people. */
export interface ErrorBody {
  error: { code: string; message: string };
}

/** An error that is the client's fault, answered as-is with its status, code and message. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** The `{error: {code, message}}` body. */
export function errorBody(code: string, message: string): ErrorBody {
  return { error: { code, message } };
}

const INTERNAL = errorBody('internal', 'internal error');

/** The request's path, without the query, cut short for quoting in a message. */
const pathOf = (request: FastifyRequest): string => {
  const path = request.url.split('?')[0] ?? '';
  return path.length > 200 ? `${path.slice(0, 200)}…` : path;
};

const isFastifyError = (error: unknown): error is FastifyError =>
  error instanceof Error && typeof (error as Partial<FastifyError>).code === 'string';

/**
 * Maps what a request failed with to a client error (or 503 for a store that stayed locked), or
 * null when it is a bug. Fastify's own 4xx errors (body parsing, limits, URLs) get a clear message of ours.
 */
export function toHttpError(error: unknown, request: FastifyRequest, bodyLimitBytes: number): HttpError | null {
  if (error instanceof HttpError) return error;
  // The stores' own refusal, for text that reached them without the edge's check (ADR 0010).
  if (error instanceof UnstorableTextError) return new HttpError(400, 'unstorable_text', error.message);
  // Another process held the SQLite file's lock past the bound; nothing was written (ADR 0011).
  if (error instanceof StoreBusyError) return new HttpError(503, 'store_busy', error.message);
  if (!isFastifyError(error)) return null;
  const contentType = request.headers['content-type'];
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new HttpError(413, 'payload_too_large', `the request body is larger than the limit of ${bodyLimitBytes} bytes`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new HttpError(
        415,
        'unsupported_media_type',
        `content type ${contentType === undefined ? '(none)' : `'${contentType}'`} is not supported: send the body as application/json`,
      );
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new HttpError(400, 'invalid_json', 'the body is empty but Content-Type says application/json: send a JSON object');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new HttpError(400, 'invalid_json', 'the body is not valid JSON');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new HttpError(400, 'bad_request', 'the body size does not match the Content-Length header');
    case 'FST_ERR_BAD_URL':
      return new HttpError(400, 'bad_url', `the URL path ${pathOf(request)} is not valid (bad percent-encoding)`);
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new HttpError(414, 'uri_too_long', 'a path segment of the URL is too long');
  }
  const status = error.statusCode;
  if (status !== undefined && status >= 400 && status < 500) return new HttpError(status, 'bad_request', error.message);
  return null;
}

/** Sends an error: a client error as it is, anything else as a logged, opaque 500. */
function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply, bodyLimitBytes: number): FastifyReply {
  const clientError = toHttpError(error, request, bodyLimitBytes);
  if (clientError?.statusCode === 503) reply.header('retry-after', '1');
  if (clientError) return reply.code(clientError.statusCode).send(errorBody(clientError.code, clientError.message));
  request.log.error({ err: error }, 'request failed');
  return reply.code(500).send(INTERNAL);
}

/**
 * The `frameworkErrors` option of Fastify: errors raised before routing (a URL that does not
 * decode, an overlong path parameter) answered in the same shape as every other error.
 */
export function frameworkErrorHandler(bodyLimitBytes: number) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    sendError(error, request, reply, bodyLimitBytes);
  };
}

/** Installs the error handler and the not-found handler, so every failure answers `{error: {code, message}}`. */
export function installErrorHandlers(app: FastifyInstance, bodyLimitBytes: number): void {
  app.setErrorHandler((error, request, reply) => sendError(error, request, reply, bodyLimitBytes));
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send(errorBody('route_not_found', `there is no route ${request.method} ${pathOf(request)}`)),
  );
}
