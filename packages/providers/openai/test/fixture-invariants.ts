import type { LanguageModelV1StreamPart } from '@cairn/core';
import { expect } from 'vitest';

/** What every replayed stream must satisfy, whatever its content. */
export function expectWellFormed(parts: LanguageModelV1StreamPart[]): void {
  expect(parts[0]?.type).toBe('stream-start');
  const last = parts[parts.length - 1];
  expect(['finish', 'error']).toContain(last?.type);
  expect(parts.filter((part) => part.type === 'finish' || part.type === 'error')).toHaveLength(1);
  const open = new Set<string>();
  for (const part of parts) {
    if (part.type === 'text-start' || part.type === 'reasoning-start' || part.type === 'tool-input-start') {
      expect(open.has(`${part.type.split('-')[0]}:${part.id}`)).toBe(false);
      open.add(`${part.type.split('-')[0]}:${part.id}`);
    }
    if (part.type === 'text-delta' || part.type === 'text-end') expect(open.has(`text:${part.id}`)).toBe(true);
    if (part.type === 'reasoning-delta' || part.type === 'reasoning-end') expect(open.has(`reasoning:${part.id}`)).toBe(true);
    if (part.type === 'tool-input-delta' || part.type === 'tool-input-end') expect(open.has(`tool:${part.id}`)).toBe(true);
    if (part.type === 'text-end') open.delete(`text:${part.id}`);
    if (part.type === 'reasoning-end') open.delete(`reasoning:${part.id}`);
    if (part.type === 'tool-input-end') open.delete(`tool:${part.id}`);
  }
  if (last?.type === 'finish') expect([...open]).toEqual([]);
  // A complete tool call carries exactly the streamed argument text.
  for (const call of parts.filter((part) => part.type === 'tool-call')) {
    const streamed = parts
      .filter((part) => part.type === 'tool-input-delta' && part.id === call.toolCallId)
      .map((part) => (part as { delta: string }).delta)
      .join('');
    expect(call.input === streamed || (streamed === '' && call.input === '{}')).toBe(true);
  }
}
