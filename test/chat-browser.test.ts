/**
 * The web chat in a real Chromium (@sparticuz/chromium driven by playwright-core) against a real
 * runtime (the composed `baton serve` app on SQLite, the billing domain's rule agent and decider):
 * the customer chats with the agent on the hosted page; a message sent while the network is cut
 * (the socket closed, the POST's answer lost after the server stored it, then refused outright)
 * is delivered once after the reconnect, every try with the same idempotency key; "Talk to a
 * person" hands off (the conversation QUEUED, the notice shown); with WebSockets blocked the chat
 * reads by long-poll; the widget's one script tag embeds the chat on a page of another origin
 * that has a strict CSP of its own. axe-core finds no serious or critical violation.
 */
import chromium from '@sparticuz/chromium';
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium as playwright, type Browser, type Page, type WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationId } from '../src/core/index.js';
import { axe } from './support/console-page.js';
import { startTestRuntime, type TestRuntime } from './support/runtime-server.js';

const ROOT = join(import.meta.dirname, '..');

let runtime: TestRuntime;
const browsers: Browser[] = [];
let hostPage: Server;
let hostOrigin: string;

beforeAll(async () => {
  // The chat as `npm run build` makes it (rebuilt only when its sources changed).
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-chat.mjs')], { stdio: ['ignore', 'inherit', 'inherit'] });
  // A shop's page on another origin (another host name and port), with a strict CSP of its own:
  // it allows Baton's script and frame, and nothing inline.
  let batonOrigin = '';
  hostPage = createServer((request, response) => {
    if (request.url !== '/') return void response.writeHead(404).end();
    response.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': `default-src 'none'; script-src ${batonOrigin}; frame-src ${batonOrigin}; style-src 'none'`,
    });
    response.end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A shop</title></head>` +
        `<body><main><h1>A shop</h1><p>Our products.</p></main>` +
        `<script src="${batonOrigin}/chat/widget.js" async></script></body></html>`,
    );
  });
  await new Promise<void>((resolve) => hostPage.listen(0, '127.0.0.1', resolve));
  hostOrigin = `http://localhost:${(hostPage.address() as AddressInfo).port}`;
  runtime = await startTestRuntime('sqlite', { config: { chat: { embedOrigins: [hostOrigin] } } });
  batonOrigin = runtime.base;
}, 180_000);

afterAll(async () => {
  for (const b of browsers) await b.close().catch(() => {});
  await runtime?.close();
  await new Promise((resolve) => hostPage?.close(resolve));
});

/**
 * A fresh tab (its own sessionStorage) in a browser of its own, recording page errors. (This
 * Chromium build runs as one process: closing a context would close the browser.)
 */
async function newPage(width = 1280, height = 800) {
  const browser = await playwright.launch({ executablePath: await chromium.executablePath(), args: chromium.args, headless: true });
  browsers.push(browser);
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, errors };
}

/** The conversation this tab opened, from its sessionStorage. */
async function conversationOf(page: Page): Promise<ConversationId> {
  const raw = await page.evaluate(() =>
    (globalThis as unknown as { sessionStorage: { getItem(key: string): string | null } }).sessionStorage.getItem('baton.chat.session'),
  );
  expect(raw).not.toBeNull();
  return (JSON.parse(raw!) as { conversationId: ConversationId }).conversationId;
}

/** The customer messages with this text that the store holds for the conversation. */
async function stored(id: ConversationId, text: string) {
  const events = await runtime.store.listEvents(id);
  return events.flatMap((e) => (e.type === 'message.received' && e.data.message.text === text ? [e.data.message] : []));
}

const messages = (page: Page, from: string) => page.locator(`.log li.message[data-from="${from}"]:not(.pending)`);

async function say(page: Page, text: string) {
  await page.getByLabel('Your message').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

describe('the web chat in Chromium', () => {
  it('lets the customer chat with the agent on the hosted page, live over the socket, under a strict CSP', async () => {
    const { page, errors } = await newPage(390, 800);
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    const response = await page.goto(`${runtime.base}/chat`);
    const csp = response?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    await expect(page.getByRole('button', { name: 'Talk to a person' }).isVisible()).resolves.toBe(true);
    await axe(page, 'empty chat');

    await say(page, 'Hello, I have a question about my bill.');
    await messages(page, 'agent').first().waitFor();
    await page
      .getByTestId('link')
      .filter({ hasText: /^Connected$/ })
      .waitFor();
    await expect(messages(page, 'customer').allTextContents()).resolves.toEqual([
      expect.stringContaining('Hello, I have a question about my bill.'),
    ]);
    const id = await conversationOf(page);
    expect(await stored(id, 'Hello, I have a question about my bill.')).toHaveLength(1);
    // The button stays on screen however long the conversation gets.
    const button = await page.getByRole('button', { name: 'Talk to a person' }).boundingBox();
    expect(button).not.toBeNull();
    expect(button!.y).toBeGreaterThanOrEqual(0);
    expect(button!.y + button!.height).toBeLessThanOrEqual(800);
    await axe(page, 'chat with replies');
    // Nothing from anywhere but the server (no CDN).
    expect(requests.filter((url) => !url.startsWith(runtime.base))).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('delivers a message sent during a network cut once after the reconnect, every try with the same key', async () => {
    const { page, errors } = await newPage();
    let cut = false;
    const sockets: WebSocketRoute[] = [];
    await page.routeWebSocket(/\/stream/, (ws) => {
      if (cut) return void ws.close();
      ws.connectToServer();
      sockets.push(ws);
    });
    const keys: string[] = [];
    let tries = 0;
    let triedTwice: () => void = () => {};
    const secondTry = new Promise<void>((resolve) => (triedTwice = resolve));
    await page.route(/\/v1\/conversations\/[^/]+\/messages/, async (route) => {
      const request = route.request();
      if (!cut) return route.continue();
      if (request.method() !== 'POST') return route.abort('internetdisconnected');
      keys.push(request.headers()['idempotency-key'] ?? '(none)');
      tries += 1;
      // The first try reaches the server, which stores it; its answer is lost on the way back.
      if (tries === 1) await route.fetch();
      await route.abort('internetdisconnected');
      if (tries === 2) triedTwice();
    });
    await page.goto(`${runtime.base}/chat/`);
    await say(page, 'Hello, I have a question about my bill.');
    await messages(page, 'agent').first().waitFor();
    const id = await conversationOf(page);

    cut = true;
    for (const ws of sockets.splice(0)) await ws.close();
    await say(page, 'Sent while the network was cut.');
    await secondTry;
    await page.locator('.log li.pending[data-status="waiting"]').filter({ hasText: 'Sent while the network was cut.' }).waitFor();
    // The server has it once already (the first try); the page does not know.
    expect(await stored(id, 'Sent while the network was cut.')).toHaveLength(1);

    cut = false;
    await messages(page, 'customer').filter({ hasText: 'Sent while the network was cut.' }).waitFor();
    await page.locator('.log li.pending').waitFor({ state: 'detached' });
    const all = keys.concat();
    expect(all.length).toBeGreaterThanOrEqual(2);
    expect(new Set(all).size).toBe(1);
    const once = await stored(id, 'Sent while the network was cut.');
    expect(once).toHaveLength(1);
    expect(once[0]!.idempotencyKey).toBe(all[0]);
    await expect(messages(page, 'customer').filter({ hasText: 'Sent while the network was cut.' }).count()).resolves.toBe(1);
    // The agent's answer to it arrives too, once.
    const events = await runtime.store.listEvents(id);
    const sent = events.filter((e) => e.type === 'message.sent').length;
    await expect.poll(() => messages(page, 'agent').count()).toBe(sent);
    expect(errors).toEqual([]);
  });

  it('"Talk to a person" hands the conversation to a person: QUEUED, and the notice shown', async () => {
    const { page, errors } = await newPage();
    await page.goto(`${runtime.base}/chat/`);
    await page.getByRole('button', { name: 'Talk to a person' }).click();
    const notice = messages(page, 'system').first();
    await notice.waitFor();
    const id = await conversationOf(page);
    const conversation = await runtime.store.getConversation(id);
    expect(conversation?.state).toBe('QUEUED');
    const events = await runtime.store.listEvents(id);
    expect(events.find((e) => e.type === 'handoff.requested')).toMatchObject({ data: { reason: 'customer_request' } });
    const told = events.flatMap((e) => (e.type === 'message.sent' && e.data.message.sender.type === 'system' ? [e.data.message.text] : []));
    await expect(notice.locator('.text').textContent()).resolves.toBe(told[0]);
    await axe(page, 'waiting for a person');
    expect(errors).toEqual([]);
  });

  it('reads by long-poll when WebSockets are blocked', async () => {
    const { page, errors } = await newPage();
    let socketTries = 0;
    // A proxy that takes the upgrade and drops it: the server's `ready` never arrives.
    await page.routeWebSocket(/\/stream/, (ws) => {
      socketTries += 1;
      void ws.close();
    });
    await page.goto(`${runtime.base}/chat/`);
    await say(page, 'Hello, I have a question about my bill.');
    await messages(page, 'agent').first().waitFor();
    await page.getByTestId('link').filter({ hasText: 'slow mode' }).waitFor();
    await say(page, 'And another one.');
    await messages(page, 'customer').filter({ hasText: 'And another one.' }).waitFor();
    await expect.poll(() => messages(page, 'agent').count()).toBe(2);
    expect(socketTries).toBeGreaterThanOrEqual(2);
    expect(errors).toEqual([]);
  });

  it("embeds with one script tag on another origin's page with a strict CSP", async () => {
    const { page, errors } = await newPage();
    await page.goto(`${hostOrigin}/`);
    const launcher = page.getByRole('button', { name: 'Chat with us' });
    await launcher.click();
    await expect(launcher.getAttribute('aria-expanded')).resolves.toBe('true');
    const frame = page.frameLocator('iframe[title="Chat with us"]');
    await frame.getByLabel('Your message').fill('Hello from the shop.');
    await frame.getByRole('button', { name: 'Send' }).click();
    await frame.locator('.log li.message[data-from="agent"]').first().waitFor();
    await expect(frame.getByRole('button', { name: 'Talk to a person' }).isVisible()).resolves.toBe(true);
    await axe(page, 'shop page with the widget open');
    // The frame is the only way in: the hosted page may not be framed, the embed page only by the allowed origins.
    const embed = await fetch(`${runtime.base}/chat/embed`);
    expect(embed.headers.get('content-security-policy')).toContain(`frame-ancestors 'self' ${hostOrigin}`);
    expect(errors).toEqual([]);
  });
});
