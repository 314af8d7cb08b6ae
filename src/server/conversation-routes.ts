import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Gateway } from '../runtime/gateway.js';
import { HttpError } from './http-errors.js';
import {
  ConversationParamsSchema,
  IdempotencyKeySchema,
  OpenConversationBodySchema,
  PostMessageBodySchema,
  parseInput,
} from './http-schemas.js';

const noConversation = (id: string) => new HttpError(404, 'not_found', `there is no conversation ${id}`);

/** The idempotency key of a message post: from the body or the header, which must agree if both are given. */
function idempotencyKeyOf(request: FastifyRequest, fromBody: string | undefined): string {
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

/** Registers the conversation routes: open, post a customer message, read. */
export function registerConversationRoutes(app: FastifyInstance, gateway: Gateway): void {
  app.post('/v1/conversations', async (request, reply) => {
    const body = parseInput(OpenConversationBodySchema, request.body === undefined ? {} : request.body, 'body');
    const conversation = await gateway.open(body);
    return reply.code(201).send({ conversation });
  });

  app.post('/v1/conversations/:id/messages', async (request, reply) => {
    const { id } = parseInput(ConversationParamsSchema, request.params, 'params');
    const body = parseInput(PostMessageBodySchema, request.body, 'body');
    const idempotencyKey = idempotencyKeyOf(request, body.idempotencyKey);
    const outcome = await gateway.receive(id, { text: body.text, idempotencyKey });
    if (!outcome.ok) throw noConversation(id);
    return reply.code(outcome.duplicate ? 200 : 201).send({ message: outcome.message, duplicate: outcome.duplicate });
  });

  app.get('/v1/conversations/:id', async (request) => {
    const { id } = parseInput(ConversationParamsSchema, request.params, 'params');
    const found = await gateway.read(id);
    if (!found) throw noConversation(id);
    return found;
  });
}
