import type { LanguageModelV1CallOptions, LanguageModelV1StreamPart } from '@cairn/core';
import {
  assistantMessageFromParts, collectStream, type FixtureResponse, type FixtureServer, fixtureResponse, shortenStrings, startFixtureServer,
  summarizeStreamParts,
} from '@cairn/core/testing';
import { createGoogle } from '../src/index.js';

export const collect = collectStream;

/** Consecutive deltas of one block joined, so a long stream reads as a short list in a snapshot. */
export const summarize = (parts: LanguageModelV1StreamPart[]): unknown[] => summarizeStreamParts(parts, (rawValue) => ({ keys: Object.keys(rawValue as object) }));

export const shorten = shortenStrings;

export const userPrompt: LanguageModelV1CallOptions['prompt'] = [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }];

/** Serves one recorded response (or a handful) and runs one doStream through the real SDK. */
export async function replay(
  responses: FixtureResponse[] | string,
  options: Partial<LanguageModelV1CallOptions> = {},
  modelId = 'gemini-2.5-flash',
): Promise<{ parts: LanguageModelV1StreamPart[]; server: FixtureServer; request: unknown }> {
  const server = await startFixtureServer(typeof responses === 'string' ? [fixtureResponse(responses)] : responses);
  try {
    const model = createGoogle({ apiKey: 'test-key', baseURL: server.url }).languageModel(modelId);
    const result = await model.doStream({ prompt: userPrompt, ...options });
    return { parts: await collect(result.stream), server, request: result.request?.body };
  } finally {
    await server.close();
  }
}

export { assistantMessageFromParts };
