import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface LocalHttpServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  origin: string;
  /** Drops every open connection (keep-alive ones too), then stops listening. */
  close(): Promise<void>;
}

/**
 * Serves `handle` on an ephemeral loopback port, the shared plumbing of the fake wire servers. A
 * handler that throws gets `onError`'s answer when nothing was sent yet, else its connection dropped.
 */
export async function listenLocally(
  handle: (request: IncomingMessage, response: ServerResponse) => Promise<void>,
  onError: (response: ServerResponse, error: unknown) => void,
): Promise<LocalHttpServer> {
  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) onError(response, error);
      else response.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
