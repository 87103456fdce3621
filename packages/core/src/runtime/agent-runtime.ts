import type { Registry } from '../registry/registry.js';
import type { AgentStore } from '../spec/store/v1/index.js';

/** What every agent of one Cairn instance shares: the registry, the store, the process identity. */
export interface AgentRuntime {
  registry: Registry;
  /** The configured store (Cairn.configure) or the default one, created on first use. */
  store(): AgentStore;
  /** Identifies this process in leases. */
  owner: string;
}

/** Leases last this long unless renewed; the heartbeat renews at a third of it. */
export const leaseTtlMs = 30_000;

export function newId(prefix: string): string {
  return `${prefix}-${globalThis.crypto.randomUUID()}`;
}
