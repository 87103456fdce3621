// Helpers for provider adapter tests: drain a model stream, condense it for a snapshot, and turn it
// into the assistant message the runtime would send back.
import { applyStreamPart, emptyTurn } from '../machine/turn-state.js';
import { turnToAssistantMessage } from '../machine/turn-to-message.js';
import type { AssistantModelMessage, LanguageModelV1StreamPart } from '../spec/language-model/v1/index.js';

export async function collectStream(stream: AsyncIterable<LanguageModelV1StreamPart>): Promise<LanguageModelV1StreamPart[]> {
  const parts: LanguageModelV1StreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

/**
 * Consecutive deltas of one block joined (with a `count`), errors reduced to their public fields, so
 * a long stream reads as a short list in a snapshot. `describeRaw` says what to keep of a raw part.
 */
export function summarizeStreamParts(parts: LanguageModelV1StreamPart[], describeRaw: (rawValue: unknown) => Record<string, unknown>): unknown[] {
  const summary: Array<Record<string, unknown>> = [];
  for (const part of parts) {
    const last = summary[summary.length - 1];
    if ((part.type === 'text-delta' || part.type === 'reasoning-delta' || part.type === 'tool-input-delta') && last && last.type === part.type && last.id === part.id) {
      last.delta = String(last.delta) + part.delta;
      last.count = Number(last.count ?? 1) + 1;
      continue;
    }
    if (part.type === 'raw') {
      summary.push({ type: 'raw', ...describeRaw(part.rawValue) });
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

/** Strings longer than `max` cut in snapshots (signatures, long answers), with their length. */
export function shortenStrings(value: unknown, max = 60): unknown {
  return JSON.parse(JSON.stringify(value, (_key, inner) => (typeof inner === 'string' && inner.length > max ? `${inner.slice(0, max)}…(${inner.length})` : inner)));
}

/** What the runtime does with a finished stream: core's own reducer and message builder, so tests send back exactly what a run would. */
export function assistantMessageFromParts(parts: LanguageModelV1StreamPart[]): AssistantModelMessage {
  const turn = parts.reduce((state, part) => applyStreamPart(state, part), emptyTurn());
  return turnToAssistantMessage(turn, { includeToolCalls: true }) ?? { role: 'assistant', content: [] };
}
