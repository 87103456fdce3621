import { createHash } from 'node:crypto';
import type { LanguageModelV1CallOptions } from '@cairn/core';
import { longConversation } from '@cairn/provider-utils/testing';
import { describe, expect, it } from 'vitest';
import { buildAnthropicRequest } from '../src/anthropic-request.js';

const tools: LanguageModelV1CallOptions['tools'] = [{ type: 'function', name: 'read_file', description: 'Read a file.', inputSchema: { type: 'object', properties: {} } }];

/** A short fingerprint of a converted prompt, so every prefix of the conversation fits in one snapshot. */
function digest(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);
}

describe('the request body of a 30-message conversation', () => {
  it('is what the converter produced before conversion became incremental', async () => {
    const cold = JSON.stringify(buildAnthropicRequest('claude-sonnet-4-5', { prompt: structuredClone(longConversation(30)), tools }, undefined), null, 2);
    await expect(cold).toMatchFileSnapshot('./__snapshots__/conversation-30.request.json');
    const prefixes = longConversation(30).map((_, index, all) => digest(buildAnthropicRequest('claude-sonnet-4-5', { prompt: structuredClone(all.slice(0, index + 1)), tools }, undefined)));
    await expect(JSON.stringify(prefixes, null, 2)).toMatchFileSnapshot('./__snapshots__/conversation-prefixes.request.json');
  });
});
