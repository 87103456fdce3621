import type { IncomingMessage } from 'node:http';
import { pipeline, type Readable, type Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { ToolError } from '@cairn/core';

export interface ReadBody {
  bytes: Buffer;
  /** True when the body was longer than the cap and the download stopped there. */
  truncated: boolean;
}

/**
 * Read a response body, decompressing it, stopping at `maxBytes` of decompressed data (so a small
 * compressed bomb cannot fill memory). The socket is destroyed as soon as the cap is reached.
 */
export async function readBody(response: IncomingMessage, maxBytes: number): Promise<ReadBody> {
  const encoding = String(response.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  let decoder: Transform | undefined;
  if (encoding === 'gzip' || encoding === 'x-gzip') decoder = createGunzip();
  else if (encoding === 'deflate') decoder = createInflate();
  else if (encoding === 'br') decoder = createBrotliDecompress();
  else if (encoding !== 'identity' && encoding !== '') {
    response.destroy();
    throw new ToolError(`The server sent an unsupported content encoding (${encoding}).`);
  }
  // pipeline (not pipe) so a dropped connection errors the decoder too instead of leaving it waiting.
  const stream: Readable = decoder ? pipeline(response, decoder, () => {}) : response;
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  try {
    for await (const chunk of stream) {
      const buffer = chunk as Buffer;
      if (size + buffer.length > maxBytes) {
        chunks.push(buffer.subarray(0, maxBytes - size));
        size = maxBytes;
        truncated = true;
        break;
      }
      chunks.push(buffer);
      size += buffer.length;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code?.startsWith('Z_')) throw new ToolError(`The server sent a corrupt ${encoding} body.`);
    throw error;
  } finally {
    if (truncated || !response.complete) response.destroy();
    if (stream !== response) stream.destroy();
  }
  return { bytes: Buffer.concat(chunks, size), truncated };
}
