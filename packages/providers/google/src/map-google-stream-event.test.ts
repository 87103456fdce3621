import { describe, expect, it } from 'vitest';
import { createGoogleStreamState, finishGoogleStream, type GoogleChunkLike, mapGoogleStreamChunk } from './map-google-stream-event.js';

function run(chunks: GoogleChunkLike[]) {
  const state = createGoogleStreamState((responseId, index) => `${responseId}-${index}`);
  return [...chunks.flatMap((chunk) => mapGoogleStreamChunk(state, chunk)), ...finishGoogleStream(state)];
}

describe('mapGoogleStreamChunk', () => {
  it('two signed text parts stay two blocks, each with its own signature', () => {
    const parts = run([
      { responseId: 'r', candidates: [{ content: { parts: [{ text: 'a', thoughtSignature: 's1' }, { text: 'b', thoughtSignature: 's2' }] }, finishReason: 'STOP' }] },
    ]);
    expect(parts.filter((part) => part.type === 'text-end')).toEqual([
      { type: 'text-end', id: 'text-0', providerMetadata: { google: { thoughtSignature: 's1' } } },
      { type: 'text-end', id: 'text-1', providerMetadata: { google: { thoughtSignature: 's2' } } },
    ]);
  });

  it('an API-given call id is used and remembered for the function response', () => {
    const parts = run([{ responseId: 'r', candidates: [{ content: { parts: [{ functionCall: { id: 'api-1', name: 'ls', args: { a: 1 } } }] }, finishReason: 'STOP' }] }]);
    expect(parts.find((part) => part.type === 'tool-call')).toEqual({ type: 'tool-call', toolCallId: 'api-1', toolName: 'ls', input: '{"a":1}', providerMetadata: { google: { functionCallId: 'api-1' } } });
  });

  it('MALFORMED_FUNCTION_CALL finishes with error and keeps the finish message', () => {
    const parts = run([{ candidates: [{ finishReason: 'MALFORMED_FUNCTION_CALL', finishMessage: 'Malformed function call: print(' }] }]);
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'error', raw: 'MALFORMED_FUNCTION_CALL' }, providerMetadata: { google: { finishMessage: 'Malformed function call: print(' } } });
  });

  it('a blocked prompt finishes with content-filter', () => {
    const parts = run([{ promptFeedback: { blockReason: 'PROHIBITED_CONTENT' }, usageMetadata: { promptTokenCount: 5 } }]);
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'content-filter', raw: 'PROHIBITED_CONTENT' } });
  });

  it('a stream that closes while Vertex arguments still stream emits no call, only an error', () => {
    const parts = run([{ responseId: 'r', candidates: [{ content: { parts: [{ functionCall: { name: 'write', willContinue: true } }, { functionCall: { partialArgs: [{ jsonPath: '$.file.path', stringValue: 'a.ts', willContinue: true }], willContinue: true } }] } }] }]);
    expect(parts.some((part) => part.type === 'tool-call')).toBe(false);
    expect(parts.at(-1)).toMatchObject({ type: 'error' });
  });

  it('nested partial arguments assemble', () => {
    const parts = run([
      { responseId: 'r', candidates: [{ content: { parts: [{ functionCall: { name: 'write', willContinue: true } }] } }] },
      { candidates: [{ content: { parts: [{ functionCall: { partialArgs: [{ jsonPath: '$.file.path', stringValue: 'a' }, { jsonPath: '$.file.path', stringValue: '.ts' }, { jsonPath: '$.force', boolValue: true }, { jsonPath: '$.n', numberValue: 2 }], willContinue: true } }] } }] },
      { candidates: [{ content: { parts: [{ functionCall: {} }] }, finishReason: 'STOP' }] },
    ]);
    expect(parts.find((part) => part.type === 'tool-call')).toMatchObject({ toolCallId: 'r-0', input: '{"file":{"path":"a.ts"},"force":true,"n":2}' });
  });

  it('a stream without a finish reason is incomplete', () => {
    const parts = run([{ candidates: [{ content: { parts: [{ text: 'cut' }] } }] }]);
    expect(parts.map((part) => part.type)).toEqual(['response-metadata', 'text-start', 'text-delta', 'text-end', 'error']);
  });

  it('cached tokens are part of the prompt; thoughts add to the output', () => {
    const parts = run([{ candidates: [{ finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 1000, cachedContentTokenCount: 800, candidatesTokenCount: 50, thoughtsTokenCount: 150 } }]);
    expect(parts.at(-1)).toMatchObject({ usage: { inputTokens: { total: 1000, noCache: 200, cacheRead: 800 }, outputTokens: { total: 200, text: 50, reasoning: 150 } } });
  });
});
