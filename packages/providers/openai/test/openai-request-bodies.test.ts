import { fixtureResponse, startFixtureServer } from '@cairn/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAI } from '../src/index.js';
import { collect, context } from './helpers.js';
import { multiTurnPrompt } from './multi-turn-prompt.js';

let server: Awaited<ReturnType<typeof startFixtureServer>>;
beforeAll(async () => {
  server = await startFixtureServer((request) =>
    fixtureResponse(request.url.endsWith('/responses') ? 'openai-responses/stream-text.sse' : 'openai-chat/stream-text-usage.sse'),
  );
});
afterAll(() => server.close());

describe('multi-turn request bodies', () => {
  it('Chat Completions: tool calls answered by tool messages, images of tool results in a user message, reasoning dropped', async () => {
    const model = createOpenAI({ api: 'chat' }).languageModel('gpt-4.1', context(server.url));
    const result = await model.doStream({ prompt: multiTurnPrompt });
    await collect(result.stream);
    expect(server.requests.at(-1)!.body).toMatchInlineSnapshot(`
      {
        "messages": [
          {
            "content": "You are a coding agent.",
            "role": "system",
          },
          {
            "content": [
              {
                "text": "Why does the build fail? Screenshot attached.",
                "type": "text",
              },
              {
                "image_url": {
                  "url": "data:image/png;base64,iVBORw0KGgo=",
                },
                "type": "image_url",
              },
            ],
            "role": "user",
          },
          {
            "content": "Let me look at the config and the log.",
            "role": "assistant",
            "tool_calls": [
              {
                "function": {
                  "arguments": "{"path":"tsconfig.json"}",
                  "name": "read_file",
                },
                "id": "call_a",
                "type": "function",
              },
              {
                "function": {
                  "arguments": "{"pattern":"error TS"}",
                  "name": "grep",
                },
                "id": "call_b",
                "type": "function",
              },
            ],
          },
          {
            "content": "{"compilerOptions":{"strict":true}}",
            "role": "tool",
            "tool_call_id": "call_a",
          },
          {
            "content": "grep: no matches",
            "role": "tool",
            "tool_call_id": "call_b",
          },
          {
            "content": null,
            "role": "assistant",
            "tool_calls": [
              {
                "function": {
                  "arguments": "{}",
                  "name": "screenshot",
                },
                "id": "call_c",
                "type": "function",
              },
            ],
          },
          {
            "content": "The page:",
            "role": "tool",
            "tool_call_id": "call_c",
          },
          {
            "content": [
              {
                "text": "Images returned by tool call call_c:",
                "type": "text",
              },
              {
                "image_url": {
                  "url": "data:image/gif;base64,R0lGOD",
                },
                "type": "image_url",
              },
            ],
            "role": "user",
          },
          {
            "content": "strict is on.",
            "role": "assistant",
          },
          {
            "content": "Fix it.",
            "role": "user",
          },
        ],
        "model": "gpt-4.1",
        "stream": true,
        "stream_options": {
          "include_usage": true,
        },
      }
    `);
  });

  it('Responses: reasoning items with encrypted content, item ids, function_call_output by call_id', async () => {
    const model = createOpenAI({ api: 'responses' }).languageModel('gpt-5.2', context(server.url));
    const result = await model.doStream({ prompt: multiTurnPrompt, promptCacheKey: 'agent-1', params: { reasoningEffort: 'xhigh' } });
    await collect(result.stream);
    expect(server.requests.at(-1)!.body).toMatchInlineSnapshot(`
      {
        "include": [
          "reasoning.encrypted_content",
        ],
        "input": [
          {
            "content": "You are a coding agent.",
            "role": "system",
          },
          {
            "content": [
              {
                "text": "Why does the build fail? Screenshot attached.",
                "type": "input_text",
              },
              {
                "detail": "auto",
                "image_url": "data:image/png;base64,iVBORw0KGgo=",
                "type": "input_image",
              },
            ],
            "role": "user",
          },
          {
            "encrypted_content": "gAAAA-encrypted-1",
            "id": "rs_1",
            "summary": [
              {
                "text": "**Reading the logs**",
                "type": "summary_text",
              },
            ],
            "type": "reasoning",
          },
          {
            "content": [
              {
                "annotations": [],
                "text": "Let me look at the config and the log.",
                "type": "output_text",
              },
            ],
            "id": "msg_1",
            "phase": "commentary",
            "role": "assistant",
            "status": "completed",
            "type": "message",
          },
          {
            "arguments": "{"path":"tsconfig.json"}",
            "call_id": "call_a",
            "id": "fc_a",
            "name": "read_file",
            "type": "function_call",
          },
          {
            "arguments": "{"pattern":"error TS"}",
            "call_id": "call_b",
            "id": "fc_b",
            "name": "grep",
            "type": "function_call",
          },
          {
            "call_id": "call_a",
            "output": "{"compilerOptions":{"strict":true}}",
            "type": "function_call_output",
          },
          {
            "call_id": "call_b",
            "output": "grep: no matches",
            "type": "function_call_output",
          },
          {
            "arguments": "{}",
            "call_id": "call_c",
            "name": "screenshot",
            "type": "function_call",
          },
          {
            "call_id": "call_c",
            "output": [
              {
                "text": "The page:",
                "type": "input_text",
              },
              {
                "detail": "auto",
                "image_url": "data:image/gif;base64,R0lGOD",
                "type": "input_image",
              },
            ],
            "type": "function_call_output",
          },
          {
            "content": "strict is on.",
            "role": "assistant",
          },
          {
            "content": [
              {
                "text": "Fix it.",
                "type": "input_text",
              },
            ],
            "role": "user",
          },
        ],
        "model": "gpt-5.2",
        "prompt_cache_key": "agent-1",
        "reasoning": {
          "effort": "xhigh",
          "summary": "auto",
        },
        "store": false,
        "stream": true,
      }
    `);
  });
});
