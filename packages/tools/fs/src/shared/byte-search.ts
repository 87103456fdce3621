/**
 * Search and replace on UTF-8 bytes, for edits of big files: Buffer.indexOf is native, and the
 * output is one buffer of the exact size, so memory stays near the file's size twice (before and
 * after) instead of a decoded string, a rope of slices and its flattened copy on top. In valid UTF-8
 * a valid needle only matches at character boundaries, so byte matches are the text's matches.
 */

/** Non-overlapping occurrences, left to right: how many, and the offsets of the first `keep`. */
export function findByteOccurrences(haystack: Buffer, needle: Buffer, keep: number): { count: number; first: number[] } {
  const first: number[] = [];
  let count = 0;
  for (let index = haystack.indexOf(needle); index !== -1; index = haystack.indexOf(needle, index + needle.length)) {
    if (count++ < keep) first.push(index);
  }
  return { count, first };
}

/** `prefix` then `haystack` with every occurrence of `needle` replaced (`count` from findByteOccurrences). */
export function replaceBytes(prefix: Buffer, haystack: Buffer, needle: Buffer, replacement: Buffer, count: number): Buffer {
  const output = Buffer.allocUnsafe(prefix.length + haystack.length + count * (replacement.length - needle.length));
  let written = prefix.copy(output, 0);
  let last = 0;
  for (let index = haystack.indexOf(needle); index !== -1; index = haystack.indexOf(needle, index + needle.length)) {
    written += haystack.copy(output, written, last, index);
    written += replacement.copy(output, written);
    last = index + needle.length;
  }
  haystack.copy(output, written, last);
  return output;
}

/** 1-based line number of a byte offset. */
export function lineNumberAtByte(haystack: Buffer, offset: number): number {
  let line = 1;
  for (let position = haystack.indexOf(10); position !== -1 && position < offset; position = haystack.indexOf(10, position + 1)) line++;
  return line;
}

/** The dominant line ending, counted on bytes (no array of matches for a file of a million lines). */
export function detectLineEndingInBytes(haystack: Buffer): '\n' | '\r\n' {
  let lf = 0;
  let crlf = 0;
  for (let position = haystack.indexOf(10); position !== -1; position = haystack.indexOf(10, position + 1)) {
    if (position > 0 && haystack[position - 1] === 13) crlf++;
    else lf++;
  }
  return crlf > lf ? '\r\n' : '\n';
}
