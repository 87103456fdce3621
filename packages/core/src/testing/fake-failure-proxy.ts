import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenLocally } from './local-http-server.js';
import { cutPosition, type FakeFailures, writeMaybeCut } from './fake-server-core.js';

export interface FailureProxy {
  /** The proxy's base URL: the upstream URL with the proxy's host and port. */
  url: string;
  /** Every request body that reached the proxy, failed ones included. */
  requests: Array<Record<string, any>>;
  received: Array<{ path: string; headers: Record<string, string | string[] | undefined> }>;
  close(): Promise<void>;
}

/**
 * Puts failure injection in front of any fake server that has none of its own (for example
 * `startChatCompletionsServer`): an injected status is answered by the proxy (the request never
 * reaches the upstream), a cut forwards the request and drops the answer after the cut; everything
 * else is passed through (in pieces of `chunkSize` bytes when set). `errorBody(status)` is the provider's error format for statuses without a body.
 */
export async function startFailureProxy(
  upstreamUrl: string,
  failures: FakeFailures,
  errorBody: (status: number) => unknown,
  options: { chunkSize?: number } = {},
): Promise<FailureProxy> {
  const upstream = new URL(upstreamUrl);
  const requests: Array<Record<string, any>> = [];
  const received: FailureProxy['received'] = [];

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: Record<string, any> = {};
    try {
      body = text ? (JSON.parse(text) as Record<string, any>) : {};
    } catch {
      body = { unparsable: text };
    }
    const index = requests.length;
    requests.push(body);
    received.push({ path: request.url ?? '/', headers: request.headers });
    const failure = typeof failures === 'function' ? failures(body, index) : failures[index];
    if (failure?.status !== undefined) {
      const payload = failure.body ?? errorBody(failure.status);
      await writeMaybeCut(response, failure.status, { 'content-type': 'application/json', ...(failure.headers ?? {}) }, Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload)), undefined);
      return;
    }
    const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => !['host', 'content-length', 'connection'].includes(name))) as Record<string, string>;
    const answer = await fetch(new URL(request.url ?? '/', upstream.origin), { method: request.method ?? 'POST', headers, ...(text ? { body: text } : {}) });
    const bytes = Buffer.from(await answer.arrayBuffer());
    const forwarded: Record<string, string> = { 'content-type': answer.headers.get('content-type') ?? 'application/octet-stream', ...(failure?.headers ?? {}) };
    await writeMaybeCut(response, answer.status, forwarded, bytes, cutPosition(bytes, failure), options.chunkSize);
  }

  const listening = await listenLocally(handle, (response, error) => {
    response.writeHead(502, { 'content-type': 'text/plain' });
    response.end(`failure proxy: ${String(error)}`);
  });
  return {
    url: `${listening.origin}${upstream.pathname.replace(/\/$/, '')}`,
    requests,
    received,
    close: () => listening.close(),
  };
}
