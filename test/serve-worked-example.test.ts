/**
 * Seed 001's worked example against the real `baton serve` (bin/baton.js over the build), over
 * HTTP, on SQLite and on PostgreSQL: a duplicate-charge refund above the autonomous limit is handed
 * off with `value_threshold`; a billing colleague signs in, sees the packet, claims, replies and
 * hands back with a note and a constraint; the agent changes the customer's e-mail; a later refund
 * of that charge is refused by the constraint; and no agent message reaches the customer while the
 * human owns the conversation.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { StoredEvent } from '../src/core/index.js';
import type { BillingDb } from '../src/domains/billing/billing-db.js';
import { loadDomain } from '../src/domains/load-domain.js';
import { testPostgres } from './support/postgres.js';

const BIN = join(import.meta.dirname, '..', 'bin', 'baton.js');
const children: ChildProcess[] = [];
afterAll(() => children.forEach((c) => c.kill('SIGKILL')));

function run(args: string[], stdin?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin ?? '');
  });
}

function serve(storeArgs: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...storeArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const match = /serving on (http:\/\/\S+)/.exec(err);
      if (match) resolve({ child, url: match[1]! });
    });
    child.on('exit', (code) => reject(new Error(`baton serve exited ${code}: ${err}`)));
  });
}

/** The billing database every `baton serve` starts from (the same seed gives the same data). */
async function refundCase() {
  const db = (await loadDomain('billing')).initialDb as unknown as BillingDb;
  const orders = Object.values(db.orders);
  const charge = Object.values(db.charges).find(
    (c) => c.duplicate_of !== null && c.refund_id === null && c.amount_cents > 5000 && orders.some((o) => o.charge_id === c.duplicate_of),
  )!;
  const customer = db.customers[charge.customer_id]!;
  const order = orders.find((o) => o.charge_id === charge.duplicate_of)!;
  return { charge, customer, order };
}

describe.each(['sqlite', 'postgres'] as const)('the worked example of 001 through baton serve on %s', (kind) => {
  it('hands off above the limit, a person takes over and hands back, and the constraint holds', async () => {
    const storeArgs =
      kind === 'sqlite'
        ? ['--db', join(mkdtempSync(join(tmpdir(), 'baton-example-')), 'baton.sqlite')]
        : ['--store', 'postgres', '--pg-url', await (await testPostgres()).createDatabase()];
    const password = 'a long enough password 42';
    const added = await run(
      ['staff', 'add', '--email', 'ana@example.test', '--role', 'agent', '--skills', 'billing,refunds', '--password-stdin', ...storeArgs],
      `${password}\n`,
    );
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/"role":"agent"/);
    expect(added.stdout).not.toContain(password);

    const { url } = await serve(storeArgs);
    const { charge, customer, order } = await refundCase();
    const json = async (path: string, init: { method?: string; body?: unknown; token?: string; key?: string } = {}) => {
      const headers: Record<string, string> = {};
      if (init.body !== undefined) headers['content-type'] = 'application/json';
      if (init.token) headers['authorization'] = `Bearer ${init.token}`;
      if (init.key) headers['idempotency-key'] = init.key;
      const res = await fetch(`${url}${path}`, {
        method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
        headers,
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };

    // The customer opens a conversation and writes; each answer is read by cursor with long-poll.
    const opened = await json('/v1/conversations', { method: 'POST' });
    expect(opened.status).toBe(201);
    const id = (opened.body['conversation'] as { id: string }).id;
    const customerToken = opened.body['customerToken'] as string;
    let cursor = '0';
    let seen: Array<{ from: string; text: string }> = [];
    let turn = 0;
    const say = async (text: string): Promise<Array<{ from: string; text: string }>> => {
      turn += 1;
      const posted = await json(`/v1/conversations/${id}/messages`, { body: { text }, token: customerToken, key: `turn-${turn}` });
      expect(posted.status).toBe(201);
      const messageId = (posted.body['message'] as { id: string }).id;
      const fresh: Array<{ id: string; from: string; text: string }> = [];
      // Read until an answer arrives after this message (earlier replies, a colleague's say, come first).
      const answered = () => {
        const mine = fresh.findIndex((m) => m.id === messageId);
        return mine >= 0 && fresh.slice(mine + 1).some((m) => m.from !== 'customer');
      };
      while (!answered()) {
        const page = await json(`/v1/conversations/${id}/messages?after=${cursor}&waitMs=10000`, { token: customerToken });
        expect(page.status).toBe(200);
        cursor = page.body['cursor'] as string;
        fresh.push(...(page.body['messages'] as Array<{ id: string; from: string; text: string }>));
      }
      seen = [...seen, ...fresh];
      const mine = fresh.findIndex((m) => m.id === messageId);
      return fresh.slice(mine + 1).filter((m) => m.from !== 'customer');
    };

    const first = await say(
      `Hi, I was charged twice for order ${order.order_id}. Please refund the duplicate. My e-mail is ${customer.email}.`,
    );
    expect(first.map((m) => m.from)).toEqual(['agent']);
    expect(first[0]!.text).toMatch(/code/i);
    const handedOff = await say(`The code is ${customer.verification_code}`);
    // The customer is told, by the system, that a colleague takes over.
    expect(handedOff.at(-1)).toMatchObject({ from: 'system' });
    expect(handedOff.at(-1)!.text).toMatch(/colleague/);
    // What the customer reads back never holds the code they typed.
    expect(JSON.stringify(seen)).not.toContain(customer.verification_code);

    // A billing colleague signs in and sees the conversation in the queue, packet first.
    const login = await json('/v1/staff/login', { body: { email: 'ana@example.test', password } });
    expect(login.status).toBe(200);
    const staffToken = login.body['token'] as string;
    const queue = await json('/v1/queue', { token: staffToken });
    const waiting = (queue.body['conversations'] as Array<Record<string, unknown>>).find((c) => c['id'] === id)!;
    expect(waiting).toMatchObject({ queue: 'queue_billing', reason: 'value_threshold', state: 'QUEUED' });
    const packet = JSON.stringify(waiting['packet']);
    expect(packet).toContain(customer.customer_id);
    expect(packet).not.toContain(customer.verification_code);
    expect(waiting['waitedMs']).toBeGreaterThanOrEqual(0);

    const claimed = await json(`/v1/conversations/${id}/claim`, { body: { version: waiting['version'] }, token: staffToken });
    expect(claimed.status).toBe(200);
    const version = (claimed.body['conversation'] as { version: number }).version;
    expect(await json(`/v1/conversations/${id}/claim`, { body: { version: waiting['version'] }, token: staffToken })).toMatchObject({
      status: 409,
    });

    // While the human owns it, the customer's message reaches the human only: the agent is silent.
    turn += 1;
    await json(`/v1/conversations/${id}/messages`, {
      body: { text: 'Are you a real person now?' },
      token: customerToken,
      key: `turn-${turn}`,
    });
    const replied = await json(`/v1/conversations/${id}/replies`, {
      body: { text: `Yes, I'm Ana from billing. I have refunded the duplicate charge ${charge.charge_id}.`, version },
      token: staffToken,
    });
    expect(replied.status).toBe(201);
    const note = `refund for order ${order.order_id} is complete, do not refund again`;
    const back = await json(`/v1/conversations/${id}/hand-back`, {
      body: { version, notes: note, constraints: [{ tool: 'refund_charge', args: { charge_id: charge.charge_id }, note }] },
      token: staffToken,
    });
    expect(back.status).toBe(200);
    expect(back.body['conversation']).toMatchObject({ state: 'AGENT_ACTIVE' });

    // The agent is back: it changes the e-mail on the customer's yes, and the constraint refuses the refund.
    const proposal = await say('Thanks! Could you also change my e-mail to samir.new@example.com?');
    expect(proposal.at(-1)!.text).toMatch(/Shall I go ahead/);
    const done = await say('yes');
    expect(done.at(-1)!.text).toMatch(/samir\.new@example\.com/);
    const refused = await say(`Please refund the duplicate charge on order ${order.order_id} again.`);
    expect(refused.at(-1)!.text).toContain(note);
    expect(refused.at(-1)!.from).toBe('agent');

    // The log, as staff read it: no refund ran, the e-mail changed, and nothing the agent wrote
    // was delivered while the human owned the conversation.
    const read = await json(`/v1/conversations/${id}?limit=500`, { token: staffToken });
    const events = read.body['events'] as StoredEvent[];
    const calls = events.flatMap((e) => (e.type === 'tool.called' ? [e.data] : []));
    expect(calls.filter((c) => c.name === 'refund_charge' && c.ok)).toEqual([]);
    expect(calls.some((c) => c.name === 'update_email' && c.ok)).toBe(true);
    let humanOwns = false;
    for (const e of events) {
      if (e.type === 'conversation.claimed') humanOwns = true;
      if (e.type === 'conversation.handed_back') humanOwns = false;
      if (humanOwns) expect(e.type === 'message.sent' && e.data.message.sender.type === 'agent').toBe(false);
    }
    // No secret at rest: the one-time code is nowhere in the log.
    expect(JSON.stringify(events)).not.toContain(customer.verification_code);
    // Every staff action is in the log with the staff member's id.
    const staffId = (login.body['staff'] as { id: string }).id;
    expect(events.find((e) => e.type === 'conversation.claimed')).toMatchObject({ data: { staff: staffId } });
    expect(events.find((e) => e.type === 'conversation.handed_back')).toMatchObject({ data: { staff: staffId, notes: note } });
  });
});
