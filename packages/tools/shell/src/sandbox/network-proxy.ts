import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, isIP, type Socket } from 'node:net';
import { join } from 'node:path';
import { shellLogDirectory } from '../process/log-directory.js';

/** `example.com` allows the host and its subdomains; `*.example.com` only subdomains; `*` is refused. */
export function hostAllowed(host: string, allow: readonly string[]): boolean {
  const normalized = host.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  return allow.some((entry) => {
    const pattern = entry.toLowerCase().trim();
    if (pattern.startsWith('*.')) return normalized.endsWith(pattern.slice(1));
    if (isIP(normalized) || isIP(pattern)) return normalized === pattern;
    return normalized === pattern || normalized.endsWith(`.${pattern}`);
  });
}

export interface AllowListProxy {
  /** Unix socket the in-sandbox bridge forwards to. */
  socketPath: string;
  close(): Promise<void>;
}

let proxies = 0;

function parseAuthority(authority: string): { host: string; port: number } | undefined {
  const match = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(authority);
  if (!match?.[1] || !match[2]) return undefined;
  return { host: match[1].replace(/^\[|\]$/g, ''), port: Number(match[2]) };
}

/**
 * A small HTTP proxy on a unix socket: CONNECT tunnels (HTTPS) and absolute-URL HTTP requests to
 * allow-listed hosts pass, everything else gets 403. The sandbox has no network of its own; a
 * bridge inside it listens on 127.0.0.1 and forwards to this socket, and HTTP(S)_PROXY point
 * there. Names are resolved here, on the host, so the sandbox needs no DNS.
 */
export async function startAllowListProxy(allow: readonly string[]): Promise<AllowListProxy> {
  const socketPath = join(shellLogDirectory(), `proxy-${++proxies}.sock`);
  const sockets = new Set<Socket>();
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let target: URL;
    try {
      target = new URL(request.url ?? '');
    } catch {
      response.writeHead(400).end('cairn sandbox proxy: only absolute http:// URLs are proxied\n');
      return;
    }
    if (target.protocol !== 'http:' || !hostAllowed(target.hostname, allow)) {
      response.writeHead(403).end(`cairn sandbox proxy: ${target.hostname} is not in the sandbox network allow-list\n`);
      return;
    }
    const headers = { ...request.headers };
    delete headers['proxy-connection'];
    delete headers['proxy-authorization'];
    const upstream = httpRequest({ host: target.hostname, port: target.port || 80, path: `${target.pathname}${target.search}`, method: request.method, headers }, (upstreamResponse) => {
      response.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.headers);
      upstreamResponse.pipe(response);
    });
    upstream.on('error', (error) => {
      if (!response.headersSent) response.writeHead(502);
      response.end(`cairn sandbox proxy: ${error.message}\n`);
    });
    request.pipe(upstream);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
    const target = parseAuthority(request.url ?? '');
    if (!target || !hostAllowed(target.host, allow)) {
      client.end(`HTTP/1.1 403 Forbidden\r\n\r\ncairn sandbox proxy: ${target?.host ?? request.url} is not in the sandbox network allow-list\n`);
      return;
    }
    const upstream = connect(target.port, target.host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  return {
    socketPath,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Port the bridge listens on inside the sandbox's own network namespace. */
export const sandboxProxyPort = 3128;

/**
 * Runs inside the sandbox with the host's node: accepts on 127.0.0.1 and pipes every connection
 * to the proxy's unix socket, then touches a ready file the wrapper script waits for.
 */
export const bridgeScript = [
  "const net = require('net'); const fs = require('fs');",
  'const [socketPath, port, readyFile] = process.argv.slice(1);',
  'net.createServer((client) => { const upstream = net.connect(socketPath); client.pipe(upstream); upstream.pipe(client);',
  "  client.on('error', () => upstream.destroy()); upstream.on('error', () => client.destroy()); })",
  "  .listen(Number(port), '127.0.0.1', () => fs.writeFileSync(readyFile, ''));",
].join('\n');
