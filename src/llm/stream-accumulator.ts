/**
 * Rebuilds one completion from its streamed chunks. Tool calls arrive in pieces: the first delta
 * of a call carries its `index`, `id` and function name, later deltas only the `index` and the
 * next slice of the JSON arguments — and pieces of parallel calls may interleave. Usage comes in
 * a last chunk with no choices when the request asked for `stream_options.include_usage`.
 */
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { ToolCall } from '../core/policy.js';
import { fallbackCallId, normaliseContent, toTokenUsage, type CompletionReading } from './openai-wire.js';

/** Collects chunks with `add`, then `finish` reads the whole completion. */
export interface StreamAccumulator {
  add(chunk: ChatCompletionChunk): void;
  finish(): CompletionReading;
}

interface PartialCall {
  id: string;
  name: string;
  arguments: string;
}

/** A fresh accumulator for one streamed completion (first choice only: Baton asks for one). */
export function createStreamAccumulator(): StreamAccumulator {
  let content = '';
  let completionId = '';
  let sawChoice = false;
  let usage: ChatCompletionChunk['usage'];
  const calls = new Map<number, PartialCall>();

  return {
    add(chunk) {
      if (chunk.id) completionId = chunk.id;
      if (chunk.usage) usage = chunk.usage;
      const choice = chunk.choices?.find((c) => c.index === 0) ?? chunk.choices?.[0];
      if (!choice) return;
      sawChoice = true;
      const delta = choice.delta ?? {};
      if (typeof delta.content === 'string') content += delta.content;
      for (const piece of delta.tool_calls ?? []) {
        const call = calls.get(piece.index) ?? { id: '', name: '', arguments: '' };
        if (piece.id) call.id = piece.id;
        // Names come whole in the first delta, but some servers repeat them; never concatenate.
        if (piece.function?.name) call.name = piece.function.name;
        if (piece.function?.arguments) call.arguments += piece.function.arguments;
        calls.set(piece.index, call);
      }
    },
    finish() {
      if (!sawChoice) return { ok: false, message: 'malformed response: the stream carried no choices' };
      const toolCalls: ToolCall[] = [];
      for (const index of [...calls.keys()].sort((a, b) => a - b)) {
        const call = calls.get(index) as PartialCall;
        if (call.name === '') return { ok: false, message: `malformed response: streamed tool call ${index} has no function name` };
        toolCalls.push({ id: call.id || fallbackCallId(completionId, index), name: call.name, arguments: call.arguments });
      }
      return { ok: true, content: normaliseContent(content), toolCalls, usage: toTokenUsage(usage) };
    },
  };
}
