import { describe, expect, it } from 'vitest';
import { loadDomain } from '../../domains/load-domain.js';
import { actionOfCall, END_TOOL, handleRpc, MCP_PROTOCOL_VERSION, mcpTools, REPLY_TOOL, textOf, type McpContext } from './mcp.js';
import { EnvError, type EnvAction } from './session.js';

describe("the environment's MCP tools", async () => {
  const domain = await loadDomain('billing');
  const tools = mcpTools(domain);

  it('turns each tools/call into the one action it stands for', () => {
    expect(actionOfCall(tools, { name: 'list_charges', arguments: { customer_id: 'cus_1' } })).toEqual({
      type: 'tool_call',
      name: 'list_charges',
      arguments: { customer_id: 'cus_1' },
    });
    // The hand-off's message is the words the customer is shown, not an argument of the hand-off.
    expect(
      actionOfCall(tools, {
        name: 'handoff',
        arguments: { target: 'queue_billing', reason: 'customer_request', summary: 's', message: 'One moment.' },
      }),
    ).toEqual({
      type: 'tool_call',
      name: 'handoff',
      arguments: { target: 'queue_billing', reason: 'customer_request', summary: 's' },
      content: 'One moment.',
    });
    expect(actionOfCall(tools, { name: REPLY_TOOL, arguments: { message: 'Hello' } })).toEqual({ type: 'message', content: 'Hello' });
    expect(actionOfCall(tools, { name: END_TOOL })).toEqual({ type: 'end' });
    expect(actionOfCall(tools, { name: END_TOOL, arguments: { message: 'Bye' } })).toEqual({ type: 'end', content: 'Bye' });
  });

  it('says why a call is not one, quoting at most a clipped name', () => {
    expect(actionOfCall(tools, {})).toMatch(/params.name/);
    expect(actionOfCall(tools, { name: 'x'.repeat(10_000) })).toMatch(/unknown tool "x+… \(10000 characters\)"/);
    expect(actionOfCall(tools, { name: 'list_plans', arguments: [] })).toMatch(/must be an object/);
    expect(actionOfCall(tools, { name: REPLY_TOOL, arguments: {} })).toMatch(/"message"/);
    expect(actionOfCall(tools, { name: END_TOOL, arguments: { other: 1 } })).toMatch(/at most one argument/);
    expect(actionOfCall(tools, { name: REPLY_TOOL, arguments: { message: 3 } })).toMatch(/must be a string/);
  });

  it('answers JSON-RPC: a notification with nothing, a refused step as a tool error, a bad request as an error', async () => {
    const steps: EnvAction[] = [];
    const context: McpContext = {
      tools,
      server: { name: 'test', version: '1.0.0' },
      step: async (_params, action) => {
        steps.push(action);
        if (action.type === 'end') throw new EnvError('EXECUTION_ERROR', 'the episode is over: reset to start another');
        return { observation: { customer_message: 'Thanks' }, reward: null, done: false };
      },
    };
    expect(await handleRpc({ jsonrpc: '2.0', method: 'notifications/initialized' }, context)).toBeNull();
    expect(
      await handleRpc({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '1999-01-01' } }, context),
    ).toMatchObject({
      result: { protocolVersion: MCP_PROTOCOL_VERSION, serverInfo: { name: 'test' } },
    });
    expect(await handleRpc({ jsonrpc: '1.0', id: 2, method: 'ping' }, context)).toMatchObject({ id: 2, error: { code: -32600 } });
    expect(
      await handleRpc({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: REPLY_TOOL, arguments: { message: 'Hi' } } }, context),
    ).toEqual({
      jsonrpc: '2.0',
      id: 3,
      result: {
        content: [{ type: 'text', text: 'Thanks' }],
        structuredContent: { observation: { customer_message: 'Thanks' }, reward: null, done: false },
        isError: false,
      },
    });
    expect(await handleRpc({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: END_TOOL } }, context)).toMatchObject({
      result: { isError: true, content: [{ text: expect.stringMatching(/over/) }] },
    });
    expect(await handleRpc({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'nope' } }, context)).toMatchObject({
      error: { code: -32602 },
    });
    expect(steps.map((s) => s.type)).toEqual(['message', 'end']);
  });

  it('gives a model the text of a result: the tool output, the customer, and the end', () => {
    expect(textOf({ observation: { tool_result: { content: 'ok' } }, reward: null, done: false })).toBe('ok');
    expect(textOf({ observation: { customer_message: null }, reward: 0, done: true })).toBe(
      '(the customer said nothing)\nThe conversation is over.',
    );
  });
});
