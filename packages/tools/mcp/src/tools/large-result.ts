import type { ToolResultContent } from '@cairn/core/spec';
import { type ResultFilePlace, saveResultFile } from './result-files.js';

/** What the model gets of one result at most: 100,000 characters of text (head and tail). */
export const maxResultTextChars = 100_000;
const headShare = 0.8;

type TextPart = { type: 'text'; text: string };
const isText = (part: ToolResultContent['content'][number]): part is TextPart => part.type === 'text';

/**
 * A result whose text is longer than the limit keeps its head and tail, with a notice in between
 * saying how much was cut and where the whole text is (saved before cutting); a structured result
 * that large is saved and left out. Images pass unchanged.
 */
export async function capLargeResult(result: ToolResultContent, place: ResultFilePlace, limit = maxResultTextChars): Promise<ToolResultContent> {
  const texts = result.content.filter(isText).map((part) => part.text);
  const textLength = texts.reduce((sum, text) => sum + text.length, 0) + Math.max(0, texts.length - 1);
  let capped = result;
  if (textLength > limit) {
    const whole = texts.join('\n');
    const where = await savedWhere(place, '.txt', whole);
    const headLength = Math.floor(limit * headShare);
    const head = whole.slice(0, headLength);
    const tail = whole.slice(whole.length - (limit - headLength));
    const cut = whole.length - head.length - tail.length;
    const notice = `\n\n[... ${cut.toLocaleString('en-US')} of ${whole.length.toLocaleString('en-US')} characters cut here; ${where} ...]\n\n`;
    capped = { ...result, content: [{ type: 'text', text: head + notice + tail }, ...result.content.filter((part) => !isText(part))], truncated: true };
  }
  return capStructured(capped, place, limit);
}

async function capStructured(result: ToolResultContent, place: ResultFilePlace, limit: number): Promise<ToolResultContent> {
  if (result.structuredContent === undefined) return result;
  const json = JSON.stringify(result.structuredContent);
  if (json.length <= limit) return result;
  const where = await savedWhere(place, '.structured.json', json);
  const { structuredContent: _left, ...rest } = result;
  return { ...rest, content: [...rest.content, { type: 'text', text: `[The structured result (${json.length.toLocaleString('en-US')} characters of JSON) was left out; ${where}.]` }], truncated: true };
}

async function savedWhere(place: ResultFilePlace, suffix: string, data: string): Promise<string> {
  try {
    return `the whole result is in ${await saveResultFile(place, suffix, data)}`;
  } catch (error) {
    return `the whole result could not be saved (${(error as Error).message})`;
  }
}
