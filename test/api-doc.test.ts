import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ServeConfigSchema } from '../src/cli/serve-config.js';
import { composeServeRuntime } from '../src/cli/serve-runtime.js';
import { apiMarkdown } from '../src/server/api-doc.js';
import { openStore } from '../src/store/open-store.js';

describe('docs/api.md', () => {
  it('is what the served OpenAPI document says (regenerate: npx tsx scripts/generate-api-doc.ts)', async () => {
    const store = await openStore({ kind: 'memory' });
    const runtime = await composeServeRuntime({ store, config: ServeConfigSchema.parse({}) });
    try {
      const res = await runtime.app.inject({ method: 'GET', url: '/openapi.json' });
      expect(res.statusCode).toBe(200);
      const openapi = JSON.parse(res.body) as { openapi: string; paths: Record<string, unknown> };
      expect(openapi.openapi).toMatch(/^3\./);
      for (const path of ['/v1/conversations', '/v1/queue', '/v1/conversations/{id}/hand-back', '/v1/staff/login', '/metrics']) {
        expect(Object.keys(openapi.paths)).toContain(path);
      }
      const doc = readFileSync(join(import.meta.dirname, '..', 'docs', 'api.md'), 'utf8');
      expect(doc).toBe(apiMarkdown(openapi as Parameters<typeof apiMarkdown>[0]));
    } finally {
      await runtime.app.close();
    }
  });
});
