import type { LanguageModelV1StreamPart } from '@cairn/core';

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
