import { resolve } from 'node:path';
import { ConfigurationError } from '../spec/errors/index.js';
import type { AgentStore } from '../spec/store/v1/index.js';
import { assertAgentStore } from '../store/store-shape.js';

/** The routing options every local read takes: which store, and (to check it) the agent's workspace. */
export interface LocalReadOptions {
  /** Only local agents exist in Cairn; `'local'` is accepted for code written for the reference SDK. */
  runtime?: 'local';
  /** The agent's workspace: a read of an agent of another workspace is refused (`Agent.list` filters by it). */
  cwd?: string;
  store?: AgentStore;
}

const routingKeys = ['runtime', 'cwd', 'store'];

/**
 * Checks a read's options: no unknown key, no cloud routing (Cairn has no cloud agents), a store
 * that is complete. Returns the store to read, the per-call one before the configured default.
 */
export function localReadStore(options: object | undefined, where: string, ownKeys: readonly string[], fallback: () => AgentStore): AgentStore {
  const given = (options ?? {}) as Record<string, unknown>;
  if (typeof given !== 'object' || given === null || Array.isArray(given)) throw new ConfigurationError(`${where} takes an options object.`);
  // Cloud routing first: it explains the cloud-only fields (agentId, prUrl...) that would follow.
  if (given.runtime !== undefined && given.runtime !== 'local') {
    throw new ConfigurationError(
      `${where}: runtime "${String(given.runtime)}" is not available. Cairn runs agents locally only (cloud agents are out of scope): use runtime: "local" or leave it out.`,
    );
  }
  if (given.apiKey !== undefined) {
    throw new ConfigurationError(`${where}: apiKey routes to cloud agents, which Cairn does not have; local agents are read from the store without a key. Remove apiKey.`);
  }
  const known = new Set([...routingKeys, ...ownKeys]);
  const unknown = Object.keys(given).filter((key) => !known.has(key));
  if (unknown.length > 0) throw new ConfigurationError(`${where} does not know ${unknown.map((key) => `"${key}"`).join(', ')}; it takes ${[...known].join(', ')}.`);
  if (given.cwd !== undefined && (typeof given.cwd !== 'string' || given.cwd.trim() === '')) throw new ConfigurationError(`${where}: cwd must be a folder path.`);
  if (given.store === undefined || given.store === null) return fallback();
  assertAgentStore(given.store, `${where}: store`);
  return given.store;
}

/** The workspace path as agents record it (real path), or just resolved when the folder is gone. */
export async function canonicalCwd(cwd: string): Promise<string> {
  // Loaded on use, like the agent's own workspace check: the root entry stays free of node:fs.
  const { realpath } = await import('node:fs/promises');
  return realpath(resolve(cwd)).catch(() => resolve(cwd));
}

/** Refuses to act on an agent of another workspace than the one the caller named. */
export async function assertAgentInCwd(agent: { agentId: string; cwd: string }, cwd: string | undefined, where: string): Promise<void> {
  if (cwd === undefined) return;
  const wanted = await canonicalCwd(cwd);
  if (agent.cwd !== wanted) {
    throw new ConfigurationError(`${where}: agent ${agent.agentId} works in ${agent.cwd}, not in ${wanted}. Pass its own cwd, or leave cwd out.`);
  }
}
