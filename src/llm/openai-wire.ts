/**
 * The chat-completions wire format, both ways: Baton's `ChatMessage`/`ToolSpec` to what an
 * OpenAI-compatible server reads, and a non-streamed completion back to a tool-call proposal.
 */
import type { ChatCompletion, ChatCompletionFunctionTool, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import type { ChatMessage, TokenUsage, ToolCall, ToolSpec } from '../core/policy.js';

/** What one completion proposed, or why it could not be read. */
export type CompletionReading =
  { ok: true; content: string | null; toolCalls: ToolCall[]; usage: TokenUsage } | { ok: false; message: string };

/** Baton's conversation as chat-completions messages. */
export function toOpenAiMessages(messages: readonly ChatMessage[]): ChatCompletionMessageParam[] {
  return messages.map((message): ChatCompletionMessageParam => {
    switch (message.role) {
      case 'system':
      case 'user':
        return { role: message.role, content: message.content };
      case 'assistant':
        // OpenAI rejects an empty `tool_calls` array, so a plain reply carries none.
        return message.toolCalls.length === 0
          ? { role: 'assistant', content: message.content }
          : {
              role: 'assistant',
              content: message.content,
              tool_calls: message.toolCalls.map((call) => ({
                id: call.id,
                type: 'function',
                function: { name: call.name, arguments: call.arguments },
              })),
            };
      case 'tool':
        return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    }
  });
}

/** Tool specs as function tools. */
export function toOpenAiTools(tools: readonly ToolSpec[]): ChatCompletionFunctionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}

/** Token counts of a usage block; servers that report none (some local ones) count as zero. */
export function toTokenUsage(usage: CompletionUsage | null | undefined): TokenUsage {
  return { promptTokens: usage?.prompt_tokens ?? 0, completionTokens: usage?.completion_tokens ?? 0 };
}

/** An empty reply is no reply: `''` and `null` both mean the model wrote nothing. */
export function normaliseContent(content: string | null | undefined): string | null {
  return content === undefined || content === null || content === '' ? null : content;
}

/** Reads the first choice of a non-streamed completion. A completion without one is malformed. */
export function readCompletion(completion: ChatCompletion): CompletionReading {
  // The SDK types promise `choices`; a misbehaving server does not, so check what arrived.
  const choices: unknown = (completion as { choices?: unknown }).choices;
  if (!Array.isArray(choices) || choices.length === 0) return { ok: false, message: 'malformed response: no choices' };
  const message = (choices[0] as Partial<ChatCompletion.Choice> | undefined)?.message;
  if (!message || typeof message !== 'object') return { ok: false, message: 'malformed response: the first choice has no message' };
  const toolCalls: ToolCall[] = [];
  for (const [index, call] of (message.tool_calls ?? []).entries()) {
    // Custom (free-text) tools are never offered, so only function calls can come back.
    if (call.type !== 'function' || typeof call.function?.name !== 'string' || call.function.name === '') {
      return { ok: false, message: `malformed response: tool call ${index} has no function name` };
    }
    toolCalls.push({
      id: call.id || fallbackCallId(completion.id, index),
      name: call.function.name,
      arguments: call.function.arguments ?? '',
    });
  }
  return { ok: true, content: normaliseContent(message.content), toolCalls, usage: toTokenUsage(completion.usage) };
}

/**
 * An id for a tool call the server sent without one (some local servers do). It must be unique in
 * the conversation, since tool results are matched to calls by id, so it carries the completion's.
 */
export function fallbackCallId(completionId: string | undefined, index: number): string {
  return `call_${completionId || 'anonymous'}_${index}`;
}
