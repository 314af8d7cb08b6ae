import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  DeciderPolicySchema,
  type AgentId,
  type Constraint,
  type ConversationId,
  type DecisionRule,
  type QueueId,
  type TranscriptItem,
} from '../core/index.js';
import { fixedClock } from '../testing/fixed-clock.js';
import { scriptedPolicy, type ScriptedStep } from '../testing/scripted-policy.js';
import type { AgentConfig } from './agent-config.js';
import { HOLDING_MESSAGE } from './agent-config.js';
import { runTurn, type DeciderVerdict, type TurnInput } from './agent-loop.js';
import { harnessDecider } from './harness-decider.js';
import { defineTool } from './tool.js';

const billingQueue = 'queue_billing' as QueueId;
const specialist = 'agent_refunds' as AgentId;

/** Tools that record every execution, so a test can prove a call never ran. */
function toolbox() {
  const executed: Array<{ name: string; args: unknown; idempotencyKey: string | null }> = [];
  const record = (name: string) => (args: unknown, ctx: { idempotencyKey: string | null }) => {
    executed.push({ name, args, idempotencyKey: ctx.idempotencyKey });
  };
  const tools = [
    defineTool({
      name: 'get_charges',
      description: 'List the customer’s charges.',
      kind: 'read',
      schema: z.object({ customer_id: z.string() }),
      execute: (args, ctx) => {
        record('get_charges')(args, ctx);
        return { charges: [{ charge_id: 'ch_1', amount: 30, duplicate_of: 'ch_0' }] };
      },
    }),
    defineTool({
      name: 'refund_charge',
      description: 'Refund a charge.',
      kind: 'write',
      needsConfirmation: true,
      schema: z.object({ charge_id: z.string(), amount: z.number().positive() }),
      approval: (args) => (args.amount > 500 ? 'refunds above 500.00 need a supervisor' : null),
      execute: (args, ctx) => {
        record('refund_charge')(args, ctx);
        return `Refunded ${args.amount} on ${args.charge_id}`;
      },
    }),
    defineTool({
      name: 'slow_lookup',
      description: 'A lookup that hangs.',
      kind: 'read',
      schema: z.object({}),
      execute: () => new Promise(() => {}),
    }),
    defineTool({
      name: 'huge_lookup',
      description: 'A lookup with a large output.',
      kind: 'read',
      schema: z.object({}),
      execute: () => 'x'.repeat(50_000),
    }),
    defineTool({
      name: 'flaky',
      description: 'Always fails.',
      kind: 'read',
      schema: z.object({}),
      execute: () => {
        throw new Error('service unavailable');
      },
    }),
  ];
  return { tools, executed };
}

function agent(tools: AgentConfig['tools'], extra: Partial<AgentConfig> = {}): AgentConfig {
  return {
    id: 'agent_support' as AgentId,
    instructions: 'You are a billing support agent.',
    tools,
    handoff: { queues: [billingQueue], agents: [specialist] },
    defaultQueue: billingQueue,
    sandbox: { timeoutMs: 50, maxOutputChars: 1000 },
    ...extra,
  };
}

const neverHandOff = (): DeciderVerdict => ({ handoff: false, reason: null, target: null, evidence: null });
const conversation = (constraints: Constraint[] = [], agentTransferCount = 0): TurnInput['conversation'] => ({
  id: 'conv_1' as ConversationId,
  constraints,
  agentTransferCount,
});
const customer = (text: string): TranscriptItem => ({ role: 'customer', text });

async function turn(
  steps: ScriptedStep[],
  options: {
    transcript?: TranscriptItem[];
    constraints?: Constraint[];
    extra?: Partial<AgentConfig>;
    decide?: () => DeciderVerdict;
    transfers?: number;
  } = {},
) {
  const box = toolbox();
  const policy = scriptedPolicy(steps);
  const result = await runTurn(
    agent(box.tools, options.extra),
    {
      conversation: conversation(options.constraints, options.transfers),
      transcript: options.transcript ?? [customer('I was charged twice')],
    },
    { policy, decide: options.decide ?? neverHandOff, clock: fixedClock() },
  );
  return { result, executed: box.executed, policy };
}

describe('the agent loop', () => {
  it('returns the reply when the model answers', async () => {
    const { result } = await turn([{ reply: 'Let me look into that.' }]);
    expect(result).toMatchObject({ type: 'reply', text: 'Let me look into that.' });
    expect(result.transcript.at(-1)).toEqual({ role: 'agent', text: 'Let me look into that.' });
  });

  it('a hand-off ends the loop at once: no tool proposed with it or after it runs', async () => {
    const { result, executed, policy } = await turn([
      {
        toolCalls: [
          { name: 'get_charges', arguments: { customer_id: 'c1' } },
          { name: 'handoff', arguments: { target: 'queue_billing', reason: 'customer_request', summary: 'wants a person' } },
          { name: 'refund_charge', arguments: { charge_id: 'ch_1', amount: 30 } },
        ],
      },
      { toolCalls: [{ name: 'get_charges', arguments: { customer_id: 'c1' } }] },
    ]);
    expect(result).toMatchObject({
      type: 'handoff',
      reason: 'customer_request',
      decidedBy: 'model',
      target: { type: 'queue', id: billingQueue },
      summary: 'wants a person',
    });
    expect(executed).toEqual([]);
    expect(policy.requests).toHaveLength(1);
  });

  it('offers the typed hand-off tool with this agent’s edges as an enum', async () => {
    const { policy } = await turn([{ reply: 'ok' }]);
    const spec = policy.requests[0]!.tools.find((t) => t.name === 'handoff');
    expect(spec?.parameters).toMatchObject({
      properties: { target: { enum: ['queue_billing', 'agent_refunds'] }, summary: { type: 'string', minLength: 1 } },
      required: ['target', 'reason', 'summary'],
    });
    expect(policy.requests[0]!.tools.map((t) => t.name)).not.toContain('transfer_to_human_agents');
  });

  it('accepts tau2-bench’s transfer_to_human_agents as the hand-off where the domain uses it', async () => {
    const { result } = await turn(
      [{ toolCalls: [{ name: 'transfer_to_human_agents', arguments: { summary: 'customer wants a human' } }] }],
      {
        extra: { tau2TransferAlias: true },
      },
    );
    expect(result).toMatchObject({
      type: 'handoff',
      reason: 'agent_decision',
      summary: 'customer wants a human',
      target: { id: billingQueue },
    });
  });

  it('never executes a call with invalid arguments, and shows the error to the model', async () => {
    const { result, executed, policy } = await turn([
      { toolCalls: [{ name: 'get_charges', arguments: '{"customer_id": ' }] },
      { toolCalls: [{ name: 'get_charges', arguments: { customer_id: 42 } }] },
      { toolCalls: [{ name: 'no_such_tool', arguments: {} }] },
      { reply: 'Sorry, something went wrong.' },
    ]);
    expect(executed).toEqual([]);
    expect(result.type).toBe('reply');
    const toolMessages = policy.requests[3]!.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(toolMessages[0]).toMatch(/not valid JSON/);
    expect(toolMessages[1]).toMatch(/customer_id/);
    expect(toolMessages[2]).toMatch(/unknown tool "no_such_tool"/);
  });

  it('an invalid hand-off is shown back to the model and hands nothing off', async () => {
    const { result } = await turn([
      { toolCalls: [{ name: 'handoff', arguments: { target: 'queue_nowhere', reason: 'customer_request', summary: 'x' } }] },
      { toolCalls: [{ name: 'handoff', arguments: { target: 'queue_billing', reason: 'customer_request', summary: '' } }] },
      { reply: 'Let me help you myself.' },
    ]);
    expect(result).toMatchObject({ type: 'reply' });
    expect(result.transcript.filter((i) => i.role === 'tool' && !i.ok)).toHaveLength(2);
  });

  it('caps agent-to-agent transfers: past the cap the hand-off goes to a human queue', async () => {
    const step: ScriptedStep = {
      toolCalls: [{ name: 'handoff', arguments: { target: 'agent_refunds', reason: 'agent_decision', summary: 'refund specialist' } }],
    };
    const below = await turn([step], { transfers: 1, extra: { maxAgentTransfers: 2 } });
    expect(below.result).toMatchObject({ type: 'handoff', target: { type: 'agent', id: specialist } });
    const atCap = await turn([step], { transfers: 2, extra: { maxAgentTransfers: 2 } });
    expect(atCap.result).toMatchObject({ type: 'handoff', target: { type: 'queue', id: billingQueue } });
    expect(atCap.result.type === 'handoff' && atCap.result.evidence).toMatch(/cap/);
  });

  it('ends in a step_limit hand-off when the model never replies', async () => {
    const { result, executed } = await turn(
      [
        { toolCalls: [{ name: 'get_charges', arguments: { customer_id: 'c1' } }] },
        { toolCalls: [{ name: 'get_charges', arguments: { customer_id: 'c1' } }] },
        { toolCalls: [{ name: 'get_charges', arguments: { customer_id: 'c1' } }] },
      ],
      {
        extra: { budget: { maxSteps: 3 } },
      },
    );
    expect(result).toMatchObject({ type: 'handoff', reason: 'step_limit', decidedBy: 'harness', message: HOLDING_MESSAGE });
    expect(executed).toHaveLength(3);
  });

  it('enforces the conversation’s budget of model calls and tokens', async () => {
    const box = toolbox();
    const result = await runTurn(
      agent(box.tools, { budget: { maxModelCalls: 5 } }),
      { conversation: conversation(), transcript: [customer('hi')], spent: { modelCalls: 5, tokens: 0, wallMs: 0 } },
      { policy: scriptedPolicy([{ reply: 'never asked' }]), decide: neverHandOff, clock: fixedClock() },
    );
    expect(result).toMatchObject({ type: 'handoff', reason: 'budget_exhausted' });
    const tokens = await runTurn(
      agent(box.tools, { budget: { maxTokens: 100 } }),
      { conversation: conversation(), transcript: [customer('hi')], spent: { modelCalls: 0, tokens: 100, wallMs: 0 } },
      { policy: scriptedPolicy([{ reply: 'never asked' }]), decide: neverHandOff, clock: fixedClock() },
    );
    expect(tokens).toMatchObject({ type: 'handoff', reason: 'budget_exhausted' });
    const time = await runTurn(
      agent(box.tools, { budget: { maxConversationMs: 60_000 } }),
      { conversation: conversation(), transcript: [customer('hi')], spent: { modelCalls: 0, tokens: 0, wallMs: 60_000 } },
      { policy: scriptedPolicy([{ reply: 'never asked' }]), decide: neverHandOff, clock: fixedClock() },
    );
    expect(time).toMatchObject({
      type: 'handoff',
      reason: 'budget_exhausted',
      evidence: expect.stringMatching(/conversation 60000 ms of 60000/),
    });
  });

  it('a turn that runs out of wall time ends in a hand-off, and reports the time it spent', async () => {
    const clock = fixedClock(Date.UTC(2026, 0, 1), 400);
    const box = toolbox();
    const result = await runTurn(
      agent(box.tools, { budget: { maxTurnMs: 1000 } }),
      { conversation: conversation(), transcript: [customer('hi')] },
      {
        policy: scriptedPolicy([{ toolCalls: [{ name: 'get_charges', arguments: { customer_id: 'c1' } }] }], {
          whenExhausted: 'repeat_last',
        }),
        decide: neverHandOff,
        clock,
      },
    );
    expect(result).toMatchObject({ type: 'handoff', reason: 'budget_exhausted', evidence: expect.stringMatching(/turn \d+ ms of 1000/) });
    expect(result.spent.wallMs).toBeGreaterThanOrEqual(1000);
  });

  it('sends a holding message and hands off when the provider is down', async () => {
    const { result } = await turn([{ fail: 'server_error', message: '503 from upstream' }]);
    expect(result).toMatchObject({ type: 'handoff', reason: 'provider_down', message: HOLDING_MESSAGE, target: { id: billingQueue } });
    expect(result.type === 'handoff' && result.evidence).toMatch(/503/);
  });

  it('a constraint from hand-back blocks the matching call, with the human’s reason, and only that call', async () => {
    const constraints = [{ tool: 'refund_charge', args: { charge_id: 'ch_7731' }, note: 'no refund for charge ch_7731' }];
    const { executed, policy } = await turn(
      [
        { toolCalls: [{ name: 'refund_charge', arguments: { charge_id: 'ch_7731', amount: 20 } }] },
        { toolCalls: [{ name: 'refund_charge', arguments: { charge_id: 'ch_1', amount: 20 } }] },
        { reply: 'Done.' },
      ],
      {
        constraints,
        transcript: [customer('refund both'), { role: 'agent', text: 'Shall I refund both charges?' }, customer('yes please')],
      },
    );
    expect(executed.map((e) => e.args)).toEqual([{ charge_id: 'ch_1', amount: 20 }]);
    const outputs = policy.requests[2]!.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(outputs[0]).toMatch(/no refund for charge ch_7731/);
    expect(policy.requests[0]!.messages[0]!.content).toMatch(/no refund for charge ch_7731/);
  });

  it('refuses a write that needs confirmation until the customer said yes, and gives writes an idempotency key', async () => {
    const refund: ScriptedStep = { toolCalls: [{ name: 'refund_charge', arguments: { charge_id: 'ch_1', amount: 30 } }] };
    const unconfirmed = await turn([refund, { reply: 'Shall I refund it?' }]);
    expect(unconfirmed.executed).toEqual([]);
    expect(unconfirmed.result.transcript.find((i) => i.role === 'tool')).toMatchObject({
      ok: false,
      output: expect.stringMatching(/confirmation/),
    });
    const confirmed = await turn([refund, { reply: 'Refunded.' }], {
      transcript: [
        customer('I was charged twice'),
        { role: 'agent', text: 'I can refund 30.00 on ch_1. Shall I?' },
        customer('Yes, go ahead.'),
      ],
    });
    expect(confirmed.executed).toEqual([
      { name: 'refund_charge', args: { charge_id: 'ch_1', amount: 30 }, idempotencyKey: 'conv_1:call_1' },
    ]);
  });

  it('a rule answers need_more_info until the tool log has the facts, then allows', async () => {
    const rule: DecisionRule = {
      id: 'duplicate_refund',
      version: 1,
      tool: 'refund_charge',
      evaluate: (args, findings) => {
        const duplicates = findings.get('duplicate_of') ?? [];
        if (duplicates.length === 0) return { decision: 'need_more_info', missing: ['duplicate_of (look up the charges first)'] };
        return Number(args['amount']) <= 50 ? { decision: 'allow' } : { decision: 'deny', reason: 'above the autonomous limit' };
      },
    };
    const confirmed = [customer('refund my duplicate'), { role: 'agent', text: 'Refund 30.00?' } as const, customer('yes')];
    const { executed, policy } = await turn(
      [
        { toolCalls: [{ name: 'refund_charge', arguments: { charge_id: 'ch_1', amount: 30 } }] },
        { toolCalls: [{ name: 'get_charges', arguments: { customer_id: 'c1' } }] },
        { toolCalls: [{ name: 'refund_charge', arguments: { charge_id: 'ch_1', amount: 80 } }] },
        { toolCalls: [{ name: 'refund_charge', arguments: { charge_id: 'ch_1', amount: 30 } }] },
        { reply: 'Refunded 30.00.' },
      ],
      { extra: { rules: [rule] }, transcript: confirmed },
    );
    const outputs = policy.requests[4]!.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(outputs[0]).toMatch(/duplicate_refund@v1 needs more information.*duplicate_of/);
    expect(outputs[2]).toMatch(/Refused by rule duplicate_refund@v1: above the autonomous limit/);
    expect(executed.map((e) => e.name)).toEqual(['get_charges', 'refund_charge']);
  });

  it('pauses for a human’s approval and resumes with the decision', async () => {
    const transcript = [customer('refund 900 please'), { role: 'agent', text: 'Refund 900.00?' } as const, customer('yes')];
    const box = toolbox();
    const cfg = agent(box.tools);
    const paused = await runTurn(
      cfg,
      { conversation: conversation(), transcript },
      {
        policy: scriptedPolicy([{ toolCalls: [{ name: 'refund_charge', arguments: { charge_id: 'ch_1', amount: 900 } }] }]),
        decide: neverHandOff,
        clock: fixedClock(),
      },
    );
    if (paused.type !== 'needs_approval') throw new Error(`expected needs_approval, got ${paused.type}`);
    expect(paused.why).toMatch(/supervisor/);
    expect(box.executed).toEqual([]);
    const declined = await runTurn(
      cfg,
      { conversation: conversation(), transcript, resume: { call: paused.call, approved: false } },
      {
        policy: scriptedPolicy([{ reply: 'A supervisor declined the refund.' }]),
        decide: neverHandOff,
        clock: fixedClock(),
      },
    );
    expect(declined).toMatchObject({ type: 'reply' });
    expect(box.executed).toEqual([]);
    const approved = await runTurn(
      cfg,
      { conversation: conversation(), transcript, resume: { call: paused.call, approved: true } },
      {
        policy: scriptedPolicy([{ reply: 'Refunded 900.00.' }]),
        decide: neverHandOff,
        clock: fixedClock(),
      },
    );
    expect(approved).toMatchObject({ type: 'reply', text: 'Refunded 900.00.' });
    expect(box.executed.map((e) => e.args)).toEqual([{ charge_id: 'ch_1', amount: 900 }]);
  });

  it('sandboxes calls: a hanging tool times out, a huge output is cut', async () => {
    const { result } = await turn([
      {
        toolCalls: [
          { name: 'slow_lookup', arguments: {} },
          { name: 'huge_lookup', arguments: {} },
        ],
      },
      { reply: 'ok' },
    ]);
    const tools = result.transcript.filter((i) => i.role === 'tool');
    expect(tools[0]).toMatchObject({ ok: false, output: expect.stringMatching(/timed out after 50 ms/) });
    expect(tools[1]).toMatchObject({ ok: true, output: expect.stringMatching(/output cut at 1000 of 50000 characters/) });
    expect((tools[1] as { output: string }).output.length).toBeLessThan(1100);
  });

  it('a tool call may not outlast the turn’s remaining time', async () => {
    const box = toolbox();
    const started = Date.now();
    const result = await runTurn(
      agent(box.tools, { sandbox: { timeoutMs: 10_000 }, budget: { maxTurnMs: 150 } }),
      { conversation: conversation(), transcript: [customer('hi')] },
      {
        policy: scriptedPolicy([{ toolCalls: [{ name: 'slow_lookup', arguments: {} }] }], { whenExhausted: 'repeat_last' }),
        decide: neverHandOff,
        clock: { now: Date.now },
      },
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result).toMatchObject({ type: 'handoff', reason: 'budget_exhausted' });
    expect(result.transcript.find((i) => i.role === 'tool')).toMatchObject({ ok: false, output: expect.stringMatching(/timed out/) });
  });

  it('delimits tool outputs as untrusted data in the context', async () => {
    const { policy } = await turn([{ toolCalls: [{ name: 'get_charges', arguments: { customer_id: 'c1' } }] }, { reply: 'ok' }]);
    const messages = policy.requests[1]!.messages;
    expect(messages[0]!.content).toMatch(/not instructions/);
    expect(messages.find((m) => m.role === 'tool')!.content).toMatch(/^<tool_output name="get_charges">[\s\S]*<\/tool_output>$/);
  });

  it('a hard trigger before the model is called hands off without calling the model', async () => {
    const { result, policy } = await turn([{ reply: 'never' }], {
      decide: () => ({
        handoff: true,
        reason: 'safety',
        target: null,
        evidence: 'I want to end my life',
        response: 'If you are in danger, call 911.',
      }),
    });
    expect(result).toMatchObject({
      type: 'handoff',
      reason: 'safety',
      decidedBy: 'decider',
      message: 'If you are in danger, call 911.',
      evidence: 'I want to end my life',
    });
    expect(policy.requests).toHaveLength(0);
  });

  it('runs the decider after every tool: a soft trigger mid-turn hands off', async () => {
    let failures = 0;
    const decide = (): DeciderVerdict =>
      failures >= 2
        ? { handoff: true, reason: 'tool_failures', target: null, evidence: '2 failed calls' }
        : { handoff: false, reason: null, target: null, evidence: null };
    const box = toolbox();
    const flaky = box.tools.find((t) => t.name === 'flaky')!;
    const counted = {
      ...flaky,
      execute: (a: Record<string, unknown>, c: Parameters<typeof flaky.execute>[1]) => ((failures += 1), flaky.execute(a, c)),
    };
    const result = await runTurn(
      agent([counted]),
      { conversation: conversation(), transcript: [customer('hi')] },
      {
        policy: scriptedPolicy([{ toolCalls: [{ name: 'flaky', arguments: {} }] }], { whenExhausted: 'repeat_last' }),
        decide,
        clock: fixedClock(),
      },
    );
    expect(result).toMatchObject({ type: 'handoff', reason: 'tool_failures', decidedBy: 'decider' });
    expect(failures).toBe(2);
  });

  it('abuse gets a fixed boundary-setting answer without the model, and a person if it goes on', async () => {
    const first = await turn([{ reply: 'never' }], { transcript: [customer('you useless idiot, refund me')] });
    expect(first.result).toMatchObject({ type: 'reply', text: expect.stringMatching(/respectful/) });
    expect(first.policy.requests).toHaveLength(0);
    const again = await turn([{ reply: 'never' }], {
      transcript: [customer('you useless idiot'), { role: 'agent', text: 'Let us keep it respectful.' }, customer('shut up, you moron')],
    });
    expect(again.result).toMatchObject({ type: 'handoff', reason: 'guardrail', decidedBy: 'harness' });
    expect(again.policy.requests).toHaveLength(0);
    const frustrated = await turn([{ reply: 'I understand, let me check.' }], {
      transcript: [customer('THIS IS USELESS, I asked three times!')],
    });
    expect(frustrated.result).toMatchObject({ type: 'reply', text: 'I understand, let me check.' });
  });

  it('an output guardrail stops a claim the tool log does not back', async () => {
    const { result } = await turn([{ reply: 'Good news: your refund has been issued!' }]);
    expect(result).toMatchObject({ type: 'handoff', reason: 'guardrail' });
    expect(result.type === 'handoff' && result.evidence).toMatch(/unbacked_claim: Good news: your refund has been issued!/);
    const backed = await turn([{ reply: 'Your refund has been issued.' }], {
      transcript: [
        customer('refund'),
        { role: 'tool', name: 'refund_charge', arguments: { charge_id: 'ch_1' }, ok: true, output: 'Refunded 30' },
      ],
    });
    expect(backed.result.type).toBe('reply');
  });
});

describe('a call the harness refuses', () => {
  it('is marked refused, and a made-up tool name is no reason to hand off for want of a capability', async () => {
    const { tools } = toolbox();
    const policy = scriptedPolicy([
      { toolCalls: [{ name: 'issue_voucher', arguments: { amount: 5 } }] },
      { reply: 'Let me check that another way.' },
    ]);
    const result = await runTurn(
      agent(tools),
      { conversation: conversation(), transcript: [customer('Can I get a voucher?')] },
      { policy, decide: harnessDecider(DeciderPolicySchema.parse({ defaultTarget: billingQueue })), clock: fixedClock() },
    );
    expect(result.type).toBe('reply');
    const refused = result.transcript.find((i) => i.role === 'tool');
    expect(refused).toMatchObject({ role: 'tool', name: 'issue_voucher', ok: false, refused: 'unknown_tool' });
    const verdicts = result.steps.flatMap((s) => (s.type === 'decider' ? [s.verdict] : []));
    expect(verdicts.every((v) => !v.handoff)).toBe(true);
  });
});
