/**
 * Supervisor approval in the console, in a real Chromium against a real runtime (the composed
 * `baton serve` app on SQLite, the billing domain with `approvals.tools: ["refund_charge"]`, a
 * scripted policy standing in for the model): the agent's refund waits; the call appears live on
 * the supervisor's Approvals screen (no reload) with what the customer said; nothing reaches the
 * customer from that turn before the decision; a rejection's feedback reaches the agent, which
 * answers with it; an approval runs the call. An agent has no Approvals screen. axe-core finds no
 * serious or critical violation; the screenshot goes to docs/console/ with BATON_SCREENSHOTS=docs.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationId, PolicyRequest } from '../src/core/index.js';
import { loadDomain } from '../src/domains/load-domain.js';
import { scriptedPolicy } from '../src/testing/scripted-policy.js';
import { axe, browsers, customer, json, newPage, ROOT, shot, SHOTS, signIn } from './support/console-page.js';
import { startTestRuntime, type TestRuntime } from './support/runtime-server.js';

const CHARGE = 'ch_100017';
const ANSWER = 'The refund request came back:';

/**
 * The model: asked to refund it asks for a yes; given it, it verifies the customer, looks the
 * charge up and calls refund_charge, one call after each result (asked again, it goes straight
 * to the refund); after the refund's result it says what came back.
 */
const refundScript = (customer: { id: string; code: string }) => {
  const calls = [
    { name: 'send_verification_code', arguments: { customer_id: customer.id } },
    { name: 'verify_customer', arguments: { customer_id: customer.id, code: customer.code } },
    { name: 'get_charge_details', arguments: { charge_id: CHARGE } },
    { name: 'refund_charge', arguments: { charge_id: CHARGE, amount: 49 } },
  ];
  return scriptedPolicy(
    [
      (request: PolicyRequest) => {
        const last = request.messages.at(-1);
        if (last?.role === 'tool') {
          const done = calls.findIndex((c) => (last.content ?? '').includes(`name="${c.name}"`));
          const next = calls[done + 1];
          return next && done >= 0 ? { toolCalls: [next] } : { reply: `${ANSWER} ${last.content}` };
        }
        const said = request.messages.findLast((m) => m.role === 'user')?.content ?? '';
        // Given the yes, from the first call not made yet in this conversation (the refund always).
        const made = (name: string) => request.messages.some((m) => m.role === 'tool' && (m.content ?? '').includes(`name="${name}"`));
        if (/\byes\b/i.test(said)) return { toolCalls: [calls.find((c, i) => i === calls.length - 1 || !made(c.name))!] };
        return { reply: `I can refund the duplicate charge ${CHARGE} for you. Shall I go ahead?` };
      },
    ],
    { whenExhausted: 'repeat_last' },
  );
};

let runtime: TestRuntime;

beforeAll(async () => {
  // The console as `npm run build` makes it (rebuilt only when its sources changed).
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-console.mjs')], { stdio: ['ignore', 'inherit', 'inherit'] });
  mkdirSync(SHOTS, { recursive: true });
  // The demo database's customer who was charged CHARGE twice, and their verification code.
  const { charges, customers } = (await loadDomain('billing')).initialDb as {
    charges: Record<string, { customer_id: string }>;
    customers: Record<string, { verification_code: string }>;
  };
  const owner = charges[CHARGE]!.customer_id;
  const who = { id: owner, code: customers[owner]!.verification_code };
  runtime = await startTestRuntime('sqlite', {
    policy: () => refundScript(who),
    config: { approvals: { tools: ['refund_charge'] } } as never,
  });
}, 180_000);

afterAll(async () => {
  for (const b of browsers.splice(0)) await b.close().catch(() => {});
  await runtime?.close();
});

const decisions = async (id: string) =>
  (await runtime.store.listEvents(id as ConversationId)).flatMap((e) => (e.type === 'approval.decided' ? [e.data] : []));

describe('supervisor approval in the console', () => {
  it('the waiting refund shows live; nothing reaches the customer before the decision; reject sends feedback, approve runs the call', async () => {
    const sup = await runtime.staff('supervisor');
    const { page, errors } = await newPage();
    await signIn(page, runtime.base, sup);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Approvals' }).click();
    await page.getByRole('heading', { name: 'Waiting for approval' }).waitFor();
    await page.getByText('No action of an agent waits for approval.').waitFor();

    const c = await customer(runtime.base);
    await c.say('I was charged twice, please refund the duplicate charge.');
    await c.waitFor((m) => m.from === 'agent' && m.text.includes('Shall I go ahead?'));
    await c.say('Yes, go ahead.');
    await runtime.runtime.service.idle();

    // The call appears on the open screen by itself, with its arguments and what the customer said.
    const item = page.locator(`li.approval[data-conversation="${c.id}"]`);
    await item.waitFor();
    await expect.poll(() => item.getByRole('heading').textContent()).toContain('refund charge');
    const text = await item.textContent();
    expect(text).toContain(CHARGE);
    expect(text).toContain('Yes, go ahead.');
    // Nothing from the waiting turn has reached the customer.
    expect((await c.all()).filter((m) => m.from !== 'customer').map((m) => m.text)).toEqual([
      `I can refund the duplicate charge ${CHARGE} for you. Shall I go ahead?`,
    ]);
    await axe(page, 'approvals');
    await shot(page, 'approvals');

    // Rejected with feedback: the item goes, the agent reads the feedback as the call's result and answers with it.
    const feedback = 'Check the invoice first: the second charge may be a pre-authorisation.';
    await item.getByRole('button', { name: 'Reject…' }).click();
    await item.getByLabel(/What should the agent do instead/).fill(feedback);
    await item.getByRole('button', { name: 'Reject with this feedback' }).click();
    await item.waitFor({ state: 'detached' });
    const answered = await c.waitFor((m) => m.from === 'agent' && m.text.startsWith(ANSWER));
    expect(answered.text).toContain(feedback);
    expect(await decisions(c.id)).toEqual([expect.objectContaining({ approved: false, by: sup.id, feedback })]);
    // Refunds that ran (a rejected call is logged too, as refused, with the feedback as its output).
    const refunds = async () =>
      (await runtime.store.listEvents(c.id as ConversationId)).filter(
        (e) => e.type === 'tool.called' && e.data.name === 'refund_charge' && e.data.ok && e.data.refused === undefined,
      );
    expect(await refunds()).toHaveLength(0);

    // Asked again and approved: the call runs, then the agent answers.
    const before = (await c.all()).length;
    await c.say('Yes, please go ahead now.');
    await runtime.runtime.service.idle();
    const again = page.locator(`li.approval[data-conversation="${c.id}"]`);
    await again.waitFor();
    expect((await c.all()).length).toBe(before + 1); // only the customer's own message
    await again.getByRole('button', { name: 'Approve' }).click();
    await again.waitFor({ state: 'detached' });
    await expect.poll(async () => (await refunds()).length).toBe(1);
    await c.waitFor((m) => m.from === 'agent' && m.text.startsWith(ANSWER) && c.seen.indexOf(m) >= before);
    expect((await decisions(c.id)).map((d) => d.approved)).toEqual([false, true]);
    await page.getByText('No action of an agent waits for approval.').waitFor();
    expect(errors).toEqual([]);
  }, 120_000);

  it('an agent has no Approvals screen, and the route refuses them the list', async () => {
    const agent = await runtime.staff('agent', ['billing']);
    const { page, errors } = await newPage();
    await signIn(page, runtime.base, agent);
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Approvals' }).count()).toBe(0);
    await page.goto(`${runtime.base}/console/#/approvals`);
    await page.getByText("Approving the agents' actions is for supervisors.").waitFor();
    expect((await json(runtime.base, '/v1/approvals', { token: agent.token })).status).toBe(403);
    expect(errors).toEqual([]);
  }, 60_000);
});
