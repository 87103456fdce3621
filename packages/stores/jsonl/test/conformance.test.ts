import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { runStoreConformance } from '@cairn/core/testing/stores';
import { createJsonlStore, type JsonlStore } from '../src/index.js';

const root = mkdtempSync(join(tmpdir(), 'cairn-jsonl-conformance-'));
let counter = 0;
afterAll(() => rmSync(root, { recursive: true, force: true }));

runStoreConformance('jsonl', () => createJsonlStore({ dir: join(root, `store-${++counter}`) }), {
  async reopen(store) {
    const { dir } = store as JsonlStore;
    await store.close?.();
    return createJsonlStore({ dir });
  },
  requireApprovals: true,
});
