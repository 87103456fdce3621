import { createHash } from 'node:crypto';

/**
 * A stable hash of an MCP server config as written (sha256 of its JSON with keys sorted, hex). Taken
 * before `${...}` expansion, so what decides is the config (command, args, env names, url), not the
 * value a secret has today; any change to the config gives a new hash. Trust prompts remember it.
 */
export function mcpServerConfigHash(config: unknown): string {
  return createHash('sha256').update(canonicalJson(config)).digest('hex');
}

/** JSON with object keys sorted at every level, so key order in a file does not change the hash. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).filter(([, item]) => item !== undefined);
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([key, item]) => [key, sortKeys(item)]));
}
