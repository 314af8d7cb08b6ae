import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock, ConversationId, Policy, StaffRole } from '../../src/core/index.js';
import { ServeConfigSchema, type ServeConfig } from '../../src/cli/serve-config.js';
import { composeServeRuntime, type ServeRuntime } from '../../src/cli/serve-runtime.js';
import type { AgentConfig } from '../../src/runtime/agent-config.js';
import type { Redactor } from '../../src/runtime/service/redactor.js';
import { newToken, tokenHash } from '../../src/server/auth/secrets.js';
import { addStaff } from '../../src/server/auth/staff-accounts.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { scriptedPolicy } from '../../src/testing/scripted-policy.js';
import { testPostgres } from './postgres.js';

export type TestStoreKind = 'sqlite' | 'postgres' | 'memory';

/** A fresh, migrated store of the given kind, and how to remove what it left behind. */
export async function openTestStore(kind: TestStoreKind): Promise<{ store: Store; cleanup: () => void; reopen: () => Promise<Store> }> {
  if (kind === 'memory') {
    const store = await openStore({ kind: 'memory' });
    return { store, cleanup: () => {}, reopen: async () => store };
  }
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'baton-http-'));
    const path = join(dir, 'baton.sqlite');
    const store = await openStore({ kind: 'sqlite', path });
    return { store, cleanup: () => rmSync(dir, { recursive: true, force: true }), reopen: () => openStore({ kind: 'sqlite', path }) };
  }
  const server = await testPostgres();
  const url = await server.createDatabase();
  const store = await openStore({ kind: 'postgres', url });
  return { store, cleanup: () => {}, reopen: () => openStore({ kind: 'postgres', url }) };
}

/** A composed runtime listening on loopback, with helpers to make customers and staff. */
export interface TestRuntime {
  base: string;
  store: Store;
  runtime: ServeRuntime;
  /** Opens a conversation directly (as the route does) and returns its id and customer token. */
  open(): Promise<{ id: ConversationId; token: string }>;
  /** Makes a staff account and signs it in; returns its bearer token and id. */
  staff(role: StaffRole, skills?: string[]): Promise<{ token: string; id: string; email: string; password: string }>;
  close(): Promise<void>;
}

let staffSeq = 0;

/** An agent that answers every message with one fixed reply: for tests of the routes, not of the agent. */
export const notedPolicy = (): Policy => scriptedPolicy([{ reply: 'Noted.' }], { whenExhausted: 'repeat_last' });

/** An agent that hands every conversation to billing's queue at once: for tests of what happens after. */
export const handoffPolicy = (): Policy =>
  scriptedPolicy(
    [{ toolCalls: [{ name: 'handoff', arguments: { target: 'queue_billing', reason: 'customer_request', summary: 'wants a person' } }] }],
    {
      whenExhausted: 'repeat_last',
    },
  );

export async function startTestRuntime(
  kind: TestStoreKind,
  options: {
    config?: Partial<ServeConfig>;
    policy?: (agent: AgentConfig) => Policy | null;
    store?: Store;
    redact?: Redactor;
    metricsToken?: string;
    /** The lab's runs folder the console lists. */
    runsDir?: string;
    /** The clock of the runtime (a virtual one for tests of time). */
    clock?: Clock;
    /** Where the channels' secrets come from, instead of process.env. */
    env?: NodeJS.ProcessEnv;
    /** Fastify's logger (off by default). */
    logger?: Parameters<typeof composeServeRuntime>[0]['logger'];
  } = {},
): Promise<TestRuntime> {
  const opened = options.store ? { store: options.store, cleanup: () => {} } : await openTestStore(kind);
  const { store } = opened;
  const runtime = await composeServeRuntime({
    store,
    config: ServeConfigSchema.parse(options.config ?? {}),
    ...(options.policy ? { policyOverride: options.policy } : {}),
    ...(options.redact ? { redact: options.redact } : {}),
    ...(options.metricsToken ? { metricsToken: options.metricsToken } : {}),
    ...(options.runsDir ? { runsDir: options.runsDir } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(options.logger !== undefined ? { logger: options.logger } : {}),
  });
  const base = await runtime.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    base,
    store,
    runtime,
    async open() {
      const conversation = await runtime.service.open();
      const token = newToken('ct');
      await runtime.directory.setCustomerToken(conversation.id, tokenHash(token));
      return { id: conversation.id, token };
    },
    async staff(role, skills = []) {
      staffSeq += 1;
      const email = `person${staffSeq}-${role}@example.test`;
      const password = `correct horse battery ${staffSeq}`;
      const added = await addStaff(runtime.directory, { email, role, skills, password }, { now: Date.now });
      if (!added.ok) throw new Error(added.message);
      const res = await fetch(`${base}/v1/staff/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
      const body = (await res.json()) as { token: string };
      return { token: body.token, id: added.profile.id, email, password };
    },
    async close() {
      await runtime.app.close();
      await runtime.service.idle();
      await runtime.channels?.close();
      await runtime.notifications?.close();
      await store.close();
      opened.cleanup();
    },
  };
}
