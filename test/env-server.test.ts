import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../src/core/index.js';
import type { Domain } from '../src/domains/domain.js';
import { loadDomain } from '../src/domains/load-domain.js';
import { createOraclePolicy } from '../src/domains/oracle.js';
import { envSessionOptions, nextAction } from '../src/lab/env/setup.js';
import { buildEnvServer } from '../src/server/env-server.js';
import { connect } from './support/env-ws-client.js';

let domain: Domain;
let url: string;
let close: () => Promise<void>;
/** Train-split tasks (the lab's split): a cancellation, a hand-off, a plan change. */
const TASKS = ['billing_008', 'billing_009', 'billing_020'];

/** A server on billing's main train tasks, with the oracle's checks, listening on a free port. */
async function serve(reward: 'task' | 'r2', maxSessions: number, idleTimeoutMs: number) {
  const session = envSessionOptions(domain, { tasks: 'main', split: 'train', reward, checks: 'off' });
  const app = buildEnvServer({ name: 'baton-billing', description: 'test', session, maxSessions, idleTimeoutMs });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { url: `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}`, close: () => app.close() };
}

beforeAll(async () => {
  domain = await loadDomain('billing');
  ({ url, close } = await serve('task', 3, 60_000));
});

afterAll(async () => close());

/** Plays the oracle over the socket until the episode ends; returns the last observation frame. */
async function playOracle(client: Awaited<ReturnType<typeof connect>>, taskKey: string) {
  const reset = await client.send({ type: 'reset', data: { task: taskKey } });
  expect(reset.type).toBe('observation');
  const task = domain.tasks.find((t) => taskKey.startsWith(`billing/${t.id}#`) || t.id === taskKey);
  if (!task) throw new Error(`no task ${taskKey}`);
  const oracle = createOraclePolicy(domain, task);
  const mine: ChatMessage[] = [];
  let frame = reset;
  for (let i = 0; i < 60 && frame.data.done !== true; i++) {
    frame = await client.send({ type: 'step', data: await nextAction(oracle, mine) });
    expect(frame.type, JSON.stringify(frame.data)).toBe('observation');
  }
  return { reset, last: frame };
}

describe('the environment server over /ws', () => {
  it('plays complete episodes with the oracle and pays reward 1.0, with every component at the end', async () => {
    const client = await connect(`${url}/ws`);
    for (const id of TASKS) {
      const { reset, last } = await playOracle(client, id);
      const first = reset.data.observation ?? {};
      expect(first['task']).toBe(`billing/${id}#neutral#0`);
      expect(String(first['policy'])).toContain(domain.policy.slice(0, 60));
      expect((first['tools'] as { function: { name: string } }[]).map((t) => t.function.name)).toContain('handoff');
      expect(typeof first['customer_message']).toBe('string');
      expect(reset.data.reward).toBeNull();
      expect(reset.data.done).toBe(false);
      expect(last.data.done).toBe(true);
      expect(last.data.reward).toBe(1);
      expect(last.data.observation?.['reward_components']).toEqual({ task: 1, unscored: false });
      expect(last.data.observation).toMatchObject({ reward_name: 'task', success: true, termination: expect.any(String) });
      const state = await client.send({ type: 'state' });
      expect(state).toMatchObject({ type: 'state', data: { episode_id: expect.any(String), done: true } });
      expect(state.data['step_count']).toBeGreaterThan(0);
    }
    client.close();
    await client.closed;
  }, 120_000);

  it('answers malformed messages and actions with errors, and the episode carries on unharmed', async () => {
    const client = await connect(`${url}/ws`);
    expect(await client.send({ type: 'step', data: { type: 'message', content: 'hi' } })).toMatchObject({
      type: 'error',
      data: { code: 'EXECUTION_ERROR', message: expect.stringMatching(/reset first/) },
    });
    await client.send({ type: 'reset', data: { task: TASKS[0] } });
    expect(await client.send('{not json')).toMatchObject({ type: 'error', data: { code: 'INVALID_JSON' } });
    expect(await client.send({ type: 'dance' })).toMatchObject({ type: 'error', data: { code: 'UNKNOWN_TYPE' } });
    for (const bad of [
      { type: 'tool_call' },
      { type: 'message', content: '' },
      { type: 'message', content: 'hi', extra: 1 },
      { type: 'tool_call', name: 'get_charges', arguments: 'customer_id=1' },
      'hello',
    ]) {
      expect(await client.send({ type: 'step', data: bad })).toMatchObject({ type: 'error', data: { code: 'VALIDATION_ERROR' } });
    }
    expect((await client.send({ type: 'state' })).data['step_count']).toBe(0);
    // The same episode, played to the end, still pays in full.
    const { last } = await playOracle(client, TASKS[0] as string);
    expect(last.data.reward).toBe(1);
    client.close();
    await client.closed;
  }, 120_000);

  it('keeps sessions apart, caps them, and serves the HTTP endpoints', async () => {
    const a = await connect(`${url}/ws`);
    const b = await connect(`${url}/ws`);
    const c = await connect(`${url}/ws`);
    const over = await connect(`${url}/ws`);
    expect(await over.receive()).toMatchObject({ type: 'error', data: { code: 'CAPACITY_REACHED', max_sessions: 3 } });
    expect(await over.closed).toBe(1013);
    // Two sessions on the same cancellation, one after the other: had they shared a database, the
    // second would fail as already cancelled.
    const { last: finishedA } = await playOracle(a, 'billing_008');
    const { last: finishedB } = await playOracle(b, 'billing_008');
    expect(finishedA.data.reward).toBe(1);
    expect(finishedB.data.reward).toBe(1);
    for (const client of [a, b, c]) client.close();
    await Promise.all([a.closed, b.closed, c.closed]);

    const http = url.replace(/^ws/, 'http');
    expect(await (await fetch(`${http}/health`)).json()).toEqual({ status: 'healthy' });
    expect(await (await fetch(`${http}/metadata`)).json()).toMatchObject({ name: 'baton-billing' });
    const schema = (await (await fetch(`${http}/schema`)).json()) as { action: { oneOf?: unknown[]; anyOf?: unknown[] } };
    expect(JSON.stringify(schema.action)).toContain('tool_call');
    const reset = (await (
      await fetch(`${http}/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"seed": 2}' })
    ).json()) as {
      observation: Record<string, unknown>;
      done: boolean;
    };
    expect(reset.done).toBe(false);
    expect(typeof reset.observation['customer_message']).toBe('string');
    const step = await fetch(`${http}/step`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"action": {"type": "bogus"}}',
    });
    expect(step.status).toBe(422);
    expect(await (await fetch(`${http}/state`)).json()).toMatchObject({ episode_id: null, step_count: 0 });
  }, 120_000);

  it("closes an idle session, and prices the oracle's unconfirmed write under r2", async () => {
    const server = await serve('r2', 2, 1_500);
    try {
      const client = await connect(`${server.url}/ws`);
      // The oracle replays gold writes without asking the customer first: r2 charges that violation.
      const { last } = await playOracle(client, 'billing_008');
      expect(last.data.reward).toBe(0.75);
      expect(last.data.observation?.['reward_components']).toMatchObject({ task: 1, violations: 1, penalty_violations: -0.25 });
      expect(await client.receive()).toMatchObject({
        type: 'error',
        data: { code: 'SESSION_ERROR', message: expect.stringMatching(/without a message/) },
      });
      expect(await client.closed).toBe(1000);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('is what `baton env serve` starts, and refuses a bad reward before listening', async () => {
    const bin = join(import.meta.dirname, '..', 'bin', 'baton.js');
    const child = spawn(process.execPath, [bin, 'env', 'serve', '--domain', 'billing', '--port', '0', '--reward', 'dense'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    try {
      let err = '';
      const address = await new Promise<string>((resolve, reject) => {
        child.stderr.on('data', (chunk: Buffer) => {
          err += chunk.toString('utf8');
          const found = /OpenEnv on (http:\/\/[^\s]+)/.exec(err)?.[1];
          if (found) resolve(found);
        });
        child.once('exit', () => reject(new Error(`exited: ${err}`)));
      });
      expect(await (await fetch(`${address}/health`)).json()).toEqual({ status: 'healthy' });
      const client = await connect(`${address.replace(/^http/, 'ws')}/ws`);
      const reset = await client.send({ type: 'reset', data: { seed: 0 } });
      expect(reset).toMatchObject({ type: 'observation', data: { done: false, reward: null } });
      client.close();
    } finally {
      child.kill('SIGTERM');
    }
    const bad = spawn(process.execPath, [bin, 'env', 'serve', '--domain', 'billing', '--reward', 'vibes'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let text = '';
    bad.stderr.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    expect(await new Promise((resolve) => bad.once('exit', resolve))).not.toBe(0);
    expect(text).toMatch(/vibes/);
  }, 60_000);
});
