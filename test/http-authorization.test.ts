/**
 * Every route × every kind of caller: nobody, the customer of another conversation, and staff in
 * each role. Each answer is the one docs/api.md documents; none is a 500. And ids cannot be
 * guessed from a run of consecutively created ones.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationId, StaffId } from '../src/core/index.js';
import { handoffPolicy, startTestRuntime, type TestRuntime } from './support/runtime-server.js';

type Caller = 'none' | 'otherCustomer' | 'agent' | 'supervisor' | 'admin';
const CALLERS: Caller[] = ['none', 'otherCustomer', 'agent', 'supervisor', 'admin'];

let server: TestRuntime;
const tokens = {} as Record<Exclude<Caller, 'none'>, string>;
let owner: { token: string; id: string };

beforeAll(async () => {
  // The agent hands every conversation to queue_billing at once: the routes are under test.
  server = await startTestRuntime('sqlite', {
    policy: handoffPolicy,
  });
  tokens.otherCustomer = (await server.open()).token;
  tokens.agent = (await server.staff('agent', ['billing'])).token;
  tokens.supervisor = (await server.staff('supervisor')).token;
  tokens.admin = (await server.staff('admin')).token;
  owner = await server.staff('agent', ['billing']);
});
afterAll(() => server?.close());

/** A conversation in the state a route needs, with its own customer token. */
async function fixture(state: 'AGENT_ACTIVE' | 'QUEUED' | 'HUMAN_ACTIVE'): Promise<{ id: ConversationId; token: string; version: number }> {
  const c = await server.open();
  const { service } = server.runtime;
  if (state !== 'AGENT_ACTIVE') {
    await service.handleCustomerMessage(c.id, { text: 'I need help with a charge', idempotencyKey: 'k1' });
    if (state === 'HUMAN_ACTIVE') {
      const queued = (await server.store.getConversation(c.id))!;
      const claimed = await service.claim(c.id, owner.id as StaffId, queued.version);
      if (!claimed.ok) throw new Error(claimed.rejection.message);
    }
  }
  return { ...c, version: (await server.store.getConversation(c.id))!.version };
}

interface RouteCase {
  name: string;
  state?: 'AGENT_ACTIVE' | 'QUEUED' | 'HUMAN_ACTIVE';
  method: 'GET' | 'POST' | 'PUT';
  path: (id: ConversationId) => string;
  body?: (f: { version: number }) => unknown;
  /** The conversation's own customer token is not among the callers: 'otherCustomer' is someone else's. */
  expected: Record<Caller, number>;
}

const everyone = (status: number): Record<Caller, number> => ({
  none: status,
  otherCustomer: status,
  agent: status,
  supervisor: status,
  admin: status,
});
const customerOnly: Record<Caller, number> = { none: 401, otherCustomer: 404, agent: 403, supervisor: 403, admin: 403 };
const staffOnly: Record<Caller, number> = { none: 401, otherCustomer: 403, agent: 200, supervisor: 200, admin: 200 };
const ownerOnly: Record<Caller, number> = { none: 401, otherCustomer: 403, agent: 403, supervisor: 403, admin: 403 };
const supervisorUp: Record<Caller, number> = { none: 401, otherCustomer: 403, agent: 403, supervisor: 200, admin: 200 };

const ROUTES: RouteCase[] = [
  { name: 'open a conversation', method: 'POST', path: () => '/v1/conversations', expected: everyone(201) },
  { name: 'health', method: 'GET', path: () => '/health', expected: everyone(200) },
  { name: 'ready', method: 'GET', path: () => '/ready', expected: everyone(200) },
  { name: 'the OpenAPI document', method: 'GET', path: () => '/openapi.json', expected: everyone(200) },
  // No metrics token is configured here: nobody may scrape (a customer's or staff token is no metrics token).
  { name: 'the Prometheus scrape, no token configured', method: 'GET', path: () => '/metrics', expected: everyone(403) },
  {
    name: 'post a customer message',
    method: 'POST',
    path: (id) => `/v1/conversations/${id}/messages`,
    body: () => ({ text: 'hi', idempotencyKey: 'x' }),
    expected: customerOnly,
  },
  { name: "read the customer's messages", method: 'GET', path: (id) => `/v1/conversations/${id}/messages`, expected: customerOnly },
  {
    name: 'ask for a person ("Talk to a person")',
    method: 'POST',
    path: (id) => `/v1/conversations/${id}/request-person`,
    body: () => ({ idempotencyKey: 'x' }),
    expected: customerOnly,
  },
  { name: 'the queue', method: 'GET', path: () => '/v1/queue', expected: staffOnly },
  { name: 'read a conversation as staff', method: 'GET', path: (id) => `/v1/conversations/${id}`, expected: staffOnly },
  {
    name: 'claim from the queue',
    state: 'QUEUED',
    method: 'POST',
    path: (id) => `/v1/conversations/${id}/claim`,
    body: (f) => ({ version: f.version }),
    expected: staffOnly,
  },
  {
    name: 'take over from the agent',
    state: 'AGENT_ACTIVE',
    method: 'POST',
    path: (id) => `/v1/conversations/${id}/claim`,
    body: (f) => ({ version: f.version }),
    expected: supervisorUp,
  },
  {
    name: "reply (someone else's)",
    state: 'HUMAN_ACTIVE',
    method: 'POST',
    path: (id) => `/v1/conversations/${id}/replies`,
    body: (f) => ({ text: 'hello', version: f.version }),
    expected: ownerOnly,
  },
  {
    name: "hand back (someone else's)",
    state: 'HUMAN_ACTIVE',
    method: 'POST',
    path: (id) => `/v1/conversations/${id}/hand-back`,
    body: (f) => ({ version: f.version }),
    expected: ownerOnly,
  },
  {
    name: "transfer (someone else's)",
    state: 'HUMAN_ACTIVE',
    method: 'POST',
    path: (id) => `/v1/conversations/${id}/transfer`,
    body: (f) => ({ to: 'queue_legal', version: f.version }),
    expected: ownerOnly,
  },
  {
    name: "close (someone else's)",
    state: 'HUMAN_ACTIVE',
    method: 'POST',
    path: (id) => `/v1/conversations/${id}/close`,
    body: (f) => ({ version: f.version }),
    expected: ownerOnly,
  },
  {
    name: "assisted mode (someone else's)",
    state: 'HUMAN_ACTIVE',
    method: 'POST',
    path: (id) => `/v1/conversations/${id}/assist`,
    body: (f) => ({ version: f.version, on: true }),
    expected: ownerOnly,
  },
  { name: 'the customer leaves', state: 'QUEUED', method: 'POST', path: (id) => `/v1/conversations/${id}/leave`, expected: customerOnly },
  { name: 'my offers', method: 'GET', path: () => '/v1/offers', expected: staffOnly },
  {
    name: 'my presence',
    method: 'PUT',
    path: () => '/v1/staff/me/presence',
    body: () => ({ presence: 'away' }),
    expected: staffOnly,
  },
  {
    name: 'accept an offer (one that is not yours)',
    method: 'POST',
    path: () => '/v1/offers/res_0123456789abcdef01234567/accept',
    expected: { none: 401, otherCustomer: 403, agent: 404, supervisor: 404, admin: 404 },
  },
  {
    name: 'decline an offer (one that is not yours)',
    method: 'POST',
    path: () => '/v1/offers/res_0123456789abcdef01234567/decline',
    body: () => ({ reason: 'busy' }),
    expected: { none: 401, otherCustomer: 403, agent: 404, supervisor: 404, admin: 404 },
  },
  { name: "the lab's runs", method: 'GET', path: () => '/v1/lab/runs', expected: supervisorUp },
  { name: 'actions waiting for approval', method: 'GET', path: () => '/v1/approvals', expected: supervisorUp },
  {
    name: 'decide an approval (none waits)',
    method: 'POST',
    path: (id) => `/v1/conversations/${id}/approval`,
    body: () => ({ approved: true }),
    expected: { none: 401, otherCustomer: 403, agent: 403, supervisor: 409, admin: 409 },
  },
  {
    name: 'make a lab task (no verdict yet)',
    method: 'POST',
    path: (id) => `/v1/conversations/${id}/lab-task`,
    body: () => ({}),
    expected: { none: 401, otherCustomer: 403, agent: 403, supervisor: 409, admin: 409 },
  },
  {
    name: 'a lab report (none: the server has no runs folder)',
    method: 'GET',
    path: () => '/v1/lab/report?path=default',
    expected: { none: 401, otherCustomer: 403, agent: 403, supervisor: 404, admin: 404 },
  },
  // Verdicts (docs/reviews.md): an agent who never had the conversation may read them, not give one.
  { name: "a conversation's verdicts", method: 'GET', path: (id) => `/v1/conversations/${id}/reviews`, expected: staffOnly },
  {
    name: 'review a conversation the agent kept (nobody took it)',
    method: 'POST',
    path: (id) => `/v1/conversations/${id}/reviews`,
    body: () => ({ subject: 'kept', needed: false }),
    expected: { none: 401, otherCustomer: 403, agent: 403, supervisor: 201, admin: 201 },
  },
  { name: 'the review sample', method: 'GET', path: () => '/v1/reviews/sample', expected: supervisorUp },
  // Agents see their own queues' figures, supervisors every queue's (test/http-metrics.test.ts).
  { name: 'runtime metrics', method: 'GET', path: () => '/v1/metrics', expected: staffOnly },
  { name: 'list staff', method: 'GET', path: () => '/v1/staff', expected: supervisorUp },
  { name: 'who am I', method: 'GET', path: () => '/v1/staff/me', expected: staffOnly },
  { name: 'my presence', method: 'GET', path: () => '/v1/staff/me/presence', expected: staffOnly },
  { name: 'my offers', method: 'GET', path: () => '/v1/offers', expected: staffOnly },
  { name: 'colleagues by name', method: 'GET', path: () => '/v1/staff/colleagues', expected: staffOnly },
  {
    name: 'make a staff account',
    method: 'POST',
    path: () => '/v1/staff',
    body: () => ({ email: `new-${Math.random().toString(36).slice(2)}@example.test`, role: 'agent' }),
    expected: { none: 401, otherCustomer: 403, agent: 403, supervisor: 403, admin: 201 },
  },
];

describe('authorization: every route × every caller', () => {
  const cases = ROUTES.flatMap((route) => CALLERS.map((caller) => ({ route, caller, status: route.expected[caller] })));
  it.each(cases)('$route.name as $caller → $status', async ({ route, caller, status }) => {
    const f = await fixture(route.state ?? 'AGENT_ACTIVE');
    const headers: Record<string, string> = {};
    if (caller !== 'none') headers['authorization'] = `Bearer ${tokens[caller]}`;
    const body = route.body?.(f);
    if (body !== undefined) headers['content-type'] = 'application/json';
    const before = await server.store.listEvents(f.id);
    const res = await fetch(`${server.base}${route.path(f.id)}`, {
      method: route.method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(res.status).toBe(status);
    const text = await res.text();
    if (status >= 400) {
      expect(JSON.parse(text)).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
      // A refused request changes nothing.
      expect(await server.store.listEvents(f.id)).toEqual(before);
    }
  });

  it("a staff member without the queue's skill cannot claim from it; an expired or signed-out session is 401", async () => {
    const f = await fixture('QUEUED');
    const legal = await server.staff('agent', ['legal']);
    const res = await fetch(`${server.base}/v1/conversations/${f.id}/claim`, {
      method: 'POST',
      headers: { authorization: `Bearer ${legal.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ version: f.version }),
    });
    expect(res.status).toBe(403);
    const out = await fetch(`${server.base}/v1/staff/logout`, { method: 'POST', headers: { authorization: `Bearer ${legal.token}` } });
    expect(out.status).toBe(200);
    expect((await fetch(`${server.base}/v1/staff/me`, { headers: { authorization: `Bearer ${legal.token}` } })).status).toBe(401);
    expect((await fetch(`${server.base}/v1/staff/me`, { headers: { authorization: 'Bearer st_not-a-session' } })).status).toBe(401);
  });

  it('a cookie session must send the CSRF token to change anything', async () => {
    const person = await server.staff('agent', ['billing']);
    const login = await fetch(`${server.base}/v1/staff/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: person.email, password: person.password }),
    });
    const cookie = login.headers.get('set-cookie')!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    const { csrfToken } = (await login.json()) as { csrfToken: string };
    const session = cookie.split(';')[0]!;
    const f = await fixture('QUEUED');
    const claim = (extra: Record<string, string>) =>
      fetch(`${server.base}/v1/conversations/${f.id}/claim`, {
        method: 'POST',
        headers: { cookie: session, 'content-type': 'application/json', ...extra },
        body: JSON.stringify({ version: f.version }),
      });
    expect((await claim({})).status).toBe(403);
    expect((await claim({ 'x-csrf-token': '00'.repeat(32) })).status).toBe(403);
    expect((await server.store.getConversation(f.id))!.state).toBe('QUEUED');
    expect((await claim({ 'x-csrf-token': csrfToken })).status).toBe(200);
    expect((await fetch(`${server.base}/v1/queue`, { headers: { cookie: session } })).status).toBe(200);
  });

  it('answers a Host it was not configured for with 421 (DNS rebinding)', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${server.base}/health`, { headers: { host: 'attacker.example:3000' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(421);
  });

  it('rate-limits sign-in attempts', async () => {
    const attempt = () =>
      fetch(`${server.base}/v1/staff/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'nobody@example.test', password: 'wrong password here' }),
      });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i += 1) statuses.push((await attempt()).status);
    expect(statuses.filter((s) => s === 401).length).toBeGreaterThan(0);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('ids cannot be guessed', () => {
  it('no neighbour of a run of consecutively created conversations exists, and a token opens only its own', async () => {
    const made: Array<{ id: ConversationId; token: string }> = [];
    for (let i = 0; i < 40; i += 1) made.push(await server.open());
    const ids = new Set(made.map((m) => m.id as string));
    const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
    const neighbours = new Set<string>();
    for (const { id } of made) {
      // The id as an incremented sequence would make it: the last characters moved up and down.
      for (let pos = id.length - 4; pos < id.length; pos += 1) {
        for (const step of [-2, -1, 1, 2]) {
          const digit = ALPHABET.indexOf(id[pos]!);
          const next = ALPHABET[(digit + step + 32) % 32]!;
          neighbours.add(id.slice(0, pos) + next + id.slice(pos + 1));
        }
      }
    }
    for (const candidate of neighbours) {
      if (ids.has(candidate)) continue;
      expect(await server.store.getConversation(candidate as ConversationId)).toBeNull();
    }
    // Consecutive ids share no random part: 16 characters redrawn each time.
    for (let i = 1; i < made.length; i += 1) {
      const a = made[i - 1]!.id.slice(-16);
      const b = made[i]!.id.slice(-16);
      expect([...a].filter((ch, k) => ch === b[k]).length).toBeLessThan(8);
    }
    // One conversation's token reads nothing of another's: the same 404 as an id that does not exist.
    const [first, second] = made as [(typeof made)[0], (typeof made)[0]];
    const res = await fetch(`${server.base}/v1/conversations/${second.id}/messages`, {
      headers: { authorization: `Bearer ${first.token}` },
    });
    expect(res.status).toBe(404);
    expect(first.token).toMatch(/^ct_[A-Za-z0-9_-]{43}$/);
  });
});
