import { createHash } from 'node:crypto';
import type { ModelMessage } from '@cairn/core';
import { longConversation } from '@cairn/provider-utils/testing';
import { describe, expect, it } from 'vitest';
import { convertToOpenAIChatMessages } from '../src/convert-to-openai-chat-messages.js';
import { convertToOpenAIResponsesInput } from '../src/convert-to-openai-responses-input.js';

const converters = {
  chat: (prompt: ModelMessage[]) => convertToOpenAIChatMessages(prompt),
  responses: (prompt: ModelMessage[]) => convertToOpenAIResponsesInput(prompt),
};

/** A short fingerprint of a converted prompt, so every prefix of the conversation fits in one snapshot. */
function digest(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);
}

describe.each(Object.entries(converters))('%s conversion of a 30-message conversation', (api, convert) => {
  it('is what the converter produced before conversion became incremental', async () => {
    const cold = JSON.stringify(convert(structuredClone(longConversation(30))), null, 2);
    await expect(cold).toMatchFileSnapshot(`./__snapshots__/conversation-30.${api}.json`);
    const prefixes = longConversation(30).map((_, index, all) => digest(convert(structuredClone(all.slice(0, index + 1)))));
    await expect(JSON.stringify(prefixes, null, 2)).toMatchFileSnapshot(`./__snapshots__/conversation-prefixes.${api}.json`);
  });
});
