import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { ToolError } from '@cairn/core';
import { blockedAddressReason } from './address-policy.js';
import { bareHostname, isHostAllowed } from './host-allow-list.js';

export { bareHostname, isHostAllowed };

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has (the default is `dns.lookup` with `all: true`). */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = async (hostname) => {
  const addresses = await dnsLookup(hostname, { all: true, verbatim: true });
  return addresses.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
};

/**
 * Check the URL and find the addresses to connect to. Every address the name resolves to must be
 * public (unless the host is allow-listed), because the connection is pinned to exactly these, so a
 * second DNS answer (rebinding) can never swap in another.
 */
export async function resolveTarget(url: URL, allowPrivateHosts: readonly string[], resolver: HostResolver): Promise<ResolvedAddress[]> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ToolError(`Only http and https URLs can be fetched, not ${url.protocol.replace(/:$/, '')}: ${url.href}`);
  }
  if (url.username || url.password) throw new ToolError('URLs with credentials (user:password@host) are not fetched.');
  const host = bareHostname(url);
  const literal = isIP(host);
  let addresses: ResolvedAddress[];
  if (literal !== 0) {
    addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await resolver(host);
    } catch (error) {
      throw new ToolError(`Could not resolve the host ${host} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}). Check the URL.`);
    }
    if (addresses.length === 0) throw new ToolError(`The host ${host} has no addresses. Check the URL.`);
  }
  if (!isHostAllowed(url, allowPrivateHosts)) {
    for (const { address } of addresses) {
      const reason = blockedAddressReason(address);
      if (reason !== undefined) {
        const resolved = literal !== 0 ? host : `${host} resolves to ${address}, which`;
        throw new ToolError(
          `Refused to fetch ${url.href}: ${resolved} is a ${reason} address. Only public internet addresses can be fetched ` +
            '(the user can allow a host with the webFetch.allowPrivateHosts setting).',
        );
      }
    }
  }
  return addresses;
}
