import type { JSONValue } from '../spec/json.js';
import type { ToolResultOutput } from '../spec/language-model/v1/index.js';
import type { ToolResult, ToolResultContent } from '../spec/tool/v1/index.js';
import { describeSupportedImageTypes, detectImageMediaType, isBase64, supportedImageMediaType } from './image-data.js';

/** A tool's result as the model and the event log see it. */
export interface NormalizedToolResult {
  output: ToolResultOutput;
  /** Text form for `tool_call` messages and UIs. */
  text: string;
  isError: boolean;
  truncated: boolean;
  structuredContent?: JSONValue;
}

/** Results longer than this are cut before they reach the model (tools cap their own output first). */
export const maxToolResultChars = 200_000;

type OutputPart = Extract<ToolResultOutput, { type: 'content' }>['value'][number];

const envelopeFields = new Set(['content', 'isError', 'structuredContent', 'truncated']);

/**
 * True for the envelope `{ content: [...parts], isError?, structuredContent? }`. A JSON result that
 * merely has a `content` array (`{ content: [1, 2], total: 2 }`) is not one: every part must be an
 * object with a `type`, and the object may have no other fields.
 */
export function isToolResultContent(value: unknown): value is ToolResultContent {
  if (!isPlainObject(value) || !Array.isArray(value.content)) return false;
  if (Object.keys(value).some((key) => !envelopeFields.has(key))) return false;
  return value.content.every((part) => isPlainObject(part) && typeof part.type === 'string');
}

/**
 * Every documented result form: a string is text; the envelope carries text and base64 images
 * (`isError: true` makes it an error the model sees as one); any other JSON value goes as JSON text,
 * and an object is also the `structuredContent`.
 */
export function normalizeToolResult(result: ToolResult): NormalizedToolResult {
  if (typeof result === 'string') return capText(result, false);
  if (isToolResultContent(result)) return normalizeEnvelope(result);
  const value = result ?? null;
  const json = JSON.stringify(value) ?? String(value);
  return { ...capText(json, false), ...(isPlainObject(value) ? { structuredContent: value as JSONValue } : {}) };
}

function normalizeEnvelope(result: ToolResultContent): NormalizedToolResult {
  const isError = result.isError === true;
  const parts = result.content.flatMap(outputPart);
  const extra = {
    truncated: result.truncated === true,
    ...(result.structuredContent === undefined ? {} : { structuredContent: result.structuredContent }),
  };
  if (!parts.some((part) => part.type === 'image')) {
    const capped = capText(parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n'), isError);
    return { ...capped, ...extra, truncated: capped.truncated || extra.truncated };
  }
  let truncated = extra.truncated;
  const value = parts.map((part) => {
    if (part.type !== 'text') return part;
    const capped = capText(part.text, false);
    truncated ||= capped.truncated;
    return { type: 'text' as const, text: capped.text };
  });
  const text = value.map((part) => (part.type === 'text' ? part.text : `[image ${part.mediaType}]`)).join('\n');
  return { output: { type: 'content', value, ...(isError ? { isError: true } : {}) }, text, isError, ...extra, truncated };
}

/**
 * One envelope part for the model. Images take `mimeType` (documented), else `mediaType` (Cairn's
 * earlier name), else the type their bytes show, else PNG. What no provider could read is said in
 * text instead, so the model learns the tool returned it and the request stays valid.
 */
function outputPart(part: ToolResultContent['content'][number]): OutputPart[] {
  if (part.type === 'text') return [{ type: 'text', text: typeof part.text === 'string' ? part.text : String(part.text) }];
  if (part.type !== 'image') return [{ type: 'text', text: `[The tool returned a ${String((part as { type: unknown }).type)} part, which is not sent to the model: only text and image parts are.]` }];
  if (typeof part.data !== 'string' || !isBase64(part.data)) return [{ type: 'text', text: '[The tool returned an image whose data is not base64, so it was left out.]' }];
  const declared = part.mimeType ?? part.mediaType;
  const detected = detectImageMediaType(part.data);
  const mediaType = declared === undefined ? (detected ?? 'image/png') : supportedImageMediaType(declared);
  if (!mediaType) return [{ type: 'text', text: `[The tool returned an ${declared} image, which the model cannot read (${describeSupportedImageTypes()}), so it was left out.]` }];
  // Providers refuse bytes of another type than declared: the bytes win.
  return [{ type: 'image', data: part.data, mediaType: detected ?? mediaType }];
}

/**
 * A custom tool's envelope with its `structuredContent` also as JSON text in `content`: the
 * reference SDK documents it as there for the model to parse, while for Cairn's own tools the model
 * reads only `content` and `structuredContent` is for callers. Content that already is that JSON
 * is not repeated.
 */
export function withStructuredContentForModel(result: ToolResult): ToolResult {
  if (!isToolResultContent(result) || result.structuredContent === undefined) return result;
  const json = JSON.stringify(result.structuredContent);
  if (result.content.some((part) => part.type === 'text' && part.text === json)) return result;
  return { ...result, content: [...result.content, { type: 'text', text: json }] };
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

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
