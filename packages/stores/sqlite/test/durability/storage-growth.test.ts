import { readdirSync, statSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCairn } from '@cairn/core/node';
import { scriptedModel, scriptedProvider } from '@cairn/core/testing';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { loadConversationForTest } from './conversation-loader.js';
import { type BackendName, freshStore } from './store-backends.js';

const turns = 200;

/** Bytes the store holds: the JSONL files, or the payload columns of the SQLite tables. */
function storedBytes(backend: BackendName, location: string): { total: number; checkpoints: number } {
  if (backend === 'jsonl') {
    const size = (name: string) => statSync(join(location, name), { throwIfNoEntry: false })?.size ?? 0;
    const total = readdirSync(location).reduce((sum, name) => sum + size(name), 0);
    return { total, checkpoints: size('checkpoints.ndjson') };
  }
  const database = new Database(location, { readonly: true });
  try {
    const value = (sql: string) => Number((database.prepare(sql).get() as { bytes: number | null }).bytes ?? 0);
    const checkpoints = value('SELECT SUM(LENGTH(data) + LENGTH(hash)) AS bytes FROM blobs');
    const rest = value("SELECT (SELECT SUM(LENGTH(event)) FROM run_events) + (SELECT SUM(LENGTH(record)) FROM runs) + (SELECT SUM(LENGTH(record)) FROM agents) AS bytes");
    return { total: checkpoints + rest, checkpoints };
  } finally {
    database.close();
  }
}

describe.each<BackendName>(['sqlite', 'jsonl'])('conversation storage (%s)', (backend) => {
  it(`grows linearly: bytes per turn stay flat over ${turns} turns; fork shares the root`, async () => {
    const { store, location } = freshStore(backend);
    const model = scriptedModel([{ text: 'An answer of a steady length, the same every turn, with a few words.' }], { repeatLast: true });
    const { Agent } = createCairn({ plugins: [{ name: 'growth', providers: [scriptedProvider({ 'scripted-model': model })] }] });
    const agent = await Agent.create({ model: 'scripted/scripted-model', local: { cwd: await mkdtemp(join(tmpdir(), 'cairn-growth-ws-')), store } });
    const samples: Array<{ total: number; checkpoints: number }> = [storedBytes(backend, location)];
    for (let turn = 1; turn <= turns; turn++) {
      const result = await (await agent.send(`Question number ${String(turn).padStart(4, '0')}?`)).wait();
      expect(result.status).toBe('finished');
      if (turn % 50 === 0) samples.push(storedBytes(backend, location));
    }
    // Bytes added per block of 50 turns: a conversation that re-stored its history each turn would
    // add more with every block; content-addressed chained roots add the same amount each time.
    const perBlock = (key: 'total' | 'checkpoints') => samples.slice(1).map((sample, index) => sample[key] - (samples[index] as (typeof samples)[number])[key]);
    for (const key of ['total', 'checkpoints'] as const) {
      const blocks = perBlock(key);
      expect(Math.max(...blocks) / Math.min(...blocks)).toBeLessThan(1.15);
    }
    const perTurnCheckpointBytes = perBlock('checkpoints').at(-1)! / 50;
    // One user message, one assistant message and one small root per turn.
    expect(perTurnCheckpointBytes).toBeLessThan(1_500);
    expect((await Agent.messages.listModelMessages(agent.agentId, { store })).length).toBe(turns * 2);

    const original = await Agent.get(agent.agentId, { store });
    const beforeFork = storedBytes(backend, location).checkpoints;
    const fork = await agent.fork({ name: 'branch' });
    expect((await Agent.get(fork.agentId, { store })).checkpointRoot).toBe(original.checkpointRoot);
    expect(storedBytes(backend, location).checkpoints).toBe(beforeFork);
    expect((await loadConversationForTest(store, original.checkpointRoot)).blobs).toBeGreaterThan(turns * 2);
    await (await fork.send('Only on the branch?')).wait();
    expect((await Agent.messages.listModelMessages(fork.agentId, { store })).length).toBe(turns * 2 + 2);
    expect((await Agent.messages.listModelMessages(agent.agentId, { store })).length).toBe(turns * 2);
    // The branch added one turn's blobs, not a copy of the shared history.
    expect(storedBytes(backend, location).checkpoints - beforeFork).toBeLessThan(3 * perTurnCheckpointBytes);
    await store.close?.();
  }, 60_000);
});
