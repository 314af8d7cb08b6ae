/** Writes docs/api.md from the OpenAPI document of the composed server (in memory, no listening). */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ServeConfigSchema } from '../src/cli/serve-config.js';
import { composeServeRuntime } from '../src/cli/serve-runtime.js';
import { apiMarkdown } from '../src/server/api-doc.js';
import { openStore } from '../src/store/open-store.js';

const store = await openStore({ kind: 'memory' });
const runtime = await composeServeRuntime({ store, config: ServeConfigSchema.parse({}) });
await runtime.app.ready();
const target = join(import.meta.dirname, '..', 'docs', 'api.md');
writeFileSync(target, apiMarkdown(runtime.app.swagger() as Parameters<typeof apiMarkdown>[0]));
await runtime.app.close();
process.stderr.write(`wrote ${target}\n`);
