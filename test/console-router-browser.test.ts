/**
 * The console and the router, in a real Chromium against a real runtime (the composed `baton
 * serve` app on SQLite, the billing domain, a scripted policy standing in for the model): a person
 * says they are available in the header; a customer asks for a person over HTTP and the offer
 * appears live; accepting opens the conversation packet first, on screen without scrolling at
 * 1280×800; assisted mode puts the agent's draft in the reply box, sent only when the person
 * clicks send (and a draft a guardrail flagged carries its warning); a hand-back with a constraint, after which the agent's blocked tool call is refused
 * and the log shows it; a declined offer (with its reason) goes live to a second person's console;
 * a warm transfer says it is pending and then what became of it (declined, or not answered before
 * the runtime's virtual clock passes its timeout); the dashboard shows the runtime
 * metrics to a supervisor and tells an agent it is for supervisors. axe-core finds no serious or
 * critical violation on these screens; the screenshots go to docs/console/ with BATON_SCREENSHOTS=docs.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredEvent } from '../src/core/index.js';
import { agentScript, CHARGE, DRAFT, UNBACKED } from './support/refund-script.js';
import { axe, browsers, customer, json, newPage, ROOT, shot, SHOTS, signIn } from './support/console-page.js';
import { startTestRuntime, type TestRuntime } from './support/runtime-server.js';

let runtime: TestRuntime;
let skills: string[];
/** The runtime's clock runs this far ahead of the wall clock: a test moves it to make an offer time out. */
let skew = 0;

beforeAll(() => {
  // The console as `npm run build` makes it (rebuilt only when its sources changed).
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-console.mjs')], { stdio: ['ignore', 'inherit', 'inherit'] });
  mkdirSync(SHOTS, { recursive: true });
}, 180_000);

/** A fresh runtime per group of tests: sign-in is rate-limited per address (10 a minute), and every browser here is 127.0.0.1. */
function withRuntime() {
  beforeAll(async () => {
    skew = 0;
    runtime = await startTestRuntime('sqlite', { policy: () => agentScript(), clock: { now: () => Date.now() + skew } });
    skills = [...new Set(runtime.runtime.domain.queues.flatMap((q) => q.skills))];
  }, 120_000);
  afterAll(async () => {
    for (const b of browsers.splice(0)) await b.close().catch(() => {});
    await runtime?.close();
  });
}

async function staffRead(id: string, token: string) {
  const read = await json(runtime.base, `/v1/conversations/${id}?limit=500`, { token });
  expect(read.status).toBe(200);
  return read.body as {
    conversation: { state: string; version: number; owner: { type: string; id?: string }; constraints: unknown[] };
    events: StoredEvent[];
  };
}

const notes = (events: StoredEvent[]) => events.flatMap((e) => (e.type === 'routing.noted' ? [e.data] : []));

async function setPresence(page: Page, presence: 'available' | 'busy' | 'away') {
  const answered = page.waitForResponse((r) => r.url().endsWith('/v1/staff/me/presence') && r.request().method() === 'PUT');
  await page.getByLabel('Presence').selectOption(presence);
  expect((await answered).status()).toBe(200);
}

/** A customer who asks for a person; resolves once the system has told them what happens next. */
async function waitingCustomer() {
  const c = await customer(runtime.base);
  await c.say('Hello, I want to talk to a person about my bill, please.');
  await c.waitFor((m) => m.from === 'system');
  return c;
}

describe('the console with the router in Chromium', () => {
  withRuntime();

  it('presence, a live offer accepted packet first, assisted drafts, and a hand-back whose constraint refuses the agent', async () => {
    const ana = await runtime.staff('agent', skills);
    const { page, errors } = await newPage();
    await signIn(page, runtime.base, ana);
    // Presence by keyboard: the labelled control in the header, changed with the arrow keys.
    await page.getByLabel('Presence').focus();
    await expect(page.getByLabel('Presence').inputValue()).resolves.toBe('offline');
    const madeAvailable = page.waitForResponse(
      (r) =>
        r.url().endsWith('/v1/staff/me/presence') &&
        r.request().method() === 'PUT' &&
        r.request().postData() === '{"presence":"available"}',
    );
    // Offline → away → busy → available.
    for (let i = 0; i < 3; i += 1) await page.keyboard.press('ArrowUp');
    expect((await madeAvailable).status()).toBe(200);
    await expect(page.getByLabel('Presence').inputValue()).resolves.toBe('available');
    expect((await json(runtime.base, '/v1/staff/me/presence', { token: ana.token })).body).toMatchObject({ presence: 'available' });
    await page.evaluate(() => ((globalThis as unknown as { stillHere: boolean }).stillHere = true));

    // The customer asks for a person: the router offers it to Ana, and her console shows it without a reload.
    const c = await waitingCustomer();
    const offer = page.locator(`li.offer[data-conversation="${c.id}"]`);
    await offer.waitFor();
    await expect(page.evaluate(() => (globalThis as unknown as { stillHere?: boolean }).stillHere)).resolves.toBe(true);
    const offerText = await offer.textContent();
    expect(offerText).toContain('Queue: billing');
    expect(offerText).toContain('Why a person: customer request');
    await expect(offer.getByTestId('time-left').textContent()).resolves.toMatch(/^\d+ s left to answer$/);
    await axe(page, 'offer');
    await shot(page, 'offer');

    // Accept: the conversation opens, packet first, its essentials on screen without scrolling.
    await offer.getByRole('button', { name: 'Accept' }).click();
    await page.getByTestId('packet').waitFor();
    await page
      .getByTestId('state')
      .filter({ hasText: /human active · you/ })
      .waitFor();
    expect(new URL(page.url()).hash).toBe(`#/c/${c.id}`);
    for (const id of ['packet-customer', 'packet-intent', 'packet-reason', 'packet-next']) {
      const box = await page.getByTestId(id).boundingBox();
      expect(box, id).not.toBeNull();
      expect(box!.y, id).toBeGreaterThanOrEqual(0);
      expect(box!.y + box!.height, id).toBeLessThanOrEqual(800);
    }
    await expect(page.evaluate(() => (globalThis as unknown as { scrollY: number }).scrollY)).resolves.toBe(0);
    await expect(page.getByTestId('offers').count()).resolves.toBe(0);
    expect(notes((await staffRead(c.id, ana.token)).events).map((n) => n.kind)).toContain('accepted');

    // Reply: the customer reads it.
    await page.getByLabel('Reply to the customer').fill('Hello, this is Ana from billing.');
    await page.getByRole('button', { name: 'Send reply' }).click();
    await c.waitFor((m) => m.from === 'human' && m.text === 'Hello, this is Ana from billing.');

    // Assisted mode: the agent's draft comes into the reply box; the customer gets nothing until Ana sends.
    await page.getByRole('button', { name: 'Assisted mode: off' }).click();
    await page.getByRole('button', { name: 'Assisted mode: on' }).waitFor();
    await c.say('Could you check my last invoice?');
    const box = page.getByLabel('Reply to the customer');
    await page.getByTestId('draft-note').waitFor();
    await expect(box.inputValue()).resolves.toBe(DRAFT);
    const drafted = (await staffRead(c.id, ana.token)).events.filter((e) => e.type === 'draft.proposed');
    expect(drafted.map((e) => e.data.text)).toEqual([DRAFT]);
    await runtime.runtime.service.idle();
    expect((await c.all()).filter((m) => m.text === DRAFT)).toEqual([]);
    await axe(page, 'assisted draft');
    await shot(page, 'assisted-draft');
    await box.fill(`${DRAFT} (Ana)`);
    await page.getByRole('button', { name: 'Send reply' }).click();
    await c.waitFor((m) => m.from === 'human' && m.text === `${DRAFT} (Ana)`);
    // Sent: the console has the answer and the box is empty again.
    await page.getByRole('status').filter({ hasText: 'Reply: done.' }).waitFor();
    await expect(box.inputValue()).resolves.toBe('');
    expect((await c.all()).filter((m) => m.text === DRAFT)).toEqual([]);
    // A draft a guardrail flagged comes with a warning naming it; it is not sent either.
    await c.say('Is my money back yet?');
    await page.getByTestId('draft-flagged').waitFor();
    await expect(box.inputValue()).resolves.toBe(UNBACKED);
    await expect(page.getByTestId('draft-flagged').textContent()).resolves.toContain('“unbacked claim”');
    const flagged = (await staffRead(c.id, ana.token)).events.filter((e) => e.type === 'draft.proposed').at(-1);
    expect(flagged?.data).toMatchObject({ text: UNBACKED, flagged: 'unbacked_claim' });
    await axe(page, 'flagged draft');
    await shot(page, 'assisted-flagged');
    await box.fill('');
    await runtime.runtime.service.idle();
    expect((await c.all()).filter((m) => m.text === UNBACKED)).toEqual([]);
    await page.getByRole('button', { name: 'Assisted mode: on' }).click();
    await page
      .getByTestId('state')
      .filter({ hasText: /human active · you/ })
      .waitFor();

    // Hand back with a note and a constraint: no refund of that charge.
    await page.getByLabel('Note for the agent').fill('Checked the invoice with the customer; no refund on this charge.');
    await page.getByRole('button', { name: 'Add a constraint' }).click();
    await page.getByLabel('Tool the agent may not call').fill('refund_charge');
    await page.getByLabel('Only when argument').fill('charge_id');
    await page.getByLabel('equals').fill(CHARGE);
    await page.getByLabel('Why (the agent tells the customer this)').fill(`no refund on ${CHARGE}: it was settled by phone`);
    await page.getByRole('button', { name: 'Hand back' }).click();
    await page.getByTestId('state').filter({ hasText: 'agent active' }).waitFor();

    // The agent tries the blocked action: the tool layer refuses it, the log and the console show it.
    await c.say(`Please refund the duplicate charge ${CHARGE}.`);
    await c.waitFor((m) => m.from === 'agent' && m.text.includes('Shall I go ahead?'));
    await c.say('Yes, go ahead.');
    const told = await c.waitFor((m) => m.from === 'agent' && m.text.startsWith('I could not do that.'));
    expect(told.text).toContain('settled by phone');
    const calls = (await staffRead(c.id, ana.token)).events.filter((e) => e.type === 'tool.called' && e.data.name === 'refund_charge');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.data).toMatchObject({ ok: false, refused: 'constraint' });
    await page.getByRole('tab', { name: /Transcript/ }).click();
    await page.locator('.transcript .log.tool').filter({ hasText: 'tool refund_charge refused: constraint' }).waitFor();
    await shot(page, 'constraint-refused');

    // Away: no more offers for Ana.
    await setPresence(page, 'away');
    expect((await json(runtime.base, '/v1/staff/me/presence', { token: ana.token })).body).toMatchObject({ presence: 'away' });
    expect(errors).toEqual([]);
  });

  it("a declined offer goes live to a second person's console; a warm transfer is pending, then declined, then cold", async () => {
    const [bo, cy] = [await runtime.staff('agent', skills), await runtime.staff('agent', skills)];
    const b = await newPage();
    const d = await newPage();
    await signIn(b.page, runtime.base, bo);
    await signIn(d.page, runtime.base, cy);
    await setPresence(b.page, 'available');
    await setPresence(d.page, 'available');

    const c = await waitingCustomer();
    const offerOn = (p: Page) => p.locator(`li.offer[data-conversation="${c.id}"]`);
    // The router offers it to one of them (the longer idle); which one is the router's choice.
    const toBo = await Promise.race([
      offerOn(b.page)
        .waitFor()
        .then(() => true),
      offerOn(d.page)
        .waitFor()
        .then(() => false),
    ]);
    const [first, second, firstWho, secondWho] = toBo ? [b.page, d.page, bo, cy] : [d.page, b.page, cy, bo];
    await expect(offerOn(second).count()).resolves.toBe(0);

    // Decline asks for a reason; the offer leaves the first console and appears, live, on the second.
    await offerOn(first).getByRole('button', { name: 'Decline…' }).click();
    await offerOn(first).getByLabel('Wrong skill').check();
    await axe(first, 'decline');
    await shot(first, 'offer-decline');
    await offerOn(first).getByRole('button', { name: 'Decline the offer' }).click();
    await offerOn(second).waitFor();
    await expect(offerOn(first).count()).resolves.toBe(0);
    const declined = notes((await staffRead(c.id, bo.token)).events).find((n) => n.kind === 'declined');
    expect(declined).toMatchObject({ staff: firstWho.id, why: 'wrong_skill' });
    await offerOn(second).getByRole('button', { name: 'Accept' }).click();
    await second
      .getByTestId('state')
      .filter({ hasText: /human active · you/ })
      .waitFor();

    // A warm transfer to the first person: pending on the second's console, an offer "from" them on the first's.
    await second.getByLabel('Warm (yours until accepted)').check();
    await second.getByLabel('A person').check();
    await second.getByLabel('Person to transfer to').selectOption(firstWho.id);
    await second.getByRole('button', { name: 'Offer warm transfer' }).click();
    await second.getByTestId('warm-pending').filter({ hasText: firstWho.email }).waitFor();
    await expect(second.getByTestId('warm-pending').textContent()).resolves.toMatch(/waiting for their answer \(\d+ s left\)/);
    const warmOffer = offerOn(first);
    await warmOffer.waitFor();
    await expect(warmOffer.textContent()).resolves.toContain(`warm transfer from ${secondWho.email}`);
    await axe(second, 'warm pending');
    await second.evaluate(() => (globalThis as unknown as { scrollTo: (x: number, y: number) => void }).scrollTo(0, 0));
    await shot(second, 'warm-pending');

    // Declined (busy): the second console shows the outcome from the log, and that it went cold to the queue.
    await warmOffer.getByRole('button', { name: 'Decline…' }).click();
    await warmOffer.getByLabel('Busy').check();
    await warmOffer.getByRole('button', { name: 'Decline the offer' }).click();
    const outcome = second.getByTestId('warm-outcome').filter({ hasText: firstWho.email });
    await outcome.waitFor();
    await expect(outcome.textContent()).resolves.toBe(`Warm transfer to ${firstWho.email}: declined (busy). It went cold to billing.`);
    const after = await staffRead(c.id, bo.token);
    expect(notes(after.events).map((n) => n.kind)).toContain('warm_failed');
    expect(after.events.filter((e) => e.type === 'conversation.transferred').at(-1)).toMatchObject({
      data: { staff: secondWho.id, owner: { type: 'queue', id: 'queue_billing' } },
    });
    await axe(second, 'warm outcome');
    await second.evaluate(() => (globalThis as unknown as { scrollTo: (x: number, y: number) => void }).scrollTo(0, 0));
    await shot(second, 'warm-outcome');
    // Both away: the next test's offers go to its own people.
    await setPresence(b.page, 'away');
    await setPresence(d.page, 'away');
    expect([...b.errors, ...d.errors]).toEqual([]);
  });
});

describe('the console with the router in Chromium: timeouts and the dashboard', () => {
  withRuntime();

  it('a warm transfer nobody answers in time goes cold, and the console says so', async () => {
    const [dee, eve] = [await runtime.staff('agent', skills), await runtime.staff('agent', skills)];
    const d = await newPage();
    const e = await newPage();
    await signIn(d.page, runtime.base, dee);
    await signIn(e.page, runtime.base, eve);
    await setPresence(d.page, 'available');
    const c = await waitingCustomer();
    await d.page.locator(`li.offer[data-conversation="${c.id}"]`).getByRole('button', { name: 'Accept' }).click();
    await d.page
      .getByTestId('state')
      .filter({ hasText: /human active · you/ })
      .waitFor();
    // Dee answers first (the dashboard's time to a human counts it), then passes the conversation on.
    await d.page.getByLabel('Reply to the customer').fill('Hello, this is Dee. A colleague will take this over.');
    await d.page.getByRole('button', { name: 'Send reply' }).click();
    await c.waitFor((m) => m.from === 'human' && m.text.startsWith('Hello, this is Dee.'));
    await setPresence(e.page, 'available');
    await d.page.getByLabel('Warm (yours until accepted)').check();
    await d.page.getByLabel('A person').check();
    await d.page.getByLabel('Person to transfer to').selectOption(eve.id);
    await d.page.getByRole('button', { name: 'Offer warm transfer' }).click();
    await d.page.getByTestId('warm-pending').filter({ hasText: eve.email }).waitFor();
    await e.page.locator(`li.offer[data-conversation="${c.id}"]`).waitFor();
    // Eve says nothing; the runtime's clock passes the warm offer's 60 s and the router's sweep fires it.
    skew += 61_000;
    await runtime.runtime.router.sweep();
    const outcome = d.page.getByTestId('warm-outcome').filter({ hasText: eve.email });
    await outcome.waitFor();
    await expect(outcome.textContent()).resolves.toBe(`Warm transfer to ${eve.email}: not answered in time. It went cold to billing.`);
    await expect(d.page.getByTestId('warm-pending').count()).resolves.toBe(0);
    const kinds = notes((await staffRead(c.id, dee.token)).events).map((n) => n.kind);
    expect(kinds).toEqual(expect.arrayContaining(['timed_out', 'warm_failed']));
    expect([...d.errors, ...e.errors]).toEqual([]);
  });

  it('shows a supervisor the runtime metrics as charts over a chosen window, and an agent those of their own queues', async () => {
    const sam = await runtime.staff('supervisor');
    const { page, errors } = await newPage();
    await signIn(page, runtime.base, sam);
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    const handoffs = page.getByTestId('chart-handoff-rate').locator('[data-bar="customer request"]');
    await handoffs.waitFor();
    // The figures are the API's, over the same window.
    const api = (await json(runtime.base, '/v1/metrics', { token: sam.token })).body as {
      handoffRateByReason: Record<string, { rate: number }>;
      timeToHumanMs: { p50: number | null };
    };
    expect(Number(await handoffs.getAttribute('data-value'))).toBeCloseTo(api.handoffRateByReason['customer_request']!.rate, 6);
    expect(api.timeToHumanMs.p50).not.toBeNull();
    await expect(page.getByTestId('chart-time-to-human').locator('[data-bar="p50"]').getAttribute('data-value')).resolves.not.toBe('');
    for (const chart of ['rates', 'suppressed', 'wait-error', 'promises', 'queue-age']) await page.getByTestId(`chart-${chart}`).waitFor();
    await axe(page, 'dashboard');
    await shot(page, 'dashboard');
    // Another window: the console asks for it and redraws.
    const asked = page.waitForResponse((r) => r.url().includes('/v1/metrics?'));
    await page.getByLabel('Window').selectOption('week');
    const since = new URL((await asked).url()).searchParams.get('since')!;
    expect(Date.now() - Date.parse(since)).toBeGreaterThan(6.9 * 86_400_000);
    await page.getByTestId('dashboard-summary').waitFor();

    const agent = await runtime.staff('agent', skills);
    const a = await newPage();
    await signIn(a.page, runtime.base, agent);
    await a.page.goto(`${runtime.base}/console/#/dashboard`);
    // An agent sees the figures of the queues they work, said so on the page.
    await a.page.getByTestId('dashboard-scope').waitFor();
    await expect(a.page.getByTestId('dashboard-scope').textContent()).resolves.toMatch(/^Your queues only \(.*billing/);
    await a.page.getByTestId('chart-handoff-rate').waitFor();
    await axe(a.page, 'dashboard for an agent');
    expect([...errors, ...a.errors]).toEqual([]);
  });
});
