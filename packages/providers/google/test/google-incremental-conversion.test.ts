import { createHash } from 'node:crypto';
import type { LanguageModelV1CallOptions, ModelMessage } from '@cairn/core';
import { fixtureResponse, startFixtureServer } from '@cairn/core/testing';
import { longConversation } from '@cairn/provider-utils/testing';
import { describe, expect, it } from 'vitest';
import { googleMessageCache } from '../src/convert-to-google-messages.js';
import { buildGoogleRequest } from '../src/google-request.js';
import { createGoogle } from '../src/index.js';
import { collect } from './helpers.js';

/** A short fingerprint of a converted prompt, so every prefix of the conversation fits in one snapshot. */
function digest(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);
}

const tools: LanguageModelV1CallOptions['tools'] = [{ type: 'function', name: 'read_file', description: 'Read a file.', inputSchema: { type: 'object', properties: {} } }];

describe.each(['gemini-2.5-flash', 'gemini-3-pro-preview'])('the %s request of a 30-message conversation', (modelId) => {
  const build = (prompt: ModelMessage[]) => buildGoogleRequest(modelId, { prompt, tools }, undefined);

  it('is what the converter produced before conversion became incremental', async () => {
    // Both files were written by the converter as it was before the cache (every message, every step).
    await expect(JSON.stringify(build(structuredClone(longConversation(30))), null, 2)).toMatchFileSnapshot(`./__snapshots__/conversation-30.${modelId}.json`);
    const prefixes = longConversation(30).map((_, index, all) => digest(build(structuredClone(all.slice(0, index + 1)))));
    await expect(JSON.stringify(prefixes, null, 2)).toMatchFileSnapshot(`./__snapshots__/conversation-prefixes.${modelId}.json`);
  });

  it('converts only the new message each step; merged turns, answered names and placeholders equal a cold build', () => {
    const conversation = longConversation(30);
    for (let length = 1; length <= conversation.length; length++) {
      const before = { ...googleMessageCache.stats };
      const warm = JSON.stringify(build(conversation.slice(0, length)));
      expect([googleMessageCache.stats.hits - before.hits, googleMessageCache.stats.misses - before.misses]).toEqual([length - 1, 1]);
      expect(warm).toBe(JSON.stringify(build(structuredClone(conversation.slice(0, length)))));
    }
    const before = { ...googleMessageCache.stats };
    build(conversation);
    expect([googleMessageCache.stats.hits - before.hits, googleMessageCache.stats.misses - before.misses]).toEqual([30, 0]);
  });

  it('sends the same bytes through the SDK on a warm step as on a cold one, and the SDK changes no cached conversion', async () => {
    const server = await startFixtureServer([fixtureResponse('google/stream-text.sse')]);
    try {
      const model = createGoogle({ apiKey: 'test-key', baseURL: server.url }).languageModel(modelId);
      const conversation = longConversation(30);
      for (const prompt of [conversation.slice(0, 29), conversation, structuredClone(conversation)]) await collect((await model.doStream({ prompt, tools })).stream);
      expect(server.requests[1]?.bodyText).toBe(server.requests[2]?.bodyText);
      // The SDK left the cached conversions alone: a warm conversion still equals a cold one.
      expect(JSON.stringify(build(conversation))).toBe(JSON.stringify(build(structuredClone(conversation))));
    } finally {
      await server.close();
    }
  });
});
