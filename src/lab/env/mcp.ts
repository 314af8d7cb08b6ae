/**
 * The environment's tools over MCP (JSON-RPC 2.0: `initialize`, `ping`, `tools/list`,
 * `tools/call`), as OpenEnv serves them at HTTP `/mcp` and in the WebSocket's `mcp` messages.
 *
 * The tools are the agent's: one per domain tool with its own JSON Schema, the hand-off (with an
 * optional `message`, the words the customer is shown), `reply_to_customer` (a reply; the customer
 * answers) and `end` (the agent ends the conversation). A `tools/call` is one environment step.
 * A call the session refuses (no episode, the episode over) is a tool error (`isError: true`, the
 * episode unchanged); an unknown tool or bad params is a JSON-RPC error, never a step — so a
 * tool name the agent made up over MCP is not a hand-off, nor a format error in the reward.
 */
import { z } from 'zod';
import { clipEcho, isHandoffToolName } from '../../core/index.js';
import type { Domain } from '../../domains/domain.js';
import { EnvActionSchema, EnvError, envToolSpecs, type EnvAction, type EnvResult } from './session.js';

/** The MCP revision this server speaks when the client asks for none it knows. */
export const MCP_PROTOCOL_VERSION = '2025-06-18';
const KNOWN_PROTOCOL_VERSIONS = new Set(['2024-11-05', '2025-03-26', '2025-06-18']);

export const REPLY_TOOL = 'reply_to_customer';
export const END_TOOL = 'end';

/** JSON-RPC 2.0 error codes (and OpenEnv's server error). */
export const RPC = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  SERVER_ERROR: -32000,
} as const;

export type RpcId = string | number | null;
export type RpcResponse =
  { jsonrpc: '2.0'; id: RpcId; result: unknown } | { jsonrpc: '2.0'; id: RpcId; error: { code: number; message: string; data?: unknown } };

export const RpcRequestSchema = z.strictObject({
  jsonrpc: z.literal('2.0'),
  method: z.string().min(1),
  params: z.record(z.string(), z.unknown()).optional(),
  id: z
    .union([z.string().max(255), z.number().int()])
    .nullable()
    .optional(),
});
export type RpcRequest = z.infer<typeof RpcRequestSchema>;

export const rpcResult = (id: RpcId, result: unknown): RpcResponse => ({ jsonrpc: '2.0', id, result });
export const rpcError = (id: RpcId, code: number, message: string, data?: unknown): RpcResponse => ({
  jsonrpc: '2.0',
  id,
  error: { code, message, ...(data === undefined ? {} : { data }) },
});

export interface McpTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** The agent's tools as MCP tools: the domain's, the hand-off, the reply and `end`. */
export function mcpTools(domain: Domain): McpTool[] {
  const tools: McpTool[] = envToolSpecs(domain).map((spec) => {
    if (!isHandoffToolName(spec.name)) return { name: spec.name, description: spec.description, inputSchema: spec.parameters };
    const properties = (spec.parameters['properties'] ?? {}) as Record<string, unknown>;
    if ('message' in properties) throw new Error(`the hand-off tool ${spec.name} already has a "message" argument`);
    return {
      name: spec.name,
      description: spec.description,
      inputSchema: {
        ...spec.parameters,
        properties: { ...properties, message: { type: 'string', description: 'Words the customer is shown with the hand-off.' } },
      },
    };
  });
  for (const own of [REPLY_TOOL, END_TOOL]) {
    if (tools.some((t) => t.name === own))
      throw new Error(`the domain ${domain.name} has a tool named ${own}, which the environment reserves`);
  }
  tools.push(
    {
      name: REPLY_TOOL,
      description: "Say something to the customer. Ends your turn; the result is the customer's answer.",
      inputSchema: {
        type: 'object',
        properties: { message: { type: 'string', minLength: 1, description: 'What to say to the customer.' } },
        required: ['message'],
        additionalProperties: false,
      },
    },
    {
      name: END_TOOL,
      description: 'End the conversation (the customer is helped, or nothing more can be done). The episode is over and scored.',
      inputSchema: {
        type: 'object',
        properties: { message: { type: 'string', minLength: 1, description: 'Last words to the customer, if any.' } },
        additionalProperties: false,
      },
    },
  );
  return tools;
}

/**
 * OpenEnv's MCP actions (`ListToolsAction`, `CallToolAction`), which its `MCPToolClient` sends as
 * `step` data: `list_tools` is answered with the tools and is no step; `call_tool` is `tools/call`.
 */
export const McpActionSchema = z.discriminatedUnion('type', [
  z
    .strictObject({ type: z.literal('list_tools'), metadata: z.record(z.string(), z.unknown()).optional() })
    .describe('List the tools (no step).'),
  z
    .strictObject({
      type: z.literal('call_tool'),
      tool_name: z.string().min(1),
      arguments: z.record(z.string(), z.unknown()).default({}),
      metadata: z.record(z.string(), z.unknown()).optional(),
    })
    .describe('Call one tool, as tools/call: one step.'),
]);

/** Every action a `step` takes: Baton's own, and OpenEnv's MCP actions. */
export const StepActionSchema = z.union([EnvActionSchema, McpActionSchema]);

/** A `step` of an OpenEnv MCP action: the tools, or the step a `call_tool` stands for (as an MCP result beside it). */
export async function mcpStep(
  tools: readonly McpTool[],
  action: z.infer<typeof McpActionSchema>,
  step: (action: EnvAction) => Promise<EnvResult>,
): Promise<EnvResult> {
  if (action.type === 'list_tools') {
    return {
      observation: { tools: tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema })) },
      reward: null,
      done: false,
    };
  }
  const envAction = actionOfCall(tools, { name: action.tool_name, arguments: action.arguments });
  if (typeof envAction === 'string') throw new EnvError('VALIDATION_ERROR', envAction);
  const result = await step(envAction);
  return { ...result, observation: { ...result.observation, tool_name: action.tool_name, result: callResult(result) } };
}

/** The environment action a `tools/call` stands for, or why the call is not one. */
export function actionOfCall(tools: readonly McpTool[], params: Record<string, unknown>): EnvAction | string {
  const name = params['name'];
  if (typeof name !== 'string' || name === '') return 'tools/call needs params.name, a tool tools/list names';
  if (!tools.some((t) => t.name === name)) return `unknown tool ${JSON.stringify(clipEcho(name))}: tools/list names the tools`;
  const args = params['arguments'] ?? {};
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return 'tools/call params.arguments must be an object';
  const { message, ...rest } = args as Record<string, unknown>;
  if (message !== undefined && typeof message !== 'string') return 'the argument "message" must be a string';
  if (name === REPLY_TOOL) {
    if (Object.keys(rest).length > 0 || !message) return `${REPLY_TOOL} takes one argument, "message" (non-empty text)`;
    return { type: 'message', content: message };
  }
  if (name === END_TOOL) {
    if (Object.keys(rest).length > 0) return `${END_TOOL} takes at most one argument, "message"`;
    return message ? { type: 'end', content: message } : { type: 'end' };
  }
  if (isHandoffToolName(name)) return { type: 'tool_call', name, arguments: rest, ...(message ? { content: message } : {}) };
  return { type: 'tool_call', name, arguments: args as Record<string, unknown> };
}

/** What an agent reads of a step's result: the tool's output, or the customer's words. */
export function textOf(result: EnvResult): string {
  const o = result.observation;
  const parts: string[] = [];
  const toolResult = o['tool_result'] as { content?: string } | undefined;
  if (toolResult) parts.push(String(toolResult.content ?? ''));
  if (typeof o['harness_note'] === 'string') parts.push(o['harness_note']);
  if ('customer_message' in o)
    parts.push(typeof o['customer_message'] === 'string' ? o['customer_message'] : '(the customer said nothing)');
  if (result.done) parts.push('The conversation is over.');
  return parts.join('\n');
}

/** The result of a `tools/call` as MCP has it: text for the model, the whole step result beside it. */
export function callResult(result: EnvResult): Record<string, unknown> {
  return { content: [{ type: 'text', text: textOf(result) }], structuredContent: result, isError: false };
}

export interface McpContext {
  tools: readonly McpTool[];
  server: { name: string; version: string };
  /** Runs one step of the session the call belongs to; a string says why there is none. */
  step(params: Record<string, unknown>, action: EnvAction): Promise<EnvResult | string>;
  /** The transport's own methods (OpenEnv's `openenv/session/create`, …): a result, or an error response. */
  methods?: Record<string, (params: Record<string, unknown>, id: RpcId) => Promise<RpcResponse>>;
}

/**
 * Answers one JSON-RPC message: a response, or null for a notification (a request without an
 * id), which JSON-RPC answers with nothing.
 */
export async function handleRpc(message: unknown, context: McpContext): Promise<RpcResponse | null> {
  const parsed = RpcRequestSchema.safeParse(message);
  if (!parsed.success) {
    const id = (message as { id?: unknown } | null)?.id;
    return rpcError(
      typeof id === 'string' || typeof id === 'number' ? id : null,
      RPC.INVALID_REQUEST,
      'invalid JSON-RPC 2.0 request: {"jsonrpc": "2.0", "method", "params"?, "id"?}',
    );
  }
  const request = parsed.data;
  const id = request.id ?? null;
  const params = request.params ?? {};
  const notification = request.id === undefined;
  if (notification) return null;
  switch (request.method) {
    case 'initialize': {
      const asked = params['protocolVersion'];
      return rpcResult(id, {
        protocolVersion: typeof asked === 'string' && KNOWN_PROTOCOL_VERSIONS.has(asked) ? asked : MCP_PROTOCOL_VERSION,
        capabilities: { tools: { listChanged: false } },
        serverInfo: context.server,
        instructions: `Call ${REPLY_TOOL} to speak to the customer, a domain tool to act, the hand-off to pass the conversation to a person, and ${END_TOOL} when it is over.`,
      });
    }
    case 'ping':
      return rpcResult(id, {});
    case 'tools/list':
      return rpcResult(id, { tools: context.tools });
    case 'tools/call': {
      const action = actionOfCall(context.tools, params);
      if (typeof action === 'string') return rpcError(id, RPC.INVALID_PARAMS, action);
      try {
        const result = await context.step(params, action);
        if (typeof result === 'string') return rpcError(id, RPC.INVALID_PARAMS, result);
        return rpcResult(id, callResult(result));
      } catch (error) {
        if (!(error instanceof EnvError)) throw error;
        // The session refused the step (no episode, the episode over): a tool error, the episode unchanged.
        return rpcResult(id, { content: [{ type: 'text', text: error.message }], isError: true });
      }
    }
    default: {
      const method = context.methods?.[request.method];
      if (method) return method(params, id);
      return rpcError(id, RPC.METHOD_NOT_FOUND, `method not found: ${clipEcho(request.method)}`);
    }
  }
}
