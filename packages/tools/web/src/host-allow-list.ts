/** The URL's host name without IPv6 brackets, lower-cased. */
export function bareHostname(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
}

/** True when the allow-list names this URL's host (any port) or host:port. */
export function isHostAllowed(url: URL, allowPrivateHosts: readonly string[]): boolean {
  const host = bareHostname(url);
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return allowPrivateHosts.some((entry) => {
    const normalized = entry.trim().toLowerCase();
    const withPort = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(normalized);
    if (withPort) return withPort[1]!.replace(/^\[|\]$/g, '') === host && withPort[2] === port;
    return normalized.replace(/^\[|\]$/g, '') === host;
  });
}
