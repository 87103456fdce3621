import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { createOpenAIChatStreamState, finishOpenAIChatStream, mapOpenAIChatStreamChunk } from './map-openai-chat-stream-chunk.js';

function chunk(delta: Record<string, unknown>, finishReason: string | null = null, usage?: unknown): ChatCompletionChunk {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
    ...(usage ? { usage } : {}),
  } as ChatCompletionChunk;
}

describe('mapOpenAIChatStreamChunk', () => {
  it('emits tool-call only once the model finished, with the arguments joined', () => {
    const state = createOpenAIChatStreamState('req_1');
    const first = mapOpenAIChatStreamChunk(chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'ls', arguments: '{"pa' } }] }), state);
    expect(first.map((part) => part.type)).toEqual(['response-metadata', 'tool-input-start', 'tool-input-delta']);
    expect(first[0]).toMatchObject({ requestId: 'req_1' });
    const second = mapOpenAIChatStreamChunk(chunk({ tool_calls: [{ index: 0, function: { arguments: 'th":"."}' } }] }), state);
    expect(second).toEqual([{ type: 'tool-input-delta', id: 'call_1', delta: 'th":"."}' }]);
    expect(finishOpenAIChatStream(state)).toBeUndefined();
    const last = mapOpenAIChatStreamChunk(chunk({}, 'tool_calls'), state);
    expect(last).toEqual([
      { type: 'tool-input-end', id: 'call_1' },
      { type: 'tool-call', toolCallId: 'call_1', toolName: 'ls', input: '{"path":"."}' },
    ]);
  });

  it('reads usage from the final chunk without choices, cached tokens included', () => {
    const state = createOpenAIChatStreamState();
    mapOpenAIChatStreamChunk(chunk({ content: 'hi' }, 'stop'), state);
    mapOpenAIChatStreamChunk(
      { ...chunk({}), choices: [], usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110, prompt_tokens_details: { cached_tokens: 80 }, completion_tokens_details: { reasoning_tokens: 4 } } } as ChatCompletionChunk,
      state,
    );
    const [finish] = finishOpenAIChatStream(state)!;
    expect(finish).toMatchObject({
      type: 'finish',
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: { inputTokens: { total: 100, noCache: 20, cacheRead: 80 }, outputTokens: { total: 10, text: 6, reasoning: 4 } },
    });
  });

  it('turns a stop after tool calls (some compatible servers) into tool-calls', () => {
    const state = createOpenAIChatStreamState();
    mapOpenAIChatStreamChunk(chunk({ tool_calls: [{ index: 0, id: 'c', function: { name: 'x', arguments: '' } }] }), state);
    const parts = mapOpenAIChatStreamChunk(chunk({}, 'stop'), state);
    expect(parts.at(-1)).toEqual({ type: 'tool-call', toolCallId: 'c', toolName: 'x', input: '{}' });
    expect(finishOpenAIChatStream(state)?.[0]).toMatchObject({ finishReason: { unified: 'tool-calls', raw: 'stop' } });
  });

  it('ignores choices other than index 0', () => {
    const state = createOpenAIChatStreamState();
    const parts = mapOpenAIChatStreamChunk({ ...chunk({}), choices: [{ index: 1, delta: { content: 'other' }, finish_reason: null, logprobs: null }] } as ChatCompletionChunk, state);
    expect(parts.map((part) => part.type)).toEqual(['response-metadata']);
  });

  it('streams the reasoning field of compatible servers as a reasoning part before the text', () => {
    const state = createOpenAIChatStreamState();
    const parts = [
      ...mapOpenAIChatStreamChunk(chunk({ reasoning_content: 'Let me think' }), state),
      ...mapOpenAIChatStreamChunk(chunk({ reasoning: '.' }), state),
      ...mapOpenAIChatStreamChunk(chunk({ content: 'Answer' }), state),
      ...mapOpenAIChatStreamChunk(chunk({}, 'stop'), state),
    ];
    expect(parts.slice(1)).toEqual([
      { type: 'reasoning-start', id: 'reasoning-0' },
      { type: 'reasoning-delta', id: 'reasoning-0', delta: 'Let me think' },
      { type: 'reasoning-delta', id: 'reasoning-0', delta: '.' },
      { type: 'reasoning-end', id: 'reasoning-0' },
      { type: 'text-start', id: 'text-0' },
      { type: 'text-delta', id: 'text-0', delta: 'Answer' },
      { type: 'text-end', id: 'text-0' },
    ]);
  });
});
