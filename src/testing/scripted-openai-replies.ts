/**
 * The script of the scripted OpenAI-compatible server, and how one scripted reply looks on the
 * wire: a whole `chat.completion`, or the `chat.completion.chunk`s of a streamed one.
 */
import { z } from 'zod';

/** A tool call the script makes the "model" propose. Object arguments are sent as JSON text. */
export const ScriptedToolCallSchema = z.object({
  /** Call id; `call_<request>_<index>` when unset. */
  id: z.string().min(1).optional(),
  name: z.string().min(1),
  arguments: z.union([z.string(), z.record(z.string(), z.unknown())]),
});
export type ScriptedToolCall = z.input<typeof ScriptedToolCallSchema>;

const UsageSchema = z.object({ promptTokens: z.number().int().nonnegative(), completionTokens: z.number().int().nonnegative() });

/**
 * One step of the script: what the server does with the next chat-completions request.
 * - `reply`: answer with content and/or tool calls (streamed when the request asks), `delayMs` after
 *   the request arrived (the server's own reading and checking of it counts towards the delay);
 * - `error`: answer with an HTTP error status, an OpenAI-style error body and extra headers (`Retry-After`);
 * - `raw`: answer with exactly this status and body (malformed answers);
 * - `hang`: never answer — the client's timeout or abort ends it;
 * - `disconnect`: drop the connection without answering (a network error).
 */
export const ScriptedStepSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('reply'),
    content: z.string().nullable().optional(),
    toolCalls: z.array(ScriptedToolCallSchema).optional(),
    /** Reported token usage; a rough estimate (characters / 4) when unset. */
    usage: UsageSchema.optional(),
    finishReason: z.enum(['stop', 'length', 'tool_calls', 'content_filter']).optional(),
    /** Wait before answering. */
    delayMs: z.number().int().nonnegative().optional(),
    /** Streamed only: wait between chunks (a slow or stalled stream after the headers went out). */
    chunkDelayMs: z.number().int().nonnegative().optional(),
  }),
  z.object({
    type: z.literal('error'),
    status: z.number().int().min(400).max(599),
    /** The JSON body; an OpenAI-style `{error: {message, type}}` when unset. */
    body: z.unknown().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    delayMs: z.number().int().nonnegative().optional(),
  }),
  z.object({
    type: z.literal('raw'),
    status: z.number().int().min(100).max(599).default(200),
    /** Sent as is when a string, as JSON otherwise. */
    body: z.unknown(),
    headers: z.record(z.string(), z.string()).optional(),
    delayMs: z.number().int().nonnegative().optional(),
  }),
  z.object({ type: z.literal('hang') }),
  z.object({ type: z.literal('disconnect'), delayMs: z.number().int().nonnegative().optional() }),
]);
/** A script step as written (defaults not yet applied). */
export type ScriptedStep = z.input<typeof ScriptedStepSchema>;
/** A reply step. */
export type ScriptedReply = Extract<z.output<typeof ScriptedStepSchema>, { type: 'reply' }>;

/** What a reply needs to know about the request and its place in the script. */
export interface ReplyContext {
  /** 1-based number of the request that this reply answers. */
  requestNumber: number;
  /** The model name the request asked for. */
  model: string;
  /** The request's messages, for the usage estimate. */
  messages: unknown;
  /** Seconds since the epoch. */
  created: number;
}

interface WireCall {
  id: string;
  name: string;
  arguments: string;
}

/** The usage a reply reports: the scripted one, else characters / 4 (an estimate, not a tokenizer). */
export function replyUsage(reply: ScriptedReply, context: ReplyContext) {
  if (reply.usage) return toWireUsage(reply.usage.promptTokens, reply.usage.completionTokens);
  const completionChars =
    (reply.content ?? '').length + wireCalls(reply, context).reduce((n, c) => n + c.name.length + c.arguments.length, 0);
  return toWireUsage(Math.ceil(JSON.stringify(context.messages ?? '').length / 4), Math.ceil(completionChars / 4));
}

/** A whole (non-streamed) `chat.completion` body. */
export function completionBody(reply: ScriptedReply, context: ReplyContext) {
  const calls = wireCalls(reply, context);
  return {
    id: completionId(context),
    object: 'chat.completion',
    created: context.created,
    model: context.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: reply.content ?? null,
          refusal: null,
          ...(calls.length > 0
            ? { tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })) }
            : {}),
        },
        logprobs: null,
        finish_reason: finishReason(reply, calls),
      },
    ],
    usage: replyUsage(reply, context),
  };
}

/**
 * The chunks of a streamed reply, as OpenAI sends them: a role chunk, the content in `pieces`
 * slices, then each tool call's first delta (index, id, name) and its arguments in `pieces` slices —
 * the slices of parallel calls interleaved, which clients must reassemble by `index` — a chunk with
 * the finish reason and, when asked for, a last chunk with usage and no choices.
 */
export function streamChunks(reply: ScriptedReply, context: ReplyContext, options: { pieces: number; includeUsage: boolean }): unknown[] {
  const calls = wireCalls(reply, context);
  const base = { id: completionId(context), object: 'chat.completion.chunk', created: context.created, model: context.model };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
  const chunks: unknown[] = [chunk({ role: 'assistant', content: '' })];
  for (const piece of split(reply.content ?? '', options.pieces)) chunks.push(chunk({ content: piece }));
  calls.forEach((call, index) =>
    chunks.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] })),
  );
  const sliced = calls.map((call) => split(call.arguments, options.pieces));
  for (let round = 0; round < options.pieces; round++) {
    sliced.forEach((slices, index) => {
      const piece = slices[round];
      if (piece !== undefined) chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    });
  }
  chunks.push(chunk({}, finishReason(reply, calls)));
  if (options.includeUsage) chunks.push({ ...base, choices: [], usage: replyUsage(reply, context) });
  return chunks;
}

function wireCalls(reply: ScriptedReply, context: ReplyContext): WireCall[] {
  return (reply.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_${context.requestNumber}_${index}`,
    name: call.name,
    arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
  }));
}

function finishReason(reply: ScriptedReply, calls: WireCall[]): string {
  return reply.finishReason ?? (calls.length > 0 ? 'tool_calls' : 'stop');
}

function completionId(context: ReplyContext): string {
  return `chatcmpl-scripted-${context.requestNumber}`;
}

function toWireUsage(prompt: number, completion: number) {
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/** `text` in at most `pieces` non-empty slices of near-equal length ([] for ''). */
function split(text: string, pieces: number): string[] {
  if (text === '') return [];
  const size = Math.ceil(text.length / Math.max(1, pieces));
  const slices: string[] = [];
  for (let at = 0; at < text.length; at += size) slices.push(text.slice(at, at + size));
  return slices;
}
