import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';

/** Statuses whose response has no body (WHATWG fetch's "null body status"); the constructor refuses one. */
const nullBodyStatuses = new Set([101, 204, 205, 304]);

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/** A redirect fetch would follow: a redirect status with a Location to go to. */
export function isFollowableRedirect(message: IncomingMessage): boolean {
  return redirectStatuses.has(message.statusCode ?? 0) && message.headers.location !== undefined;
}

/**
 * One decompressor per content coding, in the order to apply them (the last coding listed was
 * applied last, so it is undone first). An unknown coding leaves the body as it came, as fetch does.
 * Flushing like undici keeps a body that ends without the compressor's trailer readable.
 */
function decoders(contentEncoding: string | undefined): Readable[] {
  if (!contentEncoding) return [];
  const codings = contentEncoding.toLowerCase().split(',').map((coding) => coding.trim()).filter(Boolean).reverse();
  const zlibFlush = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  const brotliFlush = { flush: zlib.constants.BROTLI_OPERATION_FLUSH, finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH };
  const chain: Readable[] = [];
  for (const coding of codings) {
    if (coding === 'gzip' || coding === 'x-gzip') chain.push(zlib.createGunzip(zlibFlush));
    // HTTP's "deflate" is the zlib format (RFC 9110 §8.4.1.2).
    else if (coding === 'deflate') chain.push(zlib.createInflate(zlibFlush));
    else if (coding === 'br') chain.push(zlib.createBrotliDecompress(brotliFlush));
    else return [];
  }
  return chain;
}

/** The response body as a web stream, and the way to fail it from outside (an abort). */
export interface BodyStream {
  stream: ReadableStream<Uint8Array>;
  fail(reason: unknown): void;
}

/** What undici's fetch errors a body with when the connection is cut: `TypeError('terminated')`, the socket's error as its cause. */
function terminated(cause: unknown): TypeError {
  return new TypeError('terminated', { cause });
}

/**
 * The message's body, decoded, as a web ReadableStream fed chunk by chunk as it arrives (an SSE
 * stream streams), pausing the socket while the reader does not keep up. It errors with
 * `TypeError('terminated')` when the connection is cut, with the decompressor's error for a
 * corrupt body, and with whatever `fail` is given. `settled` runs once, when the body ends,
 * fails or is cancelled.
 */
export function createBodyStream(message: IncomingMessage, settled: () => void): BodyStream {
  const chain = decoders(message.headers['content-encoding'] as string | undefined);
  const streams: Readable[] = [message, ...chain];
  const last = streams.at(-1)!;
  let done = false;
  let controller!: ReadableStreamDefaultController<Uint8Array>;

  const finish = (): boolean => {
    if (done) return false;
    done = true;
    settled();
    return true;
  };
  const fail = (reason: unknown): void => {
    if (!finish()) return;
    controller.error(reason);
    for (const stream of streams) stream.destroy();
  };

  const stream = new ReadableStream<Uint8Array>({
    start(streamController) {
      controller = streamController;
      for (let index = 1; index < streams.length; index += 1) streams[index - 1]!.pipe(streams[index] as unknown as NodeJS.WritableStream);
      message.on('error', (error) => fail(terminated(error)));
      // Node reports a cut connection as an `aborted` error first; this is the guard for a close without one.
      message.on('close', () => {
        if (!message.complete) fail(terminated(new Error('other side closed')));
      });
      for (const decoder of chain) decoder.on('error', fail);
      last.on('data', (chunk: Buffer) => {
        if (done) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) last.pause();
      });
      last.on('end', () => {
        if (finish()) controller.close();
      });
    },
    pull() {
      last.resume();
    },
    cancel() {
      if (!finish()) return;
      for (const stream of streams) stream.destroy();
    },
  });
  return { stream, fail };
}

/** The response headers in the order and case the server sent them, repeated fields kept. */
function responseHeaders(rawHeaders: string[]): Headers {
  const headers = new Headers();
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) headers.append(rawHeaders[index]!, rawHeaders[index + 1]!);
  return headers;
}

/**
 * A real `Response` for the message: the global class, so `instanceof Response` and every body
 * method work. A HEAD request or a null-body status gets `body: null` (the message is drained so
 * the socket goes back to the agent); `url` is the request URL without its fragment, as fetch sets it.
 */
export function toFetchResponse(message: IncomingMessage, request: { url: URL; method: string }, body: BodyStream | null): Response {
  const status = message.statusCode ?? 0;
  const response = new Response(body?.stream ?? null, { status, statusText: message.statusMessage ?? '', headers: responseHeaders(message.rawHeaders) });
  Object.defineProperty(response, 'url', { value: withoutFragment(request.url) });
  return response;
}

function withoutFragment(url: URL): string {
  if (!url.hash) return url.href;
  const copy = new URL(url);
  copy.hash = '';
  return copy.href;
}

/** Whether the response has a body at all. */
export function hasBody(message: IncomingMessage, method: string): boolean {
  return method !== 'HEAD' && !nullBodyStatuses.has(message.statusCode ?? 0);
}
