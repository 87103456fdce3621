// A real HTTP(S) server for the node:http transport's tests: each request is recorded (method,
// path, headers, body bytes) and then handed to the test's handler.
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface TestServer {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export type Handler = (request: RecordedRequest, response: http.ServerResponse) => unknown;

export async function startTestServer(handler: Handler, tls?: { key: string; cert: string }): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const listener: http.RequestListener = (incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const recorded = { method: incoming.method ?? '', path: incoming.url ?? '', headers: incoming.headers, body: Buffer.concat(chunks) };
      requests.push(recorded);
      Promise.resolve(handler(recorded, response)).catch((error: unknown) => response.destroy(error as Error));
    });
  };
  const server = tls ? https.createServer(tls, listener) : http.createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${tls ? 'https' : 'http'}://${tls ? 'localhost' : '127.0.0.1'}:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
