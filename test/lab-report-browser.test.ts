/**
 * The report in a real Chromium (from the @sparticuz/chromium package, driven by playwright-core;
 * no browser is downloaded): it opens from disk, the table and plots are visible, the dialogue
 * viewer's filters change what is shown, and a screenshot is not blank. Then the parts a
 * researcher reads: every metric with its definition on hover, the best system highlighted, why
 * each failed episode failed, sorting and filtering by failure reason, a link that opens one
 * episode, the packet laid out as the console shows it, tags on the messages they belong to, and
 * plots whose marks all fall inside them (also with long system names).
 */
import chromium from '@sparticuz/chromium';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inflateSync } from 'node:zlib';
import { chromium as playwright, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axe } from './support/console-page.js';
import { makeRun } from './support/lab-runs.js';
import { buildReport } from '../src/lab/report/index.js';
import type { EpisodeRecord } from '../src/lab/records.js';

type Metrics = { metrics: Record<string, unknown> & { success: { value: number | null } } };
const readMetrics = (dir: string) => JSON.parse(readFileSync(join(dir, 'metrics.json'), 'utf8')) as Metrics;
const readRecords = (dir: string) =>
  readFileSync(join(dir, 'trajectories.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as EpisodeRecord);

/** Paths of every figure (an object with a `value`) under a metrics object's `metrics`, except the per-kind rates (their own table). */
function figurePaths(node: unknown, path: string[] = []): string[] {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return [];
  if ('value' in node) return [path.join('.')];
  if (path[path.length - 1] === 'by_kind') return [];
  return Object.entries(node).flatMap(([k, v]) => figurePaths(v, [...path, k]));
}

/** The episode count the viewer says match. */
async function matching(page: Page): Promise<number> {
  return Number(/^(\d+) of/.exec((await page.locator('#episode-count').textContent()) ?? '')?.[1]);
}

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
  let context: BrowserContext;
  let url: string;
  let twinUrl: string;
  let root: string;
  let dirs: string[];
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'baton-report-browser-'));
    dirs = [await makeRun(root, 'rule'), await makeRun(root, 'always-transfer'), await makeRun(root, 'never-transfer')];
    const file = join(root, 'report.html');
    writeFileSync(file, await buildReport(dirs, { baseline: 'never-transfer' }));
    url = pathToFileURL(file).href;
    // The same run twice, one in a folder with a long name: two systems named after their folders, tied on every figure.
    const twin = join(root, 'rule-again-with-a-much-longer-configuration-name-for-the-plots');
    cpSync(dirs[0] as string, twin, { recursive: true });
    const twinFile = join(root, 'twin.html');
    writeFileSync(twinFile, await buildReport([dirs[0] as string, twin]));
    twinUrl = pathToFileURL(twinFile).href;
    browser = await playwright.launch({ executablePath: await chromium.executablePath(), args: chromium.args, headless: true });
    // The browser runs as one process (chromium.args) and ends with its first context: every page opens in this one.
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('opens from disk with the table, the plots and a working dialogue viewer', async () => {
    const page = await context.newPage();
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
    expect(first[0]).toBe('rule ★ best');
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

  it('shows every metric of metrics.json with its interval, its definition on hover, and the best system highlighted', async () => {
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(url);
    await axe(page, 'the report');
    const shown = await page.locator('#metrics tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-metric')));
    for (const dir of dirs) {
      for (const path of figurePaths(readMetrics(dir).metrics)) expect(shown, path).toContain(path);
    }
    expect(shown).toContain('handoff.timing.median_lateness');
    // A rate is shown with its interval and n.
    const recallRow = page.locator('#metrics tr[data-metric="handoff.recall"]');
    const recallCells = await recallRow.locator('td').allTextContents();
    expect(recallCells).toHaveLength(3);
    for (const cell of recallCells) expect(cell).toMatch(/^\d+\.\d% \[\d+\.\d%, \d+\.\d%\] \(n=\d+\)/);
    // The definition appears on hover (and not before), and on keyboard focus.
    const term = recallRow.locator('th .term');
    const definition = term.locator('.def');
    await expect(definition.isVisible()).resolves.toBe(false);
    await term.hover();
    await expect(definition.isVisible()).resolves.toBe(true);
    await expect(definition.textContent()).resolves.toMatch(/^TP \/ \(TP \+ FN\)/);
    // Screen readers get it as the name's description.
    await expect(term.getAttribute('aria-describedby')).resolves.toBe(await definition.getAttribute('id'));
    await page.mouse.move(0, 0);
    await expect(definition.isVisible()).resolves.toBe(false);
    await page.locator('#metrics tr[data-metric="handoff.over_escalation"] th .term').focus();
    await expect(page.locator('#metrics tr[data-metric="handoff.over_escalation"] .def').isVisible()).resolves.toBe(true);
    // The comparison table's columns carry definitions too.
    await expect(page.locator('#comparison thead .term .def').count()).resolves.toBeGreaterThanOrEqual(6);

    // The best system: the highest success of the three runs, its row highlighted; the baseline's is not.
    const successes = dirs.map((d) => readMetrics(d).metrics.success.value ?? -1);
    const bestIndex = successes.indexOf(Math.max(...successes));
    const systems = ['rule', 'always-transfer', 'never-transfer'];
    const bestRows = page.locator('#comparison tbody tr.best');
    await expect(bestRows.count()).resolves.toBe(1);
    await expect(bestRows.getAttribute('data-system')).resolves.toBe(systems[bestIndex]);
    await expect(bestRows.locator('.best-tag').textContent()).resolves.toContain('best');
    await expect(page.locator('#best-system').textContent()).resolves.toContain(systems[bestIndex]);
    const background = (system: string) =>
      page
        .locator(`#comparison tbody tr[data-system="${system}"] td`)
        .first()
        .evaluate(
          (e) =>
            (globalThis as unknown as { getComputedStyle: (el: unknown) => { backgroundColor: string } }).getComputedStyle(e)
              .backgroundColor,
        );
    const plain = await background('always-transfer');
    expect(await background(systems[bestIndex] as string)).not.toBe(plain);
    expect(await background('never-transfer')).toBe(plain);
    // In the metrics table, the best value of a figure where systems differ is marked: the lowest over-escalation is never always-transfer's.
    const overCells = page.locator('#metrics tr[data-metric="handoff.over_escalation"] td');
    await expect(overCells.nth(1).getAttribute('class')).resolves.not.toBe('best');
    await expect(page.locator('#metrics tr[data-metric="success"] td').nth(bestIndex).getAttribute('class')).resolves.toBe('best');
    await page.close();

    // Two runs tied on every figure: no best is claimed.
    const twin = await context.newPage();
    twin.setDefaultTimeout(15_000);
    await twin.goto(twinUrl);
    await expect(twin.locator('#comparison tbody tr').count()).resolves.toBe(2);
    await expect(twin.locator('#comparison tbody tr.best').count()).resolves.toBe(0);
    await expect(twin.locator('#best-system').count()).resolves.toBe(0);
    await twin.close();
  });

  it('says why each failed episode failed, and sorts and filters the dialogues by failure reason', async () => {
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(url);
    const records = dirs.flatMap((d, s) => readRecords(d).map((r) => ({ s, r })));
    const failed = records.filter(({ r }) => r.evaluation.success === false);
    expect(failed.length).toBeGreaterThan(10);

    // Failures first by default: the first page is failures, each with its reason beside it.
    const list = page.locator('#episode-list details.episode');
    await expect(list.count()).resolves.toBe(40);
    const firstPage = await list.evaluateAll((els) =>
      els.map((e) => ({
        key: e.getAttribute('data-key'),
        system: e.getAttribute('data-system'),
        why: e.querySelector('.why')?.textContent ?? null,
      })),
    );
    expect(firstPage.every((e) => e.why !== null && e.why.length > 10)).toBe(true);

    // The reasons are the evaluator's verdict in words: for a wrong hand-off, its HANDOFF check's own sentence.
    const systems = ['rule', 'always-transfer', 'never-transfer'];
    let handoffReasons = 0;
    for (const [i, shown] of firstPage.slice(0, 8).entries()) {
      const found = records.find(({ s, r }) => r.key === shown.key && systems[s] === shown.system);
      const evaluation = found?.r.evaluation;
      expect(evaluation?.success, shown.key ?? '').toBe(false);
      const episode = list.nth(i);
      await episode.locator('summary').click();
      await episode.locator('.reasons li').first().waitFor({ state: 'visible' });
      await expect(episode.locator('.reasons b').textContent()).resolves.toContain('Why it failed');
      const said = await episode.locator('.reasons li').allTextContents();
      expect(said[0]).toBe(shown.why?.replace(/ \(\+\d+ more\)$/, ''));
      if (evaluation?.handoffCheck?.reward === 0) {
        expect(said).toContain(evaluation.handoffCheck.why);
        handoffReasons += 1;
      }
      if (evaluation?.communicate?.reward === 0 && evaluation.rewardBasis.includes('COMMUNICATE')) {
        expect(said.some((t) => t.startsWith('never told the customer'))).toBe(true);
      }
    }
    expect(handoffReasons).toBeGreaterThan(0);

    // Filter by reason: exactly the failures whose HANDOFF check failed.
    const options = await page.locator('#f-reason option').allTextContents();
    expect(options).toContain('hand-off wrong');
    await page.selectOption('#f-reason', 'handoff');
    const expectedHandoff = failed.filter(
      ({ r }) => r.evaluation.rewardBasis.includes('HANDOFF') && r.evaluation.handoffCheck?.reward === 0,
    );
    expect(expectedHandoff.length).toBeGreaterThan(0);
    await expect(matching(page)).resolves.toBe(expectedHandoff.length);
    const reasons = await list.evaluateAll((els) => els.map((e) => e.getAttribute('data-reasons') ?? ''));
    expect(reasons.length).toBe(Math.min(40, expectedHandoff.length));
    expect(reasons.every((r) => r.split(' ').includes('handoff'))).toBe(true);
    await page.selectOption('#f-reason', 'any');
    await expect(matching(page)).resolves.toBe(records.filter(({ r }) => r.evaluation.success !== true).length);
    await page.selectOption('#f-reason', '');
    await page.selectOption('#f-outcome', 'success');
    await expect(list.locator('.why').count()).resolves.toBe(0);
    await page.selectOption('#f-outcome', '');

    // Sorting: by task key, by failure reason (failures grouped by reason, successes last), as recorded.
    await page.selectOption('#sort', 'key');
    const keys = await list.evaluateAll((els) => els.map((e) => e.getAttribute('data-key') ?? ''));
    expect(keys).toEqual([...keys].sort());
    await page.selectOption('#sort', 'reason');
    await page.click('#show-more');
    await page.click('#show-more');
    await page.click('#show-more');
    const byReason = await list.evaluateAll((els) => els.map((e) => e.querySelector('.why')?.textContent ?? null));
    const lastFailure = byReason.map((w) => w !== null).lastIndexOf(true);
    expect(byReason.slice(0, lastFailure + 1).every((w) => w !== null)).toBe(true);
    expect(byReason.slice(lastFailure + 1).every((w) => w === null)).toBe(true);
    await page.selectOption('#sort', 'recorded');
    await expect(list.first().getAttribute('data-key')).resolves.toBe(records[0]?.r.key);
    await expect(list.first().getAttribute('data-system')).resolves.toBe('rule');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('opens the episode an address names, clearing the filters that hide it', async () => {
    const last = readRecords(dirs[2] as string).at(-1) as EpisodeRecord;
    const anchor = `ep-2-${last.key}`;
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${url}#${encodeURIComponent(anchor)}`);
    const episode = page.locator(`details.episode[data-system="never-transfer"][data-key="${last.key}"]`);
    await episode.locator('.msg').first().waitFor({ state: 'visible' });
    await expect(episode.evaluate((e) => (e as unknown as { open: boolean }).open)).resolves.toBe(true);
    await expect(episode.getAttribute('id')).resolves.toBe(anchor);
    const box = await episode.boundingBox();
    expect(box, JSON.stringify(box)).not.toBeNull();
    expect(box?.y, JSON.stringify(box)).toBeGreaterThan(-1);
    expect(box?.y, JSON.stringify(box)).toBeLessThan(900);
    // Its ¶ link, beside its summary, is the address itself.
    await expect(episode.locator('xpath=preceding-sibling::a[@class="permalink"]').getAttribute('href')).resolves.toBe(
      `#${encodeURIComponent(anchor)}`,
    );

    // A link followed while a filter hides the episode: the filter is cleared and the episode opened.
    const other = readRecords(dirs[1] as string)[3] as EpisodeRecord;
    await page.selectOption('#f-system', { label: 'rule' });
    await page.evaluate(
      (hash) => {
        (globalThis as unknown as { location: { hash: string } }).location.hash = hash;
      },
      encodeURIComponent(`ep-1-${other.key}`),
    );
    const opened = page.locator(`details.episode[data-system="always-transfer"][data-key="${other.key}"]`);
    await opened.locator('.msg').first().waitFor({ state: 'visible' });
    await expect(page.locator('#f-system').inputValue()).resolves.toBe('');
    await page.close();
  });

  it('shows the packet as the console does, tags on the messages they belong to, and no simulator marker as the customer', async () => {
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(url);
    const rule = readRecords(dirs[0] as string);
    const withPacket = rule.find((r) => r.packet !== null && ((r.packet['facts'] as unknown[]) ?? []).length > 0) as EpisodeRecord;
    await page.goto(`${url}#${encodeURIComponent(`ep-0-${withPacket.key}`)}`);
    const episode = page.locator(`details.episode[data-system="rule"][data-key="${withPacket.key}"]`);
    const packet = episode.locator('aside.packet [data-testid="packet"]');
    await packet.waitFor({ state: 'visible' });
    const terms = await packet.locator('dl.essentials dt').allTextContents();
    const summary = (withPacket.packet as { summary: unknown }).summary;
    expect(terms).toEqual([
      'Customer',
      'Wants',
      'Why the agent stopped',
      'Suggested next step',
      ...(summary ? ['Summary, written by the model (not checked)'] : []),
    ]);
    const headings = await packet.locator('h4').allTextContents();
    expect(headings[0]).toBe('What was done');
    expect(headings.at(-1)).toBe('Facts, with their sources');
    const p = withPacket.packet as { customer: { id: string }; facts: unknown[]; actions: { status: string }[] };
    await expect(packet.locator('dd').first().textContent()).resolves.toContain(p.customer.id);
    await expect(packet.locator('table.facts tbody tr').count()).resolves.toBe(p.facts.length);
    await expect(packet.locator('li.action.succeeded').count()).resolves.toBe(p.actions.filter((a) => a.status === 'succeeded').length);
    await expect(packet.textContent()).resolves.not.toContain('schemaVersion');
    await axe(page, 'the report with an episode and its packet open');

    // Tags: one citation badge per refusal or hand-off, on an agent message with text; the simulator's
    // markers shown apart, never as the customer's words.
    const data = JSON.parse((await page.locator('#episodes').textContent()) ?? '{}') as {
      episodes: { s: number; key: string; c: [number, string[], boolean, string][] }[];
    };
    const cited = data.episodes.filter((e) => e.s === 0 && e.c.length > 0).slice(0, 6);
    expect(cited.length).toBeGreaterThan(0);
    let markers = 0;
    for (const e of cited) {
      await page.goto(`${url}#${encodeURIComponent(`ep-0-${e.key}`)}`);
      const d = page.locator(`details.episode[data-system="rule"][data-key="${e.key}"]`);
      await d.locator('.msg').first().waitFor({ state: 'visible' });
      const badges = d.locator('.badge.cite-yes, .badge.cite-no');
      await expect(badges.count()).resolves.toBe(e.c.length);
      const anchors = await badges.evaluateAll((els) =>
        els.map((b) => {
          const row = b.closest('.msg');
          return {
            index: Number(row?.getAttribute('data-index')),
            agent: row?.classList.contains('assistant') ?? false,
            text: row?.querySelector('.text') !== null,
          };
        }),
      );
      expect(anchors.map((a) => a.index)).toEqual(e.c.map((c) => c[0]));
      expect(anchors.every((a) => a.agent && a.text)).toBe(true);
      await expect(d.locator('.msg.user .text').allTextContents()).resolves.not.toContainEqual(expect.stringContaining('###'));
      markers += await d.locator('.msg.sim').count();
    }
    expect(markers).toBeGreaterThan(0);
    await page.close();
  });

  it('draws plots that fit their data: every mark inside its plot, with long system names too', async () => {
    for (const address of [url, twinUrl]) {
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(address);
      const figures = await page.locator('figure.plot').count();
      expect(figures).toBeGreaterThanOrEqual(3);
      const outside = await page.locator('figure.plot svg').evaluateAll((svgs) =>
        svgs.flatMap((svg) => {
          const frame = svg.getBoundingClientRect();
          if (frame.width < 50) return [];
          return [...svg.querySelectorAll('circle, rect, text, line, path')].flatMap((mark) => {
            const b = mark.getBoundingClientRect();
            if (b.width === 0 && b.height === 0) return [];
            const inside =
              b.left >= frame.left - 0.5 && b.right <= frame.right + 0.5 && b.top >= frame.top - 0.5 && b.bottom <= frame.bottom + 0.5;
            return inside ? [] : [`${svg.closest('figure.plot')?.id}: <${mark.tagName}> ${mark.textContent ?? ''}`];
          });
        }),
      );
      expect(outside, address).toEqual([]);
      // Each plot draws marks: none is empty.
      const marks = await page.locator('figure.plot').evaluateAll((fs) => fs.map((f) => f.querySelectorAll('svg circle, svg rect').length));
      expect(marks.every((n) => n > 0)).toBe(true);
      await page.close();
    }
  });
});
