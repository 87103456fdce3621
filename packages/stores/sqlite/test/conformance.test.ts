import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { runStoreConformance } from '@cairn/core/testing/stores';
import { createSqliteStore, type SqliteStore } from '../src/index.js';

const root = mkdtempSync(join(tmpdir(), 'cairn-sqlite-conformance-'));
let counter = 0;
afterAll(() => rmSync(root, { recursive: true, force: true }));

runStoreConformance('sqlite', () => createSqliteStore({ path: join(root, `store-${++counter}.db`) }), {
  async reopen(store) {
    const { path } = store as SqliteStore;
    await store.close?.();
    return createSqliteStore({ path });
  },
  requireApprovals: true,
  requireCheckpointCommit: true,
  requireStepCommit: true,
});
