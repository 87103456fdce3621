import { formatLine } from './line-page.js';

const maxShownLines = 12;

/** 1-based line number of a character offset. */
export function lineNumberAt(text: string, index: number): number {
  let line = 1;
  for (let position = text.indexOf('\n'); position !== -1 && position < index; position = text.indexOf('\n', position + 1)) line++;
  return line;
}

function shown(lines: string[], firstLine: number, sign: '-' | '+'): string[] {
  const out = lines.slice(0, maxShownLines).map((line, index) => `${sign}${formatLine(firstLine + index, line.replace(/\r$/, ''))}`);
  if (lines.length > maxShownLines) out.push(`${sign}       … ${lines.length - maxShownLines} more line(s)`);
  return out;
}

/** A short diff-like view of one replaced span: removed lines, then added lines, with numbers. */
export function describeReplacement(removed: string, added: string, startLine: number): string {
  const removedLines = removed === '' ? [] : removed.split('\n');
  const addedLines = added === '' ? [] : added.split('\n');
  return [`@@ line ${startLine} @@`, ...shown(removedLines, startLine, '-'), ...shown(addedLines, startLine, '+')].join('\n');
}
