import { ConfigurationError } from '../spec/errors/index.js';
import type { AgentStore } from '../spec/store/v1/store.js';
import { type ComposeStoreParts, composeStore } from './compose-store.js';
import { missingStoreMethods, optionalSubstoreMethods, substoreMethods } from './store-shape.js';

/** The parts `composeLocalAgentStore` takes: the four substores, and Cairn's `approvals`, `shared` and `closes`. */
export type ComposeLocalAgentStoreParts = ComposeStoreParts;

// `commitCheckpoint` and `commitStep` come along when a whole store is spread in (`{ ...store, runs }`).
const knownKeys = new Set<string>([...Object.keys(substoreMethods), ...Object.keys(optionalSubstoreMethods), 'shared', 'closes', 'commitCheckpoint', 'commitStep']);

/**
 * The reference SDK's `composeLocalAgentStore`: one store from four substores (and optionally
 * Cairn's approvals), which may come from different backends. Checks every part up front, so a
 * substore missing a method is reported here and not by the first run that calls it. A
 * `commitCheckpoint` or `commitStep` among the parts (a whole store spread in) is left out, as `composeStore`
 * leaves it out: the parts may be different backends, so checkpoint saves take their two writes.
 */
export function composeLocalAgentStore(parts: ComposeLocalAgentStoreParts): AgentStore {
  if (typeof parts !== 'object' || parts === null) {
    throw new ConfigurationError('composeLocalAgentStore needs { agents, checkpoints, runs, runEvents }: one substore each.');
  }
  const unknown = Object.keys(parts).filter((key) => !knownKeys.has(key));
  if (unknown.length > 0) {
    throw new ConfigurationError(`composeLocalAgentStore does not know ${unknown.map((key) => `"${key}"`).join(', ')}: pass agents, checkpoints, runs and runEvents (and optionally approvals, shared, closes).`);
  }
  const missing = missingStoreMethods(parts);
  if (missing.length > 0) {
    throw new ConfigurationError(`composeLocalAgentStore: the substores lack ${missing.join(', ')}. Each substore is a small CRUD surface: see the LocalAgentStore types.`);
  }
  if (parts.shared !== undefined && typeof parts.shared !== 'boolean') throw new ConfigurationError('composeLocalAgentStore: shared must be true or false.');
  if (parts.closes !== undefined && !Array.isArray(parts.closes)) throw new ConfigurationError('composeLocalAgentStore: closes must be an array of stores to close with the composed one.');
  const { shared, closes, commitCheckpoint: _leftOut, commitStep: _alsoLeftOut, ...substores } = parts as ComposeLocalAgentStoreParts & { commitCheckpoint?: unknown; commitStep?: unknown };
  const composed: ComposeStoreParts = { ...substores, ...(shared !== undefined ? { shared } : {}), ...(closes ? { closes } : {}) };
  return composeStore(composed);
}
