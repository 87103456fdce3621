import { fixtureResponse, listProviderFixtures } from '@cairn/core/testing';
import { describe, expect, it } from 'vitest';
import { replay, shorten, summarize } from './helpers.js';

/** Every recorded stream through the real SDK over 127.0.0.1, mapped to unified parts. */
describe('anthropic stream fixtures', () => {
  it('stream-text.sse', async () => {
    const { parts } = await replay('anthropic/stream-text.sse');
    expect(parts).toMatchInlineSnapshot(`
      [
        {
          "type": "stream-start",
          "warnings": [],
        },
        {
          "id": "msg_018E1hg8GoVTGEKQY3ovMcSJ",
          "modelId": "claude-sonnet-4-5-20250929",
          "type": "response-metadata",
        },
        {
          "id": "block-0",
          "type": "text-start",
        },
        {
          "delta": "2",
          "id": "block-0",
          "type": "text-delta",
        },
        {
          "id": "block-0",
          "type": "text-end",
        },
        {
          "finishReason": {
            "raw": "end_turn",
            "unified": "stop",
          },
          "type": "finish",
          "usage": {
            "inputTokens": {
              "cacheRead": 0,
              "cacheWrite": 0,
              "noCache": 20,
              "total": 20,
            },
            "outputTokens": {
              "reasoning": undefined,
              "text": undefined,
              "total": 5,
            },
            "raw": {
              "cache_creation": {
                "ephemeral_1h_input_tokens": 0,
                "ephemeral_5m_input_tokens": 0,
              },
              "cache_creation_input_tokens": 0,
              "cache_read_input_tokens": 0,
              "inference_geo": "not_available",
              "input_tokens": 20,
              "output_tokens": 5,
              "service_tier": "standard",
            },
          },
        },
      ]
    `);
  });

  it('stream-tool-use.sse', async () => {
    const { parts } = await replay('anthropic/stream-tool-use.sse');
    expect(shorten(summarize(parts))).toMatchInlineSnapshot(`
      [
        {
          "type": "stream-start",
          "warnings": [],
        },
        {
          "id": "msg_019Q1hrJbZG26Fb9BQhrkHEr",
          "modelId": "claude-sonnet-4-20250514",
          "type": "response-metadata",
        },
        {
          "id": "block-0",
          "type": "text-start",
        },
        {
          "count": 2,
          "delta": "I'll check the current weather in Paris for you.",
          "id": "block-0",
          "type": "text-delta",
        },
        {
          "id": "block-0",
          "type": "text-end",
        },
        {
          "id": "toolu_01NRLabsLyVHZPKxbKvkfSMn",
          "toolName": "get_weather",
          "type": "tool-input-start",
        },
        {
          "count": 4,
          "delta": "{"location": "Paris"}",
          "id": "toolu_01NRLabsLyVHZPKxbKvkfSMn",
          "type": "tool-input-delta",
        },
        {
          "id": "toolu_01NRLabsLyVHZPKxbKvkfSMn",
          "type": "tool-input-end",
        },
        {
          "input": "{"location": "Paris"}",
          "toolCallId": "toolu_01NRLabsLyVHZPKxbKvkfSMn",
          "toolName": "get_weather",
          "type": "tool-call",
        },
        {
          "finishReason": {
            "raw": "tool_use",
            "unified": "tool-calls",
          },
          "type": "finish",
          "usage": {
            "inputTokens": {
              "cacheRead": 0,
              "cacheWrite": 0,
              "noCache": 377,
              "total": 377,
            },
            "outputTokens": {
              "total": 65,
            },
            "raw": {
              "cache_creation_input_tokens": 0,
              "cache_read_input_tokens": 0,
              "input_tokens": 377,
              "output_tokens": 65,
              "service_tier": "standard",
            },
          },
        },
      ]
    `);
  });

  it('stream-tool-use-no-args.sse gives "{}" as the input', async () => {
    const { parts } = await replay('anthropic/stream-tool-use-no-args.sse');
    expect(parts.filter((part) => part.type === 'tool-call')).toMatchInlineSnapshot(`
      [
        {
          "input": "{}",
          "toolCallId": "toolu_01QE1WLsSVp5hy5Q3GmGTmjP",
          "toolName": "updateIssueList",
          "type": "tool-call",
        },
      ]
    `);
  });

  it('stream-tool-use-parallel.sse', async () => {
    const { parts } = await replay('anthropic/stream-tool-use-parallel.sse');
    expect(shorten(summarize(parts))).toMatchInlineSnapshot(`
      [
        {
          "type": "stream-start",
          "warnings": [],
        },
        {
          "id": "msg_011Cd5Uz3EsW7t2zRF3zZGJL",
          "modelId": "claude-sonnet-4-5-20250929",
          "type": "response-metadata",
        },
        {
          "id": "toolu_01LtEf4h1QW7KCKLsYMuhTNB",
          "toolName": "searchDocs",
          "type": "tool-input-start",
        },
        {
          "count": 2,
          "delta": "{"query": "alpha"}",
          "id": "toolu_01LtEf4h1QW7KCKLsYMuhTNB",
          "type": "tool-input-delta",
        },
        {
          "id": "toolu_01LtEf4h1QW7KCKLsYMuhTNB",
          "type": "tool-input-end",
        },
        {
          "input": "{"query": "alpha"}",
          "toolCallId": "toolu_01LtEf4h1QW7KCKLsYMuhTNB",
          "toolName": "searchDocs",
          "type": "tool-call",
        },
        {
          "id": "toolu_016tfZE7otAFSBjhc67wu189",
          "toolName": "searchDocs",
          "type": "tool-input-start",
        },
        {
          "count": 2,
          "delta": "{"query": "beta"}",
          "id": "toolu_016tfZE7otAFSBjhc67wu189",
          "type": "tool-input-delta",
        },
        {
          "id": "toolu_016tfZE7otAFSBjhc67wu189",
          "type": "tool-input-end",
        },
        {
          "input": "{"query": "beta"}",
          "toolCallId": "toolu_016tfZE7otAFSBjhc67wu189",
          "toolName": "searchDocs",
          "type": "tool-call",
        },
        {
          "id": "toolu_01XkU35z8BVWqqc9tijDuLrA",
          "toolName": "searchDocs",
          "type": "tool-input-start",
        },
        {
          "count": 2,
          "delta": "{"query": "gamma"}",
          "id": "toolu_01XkU35z8BVWqqc9tijDuLrA",
          "type": "tool-input-delta",
        },
        {
          "id": "toolu_01XkU35z8BVWqqc9tijDuLrA",
          "type": "tool-input-end",
        },
        {
          "input": "{"query": "gamma"}",
          "toolCallId": "toolu_01XkU35z8BVWqqc9tijDuLrA",
          "toolName": "searchDocs",
          "type": "tool-call",
        },
        {
          "finishReason": {
            "raw": "tool_use",
            "unified": "tool-calls",
          },
          "type": "finish",
          "usage": {
            "inputTokens": {
              "cacheRead": 0,
              "cacheWrite": 0,
              "noCache": 798,
              "total": 798,
            },
            "outputTokens": {
              "total": 110,
            },
            "raw": {
              "cache_creation": {
                "ephemeral_1h_input_tokens": 0,
                "ephemeral_5m_input_tokens": 0,
              },
              "cache_creation_input_tokens": 0,
              "cache_read_input_tokens": 0,
              "inference_geo": "not_available",
              "input_tokens": 798,
              "output_tokens": 110,
              "service_tier": "standard",
            },
          },
        },
      ]
    `);
  });

  it('stream-text-then-tool-use.sse', async () => {
    const { parts } = await replay('anthropic/stream-text-then-tool-use.sse');
    expect(shorten(summarize(parts))).toMatchInlineSnapshot(`
      [
        {
          "type": "stream-start",
          "warnings": [],
        },
        {
          "id": "msg_01RQXWh4UaLp6wsR9R8i8RZ3",
          "modelId": "claude-3-opus-20240229",
          "type": "response-metadata",
        },
        {
          "id": "block-0",
          "type": "text-start",
        },
        {
          "count": 72,
          "delta": "<thinking>
      The get_weather tool is relevant for answering th…(375)",
          "id": "block-0",
          "type": "text-delta",
        },
        {
          "id": "block-0",
          "type": "text-end",
        },
        {
          "id": "toolu_01DYJo37oETVsCdLTTcCWcdq",
          "toolName": "get_weather",
          "type": "tool-input-start",
        },
        {
          "count": 4,
          "delta": "{"location": "San Francisco, CA"}",
          "id": "toolu_01DYJo37oETVsCdLTTcCWcdq",
          "type": "tool-input-delta",
        },
        {
          "id": "toolu_01DYJo37oETVsCdLTTcCWcdq",
          "type": "tool-input-end",
        },
        {
          "input": "{"location": "San Francisco, CA"}",
          "toolCallId": "toolu_01DYJo37oETVsCdLTTcCWcdq",
          "toolName": "get_weather",
          "type": "tool-call",
        },
        {
          "finishReason": {
            "raw": "tool_use",
            "unified": "tool-calls",
          },
          "type": "finish",
          "usage": {
            "inputTokens": {
              "noCache": 599,
              "total": 599,
            },
            "outputTokens": {
              "total": 135,
            },
            "raw": {
              "input_tokens": 599,
              "output_tokens": 135,
            },
          },
        },
      ]
    `);
  });

  it('stream-tool-use-max-tokens.sse: a cut-off call is never emitted', async () => {
    const { parts } = await replay('anthropic/stream-tool-use-max-tokens.sse');
    expect(parts.some((part) => part.type === 'tool-call')).toBe(false);
    expect(shorten(summarize(parts))).toMatchInlineSnapshot(`
      [
        {
          "type": "stream-start",
          "warnings": [],
        },
        {
          "id": "msg_01UdjYBBipA9omjYhicnevgq",
          "modelId": "claude-3-7-sonnet-20250219",
          "type": "response-metadata",
        },
        {
          "id": "block-0",
          "type": "text-start",
        },
        {
          "count": 5,
          "delta": "I'll create a comprehensive tax guide for someone with multi…(135)",
          "id": "block-0",
          "type": "text-delta",
        },
        {
          "id": "block-0",
          "type": "text-end",
        },
        {
          "id": "toolu_01EKqbqmZrGRXy18eN7m9kvY",
          "toolName": "make_file",
          "type": "tool-input-start",
        },
        {
          "count": 3,
          "delta": "{"filename": "taxes.txt", "lines_of_text": [
      "# COMPREHENSIV…(149)",
          "id": "toolu_01EKqbqmZrGRXy18eN7m9kvY",
          "type": "tool-input-delta",
        },
        {
          "finishReason": {
            "raw": "max_tokens",
            "unified": "length",
          },
          "type": "finish",
          "usage": {
            "inputTokens": {
              "cacheRead": 0,
              "cacheWrite": 0,
              "noCache": 450,
              "total": 450,
            },
            "outputTokens": {
              "total": 124,
            },
            "raw": {
              "cache_creation_input_tokens": 0,
              "cache_read_input_tokens": 0,
              "input_tokens": 450,
              "output_tokens": 124,
              "service_tier": "standard",
            },
          },
        },
      ]
    `);
  });

  it('stream-thinking.sse: reasoning with its signature', async () => {
    const { parts } = await replay('anthropic/stream-thinking.sse');
    const end = parts.find((part) => part.type === 'reasoning-end');
    expect(end?.type === 'reasoning-end' && end.signature?.length).toBeGreaterThan(100);
    expect(shorten(summarize(parts))).toMatchInlineSnapshot(`
      [
        {
          "type": "stream-start",
          "warnings": [],
        },
        {
          "id": "msg_01ALwQ87pTS7hH1PjSdC9wJD",
          "modelId": "claude-sonnet-4-20250514",
          "type": "response-metadata",
        },
        {
          "id": "block-0",
          "type": "reasoning-start",
        },
        {
          "count": 14,
          "delta": "This is a straightforward question about pedestrian safety. …(202)",
          "id": "block-0",
          "type": "reasoning-delta",
        },
        {
          "id": "block-0",
          "signature": "EvMCCkYICxgCKkCHP2cSuEdcJK/0rFwqES/ecn+VurRpNTwI4XNyM0vnNfGs…(504)",
          "type": "reasoning-end",
        },
        {
          "id": "block-1",
          "type": "text-start",
        },
        {
          "count": 95,
          "delta": "Here are the basic steps for safely crossing the street:

      **…(1021)",
          "id": "block-1",
          "type": "text-delta",
        },
        {
          "id": "block-1",
          "type": "text-end",
        },
        {
          "finishReason": {
            "raw": "end_turn",
            "unified": "stop",
          },
          "type": "finish",
          "usage": {
            "inputTokens": {
              "cacheRead": 0,
              "cacheWrite": 0,
              "noCache": 43,
              "total": 43,
            },
            "outputTokens": {
              "total": 282,
            },
            "raw": {
              "cache_creation": {
                "ephemeral_1h_input_tokens": 0,
                "ephemeral_5m_input_tokens": 0,
              },
              "cache_creation_input_tokens": 0,
              "cache_read_input_tokens": 0,
              "inference_geo": "not_available",
              "input_tokens": 43,
              "output_tokens": 282,
              "service_tier": "standard",
            },
          },
        },
      ]
    `);
  });

  it('stream-redacted-thinking.sse: redacted blocks keep their data', async () => {
    const { parts } = await replay('anthropic/stream-redacted-thinking.sse');
    expect(shorten(summarize(parts))).toMatchInlineSnapshot(`
      [
        {
          "type": "stream-start",
          "warnings": [],
        },
        {
          "id": "msg_018XZkwvj9asBiffg3fXt88s",
          "modelId": "claude-sonnet-4-5-20250929",
          "type": "response-metadata",
        },
        {
          "id": "block-0",
          "type": "reasoning-start",
        },
        {
          "id": "block-0",
          "redactedData": "EqkECkYIBxgCKkA8AZ4noDfV5VcOJe/p3JTRB6Xz5297mrWhl3MbHSXDKTMf…(744)",
          "type": "reasoning-end",
        },
        {
          "id": "block-1",
          "type": "reasoning-start",
        },
        {
          "id": "block-1",
          "redactedData": "EtgBCkYIBxgCKkDQfGkwzflEJP5asG3oQfJXcTwJLoRznn8CmuczWCsJ36dv…(296)",
          "type": "reasoning-end",
        },
        {
          "id": "block-2",
          "type": "text-start",
        },
        {
          "count": 15,
          "delta": "I notice that you've sent what appears to be some kind of te…(359)",
          "id": "block-2",
          "type": "text-delta",
        },
        {
          "id": "block-2",
          "type": "text-end",
        },
        {
          "finishReason": {
            "raw": "end_turn",
            "unified": "stop",
          },
          "type": "finish",
          "usage": {
            "inputTokens": {
              "cacheRead": 0,
              "cacheWrite": 0,
              "noCache": 92,
              "total": 92,
            },
            "outputTokens": {
              "total": 189,
            },
            "raw": {
              "cache_creation": {
                "ephemeral_1h_input_tokens": 0,
                "ephemeral_5m_input_tokens": 0,
              },
              "cache_creation_input_tokens": 0,
              "cache_read_input_tokens": 0,
              "input_tokens": 92,
              "output_tokens": 189,
              "service_tier": "standard",
            },
          },
        },
      ]
    `);
  });

  it('stream-web-search-citations.sse: server tool blocks and citations become raw parts', async () => {
    const { parts } = await replay('anthropic/stream-web-search-citations.sse');
    expect(parts.some((part) => part.type === 'tool-call')).toBe(false);
    expect(shorten(summarize(parts), 40)).toMatchInlineSnapshot(`
      [
        {
          "type": "stream-start",
          "warnings": [],
        },
        {
          "id": "msg_01QmxBSdEbD9ZeBWDVgFDoQ5",
          "modelId": "claude-sonnet-4-20250514",
          "type": "response-metadata",
        },
        {
          "id": "block-0",
          "type": "reasoning-start",
        },
        {
          "count": 11,
          "delta": "The user is asking about the weather in …(405)",
          "id": "block-0",
          "type": "reasoning-delta",
        },
        {
          "id": "block-0",
          "signature": "Er8ECkYIBxgCKkDp29haxwUos3j9hg3HNQI8e4jc…(776)",
          "type": "reasoning-end",
        },
        {
          "block": "server_tool_use",
          "event": "content_block_start",
          "type": "raw",
        },
        {
          "block": "web_search_tool_result",
          "event": "content_block_start",
          "type": "raw",
        },
        {
          "id": "block-3",
          "type": "text-start",
        },
        {
          "count": 8,
          "delta": "Based on the search results, I can see t…(250)",
          "id": "block-3",
          "type": "text-delta",
        },
        {
          "id": "block-3",
          "type": "text-end",
        },
        {
          "block": "server_tool_use",
          "event": "content_block_start",
          "type": "raw",
        },
        {
          "block": "web_search_tool_result",
          "event": "content_block_start",
          "type": "raw",
        },
        {
          "id": "block-6",
          "type": "text-start",
        },
        {
          "count": 4,
          "delta": "Based on the search results, I can provi…(160)",
          "id": "block-6",
          "type": "text-delta",
        },
        {
          "id": "block-6",
          "type": "text-end",
        },
        {
          "id": "block-7",
          "type": "text-start",
        },
        {
          "block": "citations_delta",
          "event": "content_block_delta",
          "type": "raw",
        },
        {
          "delta": "today (September 16) shows a high of 76°…(57)",
          "id": "block-7",
          "type": "text-delta",
        },
        {
          "id": "block-7",
          "type": "text-end",
        },
        {
          "id": "block-8",
          "type": "text-start",
        },
        {
          "count": 2,
          "delta": " for San Francisco.

      From the recent San…(77)",
          "id": "block-8",
          "type": "text-delta",
        },
        {
          "id": "block-8",
          "type": "text-end",
        },
        {
          "id": "block-9",
          "type": "text-start",
        },
        {
          "block": "citations_delta",
          "event": "content_block_delta",
          "type": "raw",
        },
        {
          "block": "citations_delta",
          "event": "content_block_delta",
          "type": "raw",
        },
        {
          "delta": "average mid-September highs in San Franc…(66)",
          "id": "block-9",
          "type": "text-delta",
        },
        {
          "id": "block-9",
          "type": "text-end",
        },
        {
          "id": "block-10",
          "type": "text-start",
        },
        {
          "count": 3,
          "delta": ", so today's forecast of 76°F is slightl…(167)",
          "id": "block-10",
          "type": "text-delta",
        },
        {
          "id": "block-10",
          "type": "text-end",
        },
        {
          "id": "block-11",
          "type": "text-start",
        },
        {
          "block": "citations_delta",
          "event": "content_block_delta",
          "type": "raw",
        },
        {
          "block": "citations_delta",
          "event": "content_block_delta",
          "type": "raw",
        },
        {
          "count": 2,
          "delta": "Daytime temperatures usually reach 22°C …(109)",
          "id": "block-11",
          "type": "text-delta",
        },
        {
          "id": "block-11",
          "type": "text-end",
        },
        {
          "id": "block-12",
          "type": "text-start",
        },
        {
          "delta": "
      - ",
          "id": "block-12",
          "type": "text-delta",
        },
        {
          "id": "block-12",
          "type": "text-end",
        },
        {
          "id": "block-13",
          "type": "text-start",
        },
        {
          "block": "citations_delta",
          "event": "content_block_delta",
          "type": "raw",
        },
        {
          "count": 2,
          "delta": "There are normally 9 hours of bright sun…(84)",
          "id": "block-13",
          "type": "text-delta",
        },
        {
          "id": "block-13",
          "type": "text-end",
        },
        {
          "id": "block-14",
          "type": "text-start",
        },
        {
          "delta": "
      - ",
          "id": "block-14",
          "type": "text-delta",
        },
        {
          "id": "block-14",
          "type": "text-end",
        },
        {
          "id": "block-15",
          "type": "text-start",
        },
        {
          "block": "citations_delta",
          "event": "content_block_delta",
          "type": "raw",
        },
        {
          "count": 3,
          "delta": "San Francisco experiences minimal rainfa…(152)",
          "id": "block-15",
          "type": "text-delta",
        },
        {
          "id": "block-15",
          "type": "text-end",
        },
        {
          "id": "block-16",
          "type": "text-start",
        },
        {
          "count": 5,
          "delta": "

      So for today, you can expect partly su…(207)",
          "id": "block-16",
          "type": "text-delta",
        },
        {
          "id": "block-16",
          "type": "text-end",
        },
        {
          "finishReason": {
            "raw": "end_turn",
            "unified": "stop",
          },
          "type": "finish",
          "usage": {
            "inputTokens": {
              "cacheRead": 0,
              "cacheWrite": 0,
              "noCache": 22397,
              "total": 22397,
            },
            "outputTokens": {
              "total": 637,
            },
            "raw": {
              "cache_creation": {
                "ephemeral_1h_input_tokens": 0,
                "ephemeral_5m_input_tokens": 0,
              },
              "cache_creation_input_tokens": 0,
              "cache_read_input_tokens": 0,
              "input_tokens": 22397,
              "output_tokens": 637,
              "server_tool_use": {
                "web_fetch_requests": 0,
                "web_search_requests": 2,
              },
              "service_tier": "standard",
            },
          },
        },
      ]
    `);
  });

  it('every stream fixture gives identical parts when served in 5-byte chunks', async () => {
    const streams = listProviderFixtures('anthropic').filter((file) => file.includes('/stream-'));
    expect(streams).toHaveLength(9);
    for (const file of streams) {
      const whole = await replay(file);
      const chunked = await replay([fixtureResponse(file, { chunkSize: 5 })]);
      expect(chunked.parts, file).toEqual(whole.parts);
      expect(whole.parts.at(-1)?.type, file).toBe('finish');
    }
  });
});
