import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentId, ConversationId, QueueId } from '../src/core/index.js';
import { createEndpointLimiters } from '../src/llm/endpoint-limiter.js';
import { createOpenAiPolicy } from '../src/llm/openai-policy.js';
import { HOLDING_MESSAGE, type AgentConfig } from '../src/runtime/agent-config.js';
import { runTurn, type DeciderVerdict } from '../src/runtime/agent-loop.js';
import { defineTool } from '../src/runtime/tool.js';
import { fixedClock } from '../src/testing/fixed-clock.js';
import { startScriptedOpenAiServer, type ScriptedOpenAiServer, type ScriptedStep } from '../src/testing/scripted-openai-server.js';

// The harness driving the real OpenAI-compatible client against the scripted server, over HTTP.

const servers: ScriptedOpenAiServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const queue = 'queue_billing' as QueueId;
const lookups: string[] = [];
const agent: AgentConfig = {
  id: 'agent_support' as AgentId,
  instructions: 'You are a billing support agent.',
  tools: [
    defineTool({
      name: 'get_charges',
      description: 'List charges.',
      kind: 'read',
      schema: z.object({ customer_id: z.string() }),
      execute: (args) => {
        lookups.push(args.customer_id);
        return [{ charge_id: 'ch_1', amount: 30 }];
      },
    }),
  ],
  handoff: { queues: [queue], agents: [] },
  defaultQueue: queue,
};
const quiet = (): DeciderVerdict => ({ handoff: false, reason: null, target: null, evidence: null });

async function turnAgainst(script: ScriptedStep[], stream: boolean) {
  const server = await startScriptedOpenAiServer({ script });
  servers.push(server);
  const policy = createOpenAiPolicy({
    baseURL: server.url,
    model: 'scripted',
    stream,
    maxRetries: 2,
    retryBaseMs: 1,
    sleep: async () => {},
    limiters: createEndpointLimiters(),
  });
  const result = await runTurn(
    agent,
    {
      conversation: { id: 'conv_1' as ConversationId, constraints: [], agentTransferCount: 0 },
      transcript: [{ role: 'customer', text: 'I was charged twice' }],
    },
    { policy, decide: quiet, clock: fixedClock() },
  );
  return { result, server, policy };
}

describe.each([false, true])('the harness over HTTP (stream: %s)', (stream) => {
  it('runs a tool the model called, then returns its reply', async () => {
    lookups.length = 0;
    const { result, server, policy } = await turnAgainst(
      [
        { type: 'reply', toolCalls: [{ name: 'get_charges', arguments: { customer_id: 'cust_9' } }] },
        { type: 'reply', content: 'I see one charge of 30.00.' },
      ],
      stream,
    );
    expect(result).toMatchObject({ type: 'reply', text: 'I see one charge of 30.00.' });
    expect(lookups).toEqual(['cust_9']);
    expect(server.requests).toHaveLength(2);
    expect(policy.usage().calls).toBe(2);
    expect(result.spent.modelCalls).toBe(2);
  });

  it('hands off with the holding message when the provider keeps failing', async () => {
    const down: ScriptedStep = { type: 'error', status: 503 };
    const { result, server } = await turnAgainst([down, down, down], stream);
    expect(result).toMatchObject({
      type: 'handoff',
      reason: 'provider_down',
      message: HOLDING_MESSAGE,
      target: { type: 'queue', id: queue },
    });
    expect(server.requests).toHaveLength(3);
  });

  it('hands off when the model uses the typed hand-off action', async () => {
    const { result } = await turnAgainst(
      [
        {
          type: 'reply',
          toolCalls: [
            { name: 'handoff', arguments: { target: 'queue_billing', reason: 'customer_request', summary: 'asked for a person' } },
          ],
        },
      ],
      stream,
    );
    expect(result).toMatchObject({ type: 'handoff', reason: 'customer_request', decidedBy: 'model', summary: 'asked for a person' });
  });
});
