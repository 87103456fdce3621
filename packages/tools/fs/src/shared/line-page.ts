import type { FileHandle } from 'node:fs/promises';
import { throwIfAborted } from './abort.js';
import { detectBom } from './text-codec.js';

export interface LinePageOptions {
  /** 1-based first line to return. */
  offset: number;
  limit: number;
  /** Longer lines are cut with a marker, so a one-line minified file stays readable. */
  maxLineChars: number;
  /** Stop early once the page reaches this many characters (the notice says how to read on). */
  maxOutputChars: number;
  signal?: AbortSignal;
}

export interface LinePage {
  /** Formatted `     N|text` lines. */
  lines: string[];
  firstLine: number;
  lastLine: number;
  /** True when the file has lines after `lastLine`. */
  moreRemain: boolean;
  /** Known only when the scan reached the end of the file. */
  totalLines: number | undefined;
  truncatedLines: number;
}

const chunkBytes = 64 * 1024;

export function formatLine(lineNumber: number, text: string): string {
  return `${String(lineNumber).padStart(6)}|${text}`;
}

/**
 * Stream an open text file (positional reads from its start) up to the requested page: memory
 * stays bounded by the page (plus one chunk), whatever the file size, and invalid bytes decode to
 * U+FFFD instead of failing.
 */
export async function readLinePage(handle: FileHandle, options: LinePageOptions): Promise<LinePage> {
  const lines: string[] = [];
  let lineNumber = 0;
  let current = '';
  let currentLength = 0;
  let endsWithCarriageReturn = false;
  let outputChars = 0;
  let truncatedLines = 0;
  let moreRemain = false;
  let reachedEnd = false;
  let stop = false;
  const lastWanted = options.offset + options.limit - 1;

  const finishLine = () => {
    lineNumber++;
    if (lineNumber < options.offset) return;
    if (lineNumber > lastWanted) {
      moreRemain = true;
      stop = true;
      return;
    }
    const fullLength = currentLength - (endsWithCarriageReturn ? 1 : 0);
    let text = endsWithCarriageReturn && current.length === currentLength ? current.slice(0, -1) : current;
    if (fullLength > options.maxLineChars) {
      truncatedLines++;
      text = `${text.slice(0, options.maxLineChars)}… [line cut: ${fullLength - options.maxLineChars} more characters; use grep to search inside it]`;
    }
    const formatted = formatLine(lineNumber, text);
    if (lines.length > 0 && outputChars + formatted.length > options.maxOutputChars) {
      lineNumber--;
      moreRemain = true;
      stop = true;
      return;
    }
    outputChars += formatted.length + 1;
    lines.push(formatted);
  };

  const buffer = Buffer.alloc(chunkBytes);
  let position = 0;
  let decoder: TextDecoder | undefined;
  while (!stop) {
    throwIfAborted(options.signal);
    const { bytesRead } = await handle.read(buffer, 0, chunkBytes, position);
    if (!decoder) decoder = new TextDecoder(detectBom(buffer.subarray(0, bytesRead)).encoding, { fatal: false });
    const text = bytesRead === 0 ? decoder.decode() : decoder.decode(buffer.subarray(0, bytesRead), { stream: true });
    position += bytesRead;
    let start = 0;
    while (!stop) {
      const newline = text.indexOf('\n', start);
      const piece = newline === -1 ? text.slice(start) : text.slice(start, newline);
      if (piece.length > 0 && lineNumber >= lastWanted) {
        // A character after the last wanted line: the file goes on.
        moreRemain = true;
        stop = true;
        break;
      }
      // Keep at most one character past the cap (plus a CR) so a 100 MB line costs nothing.
      if (current.length <= options.maxLineChars + 1) current += piece.slice(0, options.maxLineChars + 2 - current.length);
      currentLength += piece.length;
      if (piece.length > 0) endsWithCarriageReturn = piece.endsWith('\r');
      if (newline === -1) break;
      finishLine();
      current = '';
      currentLength = 0;
      endsWithCarriageReturn = false;
      start = newline + 1;
    }
    if (bytesRead === 0) {
      reachedEnd = true;
      if (!stop && currentLength > 0) finishLine();
      break;
    }
  }
  const firstLine = lines.length > 0 ? options.offset : lineNumber + 1;
  return {
    lines,
    firstLine,
    lastLine: firstLine + lines.length - 1,
    moreRemain,
    totalLines: reachedEnd && !moreRemain ? lineNumber : undefined,
    truncatedLines,
  };
}
