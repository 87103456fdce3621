import { createHash } from 'node:crypto';
import type { LanguageModelV1CallOptions } from '@cairn/core';
import { longConversation } from '@cairn/provider-utils/testing';
import { describe, expect, it } from 'vitest';
import { buildGoogleRequest } from '../src/google-request.js';

const tools: LanguageModelV1CallOptions['tools'] = [{ type: 'function', name: 'read_file', description: 'Read a file.', inputSchema: { type: 'object', properties: {} } }];

/** A short fingerprint of a converted prompt, so every prefix of the conversation fits in one snapshot. */
function digest(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);
}

describe.each(['gemini-2.5-flash', 'gemini-3-pro-preview'])('the %s request of a 30-message conversation', (modelId) => {
  it('is what the converter produced before conversion became incremental', async () => {
    const cold = JSON.stringify(buildGoogleRequest(modelId, { prompt: structuredClone(longConversation(30)), tools }, undefined), null, 2);
    await expect(cold).toMatchFileSnapshot(`./__snapshots__/conversation-30.${modelId}.json`);
    const prefixes = longConversation(30).map((_, index, all) => digest(buildGoogleRequest(modelId, { prompt: structuredClone(all.slice(0, index + 1)), tools }, undefined)));
    await expect(JSON.stringify(prefixes, null, 2)).toMatchFileSnapshot(`./__snapshots__/conversation-prefixes.${modelId}.json`);
  });
});
