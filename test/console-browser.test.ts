/**
 * The staff console in a real Chromium (@sparticuz/chromium driven by playwright-core) against a
 * real runtime (the composed `baton serve` app on SQLite, the billing domain's rule agent and
 * decider): sign in; a customer asks for a person over HTTP and the conversation appears in the
 * queue live; the packet is on screen without scrolling at 1280×800; claim, reply (the customer
 * reads it), hand back with a note and a constraint; two browsers race to claim and the loser is
 * told who won; the console's socket is cut while 20 events land and, after it reconnects, shows
 * all 20 in order, once. axe-core finds no serious or critical violation on any screen; the
 * screenshots go to docs/console/ with BATON_SCREENSHOTS=docs (a temp folder otherwise).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredEvent } from '../src/core/index.js';
import {
  axe,
  browsers,
  customer as customerAt,
  json as jsonAt,
  newPage,
  ROOT,
  shot,
  SHOTS,
  signIn as signInAt,
} from './support/console-page.js';
import { startTestRuntime, type TestRuntime } from './support/runtime-server.js';

let runtime: TestRuntime;
let skills: string[];

beforeAll(() => {
  // The console as `npm run build` makes it (rebuilt only when its sources changed).
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-console.mjs')], { stdio: ['ignore', 'inherit', 'inherit'] });
  mkdirSync(SHOTS, { recursive: true });
}, 180_000);
afterAll(async () => {
  for (const b of browsers) await b.close().catch(() => {});
});

/** A fresh runtime per group of tests: sign-in is rate-limited per address (10 a minute), and every browser here is 127.0.0.1. */
function withRuntime() {
  beforeAll(async () => {
    runtime = await startTestRuntime('sqlite');
    skills = [...new Set(runtime.runtime.domain.queues.flatMap((q) => q.skills))];
  }, 120_000);
  afterAll(async () => {
    for (const b of browsers.splice(0)) await b.close().catch(() => {});
    await runtime?.close();
  });
}

const json = (path: string, init?: Parameters<typeof jsonAt>[2]) => jsonAt(runtime.base, path, init);
const customer = () => customerAt(runtime.base);
const signIn = (page: Page, who: { email: string; password: string }) => signInAt(page, runtime.base, who);

/** A customer who asks for a person; resolves once their conversation waits in a queue. */
async function waitingCustomer() {
  const c = await customer();
  await c.say('Hello, I want to talk to a person about my bill, please.');
  await c.waitFor((m) => m.from === 'system');
  return c;
}

async function staffRead(id: string, token: string) {
  const read = await json(`/v1/conversations/${id}?limit=500`, { token });
  expect(read.status).toBe(200);
  return read.body as {
    conversation: { state: string; version: number; owner: { type: string; id?: string }; constraints: unknown[] };
    events: StoredEvent[];
  };
}

describe('the staff console in Chromium', () => {
  withRuntime();
  it('signs in, shows the queue live, the packet first, and claims, replies and hands back', async () => {
    const ana = await runtime.staff('agent', skills);
    const { page, errors, requests } = await newPage();
    const response = await page.goto(`${runtime.base}/console/`);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await axe(page, 'sign in');
    await shot(page, 'sign-in');

    // By keyboard alone: type, Tab, type, Enter.
    await page.getByLabel('E-mail address').focus();
    await page.keyboard.type(ana.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(ana.password);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Waiting for a person' }).waitFor();
    await page.getByTestId('connection').filter({ hasText: 'Live' }).waitFor();
    // A mark on the page: if anything reloaded it, the mark would be gone.
    await page.evaluate(() => ((globalThis as unknown as { stillHere: boolean }).stillHere = true));

    // The customer asks for a person over HTTP; the row appears without a reload.
    const c = await waitingCustomer();
    const row = page.locator(`tr[data-conversation="${c.id}"]`);
    await row.waitFor();
    await expect(page.evaluate(() => (globalThis as unknown as { stillHere?: boolean }).stillHere)).resolves.toBe(true);
    await expect(row.locator('td').nth(1).textContent()).resolves.toBe('customer request');
    await expect(row.locator('.waited').textContent()).resolves.toMatch(/^\d+ s/);
    await axe(page, 'queue');
    await shot(page, 'queue');

    // Packet first: the essentials are on screen at 1280×800 without scrolling.
    await row.getByRole('link').click();
    const packet = page.getByTestId('packet');
    await packet.waitFor();
    for (const id of ['packet-customer', 'packet-intent', 'packet-reason', 'packet-next']) {
      const box = await page.getByTestId(id).boundingBox();
      expect(box, id).not.toBeNull();
      expect(box!.y, id).toBeGreaterThanOrEqual(0);
      expect(box!.y + box!.height, id).toBeLessThanOrEqual(800);
    }
    await expect(page.getByTestId('packet-reason').textContent()).resolves.toContain('customer request');
    await expect(page.getByTestId('packet-intent').textContent()).resolves.toContain('talk to a person');
    await expect(page.evaluate(() => (globalThis as unknown as { scrollY: number }).scrollY)).resolves.toBe(0);
    await axe(page, 'conversation (waiting)');
    await shot(page, 'conversation');

    // Claim by keyboard: the button is reachable with Tab and pressed with Enter.
    const claim = page.getByRole('button', { name: 'Claim' });
    for (
      let tabs = 0;
      tabs < 30 && !(await claim.evaluate((el) => el === (el.ownerDocument as { activeElement: unknown }).activeElement));
      tabs += 1
    ) {
      await page.keyboard.press('Tab');
    }
    await page.keyboard.press('Enter');
    const replyBox = page.getByLabel('Reply to the customer');
    await replyBox.waitFor();
    await expect(page.getByTestId('state').textContent()).resolves.toMatch(/human active · you/);
    await replyBox.fill('Hello, this is Ana from billing. How can I help?');
    await page.getByRole('button', { name: 'Send reply' }).click();
    const reply = await c.waitFor((m) => m.from === 'human');
    expect(reply.text).toBe('Hello, this is Ana from billing. How can I help?');

    // The transcript, one click away, shows the reply as the log has it.
    await page.getByRole('tab', { name: /Transcript/ }).click();
    await page.locator('.transcript .msg.human').filter({ hasText: 'Ana from billing' }).waitFor();
    await axe(page, 'transcript');
    await shot(page, 'transcript');

    // Hand back with a note and a constraint built by the form.
    await page.getByRole('tab', { name: 'Packet' }).click();
    await page.getByLabel('Note for the agent').fill('Customer is fine now; no refunds on this bill.');
    await page.getByRole('button', { name: 'Add a constraint' }).click();
    await page.getByLabel('Tool the agent may not call').fill('refund_charge');
    await page.getByLabel('Only when argument').fill('order_id');
    await page.getByLabel('equals').fill('ord_1001');
    await page.getByLabel('Why (the agent tells the customer this)').fill('no refund on order ord_1001: already settled by phone');
    await expect(page.locator('.preview').textContent()).resolves.toContain('may not call refund_charge with order_id = ord_1001');
    await page.getByRole('button', { name: 'Hand back' }).scrollIntoViewIfNeeded();
    await axe(page, 'hand back');
    await shot(page, 'hand-back');
    await page.getByRole('button', { name: 'Hand back' }).click();
    await page.getByTestId('state').filter({ hasText: 'agent active' }).waitFor();
    const read = await staffRead(c.id, ana.token);
    expect(read.conversation.state).toBe('AGENT_ACTIVE');
    expect(read.conversation.constraints).toEqual([
      { tool: 'refund_charge', args: { order_id: 'ord_1001' }, note: 'no refund on order ord_1001: already settled by phone' },
    ]);
    expect(read.events.find((e) => e.type === 'conversation.handed_back')).toMatchObject({
      data: { staff: ana.id, notes: 'Customer is fine now; no refunds on this bill.' },
    });

    // The agent has the conversation again: it answers the customer's next message, and the console shows that live.
    await c.say('Thanks. Another question: when is my next bill due?');
    const answer = await c.waitFor((m) => m.from === 'agent');
    await page.getByRole('tab', { name: /Transcript/ }).click();
    await page
      .locator('.transcript .msg.agent .text')
      .filter({ hasText: answer.text.slice(0, 40) })
      .first()
      .waitFor();
    await page.getByRole('tab', { name: 'Packet' }).click();

    // A phone's width: one column, nothing wider than the screen, still accessible.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('packet').waitFor();
    await expect(
      page.evaluate(
        () => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth,
      ),
    ).resolves.toBeLessThanOrEqual(390);
    await axe(page, 'conversation at 390 px');
    await shot(page, 'conversation-phone');

    // Signing out ends the session: the API refuses the cookie afterwards.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await expect(page.evaluate(async () => (await fetch('/v1/staff/me')).status)).resolves.toBe(401);

    expect(errors).toEqual([]);
    expect(requests.every((u) => u.startsWith(runtime.base) || u.startsWith(runtime.base.replace('http:', 'ws:')))).toBe(true);
  });

  it('two browsers race to claim: exactly one wins, and the other is shown who did', async () => {
    const [bo, cy] = [await runtime.staff('agent', skills), await runtime.staff('agent', skills)];
    const b = await newPage();
    const d = await newPage();
    await signIn(b.page, bo);
    await signIn(d.page, cy);
    const c = await waitingCustomer();
    for (const p of [b.page, d.page]) {
      await p.locator(`tr[data-conversation="${c.id}"]`).getByRole('link').click();
      await p.getByRole('button', { name: 'Claim' }).waitFor();
    }
    // Two people click at the same instant: each browser's claim is held until both are on
    // the wire, then both go to the server together, on the same version.
    const held: Array<() => Promise<void>> = [];
    let bothSent!: () => void;
    const together = new Promise<void>((resolve) => (bothSent = resolve));
    for (const p of [b.page, d.page]) {
      await p.route(/\/claim$/, async (route) => {
        held.push(() => route.continue());
        if (held.length === 2) bothSent();
      });
    }
    await b.page.getByRole('button', { name: 'Claim' }).click();
    await d.page.getByRole('button', { name: 'Claim' }).click();
    await together;
    await Promise.all(held.map((release) => release()));

    const outcome = async (p: Page) => {
      const won = p.getByLabel('Reply to the customer');
      const lost = p.getByTestId('stale');
      await won.or(lost).waitFor();
      return (await won.isVisible()) ? 'won' : 'lost';
    };
    const results = [await outcome(b.page), await outcome(d.page)];
    expect(results.sort()).toEqual(['lost', 'won']);
    const read = await staffRead(c.id, bo.token);
    expect(read.events.filter((e) => e.type === 'conversation.claimed')).toHaveLength(1);
    const winner = read.conversation.owner.id === bo.id ? bo : cy;
    const loser = winner === bo ? d.page : b.page;
    expect(read.conversation.owner).toEqual({ type: 'human', id: winner.id });
    await expect(loser.getByTestId('stale').textContent()).resolves.toMatch(/Not done: Claim/);
    await loser.getByTestId('stale-owner').filter({ hasText: winner.email }).waitFor();
    await expect(loser.getByTestId('stale').textContent()).resolves.toContain(`claimed by ${winner.email}`);
    await expect(loser.getByRole('button', { name: 'Claim' }).count()).resolves.toBe(0);
    await axe(loser, 'stale claim');
    await shot(loser, 'claim-lost');

    // The winner transfers it, cold, to another queue: it waits there again.
    const winnerPage = winner === bo ? b.page : d.page;
    await winnerPage.getByLabel('Queue to transfer to').selectOption('queue_complaints');
    await winnerPage.getByRole('button', { name: 'Transfer' }).click();
    await winnerPage.getByTestId('state').filter({ hasText: 'waiting in complaints' }).waitFor();
    const moved = await staffRead(c.id, bo.token);
    expect(moved.conversation).toMatchObject({ state: 'QUEUED', owner: { type: 'queue', id: 'queue_complaints' } });
    expect([...b.errors, ...d.errors]).toEqual([]);
  });
});

describe('the staff console in Chromium, taking over and reconnecting', () => {
  withRuntime();

  it('lets a supervisor take a conversation over from the agent, and an agent not', async () => {
    const sam = await runtime.staff('supervisor');
    const agent = await runtime.staff('agent', skills);
    const c = await customer();
    await c.say('What plans do you have?');
    await c.waitFor((m) => m.from === 'agent');
    const a = await newPage();
    await signIn(a.page, agent);
    await a.page.goto(`${runtime.base}/console/#/c/${c.id}`);
    await a.page.getByText('The agent is handling this conversation.').waitFor();
    await expect(a.page.getByRole('button', { name: /Take over/ }).count()).resolves.toBe(0);
    const { page } = await newPage();
    await signIn(page, sam);
    await page.goto(`${runtime.base}/console/#/c/${c.id}`);
    await page.getByRole('button', { name: 'Take over from the agent' }).click();
    await page.getByLabel('Reply to the customer').waitFor();
    expect((await staffRead(c.id, sam.token)).conversation.owner).toEqual({ type: 'human', id: sam.id });
    // The agent's console, open on it all along, shows the change live.
    await a.page.getByTestId('owned-by').filter({ hasText: sam.email }).waitFor();
  });

  it('after its socket is cut while 20 events land, the console shows all 20 in order, once', async () => {
    const dee = await runtime.staff('agent', skills);
    const { page, errors } = await newPage();
    // The browser's stream goes through a switch the test can open: a real cut between the page and the server.
    let cutOff = false;
    let live: { page: WebSocketRoute; server: WebSocketRoute } | null = null;
    let refused = 0;
    let onRefused: (() => void) | null = null;
    await page.routeWebSocket(/\/v1\/staff\/stream$/, (ws) => {
      if (cutOff) {
        refused += 1;
        onRefused?.();
        return ws.close({ code: 1011, reason: 'cut by the test' });
      }
      live = { page: ws, server: ws.connectToServer() };
    });
    await signIn(page, dee);
    const c = await waitingCustomer();
    await page.locator(`tr[data-conversation="${c.id}"]`).getByRole('link').click();
    await page.getByRole('button', { name: 'Claim' }).click();
    await page.getByLabel('Reply to the customer').waitFor();
    await page.getByRole('tab', { name: /Transcript/ }).click();
    await page.getByTestId('transcript').waitFor();

    // Cut: both ends close, and every reconnect is refused until the switch closes again.
    cutOff = true;
    const refusedOnce = new Promise<void>((resolve) => (onRefused = resolve));
    live!.server.close();
    live!.page.close({ code: 1011, reason: 'cut by the test' });
    await page.getByTestId('connection').filter({ hasText: 'Reconnecting' }).waitFor();
    for (let i = 1; i <= 20; i += 1) await c.say(`event ${i}`);
    await refusedOnce;
    expect(refused).toBeGreaterThan(0);
    await expect(
      page
        .locator('.transcript .msg.customer')
        .filter({ hasText: /^Customer.*event \d+$/ })
        .count(),
    ).resolves.toBe(0);

    cutOff = false;
    await page.getByTestId('connection').filter({ hasText: 'Live' }).waitFor();
    await page
      .locator('.transcript .msg.customer .text')
      .filter({ hasText: /^event 20$/ })
      .waitFor();
    const texts = await page.locator('.transcript .msg.customer .text').allTextContents();
    expect(texts.filter((t) => /^event \d+$/.test(t))).toEqual(Array.from({ length: 20 }, (_, i) => `event ${i + 1}`));
    const seqs = (await page
      .locator('.transcript [data-seq]')
      .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-seq'))))) as number[];
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
    // What the console shows is the log: every customer message of the log, in its order.
    const read = await staffRead(c.id, dee.token);
    const logged = read.events.flatMap((e) => (e.type === 'message.received' ? [e.data.message.text] : []));
    expect(texts).toEqual(logged);
    await shot(page, 'reconnected');

    // Close, with a reason.
    await page.getByLabel('Close with the reason').fill('answered by phone');
    await page.getByRole('button', { name: 'Close', exact: true }).click();
    await page.getByTestId('state').filter({ hasText: 'closed' }).waitFor();
    // The close is the last transition (the router's note that the person's part is done may follow it).
    const events = (await staffRead(c.id, dee.token)).events as Array<{ type: string }>;
    expect(events.filter((e) => e.type.startsWith('conversation.')).at(-1)).toMatchObject({
      type: 'conversation.closed',
      data: { reason: 'answered by phone' },
    });
    expect(errors.filter((e) => !/WebSocket/.test(e))).toEqual([]);
  });
});
