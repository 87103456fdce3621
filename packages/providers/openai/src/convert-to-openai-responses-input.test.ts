import { describe, expect, it } from 'vitest';
import { convertToOpenAIResponsesInput } from './convert-to-openai-responses-input.js';
import { unansweredToolCallText } from './convert-tool-result-output.js';

describe('convertToOpenAIResponsesInput', () => {
  it('sends reasoning back only with its encrypted content, and then leaves the message item ids out', () => {
    const { input } = convertToOpenAIResponsesInput([
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'hmm', providerMetadata: { openai: { itemId: 'rs_1' } } },
          { type: 'tool-call', toolCallId: 'call_1', toolName: 'ls', input: {}, providerMetadata: { openai: { itemId: 'fc_1' } } },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'ls', output: { type: 'text', value: 'a.ts' } }] },
    ]);
    expect(input).toEqual([
      { type: 'function_call', call_id: 'call_1', name: 'ls', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'a.ts' },
    ]);
  });

  it('ignores reasoning of other providers (signatures) and answers unanswered calls', () => {
    const { input } = convertToOpenAIResponsesInput([
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'from claude', signature: 'sig' },
          { type: 'text', text: 'Running.' },
          { type: 'tool-call', toolCallId: 'call_1', toolName: 'ls', input: { path: '.' } },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'stop' }] },
    ]);
    expect(input).toEqual([
      { role: 'assistant', content: 'Running.' },
      { type: 'function_call', call_id: 'call_1', name: 'ls', arguments: '{"path":"."}' },
      { type: 'function_call_output', call_id: 'call_1', output: unansweredToolCallText },
      { role: 'user', content: [{ type: 'input_text', text: 'stop' }] },
    ]);
  });

  it('passes a URL image as image_url and inline bytes as a data URL', () => {
    const { input } = convertToOpenAIResponsesInput([
      { role: 'user', content: [{ type: 'image', url: 'https://example.com/a.png' }, { type: 'image', data: 'iVBORw0KGgo=', mediaType: 'image/png' }] },
    ]);
    expect(input).toEqual([
      {
        role: 'user',
        content: [
          { type: 'input_image', image_url: 'https://example.com/a.png', detail: 'auto' },
          { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'auto' },
        ],
      },
    ]);
  });
});
