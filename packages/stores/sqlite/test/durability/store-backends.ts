import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentStore, createMemoryStore } from '@cairn/core';
import { createJsonlStore } from '@cairn/store-jsonl';
import { createSqliteStore } from '../../src/index.js';

export type BackendName = 'memory' | 'sqlite' | 'jsonl';

/** A fresh store of each backend in its own temp folder; `reopen` gives a new handle on the same data. */
export function freshStore(backend: BackendName): { store: AgentStore; location: string; reopen(): AgentStore } {
  const folder = mkdtempSync(join(tmpdir(), `cairn-${backend}-`));
  if (backend === 'memory') {
    const store = createMemoryStore();
    return { store, location: folder, reopen: () => store };
  }
  if (backend === 'sqlite') {
    const path = join(folder, 'agents.db');
    return { store: createSqliteStore({ path }), location: path, reopen: () => createSqliteStore({ path }) };
  }
  const dir = join(folder, 'store');
  return { store: createJsonlStore({ dir }), location: dir, reopen: () => createJsonlStore({ dir }) };
}
