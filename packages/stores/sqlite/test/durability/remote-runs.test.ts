import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentStore, SDKMessage } from '@cairn/core';
import { createCairn } from '@cairn/core/node';
import { scriptedModel, scriptedProvider } from '@cairn/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/index.js';
import { AgentChild, buildAgentChild } from './child-harness.js';

// Runs executed by a child process, observed and cancelled from this process through the store.
let child: { script: string; dispose(): void };
let root: string;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'cairn-remote-runs-'));
  child = await buildAgentChild('remote-runs');
});
afterAll(() => {
  child?.dispose();
  rmSync(root, { recursive: true, force: true });
});

function observer() {
  return createCairn({ plugins: [{ name: 'observer', providers: [scriptedProvider({ 'scripted-model': scriptedModel([]) })] }] }).Agent;
}

async function storedMessages(store: AgentStore, runId: string): Promise<SDKMessage[]> {
  return (await store.runEvents.list(runId)).events.flatMap(({ event }) => (event.kind === 'message' ? [event.message] : []));
}

describe('Agent.getRun / cancelRun of a run owned by another process', () => {
  it('stream() tails a live run from its first event to its end, and replays it once finished', async () => {
    const location = join(root, 'stream.db');
    const cwd = mkdtempSync(join(root, 'ws-'));
    const runner = new AgentChild(child.script, { backend: 'sqlite', location, cwd, scenario: 'hold', holdMs: 1_500 });
    const { runId } = await runner.waitFor((line) => line.marker === 'run');
    const store = createSqliteStore({ path: location });
    try {
      const Agent = observer();
      const run = await Agent.getRun(runId, { store });
      expect(run.status).toBe('running');
      const live: SDKMessage[] = [];
      let seenWhileRunning = 0;
      for await (const message of run.stream()) {
        live.push(message);
        if (!runner.lines.some((line) => line.marker === 'done')) seenWhileRunning++;
      }
      expect(seenWhileRunning).toBeGreaterThan(2);
      expect((await runner.waitFor((line) => line.marker === 'done')).status).toBe('finished');
      expect(live).toEqual(await storedMessages(store, runId));
      expect(live.map((message) => message.type)).toEqual(expect.arrayContaining(['system', 'user', 'assistant', 'tool_call', 'status']));
      expect(live.at(-1)).toMatchObject({ type: 'status', status: 'FINISHED' });
      expect((await run.wait()).status).toBe('finished');

      const replay: SDKMessage[] = [];
      for await (const message of (await Agent.getRun(runId, { store })).stream()) replay.push(message);
      expect(replay).toEqual(live);
      const turns = await run.conversation();
      expect(turns.length).toBeGreaterThan(0);
    } finally {
      store.close();
    }
  });

  it('cancelRun from another process cancels the run (its heartbeat sees the request) and resolves when it ended', async () => {
    const location = join(root, 'cancel.db');
    const cwd = mkdtempSync(join(root, 'ws-'));
    const runner = new AgentChild(child.script, { backend: 'sqlite', location, cwd, scenario: 'hold', holdMs: 60_000 });
    await runner.waitFor((line) => line.marker === 'tool-wrote');
    const { runId } = await runner.waitFor((line) => line.marker === 'run');
    const store = createSqliteStore({ path: location });
    try {
      const Agent = observer();
      await Agent.cancelRun(runId, { store });
      expect((await Agent.getRun(runId, { store })).status).toBe('cancelled');
      expect(await runner.waitFor((line) => line.marker === 'done')).toMatchObject({ status: 'cancelled', error: { code: 'cancelled' } });
      expect((await runner.exited).code).toBe(0);
      const messages = await storedMessages(store, runId);
      expect(messages.filter((message) => message.type === 'status' && ['FINISHED', 'ERROR', 'CANCELLED'].includes(message.status as string))).toHaveLength(1);
    } finally {
      store.close();
    }
  });

  it('cancelRun of a run whose process was killed closes it; wait() of such a run does not hang', async () => {
    const location = join(root, 'cancel-dead.db');
    const cwd = mkdtempSync(join(root, 'ws-'));
    const runner = new AgentChild(child.script, { backend: 'sqlite', location, cwd, scenario: 'hold', holdMs: 60_000 });
    await runner.waitFor((line) => line.marker === 'tool-wrote');
    const { runId } = await runner.waitFor((line) => line.marker === 'run');
    await runner.kill9();
    const store = createSqliteStore({ path: location });
    try {
      const Agent = observer();
      const run = await Agent.getRun(runId, { store });
      await Agent.cancelRun(runId, { store });
      expect(await run.wait()).toMatchObject({ status: 'cancelled' });
      const streamed: SDKMessage[] = [];
      for await (const message of run.stream()) streamed.push(message);
      expect(streamed.at(-1)).toMatchObject({ type: 'status', status: 'CANCELLED' });
    } finally {
      store.close();
    }
  });
});
