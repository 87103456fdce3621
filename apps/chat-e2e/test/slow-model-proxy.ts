import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SlowModelProxy {
  /** Use as OPENAI_BASE_URL. */
  url: string;
  close(): Promise<void>;
}

/**
 * Between `cairn serve` and the fake model: passes requests through, and sends the SSE events of
 * an answer one every `delayMs` when `slow(requestBody)` says so (the fake answers all at once), so
 * the page can be watched while the text streams in.
 */
export async function startSlowModelProxy(target: string, options: { delayMs: number; slow: (requestBody: string) => boolean }): Promise<SlowModelProxy> {
  const targetUrl = new URL(target);
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        const upstream = await fetch(new URL(request.url ?? '/', targetUrl.origin), {
          method: request.method ?? 'POST',
          headers: { 'content-type': request.headers['content-type'] ?? 'application/json' },
          ...(request.method === 'GET' || request.method === 'HEAD' ? {} : { body }),
        });
        response.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/octet-stream' });
        const text = await upstream.text();
        if (!options.slow(body)) {
          response.end(text);
          return;
        }
        for (const event of text.split(/(?<=\n\n)/)) {
          response.write(event);
          await new Promise((resolve) => setTimeout(resolve, options.delayMs));
        }
        response.end();
      } catch (error) {
        response.destroy(error as Error);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${targetUrl.pathname}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
