import { asInstance } from './settings.js';

type Fetch = typeof globalThis.fetch;

/** A provider's `fetch` setting: a function the SDK calls with fetch's arguments. */
export const asFetch = asInstance<Fetch>('a fetch function', (value) => typeof value === 'function');

function isNode(): boolean {
  return typeof process !== 'undefined' && typeof process.versions?.node === 'string';
}

/**
 * The fetch an SDK client is built with: the user's `fetch` setting when there is one; in Node,
 * the node:http transport (docs/providers.md, "Transport"); elsewhere undefined, the SDK's own
 * default. `loadNodeHttp` is the provider's `() => import('@cairn/provider-utils/node-http')`:
 * the import is written in the provider, next to its SDK import, so this entry never reaches
 * `node:http` and a browser bundle of it stays free of Node built-ins.
 */
export async function sdkFetch(userFetch: Fetch | undefined, loadNodeHttp: () => Promise<{ nodeHttpFetch: Fetch }>): Promise<Fetch | undefined> {
  if (userFetch) return userFetch;
  if (!isNode()) return undefined;
  return (await loadNodeHttp()).nodeHttpFetch;
}
