import type { Registry } from '../registry/registry.js';
import type { AgentStore } from '../spec/store/v1/index.js';

/** What every agent of one Cairn instance shares: the registry, the store, the process identity. */
export interface AgentRuntime {
  registry: Registry;
  /** The configured store (Cairn.configure) or the default one, created on first use. */
  store(): AgentStore;
  /** Identifies this process in leases (see `newOwnerId`). */
  owner: string;
  /** How long a lease lasts unless renewed; the heartbeat renews at a third of it. */
  leaseTtlMs: number;
}

/** Leases last this long unless renewed; the heartbeat renews at a third of it. */
export const defaultLeaseTtlMs = 30_000;
/** @deprecated Use `defaultLeaseTtlMs` (the TTL is configurable per Cairn instance). */
export const leaseTtlMs = defaultLeaseTtlMs;

/**
 * The lease TTL: the option, else `CAIRN_LEASE_TTL_MS` (tests that kill processes shorten it),
 * else 30 s. Anything that is not a positive integer falls back to the default.
 */
export function resolveLeaseTtlMs(option?: number, env: Record<string, string | undefined> = globalThis.process?.env ?? {}): number {
  const candidate = option ?? (env.CAIRN_LEASE_TTL_MS ? Number(env.CAIRN_LEASE_TTL_MS) : undefined);
  return candidate !== undefined && Number.isInteger(candidate) && candidate > 0 ? candidate : defaultLeaseTtlMs;
}

export function newId(prefix: string): string {
  return `${prefix}-${globalThis.crypto.randomUUID()}`;
}
