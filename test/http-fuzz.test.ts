/**
 * 20,000 requests of the shapes callers get wrong (and some they get right), seeded, against the
 * composed server on SQLite and on PostgreSQL: no answer is a 5xx, and no conversation the fuzzer
 * holds no token for changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom, type ConversationId, type StoredEvent } from '../src/core/index.js';
import { notedPolicy, startTestRuntime, type TestRuntime } from './support/runtime-server.js';

const REQUESTS = 20_000;

/** Strings that break naive code: empty, huge, control, lone surrogates, NUL, RTL, look-alike JSON. */
const NASTY = [
  '',
  ' ',
  'a'.repeat(20_001),
  '\u0000',
  'k\uD800',
  '\uDC00x',
  '\u202Eevil',
  '👩‍👩‍👧‍👦',
  'e\u0301',
  '{"text":1}',
  '../../etc/passwd',
  '%00',
  '\r\nX-Injected: 1',
  'null',
  '1e309',
];
const VALUES: unknown[] = [null, true, 0, -1, 1.5, 2 ** 53, Number.MAX_SAFE_INTEGER, [], {}, [1, 2], { text: 'nested' }, ...NASTY];

describe.each(['sqlite', 'postgres'] as const)('a 20,000-request fuzz on %s', (kind) => {
  let server: TestRuntime;
  const earlier: Array<{ id: ConversationId; log: StoredEvent[] }> = [];
  beforeAll(async () => {
    server = await startTestRuntime(kind, { policy: notedPolicy });
    for (let i = 0; i < 5; i += 1) {
      const c = await server.open();
      await server.runtime.service.handleCustomerMessage(c.id, { text: `earlier ${i}`, idempotencyKey: `e${i}` });
      earlier.push({ id: c.id, log: [] });
    }
    for (const e of earlier) e.log = await server.store.listEvents(e.id);
  });
  afterAll(() => server?.close());

  it('answers every request with a status below 500 and changes no earlier conversation', async () => {
    const random = seededRandom(kind === 'sqlite' ? 13 : 17);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random.next() * xs.length)]!;
    const mine = [await server.open(), await server.open()];
    const staff = await server.staff('supervisor');
    const ids = [
      ...mine.map((m) => m.id as string),
      earlier[0]!.id,
      'conv_doesnotexist',
      'conv_',
      'nope',
      'conv_' + 'x'.repeat(300),
      '%zz',
      '',
    ];
    const tokens = [...mine.map((m) => m.token), staff.token, 'ct_forged', 'st_forged', '', 'garbage with spaces'];
    const paths = [
      (id: string) => `/v1/conversations/${id}/messages`,
      (id: string) =>
        `/v1/conversations/${id}/messages?after=${pick(['0', '-1', 'x', '99999999999999999999', ''])}&waitMs=${pick(['0', '-5', 'NaN', '1'])}&limit=${pick(['1', '0', '100000', 'a'])}`,
      (id: string) => `/v1/conversations/${id}`,
      (id: string) => `/v1/conversations/${id}/${pick(['claim', 'replies', 'hand-back', 'transfer', 'close', 'reviews'])}`,
      () => '/v1/conversations',
      () =>
        `/v1/${pick(['queue', 'metrics', 'metrics?since=bad', 'staff', 'staff/me', 'staff/login', 'staff/logout', 'reviews/sample?seed=-1'])}`,
      () => pick(['/health', '/ready', '/metrics', '/openapi.json', '/nothing', '/v1/conversations/%E0%A4%A']),
    ];
    const body = (): unknown => {
      const shapes: Array<() => unknown> = [
        () => ({ text: pick(NASTY.concat(['hello', 'I want a human'])), idempotencyKey: pick(NASTY.concat(['k1', 'k2'])) }),
        () => ({ text: pick(VALUES) }),
        () => ({ version: pick(VALUES.concat([1, 2, 3, 4])) }),
        () => ({
          version: pick([1, 2, 3, 4]),
          text: pick(NASTY.concat(['hi'])),
          notes: pick(VALUES),
          constraints: pick([[], [{}], [{ tool: 'refund_charge', note: pick(NASTY) }], 'x']),
        }),
        () => ({ to: pick(['queue_legal', 'queue_nope', 'staff_nope', 1, null]), mode: pick(['cold', 'warm', 'hot']), version: 3 }),
        () => ({ email: pick(NASTY.concat(['a@b.c'])), password: pick(VALUES) }),
        () => ({ [pick(NASTY.concat(['text']))]: pick(VALUES), extra: 1 }),
        () => pick(VALUES),
        () => '{"text": "unterminated',
        () => 'x'.repeat(300 * 1024),
      ];
      return pick(shapes)();
    };
    const statuses = new Map<number, number>();
    for (let i = 0; i < REQUESTS; i += 1) {
      const headers: Record<string, string> = {};
      const token = pick(tokens);
      if (random.next() < 0.8 && token !== '') headers['authorization'] = random.next() < 0.95 ? `Bearer ${token}` : token;
      if (random.next() < 0.5) headers['idempotency-key'] = pick(NASTY.concat(['k1', 'k2', `k${i}`])).replace(/[\r\n]/g, '');
      if (random.next() < 0.05) headers['cookie'] = `baton_session=${pick(tokens)}`;
      if (random.next() < 0.05) headers['x-csrf-token'] = pick(NASTY).replace(/[\r\n]/g, '');
      const method = pick(['POST', 'POST', 'GET', 'GET', 'PUT', 'DELETE']);
      const payload = method === 'GET' || random.next() < 0.05 ? undefined : body();
      const contentType = pick([
        'application/json',
        'application/json',
        'application/json',
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/json; charset=latin1',
      ]);
      if (payload !== undefined) headers['content-type'] = contentType;
      const res = await server.runtime.app.inject({
        method,
        url: pick(paths)(pick(ids)),
        headers: { ...headers, ...(random.next() < 0.02 ? { host: 'evil.example' } : {}) },
        ...(payload === undefined ? {} : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
      });
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      if (res.statusCode >= 500) throw new Error(`${method} answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
      if (res.statusCode >= 400)
        expect(JSON.parse(res.body)).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
    }
    await server.runtime.service.idle();
    for (const e of earlier) expect(await server.store.listEvents(e.id)).toEqual(e.log);
    // The fuzz reached the routes, not only the front door.
    expect([...statuses.keys()].filter((s) => s < 300).length).toBeGreaterThan(0);
    expect(statuses.get(401) ?? 0).toBeGreaterThan(0);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(0);
  }, 600_000);
});
