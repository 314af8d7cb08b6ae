import { z } from 'zod';
import {
  AgentIdSchema,
  ConversationFieldsSchema,
  ConversationIdSchema,
  MAX_MESSAGE_CHARS,
  MessageSchema,
  storableText,
} from '../core/index.js';
import { HttpError } from './http-errors.js';

/** A strict object whose own type error says plainly that a JSON object was expected. */
const jsonObject = <Shape extends z.ZodRawShape>(shape: Shape) =>
  z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'invalid_type' ? (issue.input === undefined ? 'a JSON object is required' : 'expected a JSON object') : undefined,
  });

/** Path parameters of `/v1/conversations/:id…`. */
export const ConversationParamsSchema = jsonObject({ id: ConversationIdSchema });

// Caller text is stored exactly as sent or refused here, before anything is written: no lone
// surrogates, no NUL (storableText; docs/decisions/0010-storable-text.md).

/** Body of `POST /v1/conversations`; every field is optional, and so is the body. */
export const OpenConversationBodySchema = jsonObject({
  agent: AgentIdSchema.exactOptional(),
  channel: storableText(ConversationFieldsSchema.shape.channel).exactOptional(),
  customerId: storableText(ConversationFieldsSchema.shape.customerId.unwrap()).nullable().exactOptional(),
});

/** An idempotency key, from the body or from the `Idempotency-Key` header. */
export const IdempotencyKeySchema = storableText(MessageSchema.shape.idempotencyKey.unwrap());

/** Body of `POST /v1/conversations/:id/messages`. */
export const PostMessageBodySchema = jsonObject({
  text: storableText(z.string().min(1).max(MAX_MESSAGE_CHARS)),
  idempotencyKey: IdempotencyKeySchema.exactOptional(),
});

/** Body of `POST /v1/conversations/:id/request-person` (optional: the key may come in the header). */
export const RequestPersonBodySchema = jsonObject({
  idempotencyKey: IdempotencyKeySchema.exactOptional(),
});

/** Query of `GET /v1/conversations/:id/messages`. */
export const CustomerFeedQuerySchema = jsonObject({
  after: z.string().max(20).exactOptional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  waitMs: z.coerce.number().int().min(0).max(30_000).default(0),
});

/** A page of a list: `limit` items after the cursor `after`. */
export const PageQuerySchema = jsonObject({
  after: z.string().max(20).exactOptional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

/**
 * Parses request input with a schema, or throws a 400 whose message names each offending field
 * under `where` (e.g. `body.text: Too small: …`).
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, where: string): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `${[where, ...issue.path.map(String)].join('.')}: ${issue.message}`);
  throw new HttpError(400, 'invalid_request', problems.join('; '));
}
