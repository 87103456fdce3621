import type { ToolResultOutput } from '../spec/language-model/v1/index.js';
import { estimateTextTokens, perImageTokens, quickCheckShare, toolOutputText } from './compaction-tokens.js';
import type { ToolCallOutcome } from './tool-runner.js';

/** What a clipped output is measured and cut by: the tool that made it and what it returned. */
export interface ClippableOutput {
  toolName: string;
  output: ToolResultOutput;
}

/**
 * The cap when compaction has no budget to derive it from (off, or the model's window unknown):
 * about one maximal tool result (`maxToolResultChars`, 200 000 characters). With a budget the cap
 * is `CompactionSettings.turnOutputTokens`, the kept tail's share of it.
 */
export const defaultTurnOutputTokens = 50_000;

type ContentPart = Extract<ToolResultOutput, { type: 'content' }>['value'][number];

/**
 * Cap the sum of one turn's tool outputs at `maxTokens`: the largest outputs are clipped first, all
 * to the same size, so small results (an edit's confirmation, a short listing) stay whole. Each
 * clipped outcome is marked `truncated` and ends with a notice saying what was cut and how to get
 * it again. Outcomes that fit are returned unchanged (same objects).
 */
export function capTurnToolOutputs(outcomes: ToolCallOutcome[], options: { maxTokens: number }): ToolCallOutcome[] {
  const clipped = clipOutputsToFit(outcomes, options.maxTokens);
  return outcomes.map((outcome, index) => {
    const output = clipped[index];
    return output ? { ...outcome, output, text: outputDisplayText(output), truncated: true } : outcome;
  });
}

/**
 * The new output for each item that must be clipped so the items' total fits `maxTokens`
 * (undefined where an item stays as it is). Images are never cut: they count, but only text shrinks.
 */
export function clipOutputsToFit(items: readonly ClippableOutput[], maxTokens: number): Array<ToolResultOutput | undefined> {
  if (!Number.isFinite(maxTokens) || maxTokens < 0) throw new RangeError(`The tool output cap must be a non-negative number of tokens; got ${maxTokens}.`);
  const none = items.map(() => undefined);
  // Far below the cap a chars/4 estimate decides, so a normal turn never loads the tokenizer.
  const quick = items.map((item) => outputTokens(item.output, false));
  if (sum(quick) <= maxTokens * quickCheckShare) return none;
  const sizes = items.map((item) => outputTokens(item.output, true));
  if (sum(sizes) <= maxTokens) return none;
  const level = equalShareLevel(sizes, maxTokens);
  // An output no larger than a notice stays: clipping it would not make it smaller.
  const clipAbove = Math.max(level, noticeTokens);
  return items.map((item, index) => ((sizes[index] ?? 0) > clipAbove ? clipToolOutput(item, level) : undefined));
}

/**
 * The largest size `level` such that the items clipped to it add up to at most `total`: items
 * smaller than the level keep their size, and the rest share what is left equally.
 */
export function equalShareLevel(sizes: readonly number[], total: number): number {
  const sorted = [...sizes].sort((a, b) => a - b);
  let remaining = total;
  for (const [index, size] of sorted.entries()) {
    const share = Math.floor(remaining / (sorted.length - index));
    if (size > share) return share;
    remaining -= size;
  }
  return Number.POSITIVE_INFINITY;
}

/** Tokens of an output as the model reads it: its text, plus a fixed count per image. */
export function outputTokens(output: ToolResultOutput, exact: boolean): number {
  if (output.type !== 'content') return estimateTextTokens(toolOutputText(output), exact);
  let tokens = 0;
  for (const part of output.value) tokens += part.type === 'text' ? estimateTextTokens(part.text, exact) : perImageTokens;
  return tokens;
}

/**
 * One output clipped to about `maxTokens`: its text is cut at a line end where one is near (never
 * inside a character), and a notice is appended. JSON becomes text, since cut JSON is not JSON.
 */
export function clipToolOutput(item: ClippableOutput, maxTokens: number): ToolResultOutput {
  const { output } = item;
  if (output.type !== 'content') {
    const text = toolOutputText(output);
    const kept = keepWithin(text, maxTokens - noticeTokens);
    const notice = clipNotice(item.toolName, text.length, kept);
    const value = kept ? `${kept}\n${notice}` : notice;
    return output.type === 'error-text' || output.type === 'error-json' ? { type: 'error-text', value } : { type: 'text', value };
  }
  let room = maxTokens - noticeTokens - output.value.filter((part) => part.type === 'image').length * perImageTokens;
  let totalChars = 0;
  let keptText = '';
  const value: ContentPart[] = [];
  for (const part of output.value) {
    if (part.type === 'image') {
      value.push(part);
      continue;
    }
    totalChars += part.text.length;
    const kept = keepWithin(part.text, room);
    room = kept.length < part.text.length ? 0 : room - estimateTextTokens(kept);
    keptText += kept;
    if (kept) value.push({ type: 'text', text: kept });
  }
  value.push({ type: 'text', text: clipNotice(item.toolName, totalChars, keptText) });
  return { type: 'content', value, ...(output.isError ? { isError: true } : {}) };
}

/**
 * The start of `text` that takes at most `tokens` tokens: a first cut from the text's own
 * characters-per-token ratio, then shorter cuts while the count is still over (the start of a
 * text can be denser than its average).
 */
function keepWithin(text: string, tokens: number): string {
  if (tokens <= 0) return '';
  let kept = cutText(text, charsForTokens(text, tokens));
  for (let attempt = 0; attempt < 4; attempt++) {
    const size = estimateTextTokens(kept);
    if (size <= tokens) break;
    kept = cutText(kept, Math.floor(((kept.length * tokens) / size) * 0.97));
  }
  return kept;
}

/** Room reserved for the notice itself. */
const noticeTokens = 80;

function clipNotice(toolName: string, totalChars: number, kept: string): string {
  const lastLine = /^\s*(\d+)\|/.exec(kept.slice(kept.lastIndexOf('\n') + 1))?.[1];
  const where = lastLine ? ` The last line shown is line ${lastLine}.` : '';
  return (
    `[Output cut to fit the context budget: ${totalChars - kept.length} of ${totalChars} characters were removed from the end.${where} ` +
    `To see the rest, call ${toolName} again for a narrower part (a later offset, fewer lines or a more specific pattern).]`
  );
}

/** Characters of `text` that make about `tokens` tokens, from its own characters-per-token ratio. */
function charsForTokens(text: string, tokens: number): number {
  if (tokens <= 0 || text.length === 0) return 0;
  return Math.floor((tokens * text.length) / Math.max(1, estimateTextTokens(text)));
}

/** The start of `text` up to `maxChars`: at the last line end when it is in the second half, never inside a surrogate pair. */
function cutText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let cut = text.lastIndexOf('\n', maxChars);
  if (cut < maxChars / 2) cut = maxChars;
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
  return text.slice(0, Math.max(0, cut));
}

/** The text form of an output for `tool_call` messages and UIs (as `normalizeToolResult` builds it). */
function outputDisplayText(output: ToolResultOutput): string {
  if (output.type !== 'content') return toolOutputText(output);
  return output.value.map((part) => (part.type === 'text' ? part.text : `[image ${part.mediaType}]`)).join('\n');
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
