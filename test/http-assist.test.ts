/**
 * Assisted mode over real HTTP (SQLite and PostgreSQL): a person owns the conversation and turns
 * assistance on; the agent's answer to the customer's next message is a draft in the log, offered
 * only read-only tools, and never reaches the customer — not at once, not after an hour of timers
 * — until the person sends their own (edited) reply.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationId, Policy, PolicyRequest } from '../src/core/index.js';
import { scriptedPolicy } from '../src/testing/scripted-policy.js';
import { json } from './support/http-json.js';
import { startTestRuntime, type TestRuntime } from './support/runtime-server.js';

const open: TestRuntime[] = [];
afterEach(async () => {
  while (open.length) await open.pop()!.close();
});

const DRAFT = 'Thanks for waiting. Could you tell me the order number, so that we can look at the refund together?';

describe.each(['sqlite', 'postgres'] as const)('assisted mode over HTTP (%s)', (kind) => {
  it('the agent drafts for the person; nothing is sent until the person replies', async () => {
    let now = Date.parse('2026-12-01T10:00:00Z');
    const requests: PolicyRequest[] = [];
    // "A person please" is handed off by the decider before the model is asked; every answer the model gives is the draft text.
    const scripted = scriptedPolicy([{ reply: DRAFT }], { whenExhausted: 'repeat_last' });
    const watching: Policy = {
      name: 'watching',
      next: (request) => {
        requests.push(request);
        return scripted.next(request);
      },
    };
    const t = await startTestRuntime(kind, { policy: () => watching, clock: { now: () => now } });
    open.push(t);
    const call = (path: string, init: { body?: unknown; token: string; key?: string }) => json(t.base, path, init);
    const c = await t.open();
    const staff = await t.staff('agent', ['billing']);
    const customerSees = async () =>
      (
        (await call(`/v1/conversations/${c.id}/messages?after=0`, { token: c.token })).body['messages'] as Array<{
          from: string;
          text: string;
        }>
      ).map((m) => `${m.from}: ${m.text}`);
    const version = async () => (await t.store.getConversation(c.id as ConversationId))!.version;

    expect(
      (await call(`/v1/conversations/${c.id}/messages`, { body: { text: 'A person please' }, token: c.token, key: 'k1' })).status,
    ).toBe(201);
    await t.runtime.service.idle();
    expect((await call(`/v1/conversations/${c.id}/claim`, { body: { version: await version() }, token: staff.token })).status).toBe(200);
    const assisted = await call(`/v1/conversations/${c.id}/assist`, { body: { version: await version(), on: true }, token: staff.token });
    expect(assisted.status).toBe(200);
    expect(assisted.body['conversation']).toMatchObject({ state: 'AGENT_ASSIST', owner: { type: 'human', id: staff.id } });

    const before = await customerSees();
    expect(
      (await call(`/v1/conversations/${c.id}/messages`, { body: { text: 'Where is my refund?' }, token: c.token, key: 'k2' })).status,
    ).toBe(201);
    await t.runtime.service.idle();
    const staffView = await call(`/v1/conversations/${c.id}?limit=500`, { token: staff.token });
    const drafts = (staffView.body['events'] as Array<{ type: string; data: { text?: string } }>).filter(
      (e) => e.type === 'draft.proposed',
    );
    expect(drafts.map((d) => d.data.text)).toEqual([DRAFT]);
    // Drafting offered no tool that changes anything.
    const offered = requests.at(-1)!.tools.map((tool) => tool.name);
    expect(offered.length).toBeGreaterThan(0);
    const writes = t.runtime.domain.tools.filter((tool) => tool.kind === 'write').map((tool) => tool.name);
    expect(writes.length).toBeGreaterThan(0);
    expect(offered.filter((name) => writes.includes(name))).toEqual([]);

    // An hour passes, the router's timers run: the draft is still not sent.
    now += 3_600_000;
    await t.runtime.router.sweep();
    await t.runtime.service.idle();
    expect(await customerSees()).toEqual([...before, 'customer: Where is my refund?']);

    // The person sends their edited version; that, and only that, reaches the customer.
    const edited = `${DRAFT} I have checked it myself.`;
    expect(
      (await call(`/v1/conversations/${c.id}/replies`, { body: { text: edited, version: await version() }, token: staff.token })).status,
    ).toBe(201);
    expect((await customerSees()).slice(-1)).toEqual([`human: ${edited}`]);
    expect((await customerSees()).filter((m) => m === `agent: ${DRAFT}`)).toEqual([]);
  });
});
