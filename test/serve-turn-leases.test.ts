/**
 * Two `baton serve` runtimes on one database (PostgreSQL, and one SQLite file), as two gateways
 * behind a load balancer: a conversation's turns never overlap across them. A message that lands
 * on B while A's turn runs waits for A's lease, then is answered once; a runtime that dies holding
 * the lease stops renewing it, and the other takes over when it expires.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationId, Policy } from '../src/core/index.js';
import { ServeConfigSchema } from '../src/cli/serve-config.js';
import { composeServeRuntime } from '../src/cli/serve-runtime.js';
import { newToken, tokenHash } from '../src/server/auth/secrets.js';
import { turnLeasesFor } from '../src/store/open-store.js';
import type { Store } from '../src/store/store.js';
import type { TurnLeases } from '../src/store/turn-leases.js';
import { openTestStore } from './support/runtime-server.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** A deferred: a promise and the function that resolves it. */
function gate<T = void>() {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}

/** A model that answers "reply N from NAME", waiting on `hold` (if given) before its first answer. */
function model(name: string, calls: string[], hold?: Promise<void>, called?: () => void): Policy {
  return {
    name,
    next: async () => {
      calls.push(name);
      called?.();
      if (hold && calls.filter((c) => c === name).length === 1) await hold;
      return { ok: true, content: `reply ${calls.length} from ${name}`, toolCalls: [], usage: { promptTokens: 1, completionTokens: 1 } };
    },
  };
}

/** Leases that tell when another process's lease has been refused `n` times. */
function watched(leases: TurnLeases, n: number) {
  const refused = gate();
  let refusals = 0;
  const wrapped: TurnLeases = {
    ...leases,
    acquire: async (...args) => {
      const ok = await leases.acquire(...args);
      if (!ok && ++refusals === n) refused.open();
      return ok;
    },
  };
  return { wrapped, refused: refused.promise };
}

async function gateway(store: Store, policy: Policy, extra: { turnLeases?: TurnLeases; turnLeaseMs?: number } = {}) {
  // On SQLite leases are opt-in (the default there is one server per file); here two share it.
  const runtime = await composeServeRuntime({
    store,
    config: ServeConfigSchema.parse({}),
    policyOverride: () => policy,
    turnLeaseScope: 'database',
    ...extra,
  });
  const base = await runtime.app.listen({ host: '127.0.0.1', port: 0 });
  return { runtime, base };
}

/** Closes the gateways, then the stores (A's may be closed already, as when A died). */
function closing(gateways: Array<Awaited<ReturnType<typeof gateway>>>, stores: Store[], cleanup: () => void) {
  cleanups.push(async () => {
    for (const g of gateways) {
      await g.runtime.app.close();
      await g.runtime.service.idle();
      await g.runtime.notifications?.close();
    }
    for (const store of stores) await store.close();
    cleanup();
  });
}

/** A conversation opened through `g`, and its customer token. */
async function conversationOn(g: Awaited<ReturnType<typeof gateway>>) {
  const c = await g.runtime.service.open();
  const token = newToken('ct');
  await g.runtime.directory.setCustomerToken(c.id, tokenHash(token));
  return { id: c.id, token };
}

async function post(base: string, id: string, token: string, text: string, key: string) {
  const res = await fetch(`${base}/v1/conversations/${id}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify({ text }),
  });
  expect(res.status).toBe(201);
}

const agentReplies = async (store: Store, id: string) =>
  (await store.listMessages(id as ConversationId)).filter((m) => m.sender.type === 'agent').map((m) => m.text);

describe.each(['postgres', 'sqlite'] as const)('two gateways on one %s database', (kind) => {
  it("a message on B while A's turn runs waits for A's lease, and each message is answered once", async () => {
    const opened = await openTestStore(kind);
    const storeB = await opened.reopen();
    const calls: string[] = [];
    const hold = gate();
    const aCalled = gate();
    const a = await gateway(opened.store, model('A', calls, hold.promise, aCalled.open));
    const b0 = watched(turnLeasesFor(storeB), 3);
    const b = await gateway(storeB, model('B', calls), { turnLeases: b0.wrapped });
    closing([a, b], [storeB, opened.store], opened.cleanup);

    const c = await conversationOn(a);
    const token = c.token;
    await post(a.base, c.id, token, 'Which plans do you offer?', 'k1');
    await aCalled.promise;
    await post(b.base, c.id, token, 'And what does the cheapest cost?', 'k2');
    // B has been refused A's lease three times, and its model has not been asked anything.
    await b0.refused;
    expect(calls).toEqual(['A']);
    hold.open();
    await a.runtime.service.idle();
    await b.runtime.service.idle();
    // A answered what it had read; B's turn, after the lease, answered the message that was left.
    expect(calls).toEqual(['A', 'B']);
    expect(await agentReplies(opened.store, c.id)).toEqual(['reply 1 from A', 'reply 2 from B']);
  });

  it('a gateway that dies holding the lease stops renewing it; the other answers once it expires', async () => {
    const opened = await openTestStore(kind);
    const storeB = await opened.reopen();
    const calls: string[] = [];
    const never = new Promise<void>(() => {});
    const aCalled = gate();
    const a = await gateway(opened.store, model('A', calls, never, aCalled.open), { turnLeaseMs: 300 });
    const b = await gateway(storeB, model('B', calls), { turnLeaseMs: 300 });
    closing([b], [storeB], opened.cleanup);
    const c = await conversationOn(a);
    const token = c.token;
    await post(a.base, c.id, token, 'Which plans do you offer?', 'k1');
    await aCalled.promise;
    // A dies mid-turn: its database connection goes, so its lease is never renewed nor given back.
    await a.runtime.app.close();
    await a.runtime.notifications?.close();
    await opened.store.close();
    await post(b.base, c.id, token, 'And what does the cheapest one cost?', 'k2');
    await b.runtime.service.idle();
    expect(calls).toEqual(['A', 'B']);
    expect(await agentReplies(storeB, c.id)).toEqual(['reply 2 from B']);
  });

  it("a customer long-polling on B is woken by the agent's reply written by A", async () => {
    const opened = await openTestStore(kind);
    const storeB = await opened.reopen();
    const calls: string[] = [];
    const a = await gateway(opened.store, model('A', calls));
    const b = await gateway(storeB, model('B', calls));
    closing([a, b], [storeB, opened.store], opened.cleanup);
    const c = await conversationOn(a);
    const token = c.token;
    // On PostgreSQL, B hears of A's writes through the database (NOTIFY): its readers are woken at once.
    const woken = new Promise<void>((resolve) => b.runtime.service.wakeups.listen((id) => id === c.id && resolve()));
    expect(b.runtime.notifications !== null).toBe(kind === 'postgres');
    // The customer's page reads from B, with a long wait; the message goes to A, which answers it.
    const waitMs = 30_000;
    const polled = fetch(`${b.base}/v1/conversations/${c.id}/messages?after=0&waitMs=${waitMs}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    await post(a.base, c.id, token, 'Which plans do you offer?', 'k1');
    if (kind === 'postgres') await woken;
    let page = (await (await polled).json()) as { messages: Array<{ from: string }>; cursor: string };
    const seen = [...page.messages];
    while (!seen.some((m) => m.from === 'agent')) {
      page = (await (
        await fetch(`${b.base}/v1/conversations/${c.id}/messages?after=${page.cursor}&waitMs=${waitMs}`, {
          headers: { authorization: `Bearer ${token}` },
        })
      ).json()) as typeof page;
      seen.push(...page.messages);
    }
    expect(seen.map((m) => m.from)).toEqual(['customer', 'agent']);
  });
});
