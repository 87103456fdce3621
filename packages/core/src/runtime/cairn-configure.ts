import { ConfigurationError } from '../spec/errors/index.js';
import type { ProviderSettings } from '../spec/provider/v1/index.js';
import type { AgentStore } from '../spec/store/v1/index.js';
import { assertAgentStore } from '../store/store-shape.js';

export interface CairnConfigureOptions {
  local?: {
    /** The store every call uses unless it passes its own; `null` returns to the default store. */
    store?: AgentStore | null;
    /**
     * Cairn's model calls go through Node's fetch, which speaks HTTP/1.1 (a `fetch` you pass in
     * provider settings is yours to choose): `true` and `null` state that; `false` (HTTP/2) is refused.
     */
    useHttp1ForAgent?: boolean | null;
    /**
     * Reuse a workspace's scan (rules, AGENTS.md, permissions files, project layout) for this many ms
     * across sends and agents of this process. `0` or `null`: re-read at every send (the default).
     */
    workspaceScanCacheTtlMs?: number | null;
  };
  /** Cairn: provider settings merged under every agent's own `providers`. */
  providers?: Record<string, ProviderSettings>;
}

/** What one configure call changes; absent fields stay as they were. */
export interface ConfigureChange {
  store?: AgentStore | null;
  workspaceScanCacheTtlMs?: number;
  providers?: Record<string, ProviderSettings>;
}

const topKeys = new Set(['local', 'providers']);
const localKeys = new Set(['store', 'useHttp1ForAgent', 'workspaceScanCacheTtlMs']);

/** Checks `Cairn.configure` options and says what they change; a wrong value is a ConfigurationError naming the fix. */
export function parseConfigureOptions(options: CairnConfigureOptions): ConfigureChange {
  if (typeof options !== 'object' || options === null) throw new ConfigurationError('Cairn.configure takes an object such as { local: { store } }.');
  rejectUnknown(options, topKeys, 'Cairn.configure');
  const change: ConfigureChange = {};
  if (options.providers !== undefined) {
    if (typeof options.providers !== 'object' || options.providers === null) throw new ConfigurationError('Cairn.configure: providers must map provider ids to their settings.');
    change.providers = options.providers;
  }
  const local = options.local;
  if (local === undefined) return change;
  if (typeof local !== 'object' || local === null) throw new ConfigurationError('Cairn.configure: local must be an object such as { store }.');
  rejectUnknown(local, localKeys, 'Cairn.configure local');
  if (local.store === null) change.store = null;
  else if (local.store !== undefined) {
    assertAgentStore(local.store, 'Cairn.configure local.store');
    change.store = local.store;
  }
  if (local.useHttp1ForAgent === false) {
    throw new ConfigurationError(
      'Cairn.configure: useHttp1ForAgent: false is not supported. Cairn calls models over HTTP/1.1 (Node\'s fetch) and has no HTTP/2 transport; set it to true or leave it out.',
    );
  }
  if (local.useHttp1ForAgent !== undefined && local.useHttp1ForAgent !== null && local.useHttp1ForAgent !== true) {
    throw new ConfigurationError('Cairn.configure: useHttp1ForAgent must be true, false or null.');
  }
  const ttl = local.workspaceScanCacheTtlMs;
  if (ttl === null) change.workspaceScanCacheTtlMs = 0;
  else if (ttl !== undefined) {
    if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 0) {
      throw new ConfigurationError(`Cairn.configure: workspaceScanCacheTtlMs must be a whole number of milliseconds (0 turns the cache off), got ${String(ttl)}.`);
    }
    change.workspaceScanCacheTtlMs = ttl;
  }
  return change;
}

function rejectUnknown(value: object, known: Set<string>, where: string): void {
  const unknown = Object.keys(value).filter((key) => !known.has(key));
  if (unknown.length > 0) throw new ConfigurationError(`${where} does not know ${unknown.map((key) => `"${key}"`).join(', ')}; it takes ${[...known].join(', ')}.`);
}
