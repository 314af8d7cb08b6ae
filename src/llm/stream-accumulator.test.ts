import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { createStreamAccumulator } from './stream-accumulator.js';

const chunk = (delta: ChatCompletionChunk.Choice.Delta, extra: Partial<ChatCompletionChunk> = {}): ChatCompletionChunk => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 0,
  model: 'm',
  choices: [{ index: 0, delta, finish_reason: null }],
  ...extra,
});

describe('stream accumulator', () => {
  it('joins content and interleaved argument slices by index, and keeps the usage of the last chunk', () => {
    const accumulator = createStreamAccumulator();
    accumulator.add(chunk({ role: 'assistant', content: '' }));
    accumulator.add(chunk({ content: 'Checking' }));
    accumulator.add(chunk({ content: '…' }));
    accumulator.add(chunk({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'refund', arguments: '' } }] }));
    accumulator.add(
      chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'lookup', arguments: '{"id"' } }] }),
    );
    accumulator.add(chunk({ tool_calls: [{ index: 1, function: { arguments: '{"amount":' } }] }));
    accumulator.add(chunk({ tool_calls: [{ index: 0, function: { arguments: ':"7"}' } }] }));
    accumulator.add(chunk({ tool_calls: [{ index: 1, function: { name: 'refund', arguments: '5}' } }] }));
    accumulator.add({ ...chunk({}), choices: [], usage: { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 } });
    expect(accumulator.finish()).toEqual({
      ok: true,
      content: 'Checking…',
      toolCalls: [
        { id: 'call_a', name: 'lookup', arguments: '{"id":"7"}' },
        { id: 'call_b', name: 'refund', arguments: '{"amount":5}' },
      ],
      usage: { promptTokens: 9, completionTokens: 4 },
    });
  });

  it('gives a call sent without an id one that carries the completion id', () => {
    const accumulator = createStreamAccumulator();
    accumulator.add(chunk({ tool_calls: [{ index: 0, function: { name: 'lookup', arguments: '{}' } }] }));
    expect(accumulator.finish()).toMatchObject({
      ok: true,
      content: null,
      toolCalls: [{ id: 'call_chatcmpl-1_0' }],
      usage: { promptTokens: 0 },
    });
  });

  it('is malformed without any choice, or with a nameless call', () => {
    expect(createStreamAccumulator().finish()).toMatchObject({ ok: false });
    const accumulator = createStreamAccumulator();
    accumulator.add(chunk({ tool_calls: [{ index: 0, function: { arguments: '{}' } }] }));
    expect(accumulator.finish()).toMatchObject({ ok: false, message: expect.stringContaining('no function name') });
  });
});
