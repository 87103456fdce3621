import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { ApiError } from './api-error.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Every `/v1` route needs the server's bearer token. Compared in constant time over digests (equal
 * lengths, so the length of the token leaks nothing either). Event streams may carry it as
 * `?token=` instead, for clients that cannot set headers (a browser `EventSource`).
 */
export function bearerAuth(token: string): MiddlewareHandler {
  const expected = digest(token);
  return async (c, next) => {
    const header = c.req.header('authorization');
    const fromHeader = header?.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : undefined;
    const fromQuery = isEventStream(c.req.path) ? c.req.query('token') : undefined;
    const given = fromHeader ?? fromQuery;
    if (!given || !timingSafeEqual(digest(given), expected)) {
      throw new ApiError(401, 'unauthorized', given ? 'The bearer token is wrong: use the token `cairn serve` printed (or its --token / CAIRN_SERVER_TOKEN).' : 'Send the server token as `Authorization: Bearer <token>` (`cairn serve` prints it at start).');
    }
    await next();
  };
}

const isEventStream = (path: string) => /^\/v1\/runs\/[^/]+\/(events|ui-stream)$/.test(path);
