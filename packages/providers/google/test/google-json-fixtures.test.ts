import { fixtureResponse, startFixtureServer } from '@cairn/core/testing';
import { describe, expect, it } from 'vitest';
import { convertToGoogleMessages, createGoogleStreamState, finishGoogleStream, type GoogleChunkLike, mapGoogleStreamChunk } from '../src/index.js';
import { assistantMessageFromParts, shorten, summarize } from './helpers.js';

/**
 * The json-* files are non-streaming generateContent bodies. The adapter only streams and the SDK's
 * stream parser rejects a plain JSON body, so each file is fetched with the real SDK's
 * `models.generateContent` (which parses it into a GenerateContentResponse) and that response — the
 * same shape as one stream chunk — goes through the real chunk mapper.
 */
async function mapped(file: string) {
  const server = await startFixtureServer([fixtureResponse(file)]);
  try {
    const { GoogleGenAI } = await import('@google/genai');
    const client = new GoogleGenAI({ apiKey: 'test-key', vertexai: false, httpOptions: { baseUrl: server.url, retryOptions: { attempts: 1 } } });
    const response = await client.models.generateContent({ model: 'gemini-2.5-pro', contents: 'Hi' });
    const state = createGoogleStreamState();
    const parts = [...mapGoogleStreamChunk(state, response as unknown as GoogleChunkLike), ...finishGoogleStream(state)];
    return { parts, response: response as unknown as GoogleChunkLike };
  } finally {
    await server.close();
  }
}

describe('google json fixtures through the chunk mapper', () => {
  it('json-text.json', async () => {
    expect(shorten(summarize((await mapped('google/json-text.json')).parts))).toMatchInlineSnapshot(`
      [
        {
          "modelId": "gemini-2.0-flash",
          "type": "response-metadata",
        },
        {
          "id": "text-0",
          "type": "text-start",
        },
        {
          "delta": "Google's headquarters, also known as the Googleplex, is loca…(98)",
          "id": "text-0",
          "type": "text-delta",
        },
        {
          "id": "text-0",
          "type": "text-end",
        },
        {
          "finishReason": {
            "raw": "STOP",
            "unified": "stop",
          },
          "type": "finish",
          "usage": {
            "inputTokens": {
              "noCache": 7,
              "total": 7,
            },
            "outputTokens": {
              "text": 22,
              "total": 22,
            },
            "raw": {
              "candidatesTokenCount": 22,
              "candidatesTokensDetails": [
                {
                  "modality": "TEXT",
                  "tokenCount": 22,
                },
              ],
              "promptTokenCount": 7,
              "promptTokensDetails": [
                {
                  "modality": "TEXT",
                  "tokenCount": 7,
                },
              ],
              "totalTokenCount": 29,
            },
          },
        },
      ]
    `);
  });

  it('json-function-call-gemini-3.json: call with its signature, sent back on the same part', async () => {
    const { parts, response } = await mapped('google/json-function-call-gemini-3.json');
    expect(shorten(summarize(parts))).toMatchInlineSnapshot(`
      [
        {
          "id": "m36LaZGyCLz1xs0PtNSB-QU",
          "modelId": "gemini-3-pro-preview",
          "type": "response-metadata",
        },
        {
          "id": "m36LaZGyCLz1xs0PtNSB-QU-call-0",
          "providerMetadata": {
            "google": {
              "thoughtSignature": "EskgCsYgAb4+9vtF7/499YQS2bjZs3xcQI+iAl+ILn29nK1j0Kg6su7QsUUU…(100)",
            },
          },
          "toolName": "weather",
          "type": "tool-input-start",
        },
        {
          "delta": "{"location":"San Francisco"}",
          "id": "m36LaZGyCLz1xs0PtNSB-QU-call-0",
          "type": "tool-input-delta",
        },
        {
          "id": "m36LaZGyCLz1xs0PtNSB-QU-call-0",
          "type": "tool-input-end",
        },
        {
          "input": "{"location":"San Francisco"}",
          "providerMetadata": {
            "google": {
              "thoughtSignature": "EskgCsYgAb4+9vtF7/499YQS2bjZs3xcQI+iAl+ILn29nK1j0Kg6su7QsUUU…(100)",
            },
          },
          "toolCallId": "m36LaZGyCLz1xs0PtNSB-QU-call-0",
          "toolName": "weather",
          "type": "tool-call",
        },
        {
          "finishReason": {
            "raw": "STOP",
            "unified": "tool-calls",
          },
          "type": "finish",
          "usage": {
            "inputTokens": {
              "noCache": 29,
              "total": 29,
            },
            "outputTokens": {
              "reasoning": 893,
              "text": 15,
              "total": 908,
            },
            "raw": {
              "candidatesTokenCount": 15,
              "promptTokenCount": 29,
              "promptTokensDetails": [
                {
                  "modality": "TEXT",
                  "tokenCount": 29,
                },
              ],
              "thoughtsTokenCount": 893,
              "totalTokenCount": 937,
            },
          },
        },
      ]
    `);
    const sentBack = convertToGoogleMessages([assistantMessageFromParts(parts)]).contents[0]?.parts;
    expect(sentBack).toEqual(response.candidates?.[0]?.content?.parts?.map((part) => ({ functionCall: { name: part.functionCall?.name, args: part.functionCall?.args }, thoughtSignature: part.thoughtSignature })));
  });

  it('json-function-calls-parallel.json: two calls, distinct ids, the signature only on the first', async () => {
    const { parts } = await mapped('google/json-function-calls-parallel.json');
    const calls = parts.filter((part) => part.type === 'tool-call');
    expect(calls).toHaveLength(2);
    expect(new Set(calls.map((call) => call.type === 'tool-call' && call.toolCallId)).size).toBe(2);
    expect(shorten(summarize(parts))).toMatchInlineSnapshot(`
      [
        {
          "id": "x8TIaNOXLsmD1MkP1dWi-QY",
          "modelId": "gemini-2.5-pro",
          "type": "response-metadata",
        },
        {
          "id": "x8TIaNOXLsmD1MkP1dWi-QY-call-0",
          "providerMetadata": {
            "google": {
              "thoughtSignature": "CoMCAdHtim+8s7OAgTn97FV+idpmV5GKJ/C74mkqECwRQrfs1y72yhIbcXh9…(352)",
            },
          },
          "toolName": "search_docs",
          "type": "tool-input-start",
        },
        {
          "delta": "{"query":"test"}",
          "id": "x8TIaNOXLsmD1MkP1dWi-QY-call-0",
          "type": "tool-input-delta",
        },
        {
          "id": "x8TIaNOXLsmD1MkP1dWi-QY-call-0",
          "type": "tool-input-end",
        },
        {
          "input": "{"query":"test"}",
          "providerMetadata": {
            "google": {
              "thoughtSignature": "CoMCAdHtim+8s7OAgTn97FV+idpmV5GKJ/C74mkqECwRQrfs1y72yhIbcXh9…(352)",
            },
          },
          "toolCallId": "x8TIaNOXLsmD1MkP1dWi-QY-call-0",
          "toolName": "search_docs",
          "type": "tool-call",
        },
        {
          "id": "x8TIaNOXLsmD1MkP1dWi-QY-call-1",
          "toolName": "multiply",
          "type": "tool-input-start",
        },
        {
          "delta": "{"b":3,"a":5}",
          "id": "x8TIaNOXLsmD1MkP1dWi-QY-call-1",
          "type": "tool-input-delta",
        },
        {
          "id": "x8TIaNOXLsmD1MkP1dWi-QY-call-1",
          "type": "tool-input-end",
        },
        {
          "input": "{"b":3,"a":5}",
          "toolCallId": "x8TIaNOXLsmD1MkP1dWi-QY-call-1",
          "toolName": "multiply",
          "type": "tool-call",
        },
        {
          "finishReason": {
            "raw": "STOP",
            "unified": "tool-calls",
          },
          "type": "finish",
          "usage": {
            "inputTokens": {
              "noCache": 195,
              "total": 195,
            },
            "outputTokens": {
              "reasoning": 73,
              "text": 33,
              "total": 106,
            },
            "raw": {
              "candidatesTokenCount": 33,
              "promptTokenCount": 195,
              "promptTokensDetails": [
                {
                  "modality": "TEXT",
                  "tokenCount": 195,
                },
              ],
              "thoughtsTokenCount": 73,
              "totalTokenCount": 301,
            },
          },
        },
      ]
    `);
  });

  it('json-thoughts-function-call-signature.json: thought summary, then the signed call', async () => {
    const { parts } = await mapped('google/json-thoughts-function-call-signature.json');
    expect(shorten(summarize(parts))).toMatchInlineSnapshot(`
      [
        {
          "id": "38CHaLjMG6TujrEPtvTiuQk",
          "modelId": "gemini-2.5-pro",
          "type": "response-metadata",
        },
        {
          "id": "reasoning-0",
          "type": "reasoning-start",
        },
        {
          "delta": "**Thinking Through the New Year's Eve Calculation**

      Okay, s…(1319)",
          "id": "reasoning-0",
          "type": "reasoning-delta",
        },
        {
          "id": "reasoning-0",
          "type": "reasoning-end",
        },
        {
          "id": "38CHaLjMG6TujrEPtvTiuQk-call-0",
          "providerMetadata": {
            "google": {
              "thoughtSignature": "CtQOAVSoXO74PmYr9AFurEIJNTAtfagOIxtRA5FcMPow3t+9ZhbhilokxHpm…(2508)",
            },
          },
          "toolName": "now",
          "type": "tool-input-start",
        },
        {
          "delta": "{}",
          "id": "38CHaLjMG6TujrEPtvTiuQk-call-0",
          "type": "tool-input-delta",
        },
        {
          "id": "38CHaLjMG6TujrEPtvTiuQk-call-0",
          "type": "tool-input-end",
        },
        {
          "input": "{}",
          "providerMetadata": {
            "google": {
              "thoughtSignature": "CtQOAVSoXO74PmYr9AFurEIJNTAtfagOIxtRA5FcMPow3t+9ZhbhilokxHpm…(2508)",
            },
          },
          "toolCallId": "38CHaLjMG6TujrEPtvTiuQk-call-0",
          "toolName": "now",
          "type": "tool-call",
        },
        {
          "finishReason": {
            "raw": "STOP",
            "unified": "tool-calls",
          },
          "type": "finish",
          "usage": {
            "inputTokens": {
              "noCache": 38,
              "total": 38,
            },
            "outputTokens": {
              "reasoning": 501,
              "text": 8,
              "total": 509,
            },
            "raw": {
              "candidatesTokenCount": 8,
              "promptTokenCount": 38,
              "promptTokensDetails": [
                {
                  "modality": "TEXT",
                  "tokenCount": 38,
                },
              ],
              "thoughtsTokenCount": 501,
              "totalTokenCount": 547,
            },
          },
        },
      ]
    `);
  });
});
