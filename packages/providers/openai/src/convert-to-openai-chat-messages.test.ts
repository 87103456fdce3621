import { describe, expect, it } from 'vitest';
import { convertToOpenAIChatMessages } from './convert-to-openai-chat-messages.js';
import { unansweredToolCallText } from './convert-tool-result-output.js';

describe('convertToOpenAIChatMessages', () => {
  it('sends a single text part as a string and images as data URLs', () => {
    const { messages } = convertToOpenAIChatMessages([
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image', data: 'AAAA', mediaType: 'image/jpeg' }] },
    ]);
    expect(messages).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,AAAA' } }] },
    ]);
  });

  it('drops reasoning, joins text and keeps raw (unparsable) tool input text as is', () => {
    const { messages } = convertToOpenAIChatMessages([
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'thinking' },
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'run', input: '{"cmd": "ls' },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'run', output: { type: 'text', value: 'ok' } }] },
    ]);
    expect(messages).toEqual([
      { role: 'assistant', content: 'ab', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'run', arguments: '{"cmd": "ls' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'ok' },
    ]);
  });

  it('answers every tool call: a call without result gets one before the next message', () => {
    const { messages } = convertToOpenAIChatMessages([
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'c1', toolName: 'a', input: {} },
          { type: 'tool-call', toolCallId: 'c2', toolName: 'b', input: {} },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c2', toolName: 'b', output: { type: 'json', value: [1] } }] },
      { role: 'user', content: [{ type: 'text', text: 'go on' }] },
    ]);
    expect(messages.slice(1)).toEqual([
      { role: 'tool', tool_call_id: 'c2', content: '[1]' },
      { role: 'tool', tool_call_id: 'c1', content: unansweredToolCallText },
      { role: 'user', content: 'go on' },
    ]);
  });

  it('answers a trailing call at the end of the prompt and drops results nobody asked for, with a warning', () => {
    const { messages, warnings } = convertToOpenAIChatMessages([
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'ghost', toolName: 'x', output: { type: 'text', value: '?' } }] },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'a', input: {} }] },
    ]);
    expect(messages).toEqual([
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'a', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: unansweredToolCallText },
    ]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toContain('ghost');
  });

  it('passes a URL image as its URL', () => {
    const { messages } = convertToOpenAIChatMessages([{ role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image', url: 'https://example.com/a.webp' }] }]);
    expect(messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image_url', image_url: { url: 'https://example.com/a.webp' } }] }]);
  });
});
