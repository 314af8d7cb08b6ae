import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DeciderPolicySchema, SAFETY_RESPONSE, type AgentId, type QueueId, type StaffId } from '../src/core/index.js';
import type { AgentConfig } from '../src/runtime/agent-config.js';
import { createConversationService } from '../src/runtime/service/conversation-service.js';
import { harnessDecider } from '../src/runtime/harness-decider.js';
import { defineTool } from '../src/runtime/tool.js';
import { openStore } from '../src/store/open-store.js';
import type { Store } from '../src/store/store.js';
import { fixedClock } from '../src/testing/fixed-clock.js';
import { gatewayFor, TEST_AGENT } from '../src/testing/gateway-fixture.js';
import { scriptedPolicy, type ScriptedStep } from '../src/testing/scripted-policy.js';

// The whole runtime on a real SQLite file: gateway, harness, the deterministic decider, the
// context packet and redaction; only the model is scripted.

const queue = 'queue_billing' as QueueId;
const stores: Store[] = [];
afterAll(async () => Promise.all(stores.map((s) => s.close())));

const refunds: number[] = [];
const tools = [
  defineTool({
    name: 'get_customer',
    description: 'Look up a customer.',
    kind: 'read',
    schema: z.object({ customer_id: z.string() }),
    execute: (args) => ({ customer_id: args.customer_id, name: 'Ana', card: '4111 1111 1111 1111', plan: 'pro' }),
  }),
  defineTool({
    name: 'refund_charge',
    description: 'Refund a charge.',
    kind: 'write',
    schema: z.object({ charge_id: z.string(), amount: z.number() }),
    execute: (args) => {
      refunds.push(args.amount);
      return 'refunded';
    },
  }),
  defineTool({
    name: 'billing_api',
    description: 'Flaky.',
    kind: 'read',
    schema: z.object({}),
    execute: () => {
      throw new Error('503 upstream');
    },
  }),
];

async function setup(steps: ScriptedStep[]) {
  const store = await openStore({ kind: 'sqlite', path: join(mkdtempSync(join(tmpdir(), 'baton-harness-')), 'h.sqlite') });
  stores.push(store);
  const gateway = gatewayFor(store);
  const policy = scriptedPolicy(steps, { whenExhausted: 'repeat_last' });
  const agent: AgentConfig = {
    id: TEST_AGENT,
    instructions: 'Billing support.',
    tools,
    handoff: { queues: [queue], agents: [] },
    defaultQueue: queue,
  };
  const runner = createConversationService({
    gateway,
    agents: new Map<AgentId, AgentConfig>([[TEST_AGENT, agent]]),
    policyFor: () => policy,
    decide: harnessDecider(DeciderPolicySchema.parse({ autonomousLimit: 50, toolFailureLimit: 2, defaultTarget: queue })),
    clock: fixedClock(),
  });
  return { gateway, runner, policy };
}

describe('the runtime end to end on SQLite', () => {
  it('a request for a person hands off before any model call, with a packet that does not make the customer repeat themselves', async () => {
    const { gateway, runner, policy } = await setup([{ reply: 'never' }]);
    const c = await gateway.open();
    await runner.handleCustomerMessage(c.id, { text: 'My card 4111 1111 1111 1111 was charged twice for order 7731', idempotencyKey: '1' });
    const outcome = await runner.handleCustomerMessage(c.id, { text: 'is there someone real I can talk to?', idempotencyKey: '2' });
    expect(outcome).toMatchObject({
      type: 'handoff',
      reason: 'customer_request',
      target: queue,
      evidence: 'is there someone real I can talk to',
      applied: true,
    });
    const read = (await gateway.read(c.id))!;
    expect(read.conversation.state).toBe('QUEUED');
    const packet = read.events.find((e) => e.type === 'packet.built');
    const text = JSON.stringify(packet);
    expect(text).toContain('7731');
    expect(text).toContain('••••1111');
    expect(text).not.toContain('4111 1111 1111 1111');
    expect(policy.requests).toHaveLength(1);
  });

  it('safety: the fixed safety response reaches the customer, the model is not called, a person takes over', async () => {
    const { gateway, runner, policy } = await setup([{ reply: 'never' }]);
    const c = await gateway.open();
    const outcome = await runner.handleCustomerMessage(c.id, { text: "I can't go on, I want to end my life", idempotencyKey: '1' });
    expect(outcome).toMatchObject({ type: 'handoff', reason: 'safety' });
    expect(policy.requests).toHaveLength(0);
    const read = (await gateway.read(c.id))!;
    expect(read.messages.map((m) => m.text)).toEqual(["I can't go on, I want to end my life", SAFETY_RESPONSE]);
    expect(read.conversation.state).toBe('QUEUED');
  });

  it('a refund above the autonomous limit goes to a person before it runs', async () => {
    refunds.length = 0;
    const { gateway, runner } = await setup([{ toolCalls: [{ name: 'refund_charge', arguments: { charge_id: 'ch_1', amount: 80 } }] }]);
    const c = await gateway.open();
    const outcome = await runner.handleCustomerMessage(c.id, { text: 'refund the 80.00 duplicate charge', idempotencyKey: '1' });
    expect(outcome).toMatchObject({
      type: 'handoff',
      reason: 'value_threshold',
      evidence: expect.stringMatching(/refund_charge amount=80/),
    });
    expect(refunds).toEqual([]);
  });

  it('a refund at the limit runs', async () => {
    refunds.length = 0;
    const { gateway, runner } = await setup([
      { toolCalls: [{ name: 'refund_charge', arguments: { charge_id: 'ch_1', amount: 50 } }] },
      { reply: 'Done: refunded 50.00.' },
    ]);
    const c = await gateway.open();
    expect(await runner.handleCustomerMessage(c.id, { text: 'refund the 50.00 duplicate charge', idempotencyKey: '1' })).toMatchObject({
      type: 'reply',
    });
    expect(refunds).toEqual([50]);
  });

  it('consecutive tool failures hand off (soft trigger), with the failures in the packet', async () => {
    const { gateway, runner } = await setup([{ toolCalls: [{ name: 'billing_api', arguments: {} }] }]);
    const c = await gateway.open();
    const outcome = await runner.handleCustomerMessage(c.id, { text: 'why was I charged?', idempotencyKey: '1' });
    expect(outcome).toMatchObject({ type: 'handoff', reason: 'tool_failures' });
    const read = (await gateway.read(c.id))!;
    expect(read.events.filter((e) => e.type === 'tool.called')).toHaveLength(2);
    const packet = read.events.find((e) => e.type === 'packet.built');
    expect(JSON.stringify(packet)).toMatch(/"status":"failed","tool":"billing_api"/);
  });

  it('after a human hands back, what they dealt with does not hand the conversation off again', async () => {
    const { gateway, runner } = await setup([{ reply: 'Here are your charges.' }]);
    const c = await gateway.open();
    expect(await runner.handleCustomerMessage(c.id, { text: 'get me your supervisor', idempotencyKey: '1' })).toMatchObject({
      type: 'handoff',
      reason: 'customer_request',
    });
    const ana = 'staff_ana' as StaffId;
    expect(await gateway.claimNext(queue, ana)).toMatchObject({ ok: true });
    await gateway.send(c.id, { type: 'human', id: ana }, 'Hi, Ana here. I sorted that out; handing you back for the rest.');
    await gateway.handBack(c.id, { staff: ana, notes: 'explained the policy' });
    expect(await runner.handleCustomerMessage(c.id, { text: 'thanks, now show me my charges', idempotencyKey: '2' })).toMatchObject({
      type: 'reply',
      text: 'Here are your charges.',
    });
    // A new request for a person after the hand-back still counts.
    expect(await runner.handleCustomerMessage(c.id, { text: 'actually, let me talk to a human again', idempotencyKey: '3' })).toMatchObject(
      { type: 'handoff', reason: 'customer_request' },
    );
  });

  it('a constraint from hand-back is enforced on the next agent turn', async () => {
    refunds.length = 0;
    const { gateway, runner } = await setup([
      { toolCalls: [{ name: 'refund_charge', arguments: { charge_id: 'ch_7731', amount: 10 } }] },
      { reply: 'I cannot refund that charge.' },
    ]);
    const c = await gateway.open();
    await gateway.claim(c.id, 'staff_ana' as StaffId);
    await gateway.handBack(c.id, {
      staff: 'staff_ana' as StaffId,
      notes: 'no refund for ch_7731',
      constraints: [{ tool: 'refund_charge', args: { charge_id: 'ch_7731' }, note: 'no refund for ch_7731: refused by billing' }],
    });
    const outcome = await runner.handleCustomerMessage(c.id, { text: 'refund ch_7731 please', idempotencyKey: '1' });
    expect(outcome).toMatchObject({ type: 'reply', text: 'I cannot refund that charge.' });
    expect(refunds).toEqual([]);
    const read = (await gateway.read(c.id))!;
    const call = read.events.find((e) => e.type === 'tool.called');
    expect(call?.type === 'tool.called' && call.data).toMatchObject({ ok: false, output: expect.stringMatching(/refused by billing/) });
  });
});
