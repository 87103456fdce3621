import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { AgentRecord, RunRecord } from '@cairn/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteStore, type SqliteStore } from '../src/index.js';
import { WalCommitCounter } from './wal-commits.js';

let root: string;
let store: SqliteStore;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'cairn-sqlite-write-'));
  store = createSqliteStore({ path: join(root, 'agents.db') });
});
afterEach(() => {
  store.close();
  rmSync(root, { recursive: true, force: true });
});

const blob = (text: string) => {
  const data = new TextEncoder().encode(text);
  return { hash: createHash('sha256').update(data).digest('hex'), data };
};
const agent = (agentId: string, createdAt: number, cwd = '/work'): AgentRecord => ({
  agentId, cwd, model: { id: 'scripted/m' }, mode: 'agent', createdAt, updatedAt: createdAt, archived: false, checkpointRoot: null, lease: null,
});

describe('the SQLite write path', () => {
  it('putBlobs stores every blob in one transaction and leaves a stored hash alone', async () => {
    const one = blob('one');
    await store.checkpoints.putBlob(one.hash, one.data);
    const two = blob('two');
    const three = blob('three');
    await store.checkpoints.putBlobs?.([one, two, three, two]);
    expect(store.checkpoints.putBlobs).toBeTypeOf('function');
    for (const entry of [one, two, three]) expect(new TextDecoder().decode(await store.checkpoints.getBlob(entry.hash))).toBe(new TextDecoder().decode(entry.data));
    const reader = new Database(store.path, { readonly: true });
    expect((reader.prepare('SELECT count(*) AS count FROM blobs').get() as { count: number }).count).toBe(3);
    reader.close();
  });

  it('putBlobs refuses a bad hash before writing any blob of the batch', async () => {
    const good = blob('good');
    await expect(store.checkpoints.putBlobs?.([good, { hash: 'not-a-hash', data: new Uint8Array([1]) }])).rejects.toThrow(/Invalid blob hash "not-a-hash"/);
    expect(await store.checkpoints.hasBlob(good.hash)).toBe(false);
  });

  it('an agent update in place keeps the listing order; one that moves createdAt or cwd re-sorts it', async () => {
    await store.agents.put(agent('agent-a', 1_000));
    await store.agents.put(agent('agent-b', 2_000));
    await store.agents.update('agent-a', { checkpointRoot: blob('root').hash, updatedAt: 9_000 });
    expect((await store.agents.list()).items.map((item) => item.agentId)).toEqual(['agent-b', 'agent-a']);
    expect((await store.agents.get('agent-a'))?.checkpointRoot).toBe(blob('root').hash);
    await store.agents.update('agent-a', { createdAt: 3_000 });
    expect((await store.agents.list()).items.map((item) => item.agentId)).toEqual(['agent-a', 'agent-b']);
    await store.agents.update('agent-b', { cwd: '/elsewhere' });
    expect((await store.agents.list({ cwd: '/elsewhere' })).items.map((item) => item.agentId)).toEqual(['agent-b']);
    expect((await store.agents.list({ cwd: '/work' })).items.map((item) => item.agentId)).toEqual(['agent-a']);
  });

  it('a run update keeps the by-agent listing; one that moves createdAt re-sorts it', async () => {
    const run = (runId: string, createdAt: number): RunRecord => ({
      runId, agentId: 'agent-a', requestId: `request-${runId}`, status: 'running', mode: 'agent', model: 'scripted/m', prompt: 'go', createdAt, updatedAt: createdAt, checkpointBefore: null,
    });
    await store.runs.create(run('run-1', 1_000));
    await store.runs.create(run('run-2', 2_000));
    await store.runs.update('run-1', { status: 'finished', result: 'done' });
    expect((await store.runs.list('agent-a')).items.map((item) => [item.runId, item.status])).toEqual([['run-2', 'running'], ['run-1', 'finished']]);
    expect((await store.runs.list('agent-a', { status: 'finished' })).items.map((item) => item.runId)).toEqual(['run-1']);
    await store.runs.update('run-1', { createdAt: 3_000 });
    expect((await store.runs.list('agent-a')).items.map((item) => item.runId)).toEqual(['run-1', 'run-2']);
  });

  it("an append writes about one page: a run's events are one key range of the table, with no index beside it", async () => {
    const wal = new WalCommitCounter(store.path);
    try {
      const delta = (index: number) => ({ kind: 'update', update: { type: 'text-delta', text: `delta ${index} `.repeat(12) } }) as const;
      const appends = 200;
      const before = { frames: wal.frames(), commits: wal.commits() };
      for (let append = 0; append < appends; append++) {
        await store.runEvents.append('run-1', Array.from({ length: 8 }, (_, index) => delta(append * 8 + index)));
      }
      expect(wal.commits() - before.commits).toBe(appends);
      // The rightmost leaf, plus a new page and its parent and the header now and then as the file
      // grows. The (run_id, offset) index of schema 2 made it more than four.
      expect((wal.frames() - before.frames) / appends).toBeLessThan(2.5);
      expect((await store.runEvents.list('run-1', { afterOffset: 1598 })).events.map((stored) => stored.offset)).toEqual([1599, 1600]);
    } finally {
      wal.close();
    }
  });
});
