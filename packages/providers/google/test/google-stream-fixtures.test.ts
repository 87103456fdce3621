import { fixtureResponse, listProviderFixtures } from '@cairn/core/testing';
import { describe, expect, it } from 'vitest';
import { replay, shorten, summarize } from './helpers.js';

/** Every recorded Gemini stream through the real `@google/genai` over 127.0.0.1, mapped to unified parts. */
describe('google stream fixtures', () => {
  it('stream-text.sse', async () => {
    const { parts } = await replay('google/stream-text.sse');
    expect(summarize(parts)).toMatchInlineSnapshot(`
      [
        {
          "type": "stream-start",
          "warnings": [],
        },
        {
          "id": undefined,
          "modelId": "gemini-2.0-flash",
          "type": "response-metadata",
        },
        {
          "id": "text-0",
          "type": "text-start",
        },
        {
          "count": 3,
          "delta": "The capital of Wyoming is **Cheyenne**.
      ",
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
              "cacheRead": undefined,
              "cacheWrite": undefined,
              "noCache": 7,
              "total": 7,
            },
            "outputTokens": {
              "reasoning": undefined,
              "text": 10,
              "total": 10,
            },
            "raw": {
              "candidatesTokenCount": 10,
              "candidatesTokensDetails": [
                {
                  "modality": "TEXT",
                  "tokenCount": 10,
                },
              ],
              "promptTokenCount": 7,
              "promptTokensDetails": [
                {
                  "modality": "TEXT",
                  "tokenCount": 7,
                },
              ],
              "totalTokenCount": 17,
            },
          },
        },
      ]
    `);
  });

  it('stream-text-long.sse', async () => {
    const { parts } = await replay('google/stream-text-long.sse');
    expect(shorten(summarize(parts))).toMatchInlineSnapshot(`
      [
        {
          "type": "stream-start",
          "warnings": [],
        },
        {
          "modelId": "gemini-2.0-flash",
          "type": "response-metadata",
        },
        {
          "id": "text-0",
          "type": "text-start",
        },
        {
          "count": 36,
          "delta": "Okay, let's dive into the world of cats and dogs! This is a …(8845)",
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
              "noCache": 10,
              "total": 10,
            },
            "outputTokens": {
              "text": 1996,
              "total": 1996,
            },
            "raw": {
              "candidatesTokenCount": 1996,
              "candidatesTokensDetails": [
                {
                  "modality": "TEXT",
                  "tokenCount": 1996,
                },
              ],
              "promptTokenCount": 10,
              "promptTokensDetails": [
                {
                  "modality": "TEXT",
                  "tokenCount": 10,
                },
              ],
              "totalTokenCount": 2006,
            },
          },
        },
      ]
    `);
  });

  it('stream-text-gemini-3-signature.sse: the trailing empty signed part lands on the text block', async () => {
    const { parts } = await replay('google/stream-text-gemini-3-signature.sse', {}, 'gemini-3-pro-preview');
    expect(shorten(summarize(parts))).toMatchInlineSnapshot(`
      [
        {
          "type": "stream-start",
          "warnings": [],
        },
        {
          "id": "bH6LaZW8Fp_3nsEPqtaSwQ4",
          "modelId": "gemini-3-pro-preview",
          "type": "response-metadata",
        },
        {
          "id": "text-0",
          "type": "text-start",
        },
        {
          "count": 2,
          "delta": "There are **3** "r"s in strawberry.

      st**r**awbe**rr**y",
          "id": "text-0",
          "type": "text-delta",
        },
        {
          "id": "text-0",
          "providerMetadata": {
            "google": {
              "thoughtSignature": "EqsFCqgFAb4+9vvtAF5n87lB4OGDOoTRMOqp35jW65XsYXh6BySMwl9nvrbA…(916)",
            },
          },
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
              "noCache": 9,
              "total": 9,
            },
            "outputTokens": {
              "reasoning": 185,
              "text": 23,
              "total": 208,
            },
            "raw": {
              "candidatesTokenCount": 23,
              "promptTokenCount": 9,
              "promptTokensDetails": [
                {
                  "modality": "TEXT",
                  "tokenCount": 9,
                },
              ],
              "thoughtsTokenCount": 185,
              "totalTokenCount": 217,
            },
          },
        },
      ]
    `);
  });

  it('stream-thoughts-text.sse: thought parts are reasoning', async () => {
    const { parts } = await replay('google/stream-thoughts-text.sse');
    expect(shorten(summarize(parts))).toMatchInlineSnapshot(`
      [
        {
          "type": "stream-start",
          "warnings": [],
        },
        {
          "id": "0J-HaJetAqv0jrEPwu-tsQ0",
          "modelId": "gemini-2.5-flash",
          "type": "response-metadata",
        },
        {
          "id": "reasoning-0",
          "type": "reasoning-start",
        },
        {
          "count": 3,
          "delta": "**Exploring Sky Color**

      I've zeroed in on the core question…(1133)",
          "id": "reasoning-0",
          "type": "reasoning-delta",
        },
        {
          "id": "reasoning-0",
          "type": "reasoning-end",
        },
        {
          "id": "text-1",
          "type": "text-start",
        },
        {
          "count": 2,
          "delta": "The sky is blue because tiny gas molecules in Earth's atmosp…(263)",
          "id": "text-1",
          "type": "text-delta",
        },
        {
          "id": "text-1",
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
              "noCache": 10,
              "total": 10,
            },
            "outputTokens": {
              "reasoning": 540,
              "text": 48,
              "total": 588,
            },
            "raw": {
              "candidatesTokenCount": 48,
              "promptTokenCount": 10,
              "promptTokensDetails": [
                {
                  "modality": "TEXT",
                  "tokenCount": 10,
                },
              ],
              "thoughtsTokenCount": 540,
              "totalTokenCount": 598,
            },
          },
        },
      ]
    `);
  });

  it('stream-thoughts-gemini-2.5-pro.sse: the signature of the first text part is kept', async () => {
    const { parts } = await replay('google/stream-thoughts-gemini-2.5-pro.sse', {}, 'gemini-2.5-pro');
    expect(shorten(summarize(parts))).toMatchInlineSnapshot(`
      [
        {
          "type": "stream-start",
          "warnings": [],
        },
        {
          "id": "beHBaJfEMIi-qtsP3769-Q8",
          "modelId": "gemini-2.5-pro",
          "type": "response-metadata",
        },
        {
          "id": "reasoning-0",
          "type": "reasoning-start",
        },
        {
          "count": 4,
          "delta": "**Clarifying User Goals**

      I'm currently focused on defining…(1575)",
          "id": "reasoning-0",
          "type": "reasoning-delta",
        },
        {
          "id": "reasoning-0",
          "type": "reasoning-end",
        },
        {
          "id": "text-1",
          "type": "text-start",
        },
        {
          "count": 19,
          "delta": "This is a great question! Safely crossing the street is all …(1938)",
          "id": "text-1",
          "providerMetadata": {
            "google": {
              "thoughtSignature": "CiIB0e2Kb6Syj1a961EfbWv4W5C8RgAA/hGleV9VYJtnJFh4CmkB0e2Kb2qM…(6152)",
            },
          },
          "type": "text-delta",
        },
        {
          "id": "text-1",
          "providerMetadata": {
            "google": {
              "thoughtSignature": "CiIB0e2Kb6Syj1a961EfbWv4W5C8RgAA/hGleV9VYJtnJFh4CmkB0e2Kb2qM…(6152)",
            },
          },
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
              "noCache": 34,
              "total": 34,
            },
            "outputTokens": {
              "reasoning": 787,
              "text": 469,
              "total": 1256,
            },
            "raw": {
              "candidatesTokenCount": 469,
              "promptTokenCount": 34,
              "promptTokensDetails": [
                {
                  "modality": "TEXT",
                  "tokenCount": 34,
                },
              ],
              "thoughtsTokenCount": 787,
              "totalTokenCount": 1290,
            },
          },
        },
      ]
    `);
  });

  it('stream-function-call.sse: a whole call with a stable generated id', async () => {
    const { parts } = await replay('google/stream-function-call.sse');
    expect(parts.slice(1)).toMatchInlineSnapshot(`
      [
        {
          "id": "1lpeaMTxIpW1nvgP-O3vwQY",
          "modelId": "gemini-2.0-flash",
          "type": "response-metadata",
        },
        {
          "id": "1lpeaMTxIpW1nvgP-O3vwQY-call-0",
          "toolName": "get_capital",
          "type": "tool-input-start",
        },
        {
          "delta": "{"country":"France"}",
          "id": "1lpeaMTxIpW1nvgP-O3vwQY-call-0",
          "type": "tool-input-delta",
        },
        {
          "id": "1lpeaMTxIpW1nvgP-O3vwQY-call-0",
          "type": "tool-input-end",
        },
        {
          "input": "{"country":"France"}",
          "toolCallId": "1lpeaMTxIpW1nvgP-O3vwQY-call-0",
          "toolName": "get_capital",
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
              "cacheRead": undefined,
              "cacheWrite": undefined,
              "noCache": 52,
              "total": 52,
            },
            "outputTokens": {
              "reasoning": undefined,
              "text": 5,
              "total": 5,
            },
            "raw": {
              "candidatesTokenCount": 5,
              "candidatesTokensDetails": [
                {
                  "modality": "TEXT",
                  "tokenCount": 5,
                },
              ],
              "promptTokenCount": 52,
              "promptTokensDetails": [
                {
                  "modality": "TEXT",
                  "tokenCount": 52,
                },
              ],
              "totalTokenCount": 57,
            },
          },
        },
      ]
    `);
  });

  it('stream-function-call-gemini-3.sse', async () => {
    const { parts } = await replay('google/stream-function-call-gemini-3.sse', {}, 'gemini-3-pro-preview');
    expect(shorten(summarize(parts))).toMatchInlineSnapshot(`
      [
        {
          "type": "stream-start",
          "warnings": [],
        },
        {
          "id": "QHiLaa6LBrb8vdIPoNztsAg",
          "modelId": "gemini-3-pro-preview",
          "type": "response-metadata",
        },
        {
          "id": "QHiLaa6LBrb8vdIPoNztsAg-call-0",
          "providerMetadata": {
            "google": {
              "thoughtSignature": "EpEgCo4gAb4+9vvWwdN+NkNiCCwrqvFI8uf9IiD2A47Bm4Sga0kUTm4e/QuE…(5488)",
            },
          },
          "toolName": "weather",
          "type": "tool-input-start",
        },
        {
          "delta": "{"location":"San Francisco"}",
          "id": "QHiLaa6LBrb8vdIPoNztsAg-call-0",
          "type": "tool-input-delta",
        },
        {
          "id": "QHiLaa6LBrb8vdIPoNztsAg-call-0",
          "type": "tool-input-end",
        },
        {
          "input": "{"location":"San Francisco"}",
          "providerMetadata": {
            "google": {
              "thoughtSignature": "EpEgCo4gAb4+9vvWwdN+NkNiCCwrqvFI8uf9IiD2A47Bm4Sga0kUTm4e/QuE…(5488)",
            },
          },
          "toolCallId": "QHiLaa6LBrb8vdIPoNztsAg-call-0",
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
              "reasoning": 804,
              "text": 15,
              "total": 819,
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
              "thoughtsTokenCount": 804,
              "totalTokenCount": 848,
            },
          },
        },
      ]
    `);
  });

  it('stream-function-call-thought-signature.sse: the signature rides on the tool call', async () => {
    const { parts } = await replay('google/stream-function-call-thought-signature.sse', {}, 'gemini-3-pro-preview');
    const call = parts.find((part) => part.type === 'tool-call');
    expect(call?.type === 'tool-call' && String(call.providerMetadata?.google?.thoughtSignature).length).toBeGreaterThan(100);
    expect(shorten(summarize(parts))).toMatchInlineSnapshot(`
      [
        {
          "type": "stream-start",
          "warnings": [],
        },
        {
          "id": "QUVVadTSNJ6_qtsPvN7J8Q0",
          "modelId": "gemini-3-pro-preview",
          "type": "response-metadata",
        },
        {
          "id": "QUVVadTSNJ6_qtsPvN7J8Q0-call-0",
          "providerMetadata": {
            "google": {
              "thoughtSignature": "EpwICpkIAXLI2nxlU6gsWZaZHRYkX1orzuM8vSUFwaAt1JRxEC2hJzPAcAu3…(1408)",
            },
          },
          "toolName": "get_country",
          "type": "tool-input-start",
        },
        {
          "delta": "{}",
          "id": "QUVVadTSNJ6_qtsPvN7J8Q0-call-0",
          "type": "tool-input-delta",
        },
        {
          "id": "QUVVadTSNJ6_qtsPvN7J8Q0-call-0",
          "type": "tool-input-end",
        },
        {
          "input": "{}",
          "providerMetadata": {
            "google": {
              "thoughtSignature": "EpwICpkIAXLI2nxlU6gsWZaZHRYkX1orzuM8vSUFwaAt1JRxEC2hJzPAcAu3…(1408)",
            },
          },
          "toolCallId": "QUVVadTSNJ6_qtsPvN7J8Q0-call-0",
          "toolName": "get_country",
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
              "reasoning": 202,
              "text": 10,
              "total": 212,
            },
            "raw": {
              "candidatesTokenCount": 10,
              "promptTokenCount": 29,
              "promptTokensDetails": [
                {
                  "modality": "TEXT",
                  "tokenCount": 29,
                },
              ],
              "thoughtsTokenCount": 202,
              "totalTokenCount": 241,
            },
          },
        },
      ]
    `);
  });

  it('stream-thoughts-function-call-signature.sse', async () => {
    const { parts } = await replay('google/stream-thoughts-function-call-signature.sse');
    expect(shorten(summarize(parts))).toMatchInlineSnapshot(`
      [
        {
          "type": "stream-start",
          "warnings": [],
        },
        {
          "id": "48SHaPHpHKbG-8YPtZCawAk",
          "modelId": "gemini-2.5-flash",
          "type": "response-metadata",
        },
        {
          "id": "reasoning-0",
          "type": "reasoning-start",
        },
        {
          "count": 2,
          "delta": "**Calculating the Days**

      I've determined the user's request…(765)",
          "id": "reasoning-0",
          "type": "reasoning-delta",
        },
        {
          "id": "reasoning-0",
          "type": "reasoning-end",
        },
        {
          "id": "48SHaPHpHKbG-8YPtZCawAk-call-0",
          "providerMetadata": {
            "google": {
              "thoughtSignature": "CiIBVKhc7vB+vaaq6rA/KC79Ts7iXagIOA4EBOyBFDpl+pxPCmcBVKhc7gYy…(1140)",
            },
          },
          "toolName": "now",
          "type": "tool-input-start",
        },
        {
          "delta": "{}",
          "id": "48SHaPHpHKbG-8YPtZCawAk-call-0",
          "type": "tool-input-delta",
        },
        {
          "id": "48SHaPHpHKbG-8YPtZCawAk-call-0",
          "type": "tool-input-end",
        },
        {
          "input": "{}",
          "providerMetadata": {
            "google": {
              "thoughtSignature": "CiIBVKhc7vB+vaaq6rA/KC79Ts7iXagIOA4EBOyBFDpl+pxPCmcBVKhc7gYy…(1140)",
            },
          },
          "toolCallId": "48SHaPHpHKbG-8YPtZCawAk-call-0",
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
              "reasoning": 168,
              "text": 6,
              "total": 174,
            },
            "raw": {
              "candidatesTokenCount": 6,
              "promptTokenCount": 38,
              "promptTokensDetails": [
                {
                  "modality": "TEXT",
                  "tokenCount": 38,
                },
              ],
              "thoughtsTokenCount": 168,
              "totalTokenCount": 212,
            },
          },
        },
      ]
    `);
  });

  it('vertex-stream-function-call-partial-args.sse: streamed Vertex arguments assemble into two whole calls', async () => {
    const { parts } = await replay('google/vertex-stream-function-call-partial-args.sse', {}, 'gemini-3-pro-preview');
    expect(parts.filter((part) => part.type === 'tool-call').map((part) => part.type === 'tool-call' && [part.toolName, part.input])).toEqual([
      ['getWeather', '{"location":"Boston"}'],
      ['getWeather', '{"location":"San Francisco"}'],
    ]);
    expect(shorten(summarize(parts))).toMatchInlineSnapshot(`
      [
        {
          "type": "stream-start",
          "warnings": [],
        },
        {
          "id": "dqHOab6xGLzWodAPkPuViA4",
          "modelId": "gemini-3.1-pro-preview",
          "type": "response-metadata",
        },
        {
          "id": "dqHOab6xGLzWodAPkPuViA4-call-0",
          "providerMetadata": {
            "google": {
              "thoughtSignature": "CiMBjz1rX25KieIB4d4AwFn8/WbsHTRNHBXso88PtemwfsSfRAp6AY89a1/e…(1032)",
            },
          },
          "toolName": "getWeather",
          "type": "tool-input-start",
        },
        {
          "delta": "{"location":"Boston"}",
          "id": "dqHOab6xGLzWodAPkPuViA4-call-0",
          "type": "tool-input-delta",
        },
        {
          "id": "dqHOab6xGLzWodAPkPuViA4-call-0",
          "type": "tool-input-end",
        },
        {
          "input": "{"location":"Boston"}",
          "providerMetadata": {
            "google": {
              "thoughtSignature": "CiMBjz1rX25KieIB4d4AwFn8/WbsHTRNHBXso88PtemwfsSfRAp6AY89a1/e…(1032)",
            },
          },
          "toolCallId": "dqHOab6xGLzWodAPkPuViA4-call-0",
          "toolName": "getWeather",
          "type": "tool-call",
        },
        {
          "id": "dqHOab6xGLzWodAPkPuViA4-call-1",
          "toolName": "getWeather",
          "type": "tool-input-start",
        },
        {
          "delta": "{"location":"San Francisco"}",
          "id": "dqHOab6xGLzWodAPkPuViA4-call-1",
          "type": "tool-input-delta",
        },
        {
          "id": "dqHOab6xGLzWodAPkPuViA4-call-1",
          "type": "tool-input-end",
        },
        {
          "input": "{"location":"San Francisco"}",
          "toolCallId": "dqHOab6xGLzWodAPkPuViA4-call-1",
          "toolName": "getWeather",
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
              "noCache": 26,
              "total": 26,
            },
            "outputTokens": {
              "reasoning": 132,
              "text": 23,
              "total": 155,
            },
            "raw": {
              "candidatesTokenCount": 23,
              "candidatesTokensDetails": [
                {
                  "modality": "TEXT",
                  "tokenCount": 23,
                },
              ],
              "promptTokenCount": 26,
              "promptTokensDetails": [
                {
                  "modality": "TEXT",
                  "tokenCount": 26,
                },
              ],
              "thoughtsTokenCount": 132,
              "totalTokenCount": 181,
              "trafficType": "ON_DEMAND",
            },
          },
        },
      ]
    `);
  });

  it('every stream fixture gives identical parts when served in 5-byte chunks', async () => {
    const streams = listProviderFixtures('google').filter((file) => file.endsWith('.sse'));
    expect(streams).toHaveLength(10);
    for (const file of streams) {
      const whole = await replay(file);
      const chunked = await replay([fixtureResponse(file, { chunkSize: 5 })]);
      // Generated ids come from the response id, so both runs agree.
      expect(chunked.parts, file).toEqual(whole.parts);
      expect(whole.parts.at(-1)?.type, file).toBe('finish');
    }
  });
});
