import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, extname, join, normalize, sep } from 'node:path';
import type { OpenAPIHono } from '@hono/zod-openapi';

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/** Where `@cairn/chat-ui` put its built page (`dist/app`), or undefined when it is not built. */
export function chatPageDir(): string | undefined {
  try {
    return dirname(createRequire(import.meta.url).resolve('@cairn/chat-ui/app'));
  } catch {
    return undefined;
  }
}

/**
 * The chat page at `/` and its files under `/assets/`: static, public (they hold no data; the page
 * asks for the token), served only from the page's own folder.
 */
export function chatPageRoutes(app: OpenAPIHono, dir: string): void {
  const send = async (path: string, cache: string) => {
    const file = normalize(join(dir, path));
    if (!file.startsWith(dir + sep)) return new Response('Not found', { status: 404 });
    try {
      const body = await readFile(file);
      return new Response(new Uint8Array(body), { headers: { 'content-type': types[extname(file)] ?? 'application/octet-stream', 'cache-control': cache, 'x-content-type-options': 'nosniff' } });
    } catch {
      return new Response('Not found', { status: 404 });
    }
  };
  app.get('/', () => send('index.html', 'no-cache'));
  app.get('/assets/*', (c) => send(decodeURIComponent(c.req.path.slice(1)), 'no-cache'));
}
