import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A request the fixture server received, with its body parsed when it was JSON. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  bodyText: string;
  body: unknown;
}

export interface FixtureResponse {
  status?: number;
  headers?: Record<string, string | string[]>;
  body: string | Uint8Array;
  /** Send the body in pieces of this many bytes (splits UTF-8 sequences and JSON on purpose). */
  chunkSize?: number;
  /** Wait between pieces. */
  chunkDelayMs?: number;
  /** Destroy the connection after this many body bytes: a stream that drops. */
  dropAfterBytes?: number;
  /** Send headers and this many bytes, then go silent (for idle watchdogs) until the client leaves. */
  stallAfterBytes?: number;
}

export type FixtureHandler = (request: RecordedRequest, index: number) => FixtureResponse | Promise<FixtureResponse>;

export interface FixtureServer {
  /** Base URL like `http://127.0.0.1:PORT`. */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/**
 * A local HTTP server that answers with recorded provider responses, so adapters are tested through
 * the real SDK and the real wire. Binds to 127.0.0.1 only.
 */
export async function startFixtureServer(handler: FixtureHandler | FixtureResponse[]): Promise<FixtureServer> {
  const requests: RecordedRequest[] = [];
  const respond: FixtureHandler = Array.isArray(handler)
    ? (_request, index) => {
        const response = handler[Math.min(index, handler.length - 1)];
        if (!response) throw new Error('fixture server has no responses');
        return response;
      }
    : handler;
  const sockets = new Set<import('node:net').Socket>();
  const server: Server = createServer((incoming, outgoing) => {
    void handle(incoming, outgoing);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const bodyText = Buffer.concat(chunks).toString('utf8');
    let body: unknown = bodyText;
    try {
      body = bodyText ? JSON.parse(bodyText) : undefined;
    } catch {
      body = bodyText;
    }
    const recorded: RecordedRequest = { method: incoming.method ?? 'GET', url: incoming.url ?? '/', headers: incoming.headers, bodyText, body };
    const index = requests.length;
    requests.push(recorded);
    let response: FixtureResponse;
    try {
      response = await respond(recorded, index);
    } catch (error) {
      outgoing.writeHead(500, { 'content-type': 'text/plain' });
      outgoing.end(`fixture handler failed: ${String(error)}`);
      return;
    }
    const bytes = typeof response.body === 'string' ? Buffer.from(response.body, 'utf8') : Buffer.from(response.body);
    const headers = { ...(response.headers ?? {}) };
    outgoing.writeHead(response.status ?? 200, headers);
    outgoing.flushHeaders();
    const limit = response.dropAfterBytes ?? response.stallAfterBytes ?? bytes.length;
    const size = response.chunkSize ?? bytes.length;
    for (let start = 0; start < Math.min(limit, bytes.length); start += size) {
      const end = Math.min(start + size, limit, bytes.length);
      // Wait until the piece is handed to the socket, so a drop right after it still delivers it.
      await new Promise<void>((resolve) => outgoing.write(bytes.subarray(start, end), () => resolve()));
      if (response.chunkDelayMs) await new Promise((resolve) => setTimeout(resolve, response.chunkDelayMs));
      if (outgoing.destroyed) return;
    }
    if (response.dropAfterBytes !== undefined && response.dropAfterBytes < bytes.length) {
      outgoing.socket?.destroy();
      return;
    }
    if (response.stallAfterBytes !== undefined) return; // left open on purpose; closed by close()
    outgoing.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const contentTypes: Record<string, string> = { '.sse': 'text/event-stream', '.json': 'application/json' };
// Sidecar headers that describe the recorded transfer, not the decompressed body we serve.
const droppedHeaders = new Set(['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive']);

/** The folder of recorded provider responses (the repository's `fixtures/providers`). */
export function providerFixturesDir(): string {
  if (process.env.CAIRN_PROVIDER_FIXTURES) return process.env.CAIRN_PROVIDER_FIXTURES;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'fixtures', 'providers');
    if (existsSync(join(candidate, 'README.md'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('fixtures/providers not found; set CAIRN_PROVIDER_FIXTURES');
    dir = parent;
  }
}

/**
 * A recorded response file as a FixtureResponse: status from `error-NNN-*` names or the
 * `.headers.json` sidecar, content type from the extension, recorded headers kept.
 */
export function fixtureResponse(relativePath: string, overrides: Partial<FixtureResponse> = {}): FixtureResponse {
  const path = join(providerFixturesDir(), relativePath);
  const body = readFileSync(path);
  const name = basename(path);
  const extension = name.slice(name.lastIndexOf('.'));
  const headers: Record<string, string | string[]> = {};
  let status = Number(/^error-(\d{3})-/.exec(name)?.[1] ?? 200);
  const sidecar = path.replace(/\.(json|sse)$/, '.headers.json');
  if (sidecar !== path && existsSync(sidecar)) {
    const recorded = JSON.parse(readFileSync(sidecar, 'utf8')) as { status?: number; headers?: Record<string, string | string[]> };
    if (recorded.status) status = recorded.status;
    for (const [key, value] of Object.entries(recorded.headers ?? {})) {
      if (!droppedHeaders.has(key.toLowerCase())) headers[key.toLowerCase()] = value;
    }
  }
  headers['content-type'] = contentTypes[extension] ?? 'application/octet-stream';
  return { status, headers, body, ...overrides };
}

/** Every fixture file of one provider folder (without `.headers.json` sidecars). */
export function listProviderFixtures(provider: string): string[] {
  return readdirSync(join(providerFixturesDir(), provider))
    .filter((file) => !file.endsWith('.headers.json'))
    .sort()
    .map((file) => `${provider}/${file}`);
}
