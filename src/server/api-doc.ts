/**
 * docs/api.md, written from the OpenAPI document the server serves at `/openapi.json` (itself
 * built from the zod schemas that validate each route's input): one section per route with who
 * may call it and the fields it takes.
 */

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  description?: string;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  const?: unknown;
  items?: JsonSchema;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  pattern?: string;
};
type Operation = {
  summary?: string;
  description?: string;
  parameters?: Array<{ in: string; name: string; required?: boolean; schema?: JsonSchema }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
};

function typeOf(s: JsonSchema | undefined): string {
  if (!s) return 'any';
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' \\| ');
  if (s.anyOf) return s.anyOf.map(typeOf).join(' \\| ');
  if (s.type === 'array') return `${typeOf(s.items)}[]`;
  const t = Array.isArray(s.type) ? s.type.join(' \\| ') : (s.type ?? 'any');
  const bounds = [s.maxLength !== undefined ? `≤ ${s.maxLength} chars` : null, s.pattern ? `\`${s.pattern}\`` : null].filter(Boolean);
  return bounds.length ? `${t} (${bounds.join(', ')})` : t;
}

function fieldRows(schema: JsonSchema | undefined, where: string): string[] {
  // A body that is one of several objects (a discriminated union): each alternative's fields, named by its tag.
  const alternatives = schema?.oneOf ?? (schema?.anyOf?.every((a) => a.properties) ? schema.anyOf : undefined);
  if (alternatives)
    return alternatives.flatMap((alternative) => {
      const tag = Object.entries(alternative.properties ?? {}).find(([, p]) => p.const !== undefined || p.enum?.length === 1);
      return fieldRows(alternative, tag ? `${where} (${tag[0]} ${JSON.stringify(tag[1].const ?? tag[1].enum![0])})` : where);
    });
  const props = schema?.properties ?? {};
  const required = new Set(schema?.required ?? []);
  return Object.entries(props).map(
    ([name, s]) =>
      `| ${where} | \`${name}\` | ${typeOf(s)} | ${required.has(name) && s.default === undefined ? 'yes' : 'no'}${s.default !== undefined ? ` (default ${JSON.stringify(s.default)})` : ''} |`,
  );
}

/** The markdown of docs/api.md from an OpenAPI document. */
export function apiMarkdown(openapi: { paths?: Record<string, Record<string, Operation>> }): string {
  const lines = [
    '# The runtime API',
    '',
    'Generated from the OpenAPI document that `baton serve` serves at `/openapi.json` (`npx tsx scripts/generate-api-doc.ts`;',
    'a test fails when this file is out of date). Every error is `{"error": {"code", "message"}}`: 401 without credentials, 403',
    'for the wrong kind of caller or role, 404 for what does not exist or is not yours, 409 for a stale version or a lost race,',
    '400/413/415/431 for bad input, 421 for a Host the server does not answer to, 429 for too many sign-in attempts, 503 when',
    'the store is busy (with `Retry-After`). Never a 500 for anything a caller sends.',
    '',
    'Callers: **customer** = `Authorization: Bearer <customerToken>` of that conversation (from `POST /v1/conversations`);',
    '**staff** = a session from `POST /v1/staff/login`, as `Authorization: Bearer <token>` or the HttpOnly cookie plus the',
    '`x-csrf-token` header on anything that changes state; **supervisor**/**admin** = staff with at least that role;',
    '**scraper** = `Authorization: Bearer $BATON_METRICS_TOKEN` (with no token set, nobody may scrape).',
    '',
  ];
  for (const [path, methods] of Object.entries(openapi.paths ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    for (const [method, op] of Object.entries(methods)) {
      lines.push(`## \`${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}\``, '');
      if (op.summary) lines.push(`${op.summary}. ${op.description ?? ''}`.trim(), '');
      const rows = [
        ...(op.parameters ?? []).map(
          (p) =>
            `| ${p.in === 'query' ? 'query' : p.in} | \`${p.name}\` | ${typeOf(p.schema)} | ${p.required ? 'yes' : 'no'}${p.schema?.default !== undefined ? ` (default ${JSON.stringify(p.schema.default)})` : ''} |`,
        ),
        ...fieldRows(op.requestBody?.content?.['application/json']?.schema, 'body'),
      ];
      if (rows.length) lines.push('| where | field | type | required |', '|---|---|---|---|', ...rows, '');
    }
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
