import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GatedStream {
  /** Base URL to use as OPENAI_BASE_URL instead of the upstream server's. */
  url: string;
  /** Resolves when a streamed answer has reached the hold point and is waiting. */
  held: Promise<void>;
  /** Lets the held answer go on to its end. */
  release(): void;
  close(): Promise<void>;
}

/**
 * A pass-through in front of a fake Chat Completions server that stops one streamed answer once its
 * text contains `holdAfter`, until `release()`. The test can then see the first part on the screen
 * while the rest is provably not sent yet: streaming shown without relying on timing.
 */
export async function startGatedStream(upstream: string, holdAfter: string): Promise<GatedStream> {
  let release!: () => void;
  const released = new Promise<void>((resolveRelease) => (release = resolveRelease));
  let markHeld!: () => void;
  const held = new Promise<void>((resolveHeld) => (markHeld = resolveHeld));
  let holding = true;
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const answer = await fetch(`${upstream.replace(/\/v1$/, '')}${request.url}`, { method: request.method ?? 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks) });
    response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/event-stream' });
    let text = '';
    let pending = '';
    const decoder = new TextDecoder();
    for await (const piece of answer.body as unknown as AsyncIterable<Uint8Array>) {
      pending += decoder.decode(piece, { stream: true });
      const events = pending.split('\n\n');
      pending = events.pop() ?? '';
      for (const event of events) {
        response.write(`${event}\n\n`);
        text += contentOf(event);
        if (holding && text.includes(holdAfter)) {
          holding = false;
          markHeld();
          await released;
        }
      }
    }
    response.end(pending);
  });
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    held,
    release,
    close: () => {
      release();
      server.closeAllConnections();
      return new Promise((resolveClose) => server.close(() => resolveClose()));
    },
  };
}

function contentOf(event: string): string {
  const data = event.replace(/^data: /, '');
  if (data === '[DONE]') return '';
  try {
    return (JSON.parse(data) as { choices?: Array<{ delta?: { content?: string } }> }).choices?.[0]?.delta?.content ?? '';
  } catch {
    return '';
  }
}
