import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentId, PolicyRequest, PolicyResponse, QueueId, StaffId } from '../../core/index.js';
import { MemoryStore } from '../../store/memory-store.js';
import { fixedClock } from '../../testing/fixed-clock.js';
import { gatewayFor, TEST_AGENT } from '../../testing/gateway-fixture.js';
import { scriptedPolicy, type ScriptedStep } from '../../testing/scripted-policy.js';
import type { AgentConfig } from '../agent-config.js';
import type { DeciderVerdict } from '../agent-loop.js';
import type { ContextPacketInput } from '../../core/index.js';
import { createConversationService } from './conversation-service.js';
import { TRANSFER_NOTICE } from './handoff-router.js';
import { noRedaction } from './redactor.js';
import { defineTool } from '../tool.js';

const queue = 'queue_billing' as QueueId;
const specialist = 'agent_refunds' as AgentId;
const staff = 'staff_ana' as StaffId;
const quiet = (): DeciderVerdict => ({ handoff: false, reason: null, target: null, evidence: null });

const tools = [
  defineTool({
    name: 'get_charges',
    description: 'List charges.',
    kind: 'read',
    schema: z.object({ customer_id: z.string() }),
    execute: () => ({ charges: [{ charge_id: 'ch_1', card: '4242 4242 4242 4242' }] }),
  }),
];
const agentConfig = (id: AgentId, extra: Partial<AgentConfig> = {}): AgentConfig => ({
  id,
  instructions: 'You are a billing support agent.',
  tools,
  handoff: { queues: [queue], agents: id === TEST_AGENT ? [specialist] : [] },
  defaultQueue: queue,
  ...extra,
});

function setup(
  policies: Record<string, { next(r: PolicyRequest): Promise<PolicyResponse>; name: string }>,
  extra: Partial<AgentConfig> = {},
) {
  const store = new MemoryStore();
  const gateway = gatewayFor(store, {
    policy: { maxHandoffs: 3, pingPong: 'return_to_previous_human', agentEdges: { [TEST_AGENT]: [specialist] }, maxAgentTransfers: 2 },
  });
  const packets: ContextPacketInput[] = [];
  const runner = createConversationService({
    gateway,
    agents: new Map([
      [TEST_AGENT, agentConfig(TEST_AGENT, extra)],
      [specialist, agentConfig(specialist)],
    ]),
    policyFor: (agent) => policies[agent.id]!,
    decide: quiet,
    buildPacket: (input) => {
      packets.push(input);
      return { reason: input.decision?.reason, summary: input.summary };
    },
    redact: { ...noRedaction, text: (text) => text.replace(/\d{4} \d{4} \d{4} (\d{4})/g, '[card ••••$1]') },
    clock: fixedClock(),
  });
  return { store, gateway, runner, packets };
}

describe('the conversation service: gateway and harness together', () => {
  it('stores the message, runs the turn, records the work, and delivers the reply', async () => {
    const { gateway, runner } = setup({
      [TEST_AGENT]: scriptedPolicy([
        { toolCalls: [{ name: 'get_charges', arguments: { customer_id: 'c1' } }] },
        { reply: 'I see the charge.' },
      ]),
    });
    const c = await gateway.open();
    expect(await runner.handleCustomerMessage(c.id, { text: 'charged twice', idempotencyKey: 'm1' })).toEqual({
      type: 'reply',
      delivered: true,
      text: 'I see the charge.',
    });
    expect(await runner.handleCustomerMessage(c.id, { text: 'charged twice', idempotencyKey: 'm1' })).toEqual({ type: 'duplicate' });
    const read = await gateway.read(c.id);
    expect(read!.events.map((e) => e.type)).toEqual([
      'conversation.created',
      'message.received',
      'tool.called',
      'decider.evaluated',
      'decider.evaluated',
      'turn.completed',
      'message.sent',
    ]);
    const tool = read!.events.find((e) => e.type === 'tool.called');
    expect(tool?.type === 'tool.called' && tool.data.output).toContain('[card ••••4242]');
    expect(tool?.type === 'tool.called' && tool.data.output).not.toContain('4242 4242 4242 4242');
  });

  it('a reply generated while a human takes over is suppressed, never delivered', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let called!: () => void;
    const modelCalled = new Promise<void>((resolve) => (called = resolve));
    const slow = {
      name: 'slow',
      async next(): Promise<PolicyResponse> {
        called();
        await gate;
        return { ok: true, content: 'Late agent reply', toolCalls: [], usage: { promptTokens: 1, completionTokens: 1 } };
      },
    };
    const { gateway, runner } = setup({ [TEST_AGENT]: slow });
    const c = await gateway.open();
    const pending = runner.handleCustomerMessage(c.id, { text: 'hello?', idempotencyKey: 'm1' });
    await modelCalled;
    expect(await gateway.claim(c.id, staff)).toMatchObject({ ok: true });
    release();
    expect(await pending).toEqual({ type: 'reply', delivered: false, text: 'Late agent reply' });
    const read = await gateway.read(c.id);
    expect(read!.messages.map((m) => m.text)).toEqual(['hello?']);
    expect(read!.events.at(-1)).toMatchObject({
      type: 'message.suppressed',
      data: { text: 'Late agent reply', speaker: `human:${staff}` },
    });
    // With a human owning the conversation, the agent no longer acts on customer messages.
    expect(await runner.handleCustomerMessage(c.id, { text: 'anyone?', idempotencyKey: 'm2' })).toEqual({
      type: 'not_agent',
      state: 'HUMAN_ACTIVE',
    });
  });

  it('repairs what the model wrote before storing it: a late reply with NUL and a lone surrogate is logged as suppressed, not thrown', async () => {
    let release!: () => void;
    let asked!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const called = new Promise<void>((resolve) => (asked = resolve));
    const model = {
      name: 'broken-bytes',
      async next(request: PolicyRequest): Promise<PolicyResponse> {
        const usage = { promptTokens: 1, completionTokens: 1 };
        if (!request.messages.some((m) => m.role === 'tool')) {
          return {
            ok: true,
            content: null,
            toolCalls: [{ id: 'c1', name: 'get_charges', arguments: '{"customer_id":"c\\ud800\\u0000"}' }],
            usage,
          };
        }
        asked();
        await gate;
        return { ok: true, content: 'Late\u0000 reply \uDC00', toolCalls: [], usage };
      },
    };
    const { gateway, runner } = setup({ [TEST_AGENT]: model });
    const c = await gateway.open();
    const pending = runner.handleCustomerMessage(c.id, { text: 'hello?', idempotencyKey: 'm1' });
    await called;
    expect(await gateway.claim(c.id, staff)).toMatchObject({ ok: true });
    release();
    expect(await pending).toEqual({ type: 'reply', delivered: false, text: 'Late reply \uFFFD' });
    const events = (await gateway.read(c.id))!.events;
    expect(events.find((e) => e.type === 'tool.called')).toMatchObject({ data: { arguments: { customer_id: 'c\uFFFD' } } });
    expect(events.at(-1)).toMatchObject({ type: 'message.suppressed', data: { text: 'Late reply \uFFFD' } });
  });

  it('a hand-off to a queue moves the conversation, records the packet, and queues it', async () => {
    const { gateway, runner, packets } = setup({
      [TEST_AGENT]: scriptedPolicy([
        { toolCalls: [{ name: 'handoff', arguments: { target: 'queue_billing', reason: 'policy_topic', summary: 'formal complaint' } }] },
      ]),
    });
    const c = await gateway.open();
    const outcome = await runner.handleCustomerMessage(c.id, { text: 'I want to file a formal complaint', idempotencyKey: 'm1' });
    expect(outcome).toMatchObject({
      type: 'handoff',
      reason: 'policy_topic',
      target: queue,
      applied: true,
      packet: { reason: 'policy_topic', summary: 'formal complaint' },
    });
    expect(packets[0]!.items.at(0)).toEqual({ role: 'customer', text: 'I want to file a formal complaint' });
    const read = await gateway.read(c.id);
    expect(read!.conversation).toMatchObject({ state: 'QUEUED', owner: { type: 'queue', id: queue }, handoffCount: 1 });
    expect(read!.events.map((e) => e.type).slice(-4)).toEqual(['handoff.requested', 'packet.built', 'conversation.queued', 'message.sent']);
    // The notice comes from the system: the agent no longer owns the conversation.
    expect(read!.messages.at(-1)).toMatchObject({ sender: { type: 'system' }, text: TRANSFER_NOTICE });
  });

  it('an agent-to-agent transfer hands over the transcript and the summary, and the next agent answers', async () => {
    const next = scriptedPolicy([{ reply: 'Refunds team here, I can help.' }]);
    const { gateway, runner } = setup({
      [TEST_AGENT]: scriptedPolicy([
        {
          toolCalls: [
            { name: 'handoff', arguments: { target: 'agent_refunds', reason: 'agent_decision', summary: 'duplicate charge ch_1' } },
          ],
        },
      ]),
      [specialist]: next,
    });
    const c = await gateway.open();
    expect(await runner.handleCustomerMessage(c.id, { text: 'refund my duplicate', idempotencyKey: 'm1' })).toEqual({
      type: 'reply',
      delivered: true,
      text: 'Refunds team here, I can help.',
    });
    const seen = next.requests[0]!.messages.map((m) => m.content);
    expect(seen).toContain('refund my duplicate');
    expect(seen.some((t) => t?.includes('duplicate charge ch_1'))).toBe(true);
    expect((await gateway.read(c.id))!.conversation).toMatchObject({ owner: { type: 'agent', id: specialist }, agentTransferCount: 1 });
  });

  it('pauses for approval, and resumes only the call the log says is waiting, once', async () => {
    const paid: number[] = [];
    const payout = defineTool({
      name: 'issue_credit',
      description: 'Credit the account.',
      kind: 'write',
      schema: z.object({ amount: z.number() }),
      approval: (args) => (args.amount > 100 ? 'credits above 100.00 need a supervisor' : null),
      execute: (args) => {
        paid.push(args.amount);
        return 'credited';
      },
    });
    const store = new MemoryStore();
    const gateway = gatewayFor(store);
    const policy = scriptedPolicy([{ toolCalls: [{ name: 'issue_credit', arguments: { amount: 250 } }] }, { reply: 'Credited 250.00.' }]);
    const runner = createConversationService({
      gateway,
      agents: new Map([[TEST_AGENT, { ...agentConfig(TEST_AGENT), handoff: { queues: [queue], agents: [] }, tools: [payout] }]]),
      policyFor: () => policy,
      decide: quiet,
      clock: fixedClock(),
    });
    const c = await gateway.open();
    expect(await runner.resume(c.id, { approved: true })).toEqual({ type: 'no_pending_approval' });
    expect(await runner.handleCustomerMessage(c.id, { text: 'credit me 250', idempotencyKey: '1' })).toMatchObject({
      type: 'needs_approval',
      why: expect.stringMatching(/supervisor/),
    });
    expect(paid).toEqual([]);
    expect(await runner.resume(c.id, { approved: true, by: staff })).toEqual({ type: 'reply', delivered: true, text: 'Credited 250.00.' });
    expect(paid).toEqual([250]);
    expect(await runner.resume(c.id, { approved: true })).toEqual({ type: 'no_pending_approval' });
    const types = (await gateway.read(c.id))!.events.map((e) => e.type);
    expect(types).toContain('approval.requested');
    expect(types).toContain('approval.decided');
  });

  it('runs an approved call as the agent asked it, though its stored arguments were redacted; after a restart it cannot', async () => {
    const charged: string[] = [];
    const charge = defineTool({
      name: 'charge_card',
      description: 'Charge a card.',
      kind: 'write',
      schema: z.object({ card: z.string(), amount: z.number() }),
      approval: () => 'card payments need a supervisor',
      execute: (args) => {
        charged.push(args.card);
        return 'charged';
      },
    });
    const card = '4111 1111 1111 1111';
    const store = new MemoryStore();
    const gateway = gatewayFor(store);
    const service = (steps: ScriptedStep[]) => {
      const policy = scriptedPolicy(steps);
      return createConversationService({
        gateway,
        agents: new Map([[TEST_AGENT, { ...agentConfig(TEST_AGENT), handoff: { queues: [queue], agents: [] }, tools: [charge] }]]),
        policyFor: () => policy,
        decide: quiet,
        clock: fixedClock(),
      });
    };
    const asks = (): ScriptedStep[] => [{ toolCalls: [{ name: 'charge_card', arguments: { card, amount: 20 } }] }, { reply: 'Paid.' }];

    // Approved in the process that asked: the card as typed is charged, and no byte of it is stored.
    const first = service(asks());
    const c = await gateway.open();
    expect(await first.handleCustomerMessage(c.id, { text: 'pay 20 with my card', idempotencyKey: '1' })).toMatchObject({
      type: 'needs_approval',
    });
    const asked = (await gateway.read(c.id))!.events.find((e) => e.type === 'approval.requested');
    expect(asked?.type === 'approval.requested' && asked.data).toMatchObject({ redacted: true });
    expect(JSON.stringify(asked)).not.toContain('1111 1111');
    expect(await first.resume(c.id, { approved: true, by: staff })).toMatchObject({ type: 'reply', text: 'Paid.' });
    expect(charged).toEqual([card]);
    expect(JSON.stringify((await gateway.read(c.id))!.events)).not.toContain('1111 1111');

    // Asked before a restart: the new process has no card to run it with. Approval is refused and
    // changes nothing; a rejection is taken, and the agent reads it.
    const before = service(asks());
    const d = await gateway.open();
    expect(await before.handleCustomerMessage(d.id, { text: 'pay 20 with my card', idempotencyKey: '1' })).toMatchObject({
      type: 'needs_approval',
    });
    const after = service([{ reply: 'Could you give me the card again?' }]);
    const length = (await gateway.read(d.id))!.events.length;
    expect(await after.resume(d.id, { approved: true, by: staff })).toEqual({ type: 'approval_details_lost' });
    expect((await gateway.read(d.id))!.events).toHaveLength(length);
    expect(await after.resume(d.id, { approved: false, by: staff, feedback: 'ask for the card again' })).toMatchObject({
      type: 'reply',
      text: 'Could you give me the card again?',
    });
    expect(charged).toEqual([card]);
  });

  it('refuses, before anything runs, an agent configured with edges the ownership policy lacks', () => {
    const store = new MemoryStore();
    expect(() =>
      createConversationService({
        gateway: gatewayFor(store),
        agents: new Map([[TEST_AGENT, agentConfig(TEST_AGENT)]]),
        policyFor: () => scriptedPolicy([]),
        decide: quiet,
        clock: fixedClock(),
      }),
    ).toThrow(/agent_refunds.*agentEdges/);
  });

  it('the budget of model calls spans the conversation, not one turn', async () => {
    const steps: ScriptedStep[] = [{ reply: 'one' }, { reply: 'two' }, { reply: 'three' }];
    const { gateway, runner } = setup({ [TEST_AGENT]: scriptedPolicy(steps) }, { budget: { maxModelCalls: 2 } });
    const c = await gateway.open();
    expect(await runner.handleCustomerMessage(c.id, { text: 'a', idempotencyKey: '1' })).toMatchObject({ type: 'reply', text: 'one' });
    expect(await runner.handleCustomerMessage(c.id, { text: 'b', idempotencyKey: '2' })).toMatchObject({ type: 'reply', text: 'two' });
    expect(await runner.handleCustomerMessage(c.id, { text: 'c', idempotencyKey: '3' })).toMatchObject({
      type: 'handoff',
      reason: 'budget_exhausted',
    });
  });
});

describe('turns off the request path', () => {
  it('stores the message at once; a model that never answers holds up only its own conversation', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const prompts: string[] = [];
    const policy = {
      name: 'stalls on "slow"',
      async next(request: PolicyRequest): Promise<PolicyResponse> {
        const last = request.messages.findLast((m) => m.role === 'user')?.content ?? '';
        prompts.push(last);
        if (last.includes('slow')) await gate;
        return { ok: true, content: `answer to ${last}`, toolCalls: [], usage: { promptTokens: 1, completionTokens: 1 } };
      },
    };
    const { gateway, runner } = setup({ [TEST_AGENT]: policy });
    const slow = await gateway.open();
    const fast = await gateway.open();
    const stuck = await runner.receive(slow.id, { text: 'slow question', idempotencyKey: 's1' });
    // The message is stored before the agent has answered: the caller is not kept waiting.
    expect(stuck.ok && stuck.duplicate === false).toBe(true);
    expect((await gateway.read(slow.id))!.messages.map((m) => m.text)).toEqual(['slow question']);
    const quick = await runner.receive(fast.id, { text: 'fast question', idempotencyKey: 'f1' });
    expect(quick.ok && (await quick.turn)).toEqual({ type: 'reply', delivered: true, text: 'answer to fast question' });
    // A second message to the stalled conversation waits behind its first turn, never beside it.
    const queued = await runner.receive(slow.id, { text: 'are you there?', idempotencyKey: 's2' });
    expect(prompts.filter((p) => p.includes('are you there'))).toEqual([]);
    release();
    expect(stuck.ok && (await stuck.turn)).toMatchObject({ type: 'reply', text: 'answer to slow question' });
    await runner.idle();
    expect(queued.ok && (await queued.turn)).toMatchObject({ type: 'reply', text: 'answer to are you there?' });
  });
});

describe('a retried message whose first post never got its answer', () => {
  it('is answered by the retry (a process died after storing it, before its turn ran), once, and a retry of an answered one adds nothing', async () => {
    const { gateway, runner } = setup({
      [TEST_AGENT]: scriptedPolicy([{ reply: 'We offer three plans.' }], { whenExhausted: 'repeat_last' }),
    });
    const c = await gateway.open();
    // What a process killed between the store and the turn leaves: the message, no turn.
    await gateway.receive(c.id, { text: 'which plans?', idempotencyKey: 'k1' });
    const retried = await runner.receive(c.id, { text: 'which plans?', idempotencyKey: 'k1' });
    expect(retried.ok && retried.duplicate).toBe(true);
    expect(retried.ok && (await retried.turn)).toEqual({ type: 'reply', delivered: true, text: 'We offer three plans.' });
    const again = await runner.receive(c.id, { text: 'which plans?', idempotencyKey: 'k1' });
    expect(again.ok && (await again.turn)).toEqual({ type: 'nothing_pending' });
    const read = (await gateway.read(c.id))!;
    expect(read.messages.map((m) => [m.sender.type, m.text])).toEqual([
      ['customer', 'which plans?'],
      ['agent', 'We offer three plans.'],
    ]);
  });
});

describe('a process killed between a hand-off turn and its hand-off', () => {
  it('leaves the message unanswered, so recovery runs the turn again and the hand-off happens', async () => {
    const handoff = { toolCalls: [{ name: 'handoff', arguments: { target: 'queue_billing', reason: 'customer_request' } }] };
    const { gateway, runner } = setup({ [TEST_AGENT]: scriptedPolicy([handoff], { whenExhausted: 'repeat_last' }) });
    const c = await gateway.open();
    const received = await gateway.receive(c.id, { text: 'a person, please', idempotencyKey: 'k1' });
    if (!received.ok) throw new Error('expected the message to be stored');
    // What the killed process left: the turn's record (it decided to hand off), no ownership change.
    await gateway.record(c.id, [
      { type: 'turn.completed', data: { agent: TEST_AGENT, outcome: 'handoff', modelCalls: 1, tokens: 0, wallMs: 0, upTo: received.seq } },
    ]);
    expect(await runner.recover()).toEqual({ turns: 1, handoffs: 0 });
    await runner.idle();
    expect(await gateway.store.getConversation(c.id)).toMatchObject({ state: 'QUEUED', owner: { type: 'queue', id: queue } });
    // Once handed off, nothing is left to answer.
    expect(await runner.recover()).toEqual({ turns: 0, handoffs: 0 });
  });
});

describe('staff act on the version they saw', () => {
  it('refuses a reply, a hand-back or a close on a stale version with the conversation as it is, and changes nothing', async () => {
    const { gateway, runner } = setup({ [TEST_AGENT]: scriptedPolicy([]) });
    const c = await gateway.open();
    const claimed = await runner.claim(c.id, staff, c.version);
    if (!claimed.ok) throw new Error('expected the claim to win');
    const before = (await gateway.read(c.id))!.events.length;
    const stale = c.version;
    for (const outcome of [
      await runner.reply(c.id, staff, { text: 'hello', version: stale }),
      await runner.handBack(c.id, staff, { version: stale, notes: null, constraints: [] }),
      await runner.close(c.id, staff, { version: stale, reason: 'resolved' }),
    ]) {
      expect(outcome).toMatchObject({
        ok: false,
        rejection: { code: 'stale' },
        current: { version: claimed.conversation.version, state: 'HUMAN_ACTIVE' },
      });
    }
    expect((await gateway.read(c.id))!.events.length).toBe(before);
    expect(await runner.reply(c.id, staff, { text: 'hello', version: claimed.conversation.version })).toMatchObject({
      ok: true,
      delivered: true,
    });
  });
});
