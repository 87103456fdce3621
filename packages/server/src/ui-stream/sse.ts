import type { UIChunk } from './ui-chunks.js';

/** The response headers of the UI message stream protocol, v1. */
export const uiMessageStreamHeaders = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-vercel-ai-ui-message-stream': 'v1',
  // Stops nginx from buffering the stream until it ends.
  'x-accel-buffering': 'no',
} as const;

export interface UiSseOptions {
  /** Send a comment line after this long without a chunk, so proxies keep a waiting run's stream open. */
  keepAliveMs?: number;
  /** The `errorText` sent when reading the chunks throws; by default a message that reveals nothing of the server. */
  errorText?: (error: unknown) => string;
}

const done = 'data: [DONE]\n\n';
const keepAlive = ': keep-alive\n\n';
const defaultErrorText = () => 'The server stopped streaming this run; reload to read it again.';

/** One chunk as the protocol sends it: a `data:` line with its JSON, then a blank line. */
export function uiChunkToSse(chunk: UIChunk): string {
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

/**
 * The chunks as the bytes of an SSE response body, ending with `data: [DONE]`. A source that throws
 * ends the stream with an `error` chunk; a client that goes away stops the source (`return()`).
 */
export function uiChunksToSse(chunks: AsyncIterable<UIChunk>, options: UiSseOptions = {}): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = chunks[Symbol.asyncIterator]();
  let closed = false;
  let lastSentAt = Date.now();
  let timer: ReturnType<typeof setInterval> | undefined;
  const stop = () => {
    closed = true;
    if (timer) clearInterval(timer);
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const every = options.keepAliveMs;
      if (!every) return;
      timer = setInterval(() => {
        if (closed || Date.now() - lastSentAt < every) return;
        lastSentAt = Date.now();
        controller.enqueue(encoder.encode(keepAlive));
      }, every);
    },
    async pull(controller) {
      const send = (text: string) => {
        lastSentAt = Date.now();
        controller.enqueue(encoder.encode(text));
      };
      try {
        const next = await iterator.next();
        if (closed) return;
        if (!next.done) {
          send(uiChunkToSse(next.value));
          return;
        }
      } catch (error) {
        if (closed) return;
        send(uiChunkToSse({ type: 'error', errorText: (options.errorText ?? defaultErrorText)(error) }));
      }
      send(done);
      stop();
      controller.close();
    },
    async cancel() {
      stop();
      await iterator.return?.();
    },
  });
}
