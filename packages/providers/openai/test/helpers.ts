import type { LanguageModelV1StreamPart, ModelMessage, ProviderContext } from '@cairn/core';
import { ProviderError } from '@cairn/core';
import { collectStream } from '@cairn/core/testing';

export const collect = collectStream;

/** Stream parts with consecutive deltas of one id joined, so snapshots stay readable. */
export function summarize(parts: LanguageModelV1StreamPart[]): unknown[] {
  const out: Array<Record<string, unknown>> = [];
  for (const part of parts) {
    const last = out[out.length - 1];
    if ((part.type === 'text-delta' || part.type === 'reasoning-delta' || part.type === 'tool-input-delta') && last?.type === part.type && last.id === part.id) {
      last.delta = `${last.delta as string}${part.delta}`;
      last.count = ((last.count as number | undefined) ?? 1) + 1;
      continue;
    }
    if (part.type === 'error') {
      out.push({ type: 'error', error: describeError(part.error) });
      continue;
    }
    if (part.type === 'finish') {
      const { raw: _raw, ...usage } = part.usage;
      out.push({ ...part, usage });
      continue;
    }
    if (part.type === 'response-metadata' && part.timestamp) {
      out.push({ ...part, timestamp: part.timestamp.toISOString() });
      continue;
    }
    out.push({ ...part });
  }
  // Long encrypted reasoning blobs: keep their start only.
  return JSON.parse(
    JSON.stringify(out, (key, value) => (key === 'encryptedContent' && typeof value === 'string' ? `${value.slice(0, 12)}…(${value.length})` : value)),
  );
}

export function describeError(error: unknown): Record<string, unknown> {
  if (ProviderError.isInstance(error)) {
    return {
      name: error.name,
      message: error.message,
      status: error.status,
      code: error.code,
      isRetryable: error.isRetryable,
      retryAfterMs: error.retryAfterMs,
      requestId: error.requestId,
      responseStarted: error.responseStarted,
    };
  }
  return { name: (error as Error)?.name, message: (error as Error)?.message };
}

export function context(url: string, settings: Record<string, unknown> = {}): ProviderContext {
  return { settings: { apiKey: 'sk-test', baseURL: `${url}/v1`, ...settings }, env: {} };
}

export const simplePrompt: ModelMessage[] = [
  { role: 'system', content: 'You are a coding agent.' },
  { role: 'user', content: [{ type: 'text', text: 'What is the weather in Edinburgh?' }] },
];

export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}
