import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentBusyError, type AgentStore } from '@cairn/core';
import { createCairn } from '@cairn/core/node';
import { scriptedModel, scriptedProvider } from '@cairn/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/index.js';
import { AgentChild, buildAgentChild } from './child-harness.js';

let child: { script: string; dispose(): void };
let root: string;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'cairn-agents-2p-'));
  child = await buildAgentChild('two-process');
});
afterAll(() => {
  child?.dispose();
  rmSync(root, { recursive: true, force: true });
});

function parentCairn(turns = [{ text: 'parent answer' }]) {
  const model = scriptedModel(turns);
  return createCairn({ plugins: [{ name: 'parent', providers: [scriptedProvider({ 'scripted-model': model })] }] });
}

async function createAgentIn(store: AgentStore, cwd: string): Promise<string> {
  const { Agent } = parentCairn();
  const agent = await Agent.create({ model: 'scripted/scripted-model', local: { cwd, store } });
  await agent.close();
  return agent.agentId;
}

async function eventsOf(store: AgentStore, runId: string) {
  return (await store.runEvents.list(runId)).events;
}

describe('two processes on one SQLite file', () => {
  it('send to two different agents at the same moment: every event of both runs kept, offsets dense', async () => {
    const location = join(root, 'two-agents.db');
    const cwd = mkdtempSync(join(root, 'ws-'));
    const startAt = Date.now() + 1_200;
    const children = [0, 1].map(() => new AgentChild(child.script, { backend: 'sqlite', location, cwd, scenario: 'chat', startAt }));
    const done = await Promise.all(children.map((process) => process.waitFor((line) => line.marker === 'done' || line.marker === 'error')));
    expect(done.map((line) => line.status)).toEqual(['finished', 'finished']);
    const store = createSqliteStore({ path: location });
    try {
      for (const [index, process] of children.entries()) {
        const { runId } = done[index]!;
        const stored = await eventsOf(store, runId);
        const acknowledged = process.acknowledged(runId);
        expect(stored.map((event) => event.offset)).toEqual(stored.map((_event, offset) => offset + 1));
        expect(stored).toHaveLength(acknowledged.size);
        for (const [offset, event] of acknowledged) expect(stored[offset - 1]?.event).toEqual(event);
        // 300 + 300 text deltas, the tool call, and the final status.
        expect(stored.filter(({ event }) => event.kind === 'update' && event.update.type === 'text-delta')).toHaveLength(600);
        expect(stored.at(-1)?.event).toMatchObject({ kind: 'message', message: { type: 'status', status: 'FINISHED' } });
      }
      expect(new Set(done.map((line) => line.runId)).size).toBe(2);
    } finally {
      store.close();
    }
  });

  it('a second process sending to an agent whose run is alive gets AgentBusyError; after a kill -9 the next one takes over at once', async () => {
    const location = join(root, 'busy.db');
    const cwd = mkdtempSync(join(root, 'ws-'));
    const store = createSqliteStore({ path: location });
    try {
      const agentId = await createAgentIn(store, cwd);
      const holder = new AgentChild(child.script, { backend: 'sqlite', location, cwd, scenario: 'hold', agentId, holdMs: 60_000 });
      await holder.waitFor((line) => line.marker === 'tool-wrote');
      const heldRun = (await holder.waitFor((line) => line.marker === 'run')).runId;
      expect((await store.agents.get(agentId))?.lease).toMatchObject({ runId: heldRun });

      const second = new AgentChild(child.script, { backend: 'sqlite', location, cwd, scenario: 'send-once', agentId });
      const refused = await second.waitFor((line) => line.marker === 'error' || line.marker === 'done');
      expect(refused).toMatchObject({ marker: 'error', name: 'AgentBusyError' });
      expect(refused.message).toContain(heldRun);

      // The holder dies: its lease is still unexpired, but its pid is gone, so the next process takes over.
      await holder.kill9();
      const third = new AgentChild(child.script, { backend: 'sqlite', location, cwd, scenario: 'send-once', agentId });
      expect(await third.waitFor((line) => line.marker === 'error' || line.marker === 'done')).toMatchObject({ marker: 'done', status: 'finished', result: 'sent once' });
      expect(await store.runs.get(heldRun)).toMatchObject({ status: 'error', error: { code: 'interrupted' } });
      expect((await store.agents.get(agentId))?.lease).toBeNull();
    } finally {
      store.close();
    }
  });

  it('local.force from another process takes the lease of a live run at once; that run ends cancelled first', async () => {
    const location = join(root, 'force.db');
    const cwd = mkdtempSync(join(root, 'ws-'));
    const store = createSqliteStore({ path: location });
    try {
      const agentId = await createAgentIn(store, cwd);
      const holder = new AgentChild(child.script, { backend: 'sqlite', location, cwd, scenario: 'hold', agentId, holdMs: 60_000 });
      await holder.waitFor((line) => line.marker === 'tool-wrote');
      const { Agent } = parentCairn([{ text: 'forced through' }]);
      const agent = await Agent.resume(agentId, { local: { cwd, store } });
      await expect(agent.send('not yet')).rejects.toBeInstanceOf(AgentBusyError);
      const forced = await (await agent.send('now', { local: { force: true } })).wait();
      expect(forced).toMatchObject({ status: 'finished', result: 'forced through' });
      const holderDone = await holder.waitFor((line) => line.marker === 'done');
      expect(holderDone.status).toBe('cancelled');
      expect((await store.runs.get(holderDone.runId))?.status).toBe('cancelled');
      // The cancelled run's turn (its tool call, answered) comes before the forced one.
      const roles = (await Agent.messages.listModelMessages(agentId, { store })).map((message) => message.role);
      expect(roles).toEqual(['user', 'assistant', 'tool', 'user', 'assistant']);
      await agent.close();
    } finally {
      store.close();
    }
  });
});
