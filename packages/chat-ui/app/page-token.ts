import { readStored, tokenKey, writeStored } from '../src/session/stored-session.js';

/**
 * The server token, taken from the address fragment (`#token=…`, which browsers never send to the
 * server) and moved to sessionStorage, then removed from the address bar so it is not left in the
 * history, a bookmark or a screenshot. A reload finds it in sessionStorage.
 */
export function takePageToken(): string | undefined {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const fromFragment = fragment.get('token');
  if (fromFragment) {
    writeStored(tokenKey, fromFragment);
    fragment.delete('token');
    const rest = fragment.toString();
    history.replaceState(history.state, '', `${location.pathname}${location.search}${rest ? `#${rest}` : ''}`);
    return fromFragment;
  }
  return readStored(tokenKey);
}

export function storePageToken(token: string | undefined): void {
  writeStored(tokenKey, token);
}

/** Keep the open agent in the address (`?agent=`), so the address can be reloaded or shared. */
export function showAgentInAddress(agentId: string | undefined): void {
  const url = new URL(location.href);
  if (agentId) url.searchParams.set('agent', agentId);
  else url.searchParams.delete('agent');
  history.replaceState(history.state, '', url);
}
