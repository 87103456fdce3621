import { describe, expect, it } from 'vitest';
import { applyStreamPart, emptyTurn, turnText, turnToolCalls } from './turn-state.js';
import { parseToolInput, turnToAssistantMessage } from './turn-to-message.js';
import type { LanguageModelV1StreamPart } from '../spec/language-model/v1/index.js';

const reduce = (parts: LanguageModelV1StreamPart[]) => parts.reduce((turn, part) => applyStreamPart(turn, part, 1000), emptyTurn());

describe('applyStreamPart', () => {
  it('accumulates text deltas per block', () => {
    const turn = reduce([
      { type: 'text-start', id: 'a' },
      { type: 'text-delta', id: 'a', delta: 'Hel' },
      { type: 'text-delta', id: 'a', delta: 'lo' },
      { type: 'text-end', id: 'a' },
    ]);
    expect(turnText(turn)).toBe('Hello');
    expect(turn.blocks).toHaveLength(1);
  });

  it('keeps reasoning with its signature and redacted data', () => {
    const turn = reduce([
      { type: 'reasoning-start', id: 'r' },
      { type: 'reasoning-delta', id: 'r', delta: 'think' },
      { type: 'reasoning-end', id: 'r', signature: 'sig==' },
      { type: 'reasoning-end', id: 'x', redactedData: 'opaque' },
    ]);
    expect(turn.blocks).toMatchObject([
      { kind: 'reasoning', text: 'think', signature: 'sig==' },
      { kind: 'reasoning', text: '', redactedData: 'opaque' },
    ]);
  });

  it('only completed tool calls become calls; streaming inputs stay pending', () => {
    const turn = reduce([
      { type: 'tool-input-start', id: 'c1', toolName: 'read_file' },
      { type: 'tool-input-delta', id: 'c1', delta: '{"path":' },
      { type: 'tool-input-start', id: 'c2', toolName: 'grep' },
      { type: 'tool-input-delta', id: 'c1', delta: '"a.ts"}' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: '{"path":"a.ts"}' },
    ]);
    expect(turnToolCalls(turn).map((call) => call.toolCallId)).toEqual(['c1']);
    expect(Object.keys(turn.pendingToolInputs)).toEqual(['c2']);
  });

  it('records finish, usage and in-band errors without losing content', () => {
    const usage = { inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 2, text: 2, reasoning: 0 } };
    const turn = reduce([
      { type: 'text-delta', id: 't', delta: 'partial' },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'end_turn' }, usage },
      { type: 'error', error: new Error('dropped') },
    ]);
    expect(turnText(turn)).toBe('partial');
    expect(turn.finishReason).toEqual({ unified: 'stop', raw: 'end_turn' });
    expect(turn.error).toBeInstanceOf(Error);
  });
});

describe('turnToAssistantMessage', () => {
  it('parses tool inputs and drops calls of an incomplete turn', () => {
    const turn = reduce([
      { type: 'text-delta', id: 't', delta: 'ok' },
      { type: 'tool-call', toolCallId: 'c', toolName: 'ls', input: '' },
    ]);
    expect(turnToAssistantMessage(turn, { includeToolCalls: true })?.content).toEqual([
      { type: 'text', text: 'ok' },
      { type: 'tool-call', toolCallId: 'c', toolName: 'ls', input: {} },
    ]);
    expect(turnToAssistantMessage(turn, { includeToolCalls: false })?.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(parseToolInput('{bad')).toMatchObject({ ok: false, value: '{bad' });
  });
});
