import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { OpenAPIHono } from '@hono/zod-openapi';

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
 * asks for the token), served only from the page's own folder. Revalidated on every load, so a
 * rebuilt page is never mixed with a cached older script.
 */
export function chatPageRoutes(app: OpenAPIHono, dir: string): void {
  const onFound = (_path: string, c: { header(name: string, value: string): void }) => {
    c.header('cache-control', 'no-cache');
    c.header('x-content-type-options', 'nosniff');
  };
  app.get('/', serveStatic({ path: join(dir, 'index.html'), onFound }));
  app.use('/assets/*', serveStatic({ root: dir, onFound }));
}
