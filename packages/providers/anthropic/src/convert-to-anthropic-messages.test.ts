import { describe, expect, it } from 'vitest';
import { convertToAnthropicMessages } from './convert-to-anthropic-messages.js';

describe('convertToAnthropicMessages', () => {
  it('puts system messages in the system parameter and images as base64 blocks', () => {
    const converted = convertToAnthropicMessages([
      { role: 'system', content: 'Be useful.' },
      { role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'text', text: '' }, { type: 'image', data: 'AAAA', mediaType: 'image/png' }] },
    ]);
    expect(converted.system).toEqual([{ type: 'text', text: 'Be useful.' }]);
    expect(converted.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } }] },
    ]);
  });

  it('keeps thinking, redacted thinking and tool_use in order, and drops unsigned reasoning with a warning', () => {
    const converted = convertToAnthropicMessages([
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'plan', signature: 'sig-1' },
          { type: 'reasoning', text: '', redactedData: 'opaque' },
          { type: 'reasoning', text: 'from another provider' },
          { type: 'text', text: '' },
          { type: 'tool-call', toolCallId: 'toolu_1', toolName: 'grep', input: { pattern: 'x' } },
        ],
      },
    ]);
    expect(converted.messages[0]!.content).toEqual([
      { type: 'thinking', thinking: 'plan', signature: 'sig-1' },
      { type: 'redacted_thinking', data: 'opaque' },
      { type: 'tool_use', id: 'toolu_1', name: 'grep', input: { pattern: 'x' } },
    ]);
    expect(converted.warnings).toHaveLength(1);
  });

  it('puts tool results before the text of the same user turn, whatever the order they came in', () => {
    const converted = convertToAnthropicMessages([
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 't1', toolName: 'ls', input: {} }] },
      { role: 'user', content: [{ type: 'text', text: 'reminder' }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 't1', toolName: 'ls', output: { type: 'content', value: [{ type: 'text', text: 'a.ts' }] } }] },
    ]);
    expect(converted.messages.map((message) => [message.role, message.content.map((block) => block.type)])).toEqual([
      ['user', ['text']],
      ['assistant', ['tool_use']],
      ['user', ['tool_result', 'text']],
    ]);
    expect(converted.messages[2]!.content[0]).toEqual({ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'a.ts' }] });
  });

  it('keeps the order of results from consecutive tool messages, before a later reminder', () => {
    const converted = convertToAnthropicMessages([
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 't1', toolName: 'ls', input: {} }, { type: 'tool-call', toolCallId: 't2', toolName: 'ls', input: {} }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 't1', toolName: 'ls', output: { type: 'text', value: '1' } }] },
      { role: 'user', content: [{ type: 'text', text: 'reminder' }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 't2', toolName: 'ls', output: { type: 'text', value: '2' } }] },
    ]);
    expect(converted.messages[1]!.content.map((block) => (block.type === 'tool_result' ? block.tool_use_id : block.type))).toEqual(['t1', 't2', 'text']);
  });

  it('marks error results with is_error', () => {
    const converted = convertToAnthropicMessages([{ role: 'tool', content: [{ type: 'tool-result', toolCallId: 't', toolName: 'x', output: { type: 'error-json', value: { code: 1 } } }] }]);
    expect(converted.messages[0]!.content[0]).toEqual({ type: 'tool_result', tool_use_id: 't', content: '{"code":1}', is_error: true });
  });

  it('sends a URL image as a url source and keeps the error flag of a tool result with images', () => {
    const converted = convertToAnthropicMessages([
      { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image', url: 'https://example.com/a.png', mediaType: 'image/png' }] },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 't1', toolName: 'shot', input: {} }] },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 't1', toolName: 'shot', output: { type: 'content', value: [{ type: 'text', text: 'failed' }, { type: 'image', data: 'iVBORw0KGgo=', mediaType: 'image/png' }], isError: true } }],
      },
    ]);
    expect(converted.messages[0]!.content[1]).toEqual({ type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } });
    expect(converted.messages[2]!.content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 't1',
        content: [{ type: 'text', text: 'failed' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }],
        is_error: true,
      },
    ]);
  });
});
