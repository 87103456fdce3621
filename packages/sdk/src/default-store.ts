import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentStore } from '@cairn/core';
import { cairnHome } from '@cairn/core/node';
import { JsonlLocalAgentStore } from '@cairn/store-jsonl';
import { createSqliteStore } from '@cairn/store-sqlite';

/**
 * The store agents use when none is configured: SQLite under `$CAIRN_HOME` (default
 * `~/.cairn/agents.db`), or, where the SQLite native module cannot load on this host, the JSONL
 * store in `$CAIRN_HOME/agents-jsonl` — the reference SDK's documented fallback.
 */
export function defaultLocalStore(): AgentStore {
  try {
    return createSqliteStore();
  } catch (error) {
    if ((error as { code?: string }).code !== 'sqlite_unavailable') throw error;
    const dir = join(cairnHome(), 'agents-jsonl');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return new JsonlLocalAgentStore(dir);
  }
}
