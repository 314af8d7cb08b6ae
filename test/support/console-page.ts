/**
 * Helpers of the console's browser tests: a real Chromium (@sparticuz/chromium driven by
 * playwright-core), one browser per person (this build runs as one process whose contexts share
 * a cookie jar), axe-core on the page, screenshots into docs/console/, and a customer over HTTP.
 */
import chromium from '@sparticuz/chromium';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium as playwright, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { json } from './http-json.js';

export { json };

export const ROOT = join(import.meta.dirname, '..', '..');
/**
 * Where the screenshots go: docs/console/ when BATON_SCREENSHOTS=docs (to refresh the docs'
 * pictures), otherwise a folder of their own under the system's temp directory, so that a test
 * run leaves the checkout as it found it.
 */
export const SHOTS = process.env['BATON_SCREENSHOTS'] === 'docs' ? join(ROOT, 'docs', 'console') : join(tmpdir(), 'baton-console-shots');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Browsers opened, to close after the tests. */
export const browsers: Browser[] = [];

/** A page in a browser of its own at a viewport, recording page errors and every URL requested. */
export async function newPage(width = 1280, height = 800) {
  const browser = await playwright.launch({ executablePath: await chromium.executablePath(), args: chromium.args, headless: true });
  browsers.push(browser);
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/status of 4\d\d/.test(m.text())) errors.push(m.text());
  });
  return { context, page, errors, requests };
}

/** No serious or critical accessibility violation on the screen as it is. */
export async function axe(page: Page, screen: string) {
  // Evaluated by the browser's debugger, which the page's CSP does not govern; the page itself loads nothing inline.
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const result = await (
      globalThis as unknown as {
        axe: { run: () => Promise<{ violations: Array<{ id: string; impact: string | null; nodes: unknown[] }> }> };
      }
    ).axe.run();
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
  });
  expect(
    violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'),
    screen,
  ).toEqual([]);
}

export async function shot(page: Page, name: string) {
  writeFileSync(join(SHOTS, `${name}.png`), await page.screenshot({ fullPage: false }));
}

export async function signIn(page: Page, base: string, who: { email: string; password: string }) {
  await page.goto(`${base}/console/`);
  await page.getByLabel('E-mail address').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Waiting for a person' }).waitFor();
  await page.getByTestId('connection').filter({ hasText: 'Live' }).waitFor();
}

/** A customer over HTTP: opens a conversation and writes, and reads what they are sent by cursor. */
export async function customer(base: string) {
  const opened = await json(base, '/v1/conversations', { method: 'POST' });
  expect(opened.status).toBe(201);
  const id = (opened.body['conversation'] as { id: string }).id;
  const token = opened.body['customerToken'] as string;
  let turn = 0;
  let cursor = '0';
  const seen: Array<{ from: string; text: string }> = [];
  return {
    id,
    seen,
    async say(text: string) {
      turn += 1;
      const posted = await json(base, `/v1/conversations/${id}/messages`, { body: { text }, token, key: `k-${turn}` });
      expect(posted.status).toBe(201);
    },
    /** Reads (long-polling) until a message matches. */
    async waitFor(match: (m: { from: string; text: string }) => boolean) {
      while (!seen.some(match)) {
        const page = await json(base, `/v1/conversations/${id}/messages?after=${cursor}&waitMs=10000`, { token });
        expect(page.status).toBe(200);
        cursor = page.body['cursor'] as string;
        seen.push(...(page.body['messages'] as Array<{ from: string; text: string }>));
      }
      return seen.find(match)!;
    },
    /** Everything the customer has been sent so far (read to the end now). */
    async all() {
      for (;;) {
        const page = await json(base, `/v1/conversations/${id}/messages?after=${cursor}`, { token });
        expect(page.status).toBe(200);
        const got = page.body['messages'] as Array<{ from: string; text: string }>;
        cursor = page.body['cursor'] as string;
        if (got.length === 0) return seen;
        seen.push(...got);
      }
    },
  };
}
