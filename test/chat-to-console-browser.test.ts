/**
 * Issue 15's end-to-end flow with both ends in a real Chromium against one real runtime: a
 * customer on the web chat page asks for a person with the "Talk to a person" button; the offer
 * appears live in the console of the person on shift; they accept and the packet is on screen
 * without scrolling at 1280×800; their reply shows on the customer's page; they hand back with a
 * note and a constraint; the agent answers the customer's next message, and the constraint
 * refuses the blocked refund.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationId } from '../src/core/index.js';
import { axe, browsers, json, newPage, ROOT, signIn } from './support/console-page.js';
import { agentScript, CHARGE } from './support/refund-script.js';
import { startTestRuntime, type TestRuntime } from './support/runtime-server.js';

let runtime: TestRuntime;

beforeAll(async () => {
  // The console and the chat as `npm run build` makes them (rebuilt only when their sources changed).
  for (const script of ['build-console.mjs', 'build-chat.mjs'])
    execFileSync(process.execPath, [join(ROOT, 'scripts', script)], { stdio: ['ignore', 'inherit', 'inherit'] });
  runtime = await startTestRuntime('sqlite', { policy: () => agentScript() });
}, 180_000);

afterAll(async () => {
  for (const b of browsers.splice(0)) await b.close().catch(() => {});
  await runtime?.close();
});

/** The chat's messages from one side, as the customer's page shows them (sent, not pending). */
const chatMessages = (page: Page, from: string) => page.locator(`.log li.message[data-from="${from}"]:not(.pending)`);

async function chatSay(page: Page, text: string) {
  await page.getByLabel('Your message').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

describe('from the web chat to the console and back', () => {
  it('a customer asks for a person in the chat; the person on shift accepts, replies and hands back; the constraint holds', async () => {
    const skills = [...new Set(runtime.runtime.domain.queues.flatMap((q) => q.skills))];
    const ana = await runtime.staff('agent', skills);
    const staff = await newPage();
    await signIn(staff.page, runtime.base, ana);
    const available = staff.page.waitForResponse((r) => r.url().endsWith('/v1/staff/me/presence') && r.request().method() === 'PUT');
    await staff.page.getByLabel('Presence').selectOption('available');
    expect((await available).status()).toBe(200);

    // The customer writes in the web chat, then asks for a person with the button.
    const chat = await newPage(390, 800);
    await chat.page.goto(`${runtime.base}/chat`);
    await chatSay(chat.page, 'Hello, my bill looks wrong.');
    await chatMessages(chat.page, 'agent').first().waitFor();
    await chat.page.getByRole('button', { name: 'Talk to a person' }).click();
    await chatMessages(chat.page, 'system').first().waitFor();
    const session = await chat.page.evaluate(() =>
      (globalThis as unknown as { sessionStorage: { getItem(key: string): string | null } }).sessionStorage.getItem('baton.chat.session'),
    );
    const id = (JSON.parse(session!) as { conversationId: ConversationId }).conversationId;
    expect((await runtime.store.getConversation(id))?.state).toBe('QUEUED');

    // The offer appears live in Ana's console; she accepts, and the packet is on screen without scrolling.
    const offer = staff.page.locator(`li.offer[data-conversation="${id}"]`);
    await offer.waitFor();
    await offer.getByRole('button', { name: 'Accept' }).click();
    await staff.page.getByTestId('packet').waitFor();
    for (const part of ['packet-customer', 'packet-intent', 'packet-reason', 'packet-next']) {
      const box = await staff.page.getByTestId(part).boundingBox();
      expect(box, part).not.toBeNull();
      expect(box!.y + box!.height, part).toBeLessThanOrEqual(800);
    }
    await axe(staff.page, 'accepted from the chat');

    // Her reply reaches the customer's page.
    await staff.page.getByLabel('Reply to the customer').fill('Hello, this is Ana from billing. I have your conversation here.');
    await staff.page.getByRole('button', { name: 'Send reply' }).click();
    await chatMessages(chat.page, 'human').filter({ hasText: 'Hello, this is Ana from billing.' }).waitFor();

    // She hands back with a note and a constraint: no refund of that charge.
    await staff.page.getByLabel('Note for the agent').fill('Checked with the customer; no refund on this charge.');
    await staff.page.getByRole('button', { name: 'Add a constraint' }).click();
    await staff.page.getByLabel('Tool the agent may not call').fill('refund_charge');
    await staff.page.getByLabel('Only when argument').fill('charge_id');
    await staff.page.getByLabel('equals').fill(CHARGE);
    await staff.page.getByLabel('Why (the agent tells the customer this)').fill(`no refund on ${CHARGE}: it was settled by phone`);
    await staff.page.getByRole('button', { name: 'Hand back' }).click();
    await staff.page.getByTestId('state').filter({ hasText: 'agent active' }).waitFor();

    // The agent answers the customer's next message in the chat; the blocked refund is refused.
    const agentSaid = await chatMessages(chat.page, 'agent').count();
    await chatSay(chat.page, `Please refund the duplicate charge ${CHARGE}.`);
    await chatMessages(chat.page, 'agent').nth(agentSaid).filter({ hasText: 'Shall I go ahead?' }).waitFor();
    await chatSay(chat.page, 'Yes, go ahead.');
    await chatMessages(chat.page, 'agent').filter({ hasText: 'settled by phone' }).waitFor();
    const read = await json(runtime.base, `/v1/conversations/${id}?limit=500`, { token: ana.token });
    const calls = (read.body['events'] as Array<{ type: string; data: { name?: string; ok?: boolean; refused?: string } }>).filter(
      (e) => e.type === 'tool.called' && e.data.name === 'refund_charge',
    );
    expect(calls.map((c) => c.data)).toEqual([expect.objectContaining({ ok: false, refused: 'constraint' })]);
    expect([...staff.errors, ...chat.errors].filter((e) => !/WebSocket/.test(e))).toEqual([]);
  });
});
