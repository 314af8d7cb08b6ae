import { z } from 'zod';

/**
 * The policy port: what the harness asks for the next step. A policy is a language model
 * behind an OpenAI-compatible endpoint, a scripted test double, or a rule-based domain agent.
 * The model proposes; the harness disposes.
 */

/** A tool as a model sees it: the JSON Schema of its arguments comes from its zod schema. */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object (from `z.toJSONSchema`). */
  parameters: Record<string, unknown>;
}

/** A tool call as the model wrote it: `arguments` is the raw JSON text, unparsed and unchecked. */
export const ToolCallSchema = z.object({ id: z.string(), name: z.string(), arguments: z.string() });
export type ToolCall = z.infer<typeof ToolCallSchema>;

/** The conversation as a chat model sees it. */
export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; toolCalls: ToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string };

export interface PolicyRequest {
  messages: ChatMessage[];
  tools: ToolSpec[];
  /** Aborts the request (the harness's wall-time budget). */
  signal?: AbortSignal;
}

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
}

/** Why a policy could not answer. An expected outcome: returned, never thrown. */
export interface PolicyFailure {
  kind: 'timeout' | 'rate_limited' | 'server_error' | 'bad_request' | 'network' | 'aborted' | 'exhausted';
  message: string;
  /** HTTP status, when there was one. */
  status?: number;
}

export type PolicyResponse =
  { ok: true; content: string | null; toolCalls: ToolCall[]; usage: TokenUsage } | { ok: false; failure: PolicyFailure };

/** Proposes the next step: a reply (content), tool calls, or both. */
export interface Policy {
  readonly name: string;
  next(request: PolicyRequest): Promise<PolicyResponse>;
}
