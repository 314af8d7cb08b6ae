import type {} from '@fastify/swagger';
import type { FastifySchema } from 'fastify';
import { z } from 'zod';

/** Who may call a route, as the OpenAPI document and docs/api.md state it. */
export type Audience = 'anyone' | 'customer' | 'staff' | 'supervisor' | 'admin' | 'scraper';

/**
 * A route's OpenAPI description from the same zod schemas that validate its input (the handler
 * parses with them; Fastify's own validation is off, so there is one source of truth).
 */
export function routeDocs(
  summary: string,
  audience: Audience,
  input: { body?: z.ZodType; querystring?: z.ZodType; params?: z.ZodType } = {},
): { schema: FastifySchema } {
  const json = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return {
    schema: {
      summary,
      description: `Who may call: ${audience}.`,
      tags: [audience],
      ...(input.body ? { body: json(input.body) } : {}),
      ...(input.querystring ? { querystring: json(input.querystring) } : {}),
      ...(input.params ? { params: json(input.params) } : {}),
    },
  };
}
