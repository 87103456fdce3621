import { createHash } from 'node:crypto';
import type { ModelMessage } from '@cairn/core';
import { fixtureResponse, startFixtureServer } from '@cairn/core/testing';
import { longConversation } from '@cairn/provider-utils/testing';
import { describe, expect, it } from 'vitest';
import { convertToOpenAIChatMessages, openAIChatMessageCache } from '../src/convert-to-openai-chat-messages.js';
import { convertToOpenAIResponsesInput, openAIResponsesInputCache } from '../src/convert-to-openai-responses-input.js';
import { createOpenAI } from '../src/index.js';
import { collect } from './helpers.js';

/** A short fingerprint of a converted prompt, so every prefix of the conversation fits in one snapshot. */
function digest(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);
}

const converters = {
  chat: { convert: (prompt: ModelMessage[]) => convertToOpenAIChatMessages(prompt), cache: openAIChatMessageCache, fixture: 'openai-chat/stream-text-usage.sse' },
  responses: { convert: (prompt: ModelMessage[]) => convertToOpenAIResponsesInput(prompt), cache: openAIResponsesInputCache, fixture: 'openai-responses/stream-text.sse' },
};

describe.each(Object.entries(converters))('%s conversion of a 30-message conversation', (api, { convert, cache, fixture }) => {
  it('is what the converter produced before conversion became incremental', async () => {
    // Both files were written by the converter as it was before the cache (every message, every step).
    const cold = JSON.stringify(convert(structuredClone(longConversation(30))), null, 2);
    await expect(cold).toMatchFileSnapshot(`./__snapshots__/conversation-30.${api}.json`);
    const prefixes = longConversation(30).map((_, index, all) => digest(convert(structuredClone(all.slice(0, index + 1)))));
    await expect(JSON.stringify(prefixes, null, 2)).toMatchFileSnapshot(`./__snapshots__/conversation-prefixes.${api}.json`);
  });

  it('converts only the new message each step, and every step equals a cold conversion', () => {
    const conversation = longConversation(30);
    for (let length = 1; length <= conversation.length; length++) {
      const before = { ...cache.stats };
      const warm = JSON.stringify(convert(conversation.slice(0, length)));
      expect([cache.stats.hits - before.hits, cache.stats.misses - before.misses]).toEqual([length - 1, 1]);
      expect(warm).toBe(JSON.stringify(convert(structuredClone(conversation.slice(0, length)))));
    }
    const before = { ...cache.stats };
    convert(conversation);
    expect([cache.stats.hits - before.hits, cache.stats.misses - before.misses]).toEqual([30, 0]);
  });

  it('sends the same bytes through the SDK on a warm step as on a cold one, and the SDK changes no cached conversion', async () => {
    const server = await startFixtureServer([fixtureResponse(fixture)]);
    try {
      const model = createOpenAI({ api: api as 'chat' | 'responses' }).languageModel('gpt-4o', { settings: { apiKey: 'sk', baseURL: `${server.url}/v1` }, env: {} });
      const conversation = longConversation(30);
      for (const prompt of [conversation.slice(0, 29), conversation, structuredClone(conversation)]) await collect((await model.doStream({ prompt })).stream);
      expect(server.requests[1]?.bodyText).toBe(server.requests[2]?.bodyText);
      // The SDK left the cached conversions alone: a warm conversion still equals a cold one.
      expect(JSON.stringify(convert(conversation))).toBe(JSON.stringify(convert(structuredClone(conversation))));
    } finally {
      await server.close();
    }
  });
});
