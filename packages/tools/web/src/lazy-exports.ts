import { lazyImplementation } from '@cairn/core';
import type { HostResolver, ResolvedAddress } from './resolve-target.js';

// Exported under their own names but loaded at the first call: resolve-target.ts pulls in DNS and
// node:net, which importing the pack (to register web_fetch) does not need.
const resolveTargetModule = lazyImplementation(() => import('./resolve-target.js'));

/**
 * Check the URL and find the addresses to connect to: every address the name resolves to must be
 * public unless the host is allow-listed (resolve-target.ts).
 */
export async function resolveTarget(url: URL, allowPrivateHosts: readonly string[], resolver: HostResolver): Promise<ResolvedAddress[]> {
  return (await resolveTargetModule()).resolveTarget(url, allowPrivateHosts, resolver);
}

/** Every address of a host name, by `dns.lookup` with `all: true`. */
export const systemResolver: HostResolver = async (hostname) => (await resolveTargetModule()).systemResolver(hostname);
