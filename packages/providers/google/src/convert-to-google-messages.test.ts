import { describe, expect, it } from 'vitest';
import { convertToGoogleMessages, PLACEHOLDER_THOUGHT_SIGNATURE } from './convert-to-google-messages.js';

describe('convertToGoogleMessages', () => {
  it('system messages become systemInstruction; images inlineData', () => {
    const converted = convertToGoogleMessages([
      { role: 'system', content: 'A' },
      { role: 'system', content: 'B' },
      { role: 'user', content: [{ type: 'text', text: '' }, { type: 'image', data: 'AAAA', mediaType: 'image/png' }] },
    ]);
    expect(converted.systemInstruction).toEqual({ parts: [{ text: 'A' }, { text: 'B' }] });
    expect(converted.contents).toEqual([{ role: 'user', parts: [{ inlineData: { mimeType: 'image/png', data: 'AAAA' } }] }]);
  });

  it('function responses carry the call name and API id, in order, before later user text', () => {
    const converted = convertToGoogleMessages([
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'gen-0', toolName: 'read', input: { path: 'a' }, providerMetadata: { google: { thoughtSignature: 'sig' } } },
          { type: 'tool-call', toolCallId: 'api-9', toolName: 'grep', input: { q: 'x' }, providerMetadata: { google: { functionCallId: 'api-9' } } },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'gen-0', toolName: 'read', output: { type: 'text', value: 'A' } }] },
      { role: 'user', content: [{ type: 'text', text: 'reminder' }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'api-9', toolName: 'grep', output: { type: 'error-text', value: 'bad regex' } }] },
    ]);
    expect(converted.contents).toEqual([
      {
        role: 'model',
        parts: [
          { functionCall: { name: 'read', args: { path: 'a' } }, thoughtSignature: 'sig' },
          { functionCall: { id: 'api-9', name: 'grep', args: { q: 'x' } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'read', response: { output: 'A' } } },
          { functionResponse: { id: 'api-9', name: 'grep', response: { error: 'bad regex' } } },
          { text: 'reminder' },
        ],
      },
    ]);
  });

  it('reasoning goes back as thought parts; the placeholder only when a turn has no signature at all', () => {
    const unsigned = convertToGoogleMessages([{ role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'a', toolName: 'ls', input: {} }, { type: 'tool-call', toolCallId: 'b', toolName: 'ls', input: {} }] }], { placeholderSignatures: true });
    expect(unsigned.contents[0]!.parts.map((part) => ('thoughtSignature' in part ? part.thoughtSignature : undefined))).toEqual([PLACEHOLDER_THOUGHT_SIGNATURE, undefined]);
    const signed = convertToGoogleMessages(
      [{ role: 'assistant', content: [{ type: 'reasoning', text: 'think', signature: 'rs' }, { type: 'tool-call', toolCallId: 'a', toolName: 'ls', input: {} }] }],
      { placeholderSignatures: true },
    );
    expect(signed.contents[0]!.parts).toEqual([{ text: 'think', thought: true, thoughtSignature: 'rs' }, { functionCall: { name: 'ls', args: {} } }]);
  });

  it('a URL image is fileData (type from the extension, or none), and a GIF is said in text', () => {
    const converted = convertToGoogleMessages([
      {
        role: 'user',
        content: [
          { type: 'image', url: 'https://example.com/shot.png', mediaType: 'image/png' },
          { type: 'image', url: 'https://example.com/render?id=3' },
          { type: 'image', data: 'R0lGODlhAQABAAAAACw=', mediaType: 'image/gif' },
        ],
      },
    ]);
    expect(converted.contents[0]!.parts).toEqual([
      { fileData: { fileUri: 'https://example.com/shot.png', mimeType: 'image/png' } },
      { fileData: { fileUri: 'https://example.com/render?id=3' } },
      { text: '[An image/gif image was left out: Gemini does not read image/gif images.]' },
    ]);
    expect(converted.warnings).toHaveLength(1);
  });

  it('images of a tool result follow the function responses; an error with images stays an error', () => {
    const converted = convertToGoogleMessages([
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'shot', input: {} }] },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'shot',
            output: { type: 'content', value: [{ type: 'text', text: 'broken page' }, { type: 'image', data: 'iVBORw0KGgo=', mediaType: 'image/png' }], isError: true },
          },
        ],
      },
    ]);
    expect(converted.contents[1]).toEqual({
      role: 'user',
      parts: [
        { functionResponse: { name: 'shot', response: { error: 'broken page' } } },
        { text: 'Images returned by the shot call:' },
        { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
      ],
    });
    expect(converted.warnings).toEqual([]);
  });
});
