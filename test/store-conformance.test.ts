import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../src/store/open-store.js';
import { describeStoreConformance } from './support/store-conformance.js';
import { testPostgres } from './support/postgres.js';

describeStoreConformance('memory', async () => ({ store: await openStore({ kind: 'memory' }) }), { persistent: false });

describeStoreConformance(
  'sqlite',
  async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'baton-sqlite-')), 'baton.sqlite');
    return { store: await openStore({ kind: 'sqlite', path }), reopen: () => openStore({ kind: 'sqlite', path }) };
  },
  { persistent: true },
);

describeStoreConformance(
  'postgres',
  async () => {
    const server = await testPostgres();
    const url = await server.createDatabase();
    return { store: await openStore({ kind: 'postgres', url }), reopen: () => openStore({ kind: 'postgres', url }) };
  },
  { persistent: true },
);
