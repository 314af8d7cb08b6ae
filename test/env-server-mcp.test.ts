import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../src/core/index.js';
import type { Domain } from '../src/domains/domain.js';
import { loadDomain } from '../src/domains/load-domain.js';
import { createOraclePolicy } from '../src/domains/oracle.js';
import { USER_STOP_MARKERS } from '../src/domains/trajectory.js';
import { connectEnv } from '../src/lab/env/client.js';
import { END_TOOL, REPLY_TOOL, StepActionSchema } from '../src/lab/env/mcp.js';
import { EnvObservationSchema, EnvStateSchema, envToolSpecs, type EnvAction } from '../src/lab/env/session.js';
import { envSessionOptions, nextAction } from '../src/lab/env/setup.js';
import { buildEnvServer } from '../src/server/env-server.js';
import { connect, type Frame } from './support/env-ws-client.js';

let domain: Domain;
let http: string;
let close: () => Promise<void>;

async function serve(tasks: 'main' | 'handoff', split: 'train' | 'dev', maxSessions: number, idleTimeoutMs = 60_000) {
  const checks = tasks === 'main' ? 'off' : 'production';
  const session = envSessionOptions(domain, { tasks, split, reward: 'task', checks });
  const app = buildEnvServer({ name: 'baton-billing', description: 'test', session, maxSessions, idleTimeoutMs });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { http: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, close: () => app.close(), plan: session.plan };
}

beforeAll(async () => {
  domain = await loadDomain('billing');
  ({ http, close } = await serve('main', 'train', 2));
});
afterAll(async () => close());

/** Every observation the server sends must be one the served schema describes, with no stop marker in it. */
function checkObservation(observation: unknown): Record<string, unknown> {
  const parsed = EnvObservationSchema.safeParse(observation);
  expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  for (const marker of USER_STOP_MARKERS) expect(JSON.stringify(observation)).not.toContain(marker);
  return observation as Record<string, unknown>;
}

interface StepResult {
  done: boolean;
  reward: number | null;
  observation: Record<string, unknown>;
}
/** A JSON-RPC answer, read field by field. */
interface RpcBody {
  jsonrpc: string;
  id: string | number | null;
  error?: { code: number; message: string; data?: Record<string, unknown> };
  result?: Partial<StepResult> & {
    session_id?: string;
    tools?: { name: string; inputSchema: { properties?: Record<string, unknown> } }[];
    content?: { type: string; text: string }[];
    structuredContent?: StepResult;
    isError?: boolean;
    [key: string]: unknown;
  };
}

async function rpc(url: string, body: unknown) {
  const response = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? null : (JSON.parse(text) as RpcBody) };
}

/** The MCP call an oracle's next action stands for. */
function callOf(action: EnvAction): { name: string; arguments: Record<string, unknown> } {
  if (action.type === 'message') return { name: REPLY_TOOL, arguments: { message: action.content } };
  if (action.type === 'end') return { name: END_TOOL, arguments: {} };
  return { name: action.name, arguments: { ...action.arguments, ...(action.content ? { message: action.content } : {}) } };
}

describe("the environment server's OpenAPI document and schemas", () => {
  it('serves /openapi.json with a version and every HTTP route, and /schema from the zod schemas the server validates with', async () => {
    const openapi = (await (await fetch(`${http}/openapi.json`)).json()) as { info: { version: string }; paths: Record<string, unknown> };
    expect(openapi.info.version).toMatch(/^1\./);
    for (const path of ['/reset', '/step', '/state', '/health', '/metadata', '/schema', '/mcp'])
      expect(Object.keys(openapi.paths)).toContain(path);
    expect(JSON.stringify(openapi.paths['/step'])).toContain('tool_call');
    const metadata = (await (await fetch(`${http}/metadata`)).json()) as { tasks: string[] };
    expect(metadata.tasks).toContain('billing/billing_008#neutral#0');

    const schema = (await (await fetch(`${http}/schema`)).json()) as Record<
      string,
      { properties?: Record<string, unknown>; anyOf?: unknown[] }
    >;
    const strip = (s: object) => {
      const { $schema: _ignored, ...rest } = s as Record<string, unknown>;
      return rest;
    };
    const { z } = await import('zod');
    expect(schema['observation']).toEqual(strip(z.toJSONSchema(EnvObservationSchema, { io: 'input' })));
    expect(schema['state']).toEqual(strip(z.toJSONSchema(EnvStateSchema, { io: 'input' })));
    expect(schema['action']).toEqual(strip(z.toJSONSchema(StepActionSchema, { io: 'input' })));
    expect(Object.keys(schema['observation']?.properties ?? {})).toEqual(
      expect.arrayContaining(['task', 'policy', 'tools', 'customer_message', 'tool_result', 'termination', 'reward_components']),
    );
    expect(JSON.stringify(schema['action'])).toContain('"end"');
  });
});

describe('MCP over HTTP /mcp', () => {
  it('answers initialize, ping and tools/list without a session, with one tool per domain tool and its own schema', async () => {
    const init = await rpc(http, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-03-26', capabilities: {} },
    });
    expect(init).toMatchObject({
      status: 200,
      body: {
        jsonrpc: '2.0',
        id: 1,
        result: { protocolVersion: '2025-03-26', capabilities: { tools: {} }, serverInfo: { name: 'baton-billing' } },
      },
    });
    // A notification has no response.
    expect(await rpc(http, { jsonrpc: '2.0', method: 'notifications/initialized' })).toEqual({ status: 202, body: null });
    expect((await rpc(http, { jsonrpc: '2.0', id: 'p', method: 'ping' })).body).toEqual({ jsonrpc: '2.0', id: 'p', result: {} });

    const listed = (await rpc(http, { jsonrpc: '2.0', id: 2, method: 'tools/list' })).body?.['result']?.tools as {
      name: string;
      inputSchema: { properties?: Record<string, unknown> };
    }[];
    const specs = envToolSpecs(domain);
    expect(listed.map((t) => t.name)).toEqual([...specs.map((s) => s.name), REPLY_TOOL, END_TOOL]);
    for (const spec of specs.filter((s) => s.name !== 'handoff')) {
      expect(listed.find((t) => t.name === spec.name)?.inputSchema).toEqual(spec.parameters);
    }
    const handoff = listed.find((t) => t.name === 'handoff');
    expect(Object.keys(handoff?.inputSchema.properties ?? {})).toEqual(['target', 'reason', 'summary', 'message']);
  });

  it('answers what is not a request with JSON-RPC errors, at 200, and changes nothing', async () => {
    expect(await rpc(http, {})).toMatchObject({ status: 200, body: { jsonrpc: '2.0', id: null, error: { code: -32600 } } });
    expect(await rpc(http, '{nope')).toMatchObject({ status: 200, body: { jsonrpc: '2.0', error: { code: -32700 } } });
    expect(await rpc(http, [])).toMatchObject({ status: 200, body: { error: { code: -32600 } } });
    expect((await rpc(http, { jsonrpc: '2.0', id: 3, method: 'dance' })).body).toMatchObject({ id: 3, error: { code: -32601 } });
    const sessionless = await rpc(http, { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'list_plans', arguments: {} } });
    expect(sessionless.body).toMatchObject({ error: { code: -32602, message: expect.stringMatching(/openenv\/session\/create/) } });
    const unknownSession = await rpc(http, {
      jsonrpc: '2.0',
      id: 5,
      method: 'tools/call',
      params: { name: 'list_plans', arguments: {}, session_id: 'not-a-session' },
    });
    expect(unknownSession.body).toMatchObject({ error: { code: -32602, message: expect.stringMatching(/no session/) } });
  });

  it('plays an episode in an MCP session: create resets, each tools/call is a step, the oracle earns 1', async () => {
    const created = (await rpc(http, { jsonrpc: '2.0', id: 1, method: 'openenv/session/create', params: { task: 'billing_008' } })).body?.[
      'result'
    ] as { session_id: string; observation: Record<string, unknown>; done: boolean; reward: null };
    expect(created.session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.done).toBe(false);
    checkObservation(created.observation);
    expect(created.observation).toMatchObject({ task: 'billing/billing_008#neutral#0', customer_message: expect.any(String) });
    const session_id = created.session_id;

    // An unknown tool is refused as a JSON-RPC error: no step is taken.
    const unknown = await rpc(http, {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'give_refund', arguments: {}, session_id },
    });
    expect(unknown.body).toMatchObject({ error: { code: -32602, message: expect.stringMatching(/unknown tool "give_refund"/) } });
    const badReply = await rpc(http, {
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: REPLY_TOOL, arguments: {}, session_id },
    });
    expect(badReply.body).toMatchObject({ error: { code: -32602 } });

    const task = domain.tasks.find((t) => t.id === 'billing_008');
    const oracle = createOraclePolicy(domain, task!);
    const sent: ChatMessage[] = [];
    let last: RpcBody['result'] | null = null;
    for (let i = 0; i < 60 && last?.structuredContent?.done !== true; i++) {
      const response = await rpc(http, {
        jsonrpc: '2.0',
        id: 10 + i,
        method: 'tools/call',
        params: { ...callOf(await nextAction(oracle, sent)), session_id },
      });
      expect(response.body?.['error'], JSON.stringify(response.body)).toBeUndefined();
      last = response.body?.['result'] ?? null;
      expect(last?.content?.[0]?.type).toBe('text');
      checkObservation(last?.structuredContent?.observation);
    }
    expect(last?.structuredContent).toMatchObject({ done: true, reward: 1, observation: { success: true, reward_name: 'task' } });
    expect(last?.content?.[0]?.text).toMatch(/The conversation is over/);

    // A step after the end is a tool error: the episode is over.
    const after = await rpc(http, { jsonrpc: '2.0', id: 99, method: 'tools/call', params: { name: END_TOOL, arguments: {}, session_id } });
    expect(after.body?.['result']).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/episode is over/) }] });
    expect(
      (await rpc(http, { jsonrpc: '2.0', id: 100, method: 'openenv/session/close', params: { session_id } })).body?.['result'],
    ).toEqual({
      session_id,
      closed: true,
    });
    expect(
      (await rpc(http, { jsonrpc: '2.0', id: 101, method: 'openenv/session/close', params: { session_id } })).body?.['error'],
    ).toBeDefined();
  }, 60_000);

  it('caps MCP sessions with the WebSocket ones, and says which flag raises the cap', async () => {
    const ws = await connect(`${http.replace(/^http/, 'ws')}/ws`);
    const first = (await rpc(http, { jsonrpc: '2.0', id: 1, method: 'openenv/session/create', params: {} })).body?.['result'] as {
      session_id: string;
    };
    const over = await rpc(http, { jsonrpc: '2.0', id: 2, method: 'openenv/session/create', params: {} });
    expect(over.body).toMatchObject({
      error: { code: -32000, message: expect.stringMatching(/--max-sessions/), data: { max_sessions: 2 } },
    });
    await rpc(http, { jsonrpc: '2.0', id: 3, method: 'openenv/session/close', params: { session_id: first.session_id } });
    const again = await rpc(http, { jsonrpc: '2.0', id: 4, method: 'openenv/session/create', params: {} });
    expect(again.body?.['result']?.session_id).toEqual(expect.any(String));
    await rpc(http, { jsonrpc: '2.0', id: 5, method: 'openenv/session/close', params: { session_id: again.body?.['result']?.session_id } });
    ws.close();
    await ws.closed;
  }, 60_000);

  it('reaps an idle MCP session, freeing its place, and says which flag keeps sessions longer', async () => {
    const server = await serve('main', 'train', 1, 300);
    try {
      const idle = (await rpc(server.http, { jsonrpc: '2.0', id: 1, method: 'openenv/session/create', params: {} })).body?.['result'] as {
        session_id: string;
      };
      // The only place is taken until the reaper closes the idle session: a creation that succeeds is the sign.
      let created: RpcBody['result'] | null = null;
      for (let i = 0; i < 10_000 && !created; i++) {
        const answer = await rpc(server.http, { jsonrpc: '2.0', id: 2, method: 'openenv/session/create', params: {} });
        if (answer.body?.['result']) created = answer.body['result'];
        else expect(answer.body?.['error']?.message).toMatch(/--max-sessions/);
      }
      expect(created?.['session_id']).toEqual(expect.any(String));
      const gone = await rpc(server.http, {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'list_plans', arguments: {}, session_id: idle.session_id },
      });
      expect(gone.body?.['error']?.message).toMatch(/--idle-timeout-s/);
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe('MCP over the WebSocket and the end action', () => {
  it('answers mcp messages in the socket session: tools/list, and tools/call steps the episode reset on it', async () => {
    const client = await connect(`${http.replace(/^http/, 'ws')}/ws`);
    const list = await client.send({ type: 'mcp', data: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} } });
    expect(list.type).toBe('mcp');
    expect((list.data['result'] as { tools: { name: string }[] }).tools.map((t) => t.name)).toContain('get_subscription');
    const before = await client.send({
      type: 'mcp',
      data: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_plans', arguments: {} } },
    });
    expect(before.data['result']).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/reset first/) }] });

    const reset = await client.send({ type: 'reset', data: { task: 'billing_008' } });
    checkObservation(reset.data.observation);
    const call = await client.send({
      type: 'mcp',
      data: { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'list_plans', arguments: {} } },
    });
    const result = call.data['result'] as { isError: boolean; structuredContent: { observation: { tool_result?: { name?: string } } } };
    expect(result.isError).toBe(false);
    checkObservation(result.structuredContent.observation);
    expect(result.structuredContent.observation.tool_result?.name).toBe('list_plans');
    expect((await client.send({ type: 'state' })).data['step_count']).toBe(1);

    // end, over MCP: the episode is over and scored, as the agent's stop; nothing was done, so the task is not.
    const end = await client.send({
      type: 'mcp',
      data: { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: END_TOOL, arguments: {} } },
    });
    const ended = (end.data['result'] as { structuredContent: Frame['data'] }).structuredContent;
    checkObservation(ended.observation);
    expect(ended).toMatchObject({ done: true, reward: 0, observation: { termination: 'agent_stop', success: false, handed_off: false } });
    client.close();
    await client.closed;
  }, 60_000);

  it("is what the TypeScript client's mcp() speaks", async () => {
    const client = await connectEnv(`${http.replace(/^http/, 'ws')}/ws`);
    await client.reset({ task: 'billing_020' });
    const listed = await client.mcp('tools/list');
    expect(listed).toMatchObject({ type: 'mcp', data: { jsonrpc: '2.0', id: 1, result: { tools: expect.any(Array) } } });
    const called = await client.mcp('tools/call', { name: 'list_plans', arguments: {} });
    expect(called).toMatchObject({ type: 'mcp', data: { id: 2, result: { isError: false } } });
    await client.close();
  });

  it("takes OpenEnv's MCP actions as steps (its MCPToolClient's list_tools and call_tool)", async () => {
    const client = await connect(`${http.replace(/^http/, 'ws')}/ws`);
    const listed = await client.send({ type: 'step', data: { type: 'list_tools' } });
    checkObservation(listed.data.observation);
    const tools = listed.data.observation?.['tools'] as { name: string; input_schema: object }[];
    expect(tools.map((t) => t.name)).toEqual([...envToolSpecs(domain).map((s) => s.name), REPLY_TOOL, END_TOOL]);
    expect(listed.data).toMatchObject({ done: false, reward: null });
    await client.send({ type: 'reset', data: { task: 'billing_008' } });
    const called = await client.send({ type: 'step', data: { type: 'call_tool', tool_name: 'list_plans', arguments: {} } });
    checkObservation(called.data.observation);
    expect(called.data.observation).toMatchObject({ tool_name: 'list_plans', result: { isError: false, content: [{ type: 'text' }] } });
    expect((await client.send({ type: 'state' })).data['step_count']).toBe(1);
    expect(await client.send({ type: 'step', data: { type: 'call_tool', tool_name: 'nope' } })).toMatchObject({
      type: 'error',
      data: { code: 'VALIDATION_ERROR', message: expect.stringMatching(/unknown tool/) },
    });
    const ended = await client.send({ type: 'step', data: { type: 'call_tool', tool_name: END_TOOL, arguments: {} } });
    expect(ended.data).toMatchObject({ done: true, observation: { termination: 'agent_stop', tool_name: END_TOOL } });
    client.close();
    await client.closed;
  }, 60_000);

  it('ends an episode on an end action, with or without last words, as the agent stopping, never as a hand-off', async () => {
    const client = await connect(`${http.replace(/^http/, 'ws')}/ws`);
    for (const action of [{ type: 'end' }, { type: 'end', content: 'Thanks for getting in touch. Goodbye!' }]) {
      await client.send({ type: 'reset', data: { task: 'billing_009' } });
      const frame = await client.send({ type: 'step', data: action });
      expect(frame.type, JSON.stringify(frame.data)).toBe('observation');
      checkObservation(frame.data.observation);
      expect(frame.data).toMatchObject({ done: true, observation: { termination: 'agent_stop', handed_off: false } });
      expect(typeof frame.data.reward).toBe('number');
      expect(await client.send({ type: 'step', data: { type: 'end' } })).toMatchObject({
        type: 'error',
        data: { message: expect.stringMatching(/over/) },
      });
    }
    expect(await client.send({ type: 'step', data: { type: 'end', content: '' } })).toMatchObject({
      type: 'error',
      data: { code: 'VALIDATION_ERROR' },
    });
    client.close();
    await client.closed;
  }, 60_000);

  it('says over MCP too when an episode is over at reset, with its task, policy and tools', async () => {
    const server = await serve('handoff', 'dev', 2);
    try {
      const direct = server.plan.filter((p) => p.variant?.kind === 'ask_human_direct' && p.variant.due_turn === 1);
      let over: (RpcBody['result'] & { key: string }) | null = null;
      for (const planned of direct) {
        const created = (await rpc(server.http, { jsonrpc: '2.0', id: 1, method: 'openenv/session/create', params: { task: planned.key } }))
          .body?.['result'];
        expect(created?.session_id).toEqual(expect.any(String));
        await rpc(server.http, { jsonrpc: '2.0', id: 2, method: 'openenv/session/close', params: { session_id: created?.session_id } });
        if (created?.done) {
          over = { ...created, key: planned.key };
          break;
        }
      }
      expect(over, 'a variant whose opening asks for a person is over at reset').not.toBeNull();
      checkObservation(over?.['observation']);
      expect(over?.['observation']).toMatchObject({ task: over?.['key'], over_at_reset: true, policy: expect.stringContaining('billing') });
      expect((over?.['observation']?.['tools'] as { function: { name: string } }[]).map((t) => t.function.name)).toContain('handoff');
    } finally {
      await server.close();
    }
  }, 60_000);
});
