import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { providerFixturesDir } from '@cairn/core/testing';
import { describe, expect, it } from 'vitest';
import { type AnthropicStreamEvent, convertToAnthropicMessages, createAnthropicStreamState, finishAnthropicStream, mapAnthropicStreamEvent } from '../src/index.js';
import { assistantMessageFromParts, shorten, summarize } from './helpers.js';

/**
 * The json-* files are non-streaming Messages responses. This adapter only streams, and the SDK's
 * stream parser cannot read a JSON body, so each recorded message is replayed as the stream events
 * the API sends for the same content (start / delta / stop per block) through the real mapper, and
 * the resulting assistant message is converted back: the blocks must come out as recorded.
 */
type Block = { type: string; text?: string; thinking?: string; signature?: string; data?: string; id?: string; name?: string; input?: unknown };

function eventsOf(message: { id: string; model: string; content: Block[]; stop_reason: string; usage: Record<string, unknown> }): AnthropicStreamEvent[] {
  const events: AnthropicStreamEvent[] = [{ type: 'message_start', message: { id: message.id, model: message.model, usage: { ...message.usage, output_tokens: 1 } } }];
  message.content.forEach((block, index) => {
    if (block.type === 'text') {
      events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } });
    } else if (block.type === 'thinking') {
      events.push({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } });
      events.push({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: block.thinking } });
      events.push({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: block.signature } });
    } else if (block.type === 'tool_use') {
      events.push({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
      events.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
    } else {
      events.push({ type: 'content_block_start', index, content_block: block as { type: string } });
    }
    events.push({ type: 'content_block_stop', index });
  });
  events.push({ type: 'message_delta', delta: { stop_reason: message.stop_reason }, usage: { output_tokens: message.usage.output_tokens as number } });
  events.push({ type: 'message_stop' });
  return events;
}

function load(name: string) {
  return JSON.parse(readFileSync(join(providerFixturesDir(), 'anthropic', name), 'utf8'));
}

function run(name: string) {
  const message = load(name);
  const state = createAnthropicStreamState();
  const parts = eventsOf(message).flatMap((event) => mapAnthropicStreamEvent(state, event));
  parts.push(...finishAnthropicStream(state));
  const sentBack = convertToAnthropicMessages([assistantMessageFromParts(parts)]).messages[0]?.content;
  return { message, parts, sentBack };
}

describe('anthropic json fixtures through the stream mapper and back', () => {
  for (const name of ['json-text.json', 'json-text-tool-use.json', 'json-thinking.json', 'json-tool-use-parallel.json']) {
    it(`${name}: the assistant turn goes back exactly as recorded`, () => {
      const { message, sentBack } = run(name);
      expect(sentBack).toEqual(message.content);
    });
  }

  it('json-thinking.json maps to reasoning with the signature, then text', () => {
    expect(shorten(summarize(run('json-thinking.json').parts))).toMatchInlineSnapshot(`
      [
        {
          "id": "msg_01XrsJCi8CQoLcnnWdY8RsJz",
          "modelId": "claude-sonnet-4-5-20250929",
          "type": "response-metadata",
        },
        {
          "id": "block-0",
          "type": "reasoning-start",
        },
        {
          "delta": "925 divided by 5 = 185",
          "id": "block-0",
          "type": "reasoning-delta",
        },
        {
          "id": "block-0",
          "signature": "Er4BCkYICxgCKkCoxqLHLrx4mFL9Ox7/aHKht87WDzXfvZ7qbZKSnHV8imA5…(260)",
          "type": "reasoning-end",
        },
        {
          "id": "block-1",
          "type": "text-start",
        },
        {
          "delta": "925 ÷ 5 = 185",
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
              "noCache": 69,
              "total": 69,
            },
            "outputTokens": {
              "total": 33,
            },
            "raw": {
              "cache_creation": {
                "ephemeral_1h_input_tokens": 0,
                "ephemeral_5m_input_tokens": 0,
              },
              "cache_creation_input_tokens": 0,
              "cache_read_input_tokens": 0,
              "inference_geo": "not_available",
              "input_tokens": 69,
              "output_tokens": 33,
              "service_tier": "standard",
            },
          },
        },
      ]
    `);
  });

  it('json-tool-use-parallel.json maps to two tool calls', () => {
    expect(run('json-tool-use-parallel.json').parts.filter((part) => part.type === 'tool-call' || part.type === 'finish')).toMatchInlineSnapshot(`
      [
        {
          "input": "{"count":1}",
          "toolCallId": "toolu_0179r6ofLHbaispTuUAqMJfr",
          "toolName": "test_tool",
          "type": "tool-call",
        },
        {
          "input": "{"count":2}",
          "toolCallId": "toolu_012uz9XtyrRxAoELvYgkQnxi",
          "toolName": "test_tool",
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
              "noCache": 418,
              "total": 418,
            },
            "outputTokens": {
              "reasoning": undefined,
              "text": undefined,
              "total": 114,
            },
            "raw": {
              "cache_creation": {
                "ephemeral_1h_input_tokens": 0,
                "ephemeral_5m_input_tokens": 0,
              },
              "cache_creation_input_tokens": 0,
              "cache_read_input_tokens": 0,
              "input_tokens": 418,
              "output_tokens": 114,
              "service_tier": "standard",
            },
          },
        },
      ]
    `);
  });
});
