import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentRecord, defineTool } from '@cairn/core';
import { createCairn } from '@cairn/core/node';
import { scriptedModel, scriptedProvider } from '@cairn/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteStore, type SqliteStore } from '../src/index.js';
import { WalCommitCounter } from './wal-commits.js';

let root: string;
let store: SqliteStore;
let wal: WalCommitCounter;
beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'cairn-sqlite-commit-'));
  store = createSqliteStore({ path: join(root, 'agents.db') });
  await store.agents.put(agent('agent-1'));
  wal = new WalCommitCounter(store.path);
});
afterEach(() => {
  wal.close();
  store.close();
  rmSync(root, { recursive: true, force: true });
});

const blob = (text: string) => {
  const data = new TextEncoder().encode(text);
  return { hash: createHash('sha256').update(data).digest('hex'), data };
};
function agent(agentId: string): AgentRecord {
  return { agentId, cwd: '/work', model: { id: 'scripted/m' }, mode: 'agent', createdAt: 1, updatedAt: 1, archived: false, checkpointRoot: null, lease: null };
}

describe('a checkpoint save on SQLite', () => {
  it('commitCheckpoint is one transaction; the blobs and the pointer move written apart are two', async () => {
    const before = wal.commits();
    const [message, rootBlob] = [blob('message'), blob('root')];
    await store.commitCheckpoint('agent-1', [message, rootBlob], { checkpointRoot: rootBlob.hash, updatedAt: 2 });
    expect(wal.commits() - before).toBe(1);
    const [next, nextRoot] = [blob('next message'), blob('next root')];
    await store.checkpoints.putBlobs?.([next, nextRoot]);
    await store.agents.update('agent-1', { checkpointRoot: nextRoot.hash, updatedAt: 3 });
    expect(wal.commits() - before).toBe(3);
  });

  it('a commit for a missing agent rolls its blobs back: nothing reaches the log', async () => {
    const before = wal.commits();
    const orphan = blob('orphan');
    await expect(store.commitCheckpoint('agent-missing', [orphan], { checkpointRoot: orphan.hash })).rejects.toMatchObject({ code: 'not_found' });
    expect(wal.commits()).toBe(before);
    expect(await store.checkpoints.hasBlob(orphan.hash)).toBe(false);
  });

  it('a run saves every checkpoint with commitCheckpoint or commitStep (with the step\'s events), one transaction each, and the row points at a loadable conversation', async () => {
    const calls: string[] = [];
    // Counted in place, so the store's parts stay its own (a copy with other parts would not use the one transaction).
    for (const [part, methods] of [['agents', ['update']], ['checkpoints', ['putBlob', 'putBlobs']]] as const) {
      const target = store[part] as unknown as Record<string, (...args: unknown[]) => unknown>;
      for (const method of methods) {
        const original = target[method] as (...args: unknown[]) => unknown;
        target[method] = (...args: unknown[]) => {
          calls.push(`${part}.${method}`);
          return original(...args);
        };
      }
    }
    const commit = store.commitCheckpoint;
    let commitsInLog = 0;
    store.commitCheckpoint = async (...args) => {
      const before = wal.commits();
      const updated = await commit(...args);
      commitsInLog += wal.commits() - before;
      calls.push('commitCheckpoint');
      return updated;
    };
    const commitStep = store.commitStep;
    store.commitStep = async (step) => {
      const before = wal.commits();
      const committed = await commitStep(step);
      commitsInLog += wal.commits() - before;
      calls.push('commitStep');
      return committed;
    };
    const echo = defineTool({
      id: 'echo', name: 'echo', description: 'Echo.', readOnly: true, category: 'custom',
      inputSchema: { jsonSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
      execute: ({ text }: { text: string }) => text,
    });
    const model = scriptedModel([{ text: 'step', toolCalls: [{ name: 'echo', args: { text: 'x' } }] }, { text: 'done' }]);
    const { Agent } = createCairn({ plugins: [{ name: 'test', providers: [scriptedProvider({ m: model })], tools: [echo] }] });
    const created = await Agent.create({ model: 'scripted/m', local: { cwd: root, store } });
    const result = await (await created.send('go')).wait();
    expect(result.status).toBe('finished');
    const saves = calls.filter((call) => call === 'commitCheckpoint' || call === 'commitStep').length;
    expect(saves).toBeGreaterThanOrEqual(3); // before the tool ran, after it, at the end of the run
    // The steps' saves carry their events (commitStep: step 1 before the model call and before the tool, step 2 before the model call).
    expect(calls.filter((call) => call === 'commitStep')).toHaveLength(3);
    expect(commitsInLog).toBe(saves);
    expect(calls.filter((call) => call.startsWith('checkpoints.'))).toEqual([]);
    const history = await Agent.messages.listModelMessages(created.agentId, { store });
    expect(history.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });
});
