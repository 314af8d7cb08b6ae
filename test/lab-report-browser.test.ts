/**
 * The report in a real Chromium (from the @sparticuz/chromium package, driven by playwright-core;
 * no browser is downloaded): it opens from disk, the table and plots are visible, the dialogue
 * viewer's filters change what is shown, and a screenshot is not blank.
 */
import chromium from '@sparticuz/chromium';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inflateSync } from 'node:zlib';
import { chromium as playwright, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRun } from './support/lab-runs.js';
import { buildReport } from '../src/lab/report/index.js';

/** A PNG's width, height and the spread of its pixel values (8-bit RGB or RGBA, non-interlaced, as Chromium writes them). */
function pngStats(png: Buffer): { width: number; height: number; distinct: number; stddev: number } {
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const colorType = png[25];
  const channels = colorType === 6 ? 4 : colorType === 2 ? 3 : 0;
  expect(png[24]).toBe(8);
  expect(channels).toBeGreaterThan(0);
  const chunks: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.subarray(at + 4, at + 8).toString('latin1');
    if (type === 'IDAT') chunks.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(chunks));
  const stride = width * channels;
  const prev = Buffer.alloc(stride);
  const row = Buffer.alloc(stride);
  const colours = new Set<number>();
  let sum = 0;
  let sumSq = 0;
  let count = 0;
  for (let y = 0; y < height; y += 1) {
    const filter = raw[y * (stride + 1)] as number;
    for (let x = 0; x < stride; x += 1) {
      const cur = raw[y * (stride + 1) + 1 + x] as number;
      const a = x >= channels ? (row[x - channels] as number) : 0;
      const b = prev[x] as number;
      const c = x >= channels ? (prev[x - channels] as number) : 0;
      let v = cur;
      if (filter === 1) v = cur + a;
      else if (filter === 2) v = cur + b;
      else if (filter === 3) v = cur + Math.floor((a + b) / 2);
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        v = cur + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
      }
      row[x] = v & 0xff;
    }
    for (let x = 0; x < width; x += 1) {
      const r = row[x * channels] as number;
      const g = row[x * channels + 1] as number;
      const bl = row[x * channels + 2] as number;
      colours.add((r << 16) | (g << 8) | bl);
      const lum = (r + g + bl) / 3;
      sum += lum;
      sumSq += lum * lum;
      count += 1;
    }
    row.copy(prev);
  }
  const mean = sum / count;
  return { width, height, distinct: colours.size, stddev: Math.sqrt(Math.max(0, sumSq / count - mean * mean)) };
}

describe('the report in Chromium', () => {
  let browser: Browser;
  let url: string;
  let root: string;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'baton-report-browser-'));
    const dirs = [await makeRun(root, 'rule'), await makeRun(root, 'always-transfer'), await makeRun(root, 'never-transfer')];
    const file = join(root, 'report.html');
    writeFileSync(file, await buildReport(dirs, { baseline: 'never-transfer' }));
    url = pathToFileURL(file).href;
    browser = await playwright.launch({ executablePath: await chromium.executablePath(), args: chromium.args, headless: true });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('opens from disk with the table, the plots and a working dialogue viewer', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(url);

    // The table: a row per system, the first one the rule agent's.
    const table = page.locator('#comparison');
    await expect(table.isVisible()).resolves.toBe(true);
    const rows = table.locator('tbody tr');
    await expect(rows.count()).resolves.toBe(3);
    const first = await rows.first().locator('th, td').allTextContents();
    expect(first[0]).toBe('rule');
    expect(first[1]).toMatch(/^\d+\.\d% \[\d+\.\d%, \d+\.\d%\]$/);
    await expect(rows.nth(2).locator('th').textContent()).resolves.toBe('never-transfer (baseline)');

    // The plots: four SVGs, each laid out with a real size and marks drawn.
    for (const id of ['plot-style', 'plot-outcomes', 'plot-recall', 'plot-timing']) {
      const svg = page.locator(`#${id} svg`).last();
      await expect(svg.isVisible()).resolves.toBe(true);
      const box = await svg.boundingBox();
      expect(box?.width, id).toBeGreaterThan(300);
      expect(box?.height, id).toBeGreaterThan(80);
      await expect(page.locator(`#${id} svg`).last().locator('circle, rect').count()).resolves.toBeGreaterThan(0);
    }

    // The viewer: filters change the episodes shown.
    const count = page.locator('#episode-count');
    const total = Number(/of (\d+) episodes/.exec((await count.textContent()) ?? '')?.[1]);
    expect(total).toBeGreaterThan(30);
    await expect(count.textContent()).resolves.toMatch(new RegExp(`^${total} of ${total} episodes match`));
    await page.selectOption('#f-system', { label: 'always-transfer' });
    const systemsShown = await page
      .locator('#episode-list details.episode')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-system')));
    expect(systemsShown.length).toBeGreaterThan(0);
    expect(new Set(systemsShown)).toEqual(new Set(['always-transfer']));
    const perSystem = Number(/^(\d+) of/.exec((await count.textContent()) ?? '')?.[1]);
    expect(perSystem).toBe(total / 3);
    await page.selectOption('#f-label', 'should-not');
    await page.selectOption('#f-handoff', 'fp');
    const overEscalated = Number(/^(\d+) of/.exec((await count.textContent()) ?? '')?.[1]);
    expect(overEscalated).toBeGreaterThan(0);
    expect(overEscalated).toBeLessThan(perSystem);
    await page.selectOption('#f-handoff', 'tn');
    await expect(count.textContent()).resolves.toMatch(/^0 of/);
    await page.selectOption('#f-handoff', 'fp');

    // Opening an episode shows its dialogue with the hand-off outlined and the packet beside it.
    const episode = page.locator('#episode-list details.episode').first();
    await episode.locator('summary').click();
    await episode.locator('.msg.user').first().waitFor({ state: 'visible' }); // the dialogue is built on the toggle event
    await expect(episode.locator('.msg.user').count()).resolves.toBeGreaterThan(0);
    const handoff = episode.locator('.msg.handoff');
    await expect(handoff.count()).resolves.toBe(1);
    await expect(handoff.locator('aside.packet').isVisible()).resolves.toBe(true);
    await expect(handoff.locator('aside.packet [data-testid="packet"] dt').first().textContent()).resolves.toBe('Customer');
    const outline = await handoff
      .locator('.bubble')
      .evaluate(
        (e) => (globalThis as unknown as { getComputedStyle: (el: unknown) => { outlineStyle: string } }).getComputedStyle(e).outlineStyle,
      );
    expect(outline).toBe('solid');

    // A screenshot: the right size, not blank, the table's first row on it.
    await page.locator('#comparison').scrollIntoViewIfNeeded();
    const shot = await page.screenshot({ fullPage: false });
    writeFileSync(join(root, 'report.png'), shot);
    const stats = pngStats(shot);
    expect(stats.width).toBe(1280);
    expect(stats.height).toBe(900);
    expect(stats.distinct).toBeGreaterThan(20);
    expect(stats.stddev).toBeGreaterThan(5);
    const rowBox = await rows.first().boundingBox();
    expect(rowBox && rowBox.y >= 0 && rowBox.y + rowBox.height <= 900).toBe(true);
    const rowShot = pngStats(await rows.first().screenshot());
    expect(rowShot.distinct).toBeGreaterThan(2);

    expect(errors).toEqual([]);
    expect(requests.every((u) => u.startsWith('file://'))).toBe(true);
    await page.close();
  });
});
