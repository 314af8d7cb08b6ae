import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentId, PolicyRequest, QueueId } from '../../core/index.js';
import { MemoryStore } from '../../store/memory-store.js';
import { fixedClock } from '../../testing/fixed-clock.js';
import { gatewayFor, TEST_AGENT } from '../../testing/gateway-fixture.js';
import { scriptedPolicy } from '../../testing/scripted-policy.js';
import type { AgentConfig } from '../agent-config.js';
import { defineTool } from '../tool.js';
import { createConversationService } from './conversation-service.js';
import { queueRouter, type HandoffRouter } from './handoff-router.js';
import { holdingPolicy } from './holding-turn.js';

const queue = 'queue_billing' as QueueId;
const refunds: unknown[] = [];
const tools = [
  defineTool({
    name: 'get_plans',
    description: 'The plans on sale.',
    kind: 'read',
    schema: z.object({}),
    execute: () => 'basic 10.00, plus 20.00',
  }),
  defineTool({
    name: 'refund_charge',
    description: 'Refund a charge.',
    kind: 'write',
    schema: z.object({ charge_id: z.string() }),
    execute: (args) => {
      refunds.push(args);
      return 'refunded';
    },
  }),
];
const agent: AgentConfig = {
  id: TEST_AGENT,
  instructions: 'You are a billing agent.',
  tools,
  handoff: { queues: [queue], agents: [] },
  defaultQueue: queue,
};
const router: HandoffRouter = {
  ...queueRouter,
  waitInfo: async () => ({ estimateMs: 6 * 60_000, position: 2, hours: 'Monday to Friday, 9:00 to 17:00 London time' }),
};

async function queuedConversation(
  holding: Parameters<typeof createConversationService>[0]['holdingPolicyFor'],
  policy = scriptedPolicy([]),
) {
  const gateway = gatewayFor(new MemoryStore());
  const service = createConversationService({
    gateway,
    agents: new Map<AgentId, AgentConfig>([[TEST_AGENT, agent]]),
    policyFor: () => policy,
    decide: async () => ({ handoff: true, reason: 'customer_request', target: queue, evidence: 'a person please' }),
    router,
    clock: fixedClock(),
    ...(holding === undefined ? {} : { holdingPolicyFor: holding }),
  });
  const c = await gateway.open();
  expect(await service.handleCustomerMessage(c.id, { text: 'a person please', idempotencyKey: 'k0' })).toMatchObject({
    type: 'handoff',
    applied: true,
  });
  expect((await gateway.read(c.id))!.conversation.state).toBe('QUEUED');
  return { gateway, service, id: c.id };
}

describe('holding mode: the customer waits with company, and nothing changes', () => {
  it('offers the model only read-only tools, refuses the write it tries, and speaks as the system', async () => {
    const requests: PolicyRequest[] = [];
    const model = scriptedPolicy([
      { toolCalls: [{ name: 'refund_charge', arguments: { charge_id: 'ch_1' } }] },
      { reply: 'Our team is in Monday to Friday, 9:00 to 17:00 London time; you are number 2, about 6 minutes.' },
    ]);
    const spy = { name: 'spy', next: (r: PolicyRequest) => (requests.push(r), model.next(r)) };
    const { gateway, service, id } = await queuedConversation(() => spy);
    const outcome = await service.handleCustomerMessage(id, {
      text: 'When are you open? And just refund ch_1 please.',
      idempotencyKey: 'k1',
    });
    expect(outcome).toMatchObject({ type: 'reply', delivered: true });
    expect(refunds).toEqual([]);
    // The write tool is not in the model's tool list at all; the read tool is.
    const offered = requests.flatMap((r) => r.tools.map((t) => t.name));
    expect(offered).toContain('get_plans');
    expect(offered).not.toContain('refund_charge');
    expect(requests[0]!.messages[0]!.content).toMatch(/HOLDING MODE/);
    expect(requests[0]!.messages[0]!.content).toMatch(/number 2 in the queue/);
    const read = (await gateway.read(id))!;
    expect(read.conversation.state).toBe('QUEUED');
    expect(read.messages.at(-1)).toMatchObject({ sender: { type: 'system' }, text: expect.stringMatching(/9:00 to 17:00/) });
    const refused = read.events.find((e) => e.type === 'tool.called' && e.data.name === 'refund_charge');
    expect(refused).toMatchObject({ data: { ok: false, refused: 'unknown_tool' } });
  });

  it("a rule agent's holding policy answers the hours and the wait as the router knows them, and never repeats itself", async () => {
    const { gateway, service, id } = await queuedConversation(() => holdingPolicy());
    const hours = await service.handleCustomerMessage(id, { text: 'what are your opening hours?', idempotencyKey: 'k1' });
    expect(hours).toMatchObject({
      type: 'reply',
      text: expect.stringMatching(/Monday to Friday, 9:00 to 17:00 London time.*about 6 minutes.*number 2/),
    });
    const first = await service.handleCustomerMessage(id, { text: 'how long is the wait?', idempotencyKey: 'k2' });
    const again = await service.handleCustomerMessage(id, { text: 'how long is the wait?', idempotencyKey: 'k3' });
    expect(first.type === 'reply' && again.type === 'reply' && first.text !== again.text).toBe(true);
    const system = (await gateway.read(id))!.messages.filter((m) => m.sender.type === 'system').map((m) => m.text);
    for (let i = 1; i < system.length; i += 1) expect(system[i]).not.toBe(system[i - 1]);
  });

  it('with nothing known of the wait it promises no time, and with holding off the messages wait for the person', async () => {
    const unknown = createConversationService({
      gateway: gatewayFor(new MemoryStore()),
      agents: new Map<AgentId, AgentConfig>([[TEST_AGENT, agent]]),
      policyFor: () => scriptedPolicy([]),
      decide: async () => ({ handoff: true, reason: 'customer_request', target: queue, evidence: 'x' }),
      holdingPolicyFor: () => holdingPolicy(),
      clock: fixedClock(),
    });
    const c = await unknown.open();
    await unknown.handleCustomerMessage(c.id, { text: 'a person please', idempotencyKey: 'k0' });
    expect(await unknown.handleCustomerMessage(c.id, { text: 'how long?', idempotencyKey: 'k1' })).toMatchObject({
      text: expect.stringMatching(/can't tell you yet how long/),
    });
    const { service, id } = await queuedConversation(false);
    expect(await service.handleCustomerMessage(id, { text: 'hello?', idempotencyKey: 'k1' })).toEqual({
      type: 'not_agent',
      state: 'QUEUED',
    });
  });
});
