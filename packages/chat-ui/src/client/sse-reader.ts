import { createParser, type EventSourceMessage } from 'eventsource-parser';

/**
 * Read one SSE response body to its end, handing each parsed event to `onMessage`. Returns true
 * when `onMessage` asked to stop (the run's `end` event), false when the body just ended (a
 * dropped connection: the caller reconnects). `onActivity` runs for every chunk, heartbeats
 * included, so an idle watchdog can tell a quiet stream from a dead one.
 */
export async function readSseBody(body: ReadableStream<Uint8Array>, onMessage: (message: EventSourceMessage) => 'stop' | undefined, onActivity: () => void): Promise<boolean> {
  let stop = false;
  const parser = createParser({
    onEvent: (message) => {
      if (!stop && onMessage(message) === 'stop') stop = true;
    },
  });
  // One decoder for the whole body: a UTF-8 character split across chunks is decoded whole.
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    while (!stop) {
      const { done, value } = await reader.read();
      if (done) return false;
      onActivity();
      parser.feed(decoder.decode(value, { stream: true }));
    }
    return true;
  } finally {
    // After `end` the server closes anyway; cancelling frees the connection at once.
    reader.cancel().catch(() => undefined);
  }
}
