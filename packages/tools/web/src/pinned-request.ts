import type { LookupAddress } from 'node:dns';
import { type IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { bareHostname, type ResolvedAddress } from './resolve-target.js';

export interface PinnedRequestOptions {
  headers: Record<string, string>;
  signal: AbortSignal;
  /** Extra trusted CA certificates (PEM) for HTTPS, e.g. a company's TLS-inspecting proxy CA. */
  ca?: string | string[];
}

/**
 * A `lookup` that answers every query with the addresses already checked, so the socket connects
 * to one of them whatever DNS would say now. Handles both call shapes Node uses (`all: true` for
 * happy-eyeballs connects, a single address otherwise).
 */
export function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const family = typeof options === 'object' ? options.family : options;
    const usable = family === 4 || family === 6 ? addresses.filter((entry) => entry.family === family) : addresses;
    const list = usable.length > 0 ? usable : addresses;
    if (typeof options === 'object' && options.all) {
      (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, list.map((entry) => ({ ...entry })));
      return;
    }
    const first = list[0]!;
    callback(null, first.address, first.family);
  };
}

/**
 * One GET to `url`, connected only to `addresses`. No connection pooling (`agent: false`): a pooled
 * socket could belong to an earlier resolution of the same name. TLS still verifies the URL's host
 * name, because the host name (not the address) is what the request is made for.
 */
export function pinnedGet(url: URL, addresses: readonly ResolvedAddress[], options: PinnedRequestOptions): Promise<IncomingMessage> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = request({
      protocol: url.protocol,
      hostname: bareHostname(url),
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      headers: { host: url.host, ...options.headers },
      agent: false,
      lookup: pinnedLookup(addresses),
      signal: options.signal,
      ...(options.ca === undefined ? {} : { ca: options.ca }),
    });
    outgoing.once('response', resolve);
    // `on`, not `once`: a second socket error after the first must not become an unhandled 'error'.
    outgoing.on('error', reject);
    outgoing.end();
  });
}
