import { ConfigurationError, type ModelMessage } from '@cairn/core';
import { fixtureResponse, startFixtureServer } from '@cairn/core/testing';
import { describe, expect, it } from 'vitest';
import { anthropic, createAnthropic } from '../src/index.js';
import { assistantMessageFromParts, collect, replay, shorten } from './helpers.js';

const tools = [
  { type: 'function' as const, name: 'get_weather', description: 'Weather for a city.', inputSchema: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] } },
  { type: 'function' as const, name: 'read_file', description: 'Read a file.', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } },
];

describe('anthropic outgoing requests', () => {
  it('a multi-turn conversation: thinking with signature and tool_use passed back, tool_result first in the next user turn', async () => {
    // Turn 1 really streamed: a thinking block (with signature) and then text, from the recording.
    const first = await replay('anthropic/stream-thinking.sse', { reasoningEffort: 'low', tools });
    const thinkingTurn = assistantMessageFromParts(first.parts);
    // Turn 2: a recorded tool call.
    const second = await replay('anthropic/stream-tool-use.sse', { tools });
    const toolTurn = assistantMessageFromParts(second.parts);
    const toolCall = toolTurn.content.find((part) => part.type === 'tool-call')!;
    const prompt: ModelMessage[] = [
      { role: 'system', content: 'You are a coding agent.' },
      { role: 'system', content: '<mode>agent</mode>' },
      { role: 'user', content: [{ type: 'text', text: 'How do I cross the street?' }] },
      thinkingTurn,
      { role: 'user', content: [{ type: 'text', text: 'And the weather in Paris?' }] },
      toolTurn,
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: toolCall.type === 'tool-call' ? toolCall.toolCallId : '', toolName: 'get_weather', output: { type: 'json', value: { celsius: 18 } } }] },
      { role: 'user', content: [{ type: 'text', text: '<system_reminder>Be brief.</system_reminder>' }] },
    ];
    const third = await replay('anthropic/stream-text.sse', { prompt, tools, reasoningEffort: 'medium', maxOutputTokens: 2000, temperature: 0.2, toolChoice: { type: 'auto' } });
    const sent = third.server.requests[0]!;
    expect(sent.url).toBe('/v1/messages');
    expect(sent.headers.authorization).toBe('Bearer test-key');
    expect(sent.headers['anthropic-version']).toBeTruthy();
    expect(third.request).toEqual(sent.body);
    const streamedEnd = first.parts.find((part) => part.type === 'reasoning-end');
    const sentThinking = (sent.body as { messages: Array<{ content: Array<{ signature?: string }> }> }).messages[1]?.content[0];
    expect(sentThinking?.signature).toBe(streamedEnd?.type === 'reasoning-end' ? streamedEnd.signature : 'missing');
    expect(shorten(sent.body, 48)).toMatchInlineSnapshot(`
      {
        "max_tokens": 12000,
        "messages": [
          {
            "content": [
              {
                "text": "How do I cross the street?",
                "type": "text",
              },
            ],
            "role": "user",
          },
          {
            "content": [
              {
                "signature": "EvMCCkYICxgCKkCHP2cSuEdcJK/0rFwqES/ecn+VurRpNTwI…(504)",
                "thinking": "This is a straightforward question about pedestr…(202)",
                "type": "thinking",
              },
              {
                "text": "Here are the basic steps for safely crossing the…(1021)",
                "type": "text",
              },
            ],
            "role": "assistant",
          },
          {
            "content": [
              {
                "cache_control": {
                  "type": "ephemeral",
                },
                "text": "And the weather in Paris?",
                "type": "text",
              },
            ],
            "role": "user",
          },
          {
            "content": [
              {
                "text": "I'll check the current weather in Paris for you.",
                "type": "text",
              },
              {
                "id": "toolu_01NRLabsLyVHZPKxbKvkfSMn",
                "input": {
                  "location": "Paris",
                },
                "name": "get_weather",
                "type": "tool_use",
              },
            ],
            "role": "assistant",
          },
          {
            "content": [
              {
                "content": "{"celsius":18}",
                "tool_use_id": "toolu_01NRLabsLyVHZPKxbKvkfSMn",
                "type": "tool_result",
              },
              {
                "cache_control": {
                  "type": "ephemeral",
                },
                "text": "<system_reminder>Be brief.</system_reminder>",
                "type": "text",
              },
            ],
            "role": "user",
          },
        ],
        "model": "claude-haiku-4-5",
        "stream": true,
        "system": [
          {
            "text": "You are a coding agent.",
            "type": "text",
          },
          {
            "cache_control": {
              "type": "ephemeral",
            },
            "text": "<mode>agent</mode>",
            "type": "text",
          },
        ],
        "thinking": {
          "budget_tokens": 10000,
          "type": "enabled",
        },
        "tool_choice": {
          "type": "auto",
        },
        "tools": [
          {
            "description": "Weather for a city.",
            "input_schema": {
              "properties": {
                "location": {
                  "type": "string",
                },
              },
              "required": [
                "location",
              ],
              "type": "object",
            },
            "name": "get_weather",
          },
          {
            "cache_control": {
              "type": "ephemeral",
            },
            "description": "Read a file.",
            "input_schema": {
              "properties": {
                "path": {
                  "type": "string",
                },
              },
              "type": "object",
            },
            "name": "read_file",
          },
        ],
      }
    `);
    // The temperature is dropped while thinking, with a warning.
    expect(third.parts[0]).toMatchInlineSnapshot(`
      {
        "type": "stream-start",
        "warnings": [
          {
            "message": "temperature is ignored while extended thinking is on.",
            "setting": "temperature",
            "type": "unsupported-setting",
          },
        ],
      }
    `);
  });

  it('consecutive tool messages merge into one user turn', async () => {
    const { server } = await replay('anthropic/stream-text.sse', {
      prompt: [
        { role: 'user', content: [{ type: 'text', text: 'Read two files' }] },
        {
          role: 'assistant',
          content: [
            { type: 'tool-call', toolCallId: 'toolu_a', toolName: 'read_file', input: { path: 'a.ts' } },
            { type: 'tool-call', toolCallId: 'toolu_b', toolName: 'read_file', input: { path: 'b.ts' } },
          ],
        },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'toolu_a', toolName: 'read_file', output: { type: 'text', value: 'A' } }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'toolu_b', toolName: 'read_file', output: { type: 'error-text', value: 'No such file' } }] },
      ],
    });
    expect((server.requests[0]!.body as { messages: unknown[] }).messages).toMatchInlineSnapshot(`
      [
        {
          "content": [
            {
              "cache_control": {
                "type": "ephemeral",
              },
              "text": "Read two files",
              "type": "text",
            },
          ],
          "role": "user",
        },
        {
          "content": [
            {
              "id": "toolu_a",
              "input": {
                "path": "a.ts",
              },
              "name": "read_file",
              "type": "tool_use",
            },
            {
              "id": "toolu_b",
              "input": {
                "path": "b.ts",
              },
              "name": "read_file",
              "type": "tool_use",
            },
          ],
          "role": "assistant",
        },
        {
          "content": [
            {
              "content": "A",
              "tool_use_id": "toolu_a",
              "type": "tool_result",
            },
            {
              "cache_control": {
                "type": "ephemeral",
              },
              "content": "No such file",
              "is_error": true,
              "tool_use_id": "toolu_b",
              "type": "tool_result",
            },
          ],
          "role": "user",
        },
      ]
    `);
  });

  it('headers from settings and from the call are sent', async () => {
    const server = await startFixtureServer([fixtureResponse('anthropic/stream-text.sse')]);
    try {
      const model = createAnthropic({ apiKey: 'test-key', baseURL: server.url, headers: { 'x-team': 'cairn' } }).languageModel('claude-haiku-4-5');
      const result = await model.doStream({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], headers: { 'x-run': 'run-1' } });
      await collect(result.stream);
      expect([server.requests[0]!.headers['x-team'], server.requests[0]!.headers['x-run']]).toEqual(['cairn', 'run-1']);
    } finally {
      await server.close();
    }
  });
});

describe('anthropic provider settings', () => {
  it('a missing key is a ConfigurationError naming the fix', () => {
    const error = (() => {
      try {
        createAnthropic().languageModel('claude-haiku-4-5', { settings: {}, env: {} });
      } catch (caught) {
        return caught;
      }
    })();
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe('Anthropic API key missing: set ANTHROPIC_API_KEY or pass providers.anthropic.apiKey.');
    expect(anthropic.isConfigured({ settings: {}, env: {} })).toBe(false);
    expect(anthropic.isConfigured({ settings: {}, env: { ANTHROPIC_API_KEY: 'k' } })).toBe(true);
  });

  it('reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL from the context env', async () => {
    const server = await startFixtureServer([fixtureResponse('anthropic/stream-text.sse')]);
    try {
      const model = anthropic.languageModel('claude-haiku-4-5', { settings: {}, env: { ANTHROPIC_API_KEY: 'env-key', ANTHROPIC_BASE_URL: server.url } });
      await collect((await model.doStream({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] })).stream);
      expect(server.requests[0]!.headers.authorization).toBe('Bearer env-key');
    } finally {
      await server.close();
    }
  });

  it('an injected SDK client is used as is', async () => {
    const server = await startFixtureServer([fixtureResponse('anthropic/stream-text.sse')]);
    try {
      const { default: Anthropic } = await import('@anthropic-ai/sdk');
      const client = new Anthropic({ apiKey: 'injected-key', baseURL: server.url, maxRetries: 0 });
      const model = createAnthropic({ client }).languageModel('claude-haiku-4-5', { settings: {}, env: {} });
      const parts = await collect((await model.doStream({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] })).stream);
      expect(parts.at(-1)?.type).toBe('finish');
      expect(server.requests[0]!.headers.authorization).toBe('Bearer injected-key');
    } finally {
      await server.close();
    }
  });

  it('the catalog resolves aliases and lists prices', () => {
    const models = anthropic.models();
    expect(models.map((entry) => entry.id)).toContain('claude-sonnet-4-5-20250929');
    expect(models.find((entry) => entry.aliases?.includes('claude-haiku-4-5'))?.pricing).toEqual({ inputPerMillion: 1, cachedInputPerMillion: 0.1, cacheWritePerMillion: 1.25, outputPerMillion: 5 });
    for (const entry of models) expect(entry.maxOutputTokens).toBeLessThanOrEqual(entry.contextWindow);
  });
});
