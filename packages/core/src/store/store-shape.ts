import { ConfigurationError } from '../spec/errors/index.js';
import type { AgentStore } from '../spec/store/v1/store.js';

/** The methods the runtime calls on each substore: a store missing one would fail mid-run instead. */
export const substoreMethods = {
  agents: ['put', 'get', 'update', 'list', 'delete', 'acquireLease', 'renewLease', 'releaseLease'],
  checkpoints: ['putBlob', 'getBlob', 'hasBlob'],
  runs: ['create', 'get', 'update', 'list'],
  runEvents: ['append', 'list'],
} as const;

/** Substores a store may leave out (the reference SDK's four-part stores have none); one that is there must be complete. */
export const optionalSubstoreMethods = {
  approvals: ['request', 'get', 'list', 'decide'],
} as const;

export type SubstoreName = keyof typeof substoreMethods | keyof typeof optionalSubstoreMethods;

const methodsOf: Record<SubstoreName, readonly string[]> = { ...substoreMethods, ...optionalSubstoreMethods };

/** The required substores, plus each optional one that `value` has. */
export function presentSubstores(value: unknown): SubstoreName[] {
  const record = value as Record<string, unknown> | null | undefined;
  const optional = (Object.keys(optionalSubstoreMethods) as SubstoreName[]).filter((name) => record?.[name] !== undefined);
  return [...(Object.keys(substoreMethods) as SubstoreName[]), ...optional];
}

/** The substores (or the methods of one) that `value` lacks, as `runs.update`-style names. */
export function missingStoreMethods(value: unknown, names: readonly SubstoreName[] = presentSubstores(value)): string[] {
  const missing: string[] = [];
  for (const name of names) {
    const substore = (value as Record<string, unknown> | null | undefined)?.[name] as Record<string, unknown> | null | undefined;
    if (typeof substore !== 'object' || substore === null) {
      missing.push(name);
      continue;
    }
    for (const method of methodsOf[name]) if (typeof substore[method] !== 'function') missing.push(`${name}.${method}`);
  }
  return missing;
}

/** Throws a ConfigurationError naming what is missing when `value` is not a complete store. */
export function assertAgentStore(value: unknown, where: string): asserts value is AgentStore {
  if (typeof value !== 'object' || value === null) {
    throw new ConfigurationError(`${where} must be a store object (JsonlLocalAgentStore, createSqliteStore(), composeLocalAgentStore(...)), not ${describe(value)}.`);
  }
  const missing = missingStoreMethods(value);
  if (missing.length > 0) {
    throw new ConfigurationError(`${where} is not a complete store: it lacks ${missing.join(', ')}. Implement them, or build the store with composeLocalAgentStore({ agents, checkpoints, runs, runEvents, approvals? }).`);
  }
  const commit = (value as { commitCheckpoint?: unknown }).commitCheckpoint;
  if (commit !== undefined && typeof commit !== 'function') {
    throw new ConfigurationError(`${where}.commitCheckpoint must be a function (agentId, blobs, patch) or absent, not ${describe(commit)}.`);
  }
  const step = (value as { commitStep?: unknown }).commitStep;
  if (step !== undefined && typeof step !== 'function') {
    throw new ConfigurationError(`${where}.commitStep must be a function ({ agentId, blobs, agentPatch, runId, events }) or absent, not ${describe(step)}.`);
  }
}

function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}
