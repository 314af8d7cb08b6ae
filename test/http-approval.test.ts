/**
 * Supervisor approval of an agent's action over real HTTP (SQLite and PostgreSQL): with
 * `approvals.tools` configured, the agent's turn stops at the call; the customer is told nothing
 * from that turn; a supervisor sees the call in GET /v1/approvals and approves it (it runs, and the
 * agent answers) or rejects it with feedback, which the agent reads as the call's result.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationId, Policy, PolicyRequest } from '../src/core/index.js';
import { json } from './support/http-json.js';
import { openTestStore, startTestRuntime, type TestRuntime } from './support/runtime-server.js';

const open: TestRuntime[] = [];
afterEach(async () => {
  while (open.length) await open.pop()!.close();
});

/** The model: asked about plans it looks them up; after a tool result it says what it got. */
function model(seen: PolicyRequest[]): Policy {
  return {
    name: 'plans',
    next: async (request) => {
      seen.push(request);
      const last = request.messages.at(-1);
      const content = last?.role === 'tool' ? `About that: ${last.content}` : null;
      return content
        ? { ok: true, content, toolCalls: [], usage: { promptTokens: 1, completionTokens: 1 } }
        : {
            ok: true,
            content: null,
            toolCalls: [{ id: `call_${seen.length}`, name: 'list_plans', arguments: '{}' }],
            usage: { promptTokens: 1, completionTokens: 1 },
          };
    },
  };
}

describe.each(['sqlite', 'postgres'] as const)('supervisor approval over HTTP (%s)', (kind) => {
  it('the turn waits for the supervisor; approve runs the call; reject sends the feedback to the agent', async () => {
    const seen: PolicyRequest[] = [];
    const t = await startTestRuntime(kind, { policy: () => model(seen), config: { approvals: { tools: ['list_plans'] } } as never });
    open.push(t);
    const sup = await t.staff('supervisor');
    const agent = await t.staff('agent', ['billing']);
    const call = (path: string, init: { body?: unknown; token: string; key?: string }) => json(t.base, path, init);
    const c = await t.open();
    const customerSees = async () =>
      (
        (await call(`/v1/conversations/${c.id}/messages?after=0`, { token: c.token })).body['messages'] as Array<{
          from: string;
          text: string;
        }>
      )
        .filter((m) => m.from !== 'customer')
        .map((m) => m.text);

    expect(
      (await call(`/v1/conversations/${c.id}/messages`, { body: { text: 'Which plans do you have?' }, token: c.token, key: 'k1' })).status,
    ).toBe(201);
    await t.runtime.service.idle();
    // The turn waits at the call: nothing for the customer, the call listed for supervisors only.
    expect(await customerSees()).toEqual([]);
    const listed = await call('/v1/approvals', { token: sup.token });
    expect(listed.body['approvals']).toEqual([
      expect.objectContaining({ conversationId: c.id, call: expect.objectContaining({ name: 'list_plans' }) }),
    ]);
    expect((await call('/v1/approvals', { token: agent.token })).status).toBe(403);
    expect((await call(`/v1/conversations/${c.id}/approval`, { body: { approved: true }, token: agent.token })).status).toBe(403);

    // Approved: the call runs and the agent answers with its result.
    const approved = await call(`/v1/conversations/${c.id}/approval`, { body: { approved: true }, token: sup.token });
    expect(approved.status).toBe(200);
    const said = await customerSees();
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^About that: /);
    expect(said[0]).not.toMatch(/declined/);
    expect((await call('/v1/approvals', { token: sup.token })).body['approvals']).toEqual([]);
    // Nothing waits now: a second decision is refused.
    expect((await call(`/v1/conversations/${c.id}/approval`, { body: { approved: false }, token: sup.token })).status).toBe(409);

    // Rejected with feedback: the agent reads the feedback as the call's result.
    expect(
      (await call(`/v1/conversations/${c.id}/messages`, { body: { text: 'And the plans again?' }, token: c.token, key: 'k2' })).status,
    ).toBe(201);
    await t.runtime.service.idle();
    expect(await customerSees()).toHaveLength(1);
    const feedback = 'Do not list every plan; ask which plan they are on first.';
    const rejected = await call(`/v1/conversations/${c.id}/approval`, { body: { approved: false, feedback }, token: sup.token });
    expect(rejected.status).toBe(200);
    const toolMessage = seen.at(-1)!.messages.at(-1)!;
    expect(toolMessage.role).toBe('tool');
    expect(toolMessage.content).toContain(feedback);
    expect((await customerSees()).at(-1)).toContain(feedback);
    const decided = (await t.store.listEvents(c.id as ConversationId)).filter((e) => e.type === 'approval.decided');
    expect(decided.map((e) => e.data)).toEqual([
      expect.objectContaining({ approved: true, by: sup.id }),
      expect.objectContaining({ approved: false, by: sup.id, feedback }),
    ]);
  });
});

/** The model: it verifies the customer with the code they typed; after the tool's answer it says what it got. */
function verifier(code: string): Policy {
  let n = 0;
  return {
    name: 'verifier',
    next: async (request) => {
      const last = request.messages.at(-1);
      if (last?.role === 'tool')
        return { ok: true, content: `Checked: ${last.content}`, toolCalls: [], usage: { promptTokens: 1, completionTokens: 1 } };
      n += 1;
      return {
        ok: true,
        content: null,
        toolCalls: [{ id: `call_v${n}`, name: 'verify_customer', arguments: JSON.stringify({ customer_id: 'cus_0001', code }) }],
        usage: { promptTokens: 1, completionTokens: 1 },
      };
    },
  };
}

describe('approval of a call that holds a secret, across a restart (sqlite)', () => {
  it('is stored redacted; after a restart approval answers 409 approval_details_lost and changes nothing; a rejection is taken', async () => {
    const code = '904417';
    const opened = await openTestStore('sqlite');
    const config = { approvals: { tools: ['verify_customer'] } } as never;
    const before = await startTestRuntime('sqlite', { store: opened.store, policy: () => verifier(code), config });
    const sup = await before.staff('supervisor');
    const c = await before.open();
    const sent = await json(before.base, `/v1/conversations/${c.id}/messages`, {
      body: { text: `my code is ${code}` },
      token: c.token,
      key: 'k1',
    });
    expect(sent.status).toBe(201);
    await before.runtime.service.idle();
    const listed = (await json(before.base, '/v1/approvals', { token: sup.token })).body['approvals'] as Array<{
      call: { arguments: string };
    }>;
    expect(listed).toHaveLength(1);
    expect(listed[0]!.call.arguments).not.toContain(code);
    expect(JSON.stringify(await before.store.listEvents(c.id as ConversationId))).not.toContain(code);
    await before.close();

    const after = await startTestRuntime('sqlite', { store: await opened.reopen(), policy: () => verifier(code), config });
    try {
      const sup2 = await after.staff('supervisor');
      const length = (await after.store.listEvents(c.id as ConversationId)).length;
      const approved = await json(after.base, `/v1/conversations/${c.id}/approval`, { body: { approved: true }, token: sup2.token });
      expect(approved.status).toBe(409);
      expect((approved.body['error'] as { code: string }).code).toBe('approval_details_lost');
      expect(await after.store.listEvents(c.id as ConversationId)).toHaveLength(length);
      const rejected = await json(after.base, `/v1/conversations/${c.id}/approval`, {
        body: { approved: false, feedback: 'ask for the code again' },
        token: sup2.token,
      });
      expect(rejected.status).toBe(200);
      const decided = (await after.store.listEvents(c.id as ConversationId)).filter((e) => e.type === 'approval.decided');
      expect(decided.map((e) => e.data)).toEqual([expect.objectContaining({ approved: false, by: sup2.id })]);
    } finally {
      await after.close();
      opened.cleanup();
    }
  });
});
