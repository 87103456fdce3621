import type { IncomingHttpHeaders } from 'node:http';
import { ToolError } from '@cairn/core';
import { pinnedGet } from './pinned-request.js';
import { readBody } from './read-body.js';
import { type HostResolver, resolveTarget } from './resolve-target.js';
import type { ResolvedWebFetchSettings } from './web-fetch-settings.js';
import { kindFromContentType } from './content-kind.js';

export interface FetchedPage {
  /** The URL after redirects. */
  url: string;
  /** Every URL visited before the final one. */
  redirects: string[];
  status: number;
  headers: IncomingHttpHeaders;
  bytes: Buffer;
  truncated: boolean;
}

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/**
 * GET a URL, following redirects by hand so that every hop is checked (scheme, address policy) and
 * pinned before any connection is made. Bodies of binary types are not downloaded at all.
 */
export async function fetchPage(
  startUrl: URL,
  settings: ResolvedWebFetchSettings,
  resolver: HostResolver,
  signal: AbortSignal,
  ca?: string | string[],
): Promise<FetchedPage> {
  const redirects: string[] = [];
  let url = startUrl;
  for (;;) {
    const addresses = await resolveTarget(url, settings.allowPrivateHosts, resolver);
    signal.throwIfAborted();
    const response = await pinnedGet(url, addresses, {
      signal,
      ...(ca === undefined ? {} : { ca }),
      headers: {
        'user-agent': settings.userAgent,
        accept: 'text/html,application/xhtml+xml,text/markdown;q=0.9,text/plain;q=0.9,application/json;q=0.9,*/*;q=0.5',
        'accept-encoding': 'gzip, deflate, br',
        'accept-language': 'en;q=1.0, *;q=0.5',
      },
    });
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (redirectStatuses.has(status) && location) {
      response.destroy();
      if (redirects.length >= settings.maxRedirects) {
        throw new ToolError(`Stopped after ${settings.maxRedirects} redirects (last: ${url.href} -> ${location}). The URL redirects too often.`);
      }
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new ToolError(`${url.href} redirected to an invalid URL: ${location}`);
      }
      redirects.push(url.href);
      url = next;
      continue;
    }
    if (kindFromContentType(response.headers['content-type']) === 'binary') {
      response.destroy();
      return { url: url.href, redirects, status, headers: response.headers, bytes: Buffer.alloc(0), truncated: false };
    }
    const body = await readBody(response, settings.maxBytes);
    return { url: url.href, redirects, status, headers: response.headers, bytes: body.bytes, truncated: body.truncated };
  }
}
