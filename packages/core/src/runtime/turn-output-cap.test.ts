import { describe, expect, it } from 'vitest';
import { estimateTextTokens } from './compaction-tokens.js';
import type { ToolCallOutcome } from './tool-runner.js';
import { capTurnToolOutputs, clipOutputsToFit, clipToolOutput, equalShareLevel, outputTokens } from './turn-output-cap.js';

const numbered = (count: number, from = 1) => Array.from({ length: count }, (_, index) => `${String(from + index).padStart(6)}|const value${from + index} = compute(${from + index}); // a line of code`).join('\n');

function outcome(id: string, text: string, extra: Partial<ToolCallOutcome> = {}): ToolCallOutcome {
  return { toolCallId: id, toolName: 'read_file', args: {}, invalid: false, output: { type: 'text', value: text }, text, isError: false, truncated: false, ...extra };
}

const tokensOf = (outcomes: ToolCallOutcome[]) => outcomes.reduce((sum, item) => sum + outputTokens(item.output, true), 0);

describe('equalShareLevel', () => {
  it('leaves small items whole and gives the large ones equal shares of the rest', () => {
    expect(equalShareLevel([10, 100, 100], 110)).toBe(50);
    expect(equalShareLevel([10, 20], 100)).toBe(Number.POSITIVE_INFINITY);
    expect(equalShareLevel([300, 10, 30], 100)).toBe(60);
  });
});

describe('capTurnToolOutputs', () => {
  it('returns the same outcomes when the turn fits', () => {
    const outcomes = [outcome('a', numbered(20)), outcome('b', 'ok')];
    const capped = capTurnToolOutputs(outcomes, { maxTokens: 5_000 });
    expect(capped[0]).toBe(outcomes[0]);
    expect(capped[1]).toBe(outcomes[1]);
  });

  it('clips the largest outputs first so the turn fits, each marked truncated with a notice', () => {
    const big = outcome('big', numbered(3_000));
    const medium = outcome('medium', numbered(400, 5_000));
    const small = outcome('small', 'The file was written.', { toolName: 'write' });
    const maxTokens = 6_000;
    expect(tokensOf([big, medium, small])).toBeGreaterThan(maxTokens * 3);
    const capped = capTurnToolOutputs([big, medium, small], { maxTokens });
    expect(capped[2]).toBe(small);
    // The total fits: each share holds its kept text and its notice.
    expect(tokensOf(capped)).toBeLessThanOrEqual(maxTokens);
    for (const item of capped.slice(0, 2)) {
      expect(item.truncated).toBe(true);
      expect(item.text).toBe(item.output.type === 'text' ? item.output.value : '');
      expect(item.text).toMatch(/\[Output cut to fit the context budget: \d+ of \d+ characters were removed from the end\. The last line shown is line \d+\. To see the rest, call read_file again/);
    }
    // Equal shares: both clipped outputs end up about the same size.
    const [first, second] = capped.map((item) => outputTokens(item.output, true));
    expect(Math.abs((first ?? 0) - (second ?? 0))).toBeLessThan(maxTokens * 0.05);
  });

  it('cuts at a line end, and the notice names the last line shown so the next read can start after it', () => {
    const text = numbered(2_000);
    const clipped = clipToolOutput({ toolName: 'read_file', output: { type: 'text', value: text } }, 1_000);
    if (clipped.type !== 'text') throw new Error('expected text');
    const body = clipped.value.slice(0, clipped.value.lastIndexOf('\n[Output cut'));
    expect(text.startsWith(`${body}\n`)).toBe(true);
    const lastLine = Number(/\s*(\d+)\|[^\n]*$/.exec(body)?.[1]);
    expect(clipped.value).toContain(`The last line shown is line ${lastLine}.`);
    expect(estimateTextTokens(clipped.value)).toBeLessThanOrEqual(1_000);
  });

  it('never splits a character; JSON becomes text, errors stay errors, images stay whole', () => {
    const emoji = '😀'.repeat(20_000);
    const clipped = clipToolOutput({ toolName: 'x', output: { type: 'text', value: emoji } }, 500);
    if (clipped.type !== 'text') throw new Error('expected text');
    expect(clipped.value.slice(0, clipped.value.indexOf('\n[Output cut'))).toMatch(/^(😀)+$/u);
    expect(clipToolOutput({ toolName: 'x', output: { type: 'json', value: { rows: Array.from({ length: 5_000 }, (_, index) => index) } } }, 200).type).toBe('text');
    expect(clipToolOutput({ toolName: 'x', output: { type: 'error-text', value: 'e'.repeat(50_000) } }, 200).type).toBe('error-text');
    const image = { type: 'image' as const, data: 'AAAA', mediaType: 'image/png' };
    const content = clipToolOutput({ toolName: 'x', output: { type: 'content', value: [{ type: 'text', text: numbered(3_000) }, image] } }, 2_000);
    if (content.type !== 'content') throw new Error('expected content');
    expect(content.value).toContainEqual(image);
    expect(content.value.at(-1)).toMatchObject({ type: 'text', text: expect.stringContaining('[Output cut') });
  });

  it('never replaces an output by a notice larger than itself', () => {
    const clipped = clipOutputsToFit([{ toolName: 'write', output: { type: 'text', value: 'ok' } }, { toolName: 'read_file', output: { type: 'text', value: numbered(500) } }], 0);
    expect(clipped[0]).toBeUndefined();
    expect(clipped[1]).toMatchObject({ type: 'text', value: expect.stringMatching(/^\[Output cut/) });
  });

  it('refuses a cap that is not a number of tokens', () => {
    expect(() => capTurnToolOutputs([outcome('a', 'x')], { maxTokens: Number.NaN })).toThrow(/non-negative number of tokens/);
  });
});
