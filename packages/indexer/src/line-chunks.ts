import type { Chunk } from './types.js';

export interface LineWindowOptions {
  windowLines?: number;
  overlapLines?: number;
  /** A window also ends once it holds this many characters (minified files). */
  maxChars?: number;
}

/** Split text into lines without their terminators (`\r\n` or `\n`). */
export function splitLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * The fallback for text without a grammar (and for parse failures): fixed windows of lines that
 * overlap, so a match near a window edge still has its context in one chunk.
 */
export function lineWindowChunks(path: string, lines: string[], options: LineWindowOptions = {}): Chunk[] {
  const windowLines = options.windowLines ?? 60;
  const overlap = Math.min(options.overlapLines ?? 10, windowLines - 1);
  const maxChars = options.maxChars ?? 8000;
  const chunks: Chunk[] = [];
  let start = 0;
  while (start < lines.length) {
    let end = start;
    let chars = (lines[start] ?? '').length;
    while (end + 1 < lines.length && end + 1 - start < windowLines && chars + (lines[end + 1] ?? '').length <= maxChars) {
      end++;
      chars += (lines[end] ?? '').length + 1;
    }
    const text = lines.slice(start, end + 1).join('\n');
    if (text.trim()) chunks.push({ path, startLine: start + 1, endLine: end + 1, kind: 'lines', text });
    if (end + 1 >= lines.length) break;
    start = Math.max(start + 1, end + 1 - overlap);
  }
  return chunks;
}
