import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ConversationService, ReceiveResult } from '../runtime/service/conversation-service.js';
import type { ConversationId } from '../core/index.js';
import { parseCursor } from '../runtime/service/customer-feed.js';
import { requireCustomer, type CallerDeps } from './auth/callers.js';
import { newToken, tokenHash } from './auth/secrets.js';
import { HttpError } from './http-errors.js';
import { routeDocs } from './route-docs.js';
import {
  ConversationParamsSchema,
  CustomerFeedQuerySchema,
  IdempotencyKeySchema,
  OpenConversationBodySchema,
  PostMessageBodySchema,
  RequestPersonBodySchema,
  parseInput,
} from './http-schemas.js';

const noConversation = (id: string) => new HttpError(404, 'not_found', `there is no conversation ${id}`);

/** The idempotency key of a message post: from the body or the header, which must agree if both are given. */
function idempotencyKeyOf(request: FastifyRequest, fromBody: string | undefined): string {
  // Node joins repeated headers into one value; the raw list shows whether it came twice.
  const sent = request.raw.rawHeaders.filter((_, i) => i % 2 === 0 && request.raw.rawHeaders[i]!.toLowerCase() === 'idempotency-key');
  if (sent.length > 1) throw new HttpError(400, 'duplicate_header', 'send the Idempotency-Key header once');
  const header = request.headers['idempotency-key'];
  const fromHeader = header === undefined ? undefined : parseInput(IdempotencyKeySchema, header, 'header Idempotency-Key');
  if (fromBody !== undefined && fromHeader !== undefined && fromBody !== fromHeader) {
    throw new HttpError(
      400,
      'conflicting_idempotency_key',
      'the Idempotency-Key header and body.idempotencyKey differ: send one, or the same',
    );
  }
  const key = fromBody ?? fromHeader;
  if (key === undefined) {
    throw new HttpError(
      400,
      'missing_idempotency_key',
      'an idempotency key is required: send the Idempotency-Key header or body.idempotencyKey',
    );
  }
  return key;
}

/** Longest long-poll a customer may ask for (ms). */
export const MAX_WAIT_MS = 30_000;

/**
 * The customer's routes: open a conversation (which gives its customer token), post a message,
 * read what the customer may see by cursor. Every route but the first needs the token.
 */
export function registerConversationRoutes(app: FastifyInstance, service: ConversationService, auth: CallerDeps): void {
  app.post(
    '/v1/conversations',
    routeDocs('Open a conversation; returns its customer token (shown once)', 'anyone', { body: OpenConversationBodySchema }),
    async (request, reply) => {
      const body = parseInput(OpenConversationBodySchema, request.body === undefined ? {} : request.body, 'body');
      if (body.agent !== undefined && !service.hasAgent(body.agent)) {
        throw new HttpError(400, 'invalid_request', `body.agent: there is no agent ${body.agent}; leave it out for the default`);
      }
      const conversation = await service.open(body);
      const customerToken = newToken('ct');
      await auth.directory.setCustomerToken(conversation.id, tokenHash(customerToken));
      return reply.code(201).send({ conversation, customerToken });
    },
  );

  /** The answer to a stored customer message: 201 (200 for a duplicate key), or why it was not stored. */
  const stored = (reply: FastifyReply, id: ConversationId, outcome: ReceiveResult) => {
    if (!outcome.ok && outcome.rejection.code === 'conversation_full')
      throw new HttpError(409, 'conversation_full', outcome.rejection.message);
    if (!outcome.ok) throw noConversation(id);
    // The agent answers off the request path; its reply is read from the messages route.
    void outcome.turn?.catch(() => {});
    return reply
      .code(outcome.duplicate ? 200 : 201)
      .send({ message: outcome.message, duplicate: outcome.duplicate, cursor: outcome.cursor });
  };

  app.post(
    '/v1/conversations/:id/messages',
    routeDocs('Post a customer message (stored once per idempotency key)', 'customer', {
      params: ConversationParamsSchema,
      body: PostMessageBodySchema,
    }),
    async (request, reply) => {
      const { id } = parseInput(ConversationParamsSchema, request.params, 'params');
      await requireCustomer(request, auth, id);
      const body = parseInput(PostMessageBodySchema, request.body, 'body');
      const idempotencyKey = idempotencyKeyOf(request, body.idempotencyKey);
      return stored(reply, id, await service.receive(id, { text: body.text, idempotencyKey }));
    },
  );

  app.post(
    '/v1/conversations/:id/leave',
    routeDocs('The customer leaves: the conversation closes, and any wait or offer for it ends', 'customer', {
      params: ConversationParamsSchema,
    }),
    async (request, reply) => {
      const { id } = parseInput(ConversationParamsSchema, request.params, 'params');
      await requireCustomer(request, auth, id);
      const outcome = await service.leave(id);
      if (!outcome.ok && outcome.rejection.code === 'not_found') throw noConversation(id);
      if (!outcome.ok) throw new HttpError(409, outcome.rejection.code, outcome.rejection.message);
      return reply.code(200).send({ conversation: outcome.conversation });
    },
  );

  app.post(
    '/v1/conversations/:id/request-person',
    routeDocs('The customer asks for a person ("Talk to a person"): stored once per idempotency key; the agent hands off', 'customer', {
      params: ConversationParamsSchema,
      body: RequestPersonBodySchema,
    }),
    async (request, reply) => {
      const { id } = parseInput(ConversationParamsSchema, request.params, 'params');
      await requireCustomer(request, auth, id);
      const body = parseInput(RequestPersonBodySchema, request.body === undefined ? {} : request.body, 'body');
      const idempotencyKey = idempotencyKeyOf(request, body.idempotencyKey);
      return stored(reply, id, await service.requestPerson(id, { idempotencyKey }));
    },
  );

  app.get(
    '/v1/conversations/:id/messages',
    routeDocs('What the customer may see, by cursor, with long-poll (waitMs)', 'customer', {
      params: ConversationParamsSchema,
      querystring: CustomerFeedQuerySchema,
    }),
    async (request) => {
      const { id } = parseInput(ConversationParamsSchema, request.params, 'params');
      await requireCustomer(request, auth, id);
      const query = parseInput(CustomerFeedQuerySchema, request.query, 'query');
      const after = parseCursor(query.after);
      if (after === null) throw new HttpError(400, 'invalid_request', 'query.after: a cursor is the `cursor` a previous answer gave');
      // A client that goes away ends the wait; once answered, the close of the request aborts nothing.
      const closed = new AbortController();
      const onClose = () => closed.abort();
      request.raw.once('close', onClose);
      try {
        return await service.customerFeed(id, {
          after,
          limit: query.limit,
          waitMs: Math.min(query.waitMs, MAX_WAIT_MS),
          signal: closed.signal,
        });
      } finally {
        request.raw.off('close', onClose);
      }
    },
  );
}
