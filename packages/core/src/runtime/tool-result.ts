import type { JSONValue } from '../spec/json.js';
import type { ToolResultOutput } from '../spec/language-model/v1/index.js';
import type { ToolResult, ToolResultContent } from '../spec/tool/v1/index.js';

/** A tool's result as the model and the event log see it. */
export interface NormalizedToolResult {
  output: ToolResultOutput;
  /** Text form for `tool_call` messages and UIs. */
  text: string;
  isError: boolean;
  truncated: boolean;
  structuredContent?: JSONValue;
}

/** Results longer than this are cut before they reach the model (tools cap themselves first). */
export const maxToolResultChars = 200_000;

export function isToolResultContent(value: unknown): value is ToolResultContent {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Array.isArray((value as ToolResultContent).content);
}

export function normalizeToolResult(result: ToolResult): NormalizedToolResult {
  if (typeof result === 'string') return capText(result, false);
  if (isToolResultContent(result)) {
    const isError = result.isError === true;
    const hasImage = result.content.some((part) => part.type === 'image');
    const text = result.content.map((part) => (part.type === 'text' ? part.text : `[image ${part.mediaType}]`)).join('\n');
    const capped = capText(text, isError);
    const output: ToolResultOutput = hasImage
      ? { type: 'content', value: result.content }
      : isError
        ? { type: 'error-text', value: capped.text }
        : { type: 'text', value: capped.text };
    return {
      output,
      text: capped.text,
      isError,
      truncated: capped.truncated || result.truncated === true,
      ...(result.structuredContent === undefined ? {} : { structuredContent: result.structuredContent }),
    };
  }
  const json = JSON.stringify(result ?? null);
  if (json.length > maxToolResultChars) return capText(json, false);
  return { output: { type: 'json', value: (result ?? null) as JSONValue }, text: json, isError: false, truncated: false, structuredContent: (result ?? null) as JSONValue };
}

export function errorResult(message: string): NormalizedToolResult {
  return { output: { type: 'error-text', value: message }, text: message, isError: true, truncated: false };
}

function capText(text: string, isError: boolean): NormalizedToolResult {
  let value = text;
  let truncated = false;
  if (value.length > maxToolResultChars) {
    const head = value.slice(0, maxToolResultChars * 0.8);
    const tail = value.slice(-maxToolResultChars * 0.2);
    value = `${head}\n\n[... ${text.length - head.length - tail.length} characters cut: the result was too long ...]\n\n${tail}`;
    truncated = true;
  }
  return { output: isError ? { type: 'error-text', value } : { type: 'text', value }, text: value, isError, truncated };
}
