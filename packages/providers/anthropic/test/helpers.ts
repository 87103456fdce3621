import type { AssistantModelMessage, LanguageModelV1CallOptions, LanguageModelV1StreamPart } from '@cairn/core';
import { applyStreamPart, emptyTurn, turnToAssistantMessage } from '@cairn/core';
import { type FixtureResponse, type FixtureServer, fixtureResponse, startFixtureServer } from '@cairn/core/testing';
import { createAnthropic } from '../src/index.js';

export async function collect(stream: AsyncIterable<LanguageModelV1StreamPart>): Promise<LanguageModelV1StreamPart[]> {
  const parts: LanguageModelV1StreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

/** Consecutive deltas of one block joined, so a long stream reads as a short list in a snapshot. */
export function summarize(parts: LanguageModelV1StreamPart[]): unknown[] {
  const summary: Array<Record<string, unknown>> = [];
  for (const part of parts) {
    const last = summary[summary.length - 1];
    if ((part.type === 'text-delta' || part.type === 'reasoning-delta' || part.type === 'tool-input-delta') && last && last.type === part.type && last.id === part.id) {
      last.delta = String(last.delta) + part.delta;
      last.count = Number(last.count ?? 1) + 1;
      continue;
    }
    if (part.type === 'raw') {
      const rawValue = part.rawValue as { type?: string; content_block?: { type?: string }; delta?: { type?: string } };
      summary.push({ type: 'raw', event: rawValue.type, block: rawValue.content_block?.type ?? rawValue.delta?.type });
      continue;
    }
    if (part.type === 'error') {
      const error = part.error as { name?: string; message?: string; status?: number; isRetryable?: boolean; responseStarted?: boolean };
      summary.push({ type: 'error', name: error.name, message: error.message, status: error.status, isRetryable: error.isRetryable, responseStarted: error.responseStarted });
      continue;
    }
    summary.push({ ...part });
  }
  return summary;
}

/** Text longer than this is cut in snapshots (signatures, long answers). */
export function shorten(value: unknown, max = 60): unknown {
  return JSON.parse(JSON.stringify(value, (_key, inner) => (typeof inner === 'string' && inner.length > max ? `${inner.slice(0, max)}…(${inner.length})` : inner)));
}


export const userPrompt: LanguageModelV1CallOptions['prompt'] = [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }];

/** Serves one recorded response (or a handful) and runs one doStream through the real SDK. */
export async function replay(
  responses: FixtureResponse[] | string,
  options: Partial<LanguageModelV1CallOptions> = {},
  modelId = 'claude-haiku-4-5',
): Promise<{ parts: LanguageModelV1StreamPart[]; server: FixtureServer; request: unknown }> {
  const server = await startFixtureServer(typeof responses === 'string' ? [fixtureResponse(responses)] : responses);
  try {
    const model = createAnthropic({ apiKey: 'test-key', baseURL: server.url }).languageModel(modelId);
    const result = await model.doStream({ prompt: userPrompt, ...options });
    return { parts: await collect(result.stream), server, request: result.request?.body };
  } finally {
    await server.close();
  }
}

/** What the runtime does with a finished stream: core's own reducer and message builder, so tests send back exactly what a run would. */
export function assistantMessageFromParts(parts: LanguageModelV1StreamPart[]): AssistantModelMessage {
  const turn = parts.reduce((state, part) => applyStreamPart(state, part), emptyTurn());
  return turnToAssistantMessage(turn, { includeToolCalls: true }) ?? { role: 'assistant', content: [] };
}
