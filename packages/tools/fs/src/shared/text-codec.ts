import { isUtf8 } from 'node:buffer';
import { ToolError } from '@cairn/core';

/** How a text file's bytes are laid out, so an edit can write them back the same way. */
export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be';

/** Bytes sniffed for NUL characters: enough to catch binaries without reading a whole file. */
export const binarySniffBytes = 8192;

export function detectBom(head: Uint8Array): { encoding: TextEncodingName; bom: boolean; bomLength: number } {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf-8', bom: true, bomLength: 3 };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', bom: true, bomLength: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', bom: true, bomLength: 2 };
  return { encoding: 'utf-8', bom: false, bomLength: 0 };
}

/** A NUL byte in the first block of a file without a UTF-16 BOM marks it as binary (git's rule). */
export function looksBinary(head: Uint8Array): boolean {
  const { encoding } = detectBom(head);
  if (encoding !== 'utf-8') return false;
  const limit = Math.min(head.length, binarySniffBytes);
  for (let index = 0; index < limit; index++) if (head[index] === 0) return true;
  return false;
}

/** A file about to be edited: its bytes as read, how they are laid out, and its text on demand. */
export interface EditableText {
  bytes: Buffer;
  encoding: TextEncodingName;
  /** True when the file started with a byte order mark (written back on save). */
  bom: boolean;
  /** Where the text starts in `bytes` (after the byte order mark). */
  bodyStart: number;
  /** The decoded text; decoded on first use, so a byte-level edit of a huge file never builds it. */
  readonly text: string;
}

function notDecodable(displayPath: string, encoding: TextEncodingName): ToolError {
  return new ToolError(
    `${displayPath} is not valid ${encoding.toUpperCase()} text; editing it would corrupt the bytes that cannot be decoded. ` +
      'Use write to replace the whole file if that is intended.',
  );
}

/**
 * Check a whole file for editing. Unlike reading (lossy), editing refuses invalid UTF-8: writing a
 * lossily decoded text back would silently replace bytes the agent never saw. UTF-8 is validated
 * without decoding (isUtf8); UTF-16 is decoded at once.
 */
export function prepareForEdit(bytes: Uint8Array, displayPath: string): EditableText {
  if (looksBinary(bytes)) throw new ToolError(`${displayPath} is a binary file; it cannot be edited as text.`);
  const { encoding, bom, bomLength } = detectBom(bytes);
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const body = buffer.subarray(bomLength);
  let text: string | undefined;
  if (encoding === 'utf-8') {
    if (!isUtf8(body)) throw notDecodable(displayPath, encoding);
  } else {
    try {
      text = new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(body);
    } catch {
      throw notDecodable(displayPath, encoding);
    }
  }
  return {
    bytes: buffer,
    encoding,
    bom,
    bodyStart: bomLength,
    get text() {
      text ??= body.toString('utf8');
      return text;
    },
  };
}

export function encodeText(text: string, encoding: TextEncodingName, bom: boolean): Uint8Array {
  if (encoding === 'utf-8') {
    const body = Buffer.from(text, 'utf8');
    return bom ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]) : body;
  }
  const little = Buffer.from(text, 'utf16le');
  const body = encoding === 'utf-16le' ? little : little.swap16();
  if (!bom) return body;
  return Buffer.concat([Buffer.from(encoding === 'utf-16le' ? [0xff, 0xfe] : [0xfe, 0xff]), body]);
}

/** The dominant line ending of a text; LF when there is none. */
export function detectLineEnding(text: string): '\n' | '\r\n' {
  const crlf = text.match(/\r\n/g)?.length ?? 0;
  const lf = (text.match(/\n/g)?.length ?? 0) - crlf;
  return crlf > lf ? '\r\n' : '\n';
}

export function toLf(text: string): string {
  return text.replace(/\r\n/g, '\n');
}

export function fromLf(text: string, lineEnding: '\n' | '\r\n'): string {
  return lineEnding === '\n' ? text : text.replace(/\n/g, '\r\n');
}
