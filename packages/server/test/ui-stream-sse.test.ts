import { JsonToSseTransformStream, UI_MESSAGE_STREAM_HEADERS } from 'ai';
import { describe, expect, it } from 'vitest';
import { type UIChunk, uiChunksToSse, uiMessageStreamHeaders } from '../src/ui-stream/index.js';

const chunks: UIChunk[] = [
  { type: 'start', messageId: 'msg-1' },
  { type: 'start-step' },
  { type: 'text-start', id: 'text-1' },
  { type: 'text-delta', id: 'text-1', delta: 'line one\nline "two"' },
  { type: 'text-end', id: 'text-1' },
  { type: 'finish-step' },
  { type: 'finish' },
];

async function* each<T>(items: T[], delayMs = 0): AsyncGenerator<T> {
  for (const item of items) {
    if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
    yield item;
  }
}

const readText = (stream: ReadableStream<Uint8Array>) => new Response(stream).text();

/** What the AI SDK's own server side writes for the same chunks. */
async function aiSdkWire(items: UIChunk[]): Promise<string> {
  const source = new ReadableStream<UIChunk>({
    start(controller) {
      for (const item of items) controller.enqueue(item);
      controller.close();
    },
  });
  const reader = source.pipeThrough(new JsonToSseTransformStream()).getReader();
  let text = '';
  for (let piece = await reader.read(); !piece.done; piece = await reader.read()) text += piece.value;
  return text;
}

describe('uiChunksToSse', () => {
  it("writes the same bytes as the AI SDK's own stream: data lines, blank lines, data: [DONE]", async () => {
    const text = await readText(uiChunksToSse(each(chunks)));
    expect(text).toBe(await aiSdkWire(chunks));
    expect(text.startsWith('data: {"type":"start","messageId":"msg-1"}\n\n')).toBe(true);
    expect(text.endsWith('data: {"type":"finish"}\n\ndata: [DONE]\n\n')).toBe(true);
  });

  it('has the headers of the protocol', () => {
    expect(uiMessageStreamHeaders).toEqual(UI_MESSAGE_STREAM_HEADERS);
  });

  it('a source that throws ends the stream with an error chunk that reveals nothing, then [DONE]', async () => {
    async function* broken(): AsyncGenerator<UIChunk> {
      yield { type: 'start' };
      throw new Error('ECONNRESET at /var/lib/store.db');
    }
    const text = await readText(uiChunksToSse(broken()));
    expect(text).toBe('data: {"type":"start"}\n\ndata: {"type":"error","errorText":"The server stopped streaming this run; reload to read it again."}\n\ndata: [DONE]\n\n');
    const custom = await readText(uiChunksToSse(broken(), { errorText: (error) => `store: ${(error as Error).message}` }));
    expect(custom).toContain('"errorText":"store: ECONNRESET at /var/lib/store.db"');
  });

  it('sends keep-alive comments while the source is quiet', async () => {
    const text = await readText(uiChunksToSse(each(chunks.slice(0, 2), 60), { keepAliveMs: 10 }));
    expect(text).toContain(': keep-alive\n\n');
    expect(text.replaceAll(': keep-alive\n\n', '')).toBe(await aiSdkWire(chunks.slice(0, 2)));
  });

  it('a client that goes away stops the source', async () => {
    let finished = false;
    async function* endless(): AsyncGenerator<UIChunk> {
      try {
        for (;;) {
          yield { type: 'start-step' };
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      } finally {
        finished = true;
      }
    }
    const reader = uiChunksToSse(endless()).getReader();
    await reader.read();
    await reader.cancel();
    expect(finished).toBe(true);
  });
});
