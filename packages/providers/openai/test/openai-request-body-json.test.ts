import type { LanguageModelV1FunctionTool } from '@cairn/core/spec';
import { fixtureResponse, startFixtureServer } from '@cairn/core/testing';
import { longConversation } from '@cairn/provider-utils/testing';
import { describe, expect, it } from 'vitest';
import { convertToOpenAIChatMessages } from '../src/convert-to-openai-chat-messages.js';
import { createOpenAI } from '../src/index.js';
import { requestBodyJson, requestBodyJsonStats } from '../src/request-body-json.js';
import { collect } from './helpers.js';

const tools: LanguageModelV1FunctionTool[] = [
  { type: 'function', name: 'read_file', description: 'Read a file — «UTF-8» text.', inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
  { type: 'function', name: 'grep', description: 'Search with a regular expression.', inputSchema: { type: 'object', properties: { pattern: { type: 'string' }, limit: { type: 'integer', minimum: 1 } } } },
];

describe('request body JSON made from cached parts', () => {
  it('is exactly JSON.stringify of the body, with undefined fields and items left out as JSON.stringify does', () => {
    const message = { role: 'user', content: 'line\n"quoted" \u2028 \ud83d\ude00' };
    const body = { model: 'gpt-4.1', messages: [message, { role: 'assistant', content: null, extra: undefined }], skipped: undefined, tools: [tools[0], 'text', 3, null], stream: true, nested: { a: [1, undefined] } };
    const shared = new Map([
      ['messages', 'items'],
      ['tools', 'items'],
      ['nested', 'whole'],
    ] as const);
    expect(requestBodyJson(body, shared)).toBe(JSON.stringify(body));
    // Again from the cache: the same text.
    expect(requestBodyJson(body, shared)).toBe(JSON.stringify(body));
  });

  it('sends what the SDK would have sent, and serialises each message and tool once across the steps of a conversation', async () => {
    const server = await startFixtureServer(() => fixtureResponse('openai-chat/stream-text-usage.sse'));
    try {
      const model = createOpenAI({ api: 'chat' }).languageModel('gpt-4.1', { settings: { apiKey: 'sk', baseURL: `${server.url}/v1` }, env: {} });
      const conversation = longConversation(12);
      const counts: number[] = [];
      // Converted messages that are not the previous step's objects: the cached conversions come
      // back as the same objects; a placeholder result for a call still unanswered is new each time.
      const expected: number[] = [];
      let previous = new Set<object>();
      for (let length = 10; length <= 12; length++) {
        const converted = convertToOpenAIChatMessages(conversation.slice(0, length)).messages;
        expected.push(converted.filter((message) => !previous.has(message)).length);
        previous = new Set(converted);
        const before = requestBodyJsonStats.misses;
        const result = await model.doStream({ prompt: conversation.slice(0, length), tools, promptCacheKey: 'conv-1' });
        await collect(result.stream);
        counts.push(requestBodyJsonStats.misses - before);
        const received = server.requests.at(-1);
        expect(received?.headers['content-type']).toBe('application/json');
        // Byte for byte what JSON.stringify of the reported body gives, as the SDK's own encoder would send.
        expect(received?.bodyText).toBe(JSON.stringify(result.request?.body));
      }
      // The first request serialises all its messages and the tool list; each later step only its new messages.
      expect(counts).toEqual([(expected[0] ?? 0) + 1, expected[1], expected[2]]);
      expect(expected[0]).toBeGreaterThanOrEqual(10);
      expect(Math.max(expected[1] ?? 0, expected[2] ?? 0)).toBeLessThan(5);
    } finally {
      await server.close();
    }
  });
});
