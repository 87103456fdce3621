import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
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
  root = mkdtempSync(join(tmpdir(), 'cairn-lease-'));
  child = await buildAgentChild('lease');
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

describe('lease expiry', () => {
  it('a lease of a process on another host blocks until its TTL passes; local.force takes it at once', async () => {
    const store = createSqliteStore({ path: join(root, 'expiry.db') });
    const cwd = mkdtempSync(join(root, 'ws-'));
    try {
      const agentId = await createAgentIn(store, cwd);
      // A live-looking holder this host cannot check: only its expiry frees the agent.
      const foreign = { runId: 'run-foreign', owner: `process-${crypto.randomUUID()}:4242@not-${hostname()}`, expiresAt: Date.now() + 700 };
      await store.runs.create({ runId: 'run-foreign', agentId, requestId: 'req-1', status: 'running', mode: 'agent', model: 'scripted/scripted-model', prompt: 'x', createdAt: Date.now(), updatedAt: Date.now(), checkpointBefore: null, owner: foreign.owner });
      expect((await store.agents.acquireLease(agentId, foreign)).acquired).toBe(true);
      const { Agent } = parentCairn([{ text: 'after expiry' }]);
      const agent = await Agent.resume(agentId, { local: { cwd, store } });
      await expect(agent.send('too early')).rejects.toBeInstanceOf(AgentBusyError);
      expect((await store.runs.get('run-foreign'))?.status).toBe('running');
      while (Date.now() <= foreign.expiresAt) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await (await agent.send('now')).wait()).toMatchObject({ status: 'finished', result: 'after expiry' });
      expect(await store.runs.get('run-foreign')).toMatchObject({ status: 'error', error: { code: 'interrupted' } });

      await store.agents.acquireLease(agentId, { ...foreign, runId: 'run-foreign-2', expiresAt: Date.now() + 60_000 });
      const forcedCairn = parentCairn([{ text: 'forced' }]);
      const forcing = await forcedCairn.Agent.resume(agentId, { local: { cwd, store } });
      await expect(forcing.send('blocked')).rejects.toBeInstanceOf(AgentBusyError);
      expect(await (await forcing.send('force it', { local: { force: true } })).wait()).toMatchObject({ status: 'finished', result: 'forced' });
    } finally {
      store.close();
    }
  });

  it('the lease TTL is configurable (option and CAIRN_LEASE_TTL_MS) and the heartbeat keeps a short lease alive', async () => {
    const store = createSqliteStore({ path: join(root, 'ttl.db') });
    const cwd = mkdtempSync(join(root, 'ws-'));
    try {
      const agentId = await createAgentIn(store, cwd);
      const model = scriptedModel([{ text: 'slow answer with many words to stream', delayMs: 150 }]);
      const { Agent } = createCairn({ leaseTtlMs: 600, plugins: [{ name: 'ttl', providers: [scriptedProvider({ 'scripted-model': model })] }] });
      const agent = await Agent.resume(agentId, { local: { cwd, store } });
      const run = await agent.send('go');
      const started = Date.now();
      const lease = (await store.agents.get(agentId))?.lease;
      expect(lease!.expiresAt - started).toBeLessThanOrEqual(600);
      // The run outlives several TTLs; the heartbeat renews, so another process stays out.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const other = parentCairn();
      const intruder = await other.Agent.resume(agentId, { local: { cwd, store } });
      await expect(intruder.send('mine?')).rejects.toBeInstanceOf(AgentBusyError);
      expect((await run.wait()).status).toBe('finished');

      const fromEnv = new AgentChild(child.script, { backend: 'sqlite', location: join(root, 'ttl.db'), cwd, scenario: 'hold', agentId, holdMs: 60_000 }, { CAIRN_LEASE_TTL_MS: '2500' });
      await fromEnv.waitFor((line) => line.marker === 'tool-wrote');
      const envLease = (await store.agents.get(agentId))?.lease;
      expect(envLease!.expiresAt - Date.now()).toBeLessThanOrEqual(2_500);
      expect(envLease!.expiresAt - Date.now()).toBeGreaterThan(0);
      await fromEnv.kill9();
    } finally {
      store.close();
    }
  });
});
