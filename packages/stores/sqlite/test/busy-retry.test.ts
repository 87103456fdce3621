import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../src/index.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'cairn-sqlite-busy-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const delta = { kind: 'update', update: { type: 'text-delta', text: 'x' } } as const;

describe('a write lock held by another connection', () => {
  it('an append waits through bounded retries and succeeds once the lock is released', async () => {
    const path = join(root, 'agents.db');
    const store = createSqliteStore({ path, busyTimeoutMs: 1 });
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE');
    // The other connection appends run-1's first event itself (schema 3: the run's log number, then the event keyed by it).
    other.prepare('INSERT INTO run_logs (run_id) VALUES (?)').run('run-1');
    other.prepare('INSERT INTO run_events (event_key, event) VALUES ((last_insert_rowid() << 32) | 1, ?)').run(JSON.stringify(delta));
    const append = store.runEvents.append('run-1', [delta]);
    // Released while the store is between retries (each retry yields to the event loop).
    setTimeout(() => other.exec('COMMIT'), 30);
    expect(await append).toEqual({ lastOffset: 2 });
    other.close();
    store.close();
  });

  it('a lock that is never released ends in a retryable store_busy error, not a crash or a hang', async () => {
    const path = join(root, 'agents.db');
    const store = createSqliteStore({ path, busyTimeoutMs: 1 });
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE');
    await expect(store.runEvents.append('run-1', [delta])).rejects.toMatchObject({ code: 'store_busy', isRetryable: true });
    other.exec('ROLLBACK');
    expect(await store.runEvents.append('run-1', [delta])).toEqual({ lastOffset: 1 });
    other.close();
    store.close();
  });
});
