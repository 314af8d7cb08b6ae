/**
 * Staff verdicts in the console, in a real Chromium against a real runtime (the composed `baton
 * serve` app on SQLite, an agent that hands bills to billing and answers the rest): the person who
 * took a hand-off answers the three questions in the conversation view (needed, on time or at
 * which earlier customer message, packet enough), picking the message from the transcript's; a
 * supervisor's review screen lists the stratified sample, kept conversations included, and the
 * same form records that a kept one should have gone to a person; the dashboard then shows the
 * production figures with their intervals and sample sizes. axe-core finds no serious or critical
 * violation on these screens.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationId, Review, StoredEvent } from '../src/core/index.js';
import { axe, browsers, json, newPage, ROOT, shot, SHOTS, signIn } from './support/console-page.js';
import { billingOrNot } from './support/review-policy.js';
import { startTestRuntime, type TestRuntime } from './support/runtime-server.js';

let runtime: TestRuntime;

beforeAll(async () => {
  // The console as `npm run build` makes it (rebuilt only when its sources changed).
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-console.mjs')], { stdio: ['ignore', 'inherit', 'inherit'] });
  mkdirSync(SHOTS, { recursive: true });
  runtime = await startTestRuntime('sqlite', { policy: () => billingOrNot() });
}, 180_000);
afterAll(async () => {
  for (const b of browsers.splice(0)) await b.close().catch(() => {});
  await runtime?.close();
});

/** A customer who writes each text in turn, each answered (or handed off) before the next. */
async function customer(...texts: string[]) {
  const c = await runtime.open();
  for (const [i, text] of texts.entries()) {
    const posted = await json(runtime.base, `/v1/conversations/${c.id}/messages`, { body: { text }, token: c.token, key: `k${i}` });
    expect(posted.status).toBe(201);
    await runtime.runtime.service.idle();
  }
  const log = await runtime.store.listEvents(c.id);
  return {
    id: c.id,
    handoff: log.find((e) => e.type === 'handoff.requested')?.seq ?? null,
    messages: log.filter((e) => e.type === 'message.received').map((e) => e.seq),
  };
}

const reviewsOf = async (id: ConversationId): Promise<Review[]> =>
  (await runtime.store.listEvents(id)).flatMap((e: StoredEvent) => (e.type === 'review.recorded' ? [e.data] : []));

describe('staff verdicts in the console (Chromium)', () => {
  it('the owner reviews the hand-off they took; a supervisor reviews a kept conversation from the sample; the dashboard shows the figures', async () => {
    const handed = await customer('Hello, when do you open?', 'And I have a question about my bill');
    const kept = await customer('Can I change my delivery address?');
    expect(handed.handoff).not.toBeNull();
    expect(handed.messages).toHaveLength(2);

    // Ana takes the hand-off, then reviews it in the conversation view.
    const ana = await runtime.staff('agent', ['billing']);
    const version = (await runtime.store.getConversation(handed.id))!.version;
    expect((await json(runtime.base, `/v1/conversations/${handed.id}/claim`, { body: { version }, token: ana.token })).status).toBe(200);
    const a = await newPage();
    await signIn(a.page, runtime.base, ana);
    await a.page.goto(`${runtime.base}/console/#/c/${handed.id}`);
    const form = a.page.getByRole('form', { name: /^Review: The hand-off for customer request to billing/ });
    await form.waitFor();
    await form.getByRole('group', { name: 'Was the hand-off needed?' }).getByLabel('Yes').check();
    await form.getByRole('group', { name: 'Was it on time?' }).getByLabel('No, it should have come earlier').check();
    // The customer messages before the hand-off are the choices: the first one is when it was due.
    const due = form.getByLabel('At which customer message should it have come?');
    await expect(due.locator('option').allTextContents()).resolves.toEqual(['Choose a message…', 'Hello, when do you open?']);
    await due.selectOption({ label: 'Hello, when do you open?' });
    await form.getByRole('group', { name: 'Was the packet enough?' }).getByLabel('No, something had to be asked again').check();
    await form.getByLabel('What had to be asked again?').fill('which invoice it was');
    await axe(a.page, 'review form');
    await shot(a.page, 'review-form');
    await form.getByRole('button', { name: 'Record the verdict' }).click();
    await a.page.getByRole('status').filter({ hasText: 'Verdict recorded.' }).waitFor();
    await a.page
      .getByRole('list', { name: 'Verdicts given' })
      .getByText(/needed, late; packet not enough \(by the person who took it\)/)
      .waitFor();
    expect(await reviewsOf(handed.id)).toEqual([
      expect.objectContaining({
        subject: 'handoff',
        handoff: handed.handoff,
        by: ana.id,
        as: 'owner',
        needed: true,
        timing: 'late',
        dueAt: handed.messages[0],
        packetEnough: false,
        askedAgain: 'which invoice it was',
      }),
    ]);
    expect(a.errors).toEqual([]);

    // Sue, a supervisor, works the sample: the kept conversation is in its own stratum.
    const sue = await runtime.staff('supervisor');
    const s = await newPage();
    await signIn(s.page, runtime.base, sue);
    await s.page.getByRole('link', { name: 'Reviews' }).click();
    const keptStratum = s.page.getByTestId('stratum-kept');
    await keptStratum.getByRole('heading', { name: 'Kept by the agent: should these have gone to a person?' }).waitFor();
    await expect(keptStratum.textContent()).resolves.toContain('1 in the window, 0 reviewed');
    const handedStratum = s.page.getByTestId('stratum-handoff:customer_request:queue_billing');
    await expect(handedStratum.textContent()).resolves.toContain('1 in the window, 1 reviewed');
    await expect(handedStratum.locator(`li[data-conversation="${handed.id}"] .badge`).textContent()).resolves.toBe('reviewed');
    await axe(s.page, 'review sample');
    await keptStratum.getByRole('button', { name: `Review ${kept.id}` }).click();
    const keptForm = s.page.getByRole('form', { name: 'Review: The agent kept this conversation' });
    await keptForm.waitFor();
    await s.page.getByRole('list', { name: 'What the customer wrote' }).getByText('Can I change my delivery address?').waitFor();
    await keptForm.getByRole('group', { name: 'Should this have gone to a person?' }).getByLabel('Yes').check();
    await keptForm.getByLabel('By which customer message?').selectOption({ label: 'Can I change my delivery address?' });
    await keptForm.getByLabel('Why a person (optional)').fill('customer_request');
    await axe(s.page, 'review of a kept conversation');
    await shot(s.page, 'review-sample');
    await keptForm.getByRole('button', { name: 'Record the verdict' }).click();
    await s.page.getByRole('status').filter({ hasText: 'Verdict recorded.' }).waitFor();
    // The sample is read again after the verdict: wait for the list to show it.
    await expect.poll(() => keptStratum.textContent()).toContain('1 in the window, 1 reviewed');
    expect(await reviewsOf(kept.id)).toEqual([
      expect.objectContaining({
        subject: 'kept',
        by: sue.id,
        as: 'supervisor',
        needed: true,
        dueAt: kept.messages[0],
        reason: 'customer_request',
      }),
    ]);

    // The dashboard: one needed hand-off, one missed: precision 100%, recall 50%, each with its interval and n.
    await s.page.getByRole('link', { name: 'Dashboard' }).click();
    const figures = s.page.getByTestId('review-figures');
    await figures.waitFor();
    const row = (figure: string) => figures.getByTestId('reviews-overall').locator(`tr[data-figure="${figure}"] td`).textContent();
    await expect(row('precision')).resolves.toBe('100% (95% 100%–100%), n = 1');
    await expect(row('recall')).resolves.toBe('50% (95% 50%–50%), n = 2');
    await expect(row('timing')).resolves.toBe('0% (95% 0%–0%), n = 1');
    await expect(row('packetEnough')).resolves.toBe('0% (95% 0%–0%), n = 1');
    await expect(row('overEscalation')).resolves.toBe('no data (n = 0)');
    await expect(figures.getByTestId('reviews-strata').locator('tr[data-stratum="kept"]').textContent()).resolves.toBe(
      'Kept by the agent111',
    );
    await expect(figures.getByTestId('reviews-reason').locator('tr[data-slice="customer_request"]').textContent()).resolves.toContain(
      '50% (95% 50%–50%), n = 2',
    );
    await axe(s.page, 'dashboard with review figures');
    await shot(s.page, 'dashboard-reviews');
    expect(s.errors).toEqual([]);
  });
});
