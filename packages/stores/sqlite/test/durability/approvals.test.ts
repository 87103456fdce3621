import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCairn } from '@cairn/core/node';
import { scriptedModel, scriptedProvider } from '@cairn/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/index.js';
import { AgentChild, buildAgentChild } from './child-harness.js';
import { deployTool } from './fixtures/deploy-tool.js';

// A child process runs an agent whose `deploy` call needs approval (approvals: 'wait'); the test
// answers it from this process (a second process sharing the SQLite file), or kills the child while
// it waits and continues the run here (a new process after a restart).
let child: { script: string; dispose(): void };
let root: string;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'cairn-approvals-'));
  child = await buildAgentChild('approvals', 'approval-child');
});
afterAll(() => {
  child?.dispose();
  rmSync(root, { recursive: true, force: true });
});

/** This process as another Cairn process: the same tool, a model that finishes the run. */
function otherProcess(location: string) {
  const store = createSqliteStore({ path: location });
  const model = scriptedModel([{ text: 'Deployed.' }]);
  const { Agent } = createCairn({ plugins: [{ name: 'parent', providers: [scriptedProvider({ 'scripted-model': model })], tools: [deployTool] }] });
  return { store, Agent, model };
}

describe('durable approvals across processes (SQLite)', () => {
  it('a second process sharing the store answers; the waiting run continues in its own process', async () => {
    const cwd = mkdtempSync(join(root, 'answer-ws-'));
    const location = join(root, 'answer.db');
    const running = new AgentChild(child.script, { location, cwd });
    const waiting = await running.waitFor((line) => line.marker === 'waiting');
    const { runId } = await running.waitFor((line) => line.marker === 'run');
    const { store, Agent } = otherProcess(location);
    try {
      const run = await Agent.getRun(runId, { store });
      const pending = await run.pendingApprovals();
      expect(pending).toMatchObject([{ callId: waiting.callId, kind: 'tool', toolName: 'deploy', args: { target: 'production' }, status: 'pending' }]);
      expect(pending[0]?.reason).toContain('ask rule');
      expect(existsSync(join(cwd, 'deployed.txt'))).toBe(false);
      const answered = await run.approve(waiting.callId, true);
      expect(answered).toMatchObject({ status: 'approved', decision: { approved: true, by: 'sdk' } });
      const done = await running.waitFor((line) => line.marker === 'done', 30_000);
      expect(done).toMatchObject({ status: 'finished', result: 'Deployed.' });
      expect(readFileSync(join(cwd, 'deployed.txt'), 'utf8')).toBe(`deployed to production by ${running.pid}`);
      expect(await run.pendingApprovals()).toEqual([]);
      // A late second answer changes nothing: the first one counted.
      expect(await run.approve(waiting.callId, false)).toMatchObject({ status: 'approved' });
    } finally {
      await store.close();
      await running.exited;
    }
  });

  it('the process is killed while the run waits; a new process resumes the agent, answers, and the run continues there', async () => {
    const cwd = mkdtempSync(join(root, 'kill-ws-'));
    const location = join(root, 'kill.db');
    const running = new AgentChild(child.script, { location, cwd });
    const waiting = await running.waitFor((line) => line.marker === 'waiting');
    const { runId, agentId } = await running.waitFor((line) => line.marker === 'run');
    await running.kill9();
    const { store, Agent, model } = otherProcess(location);
    try {
      const agent = await Agent.resume(agentId, { local: { cwd, store }, permissions: { ask: ['deploy'] }, approvals: 'wait' });
      const run = await Agent.getRun(runId, { store });
      expect(run.status).toBe('running');
      expect((await run.pendingApprovals()).map((request) => request.callId)).toEqual([waiting.callId]);
      await run.approve(waiting.callId, { approved: true });
      const result = await run.wait();
      expect(result).toMatchObject({ status: 'finished', result: 'Deployed.' });
      expect(readFileSync(join(cwd, 'deployed.txt'), 'utf8')).toBe(`deployed to production by ${process.pid}`);
      // The model of this process was asked once: the step after the approved call.
      expect(model.calls).toHaveLength(1);
      const messages = await Agent.messages.listModelMessages(agentId, { store });
      expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
      expect(JSON.stringify(messages[2])).toContain('deployed to production');
      const row = await store.agents.get(agentId);
      expect(row?.checkpointRoot).toBe((await store.runs.get(runId))?.checkpointAfter);
      await agent.close();
    } finally {
      await store.close();
    }
  });

  it('a denied answer from another process reaches the model as the reason, and the tool never runs', async () => {
    const cwd = mkdtempSync(join(root, 'deny-ws-'));
    const location = join(root, 'deny.db');
    const running = new AgentChild(child.script, { location, cwd });
    const waiting = await running.waitFor((line) => line.marker === 'waiting');
    const { runId, agentId } = await running.waitFor((line) => line.marker === 'run');
    const { store, Agent } = otherProcess(location);
    try {
      await (await Agent.getRun(runId, { store })).approve(waiting.callId, { approved: false, reason: 'not on a Friday' });
      expect(await running.waitFor((line) => line.marker === 'done', 30_000)).toMatchObject({ status: 'finished' });
      expect(existsSync(join(cwd, 'deployed.txt'))).toBe(false);
      const messages = await Agent.messages.listModelMessages(agentId, { store });
      expect(JSON.stringify(messages[2])).toContain('the user declined it: not on a Friday');
    } finally {
      await store.close();
      await running.exited;
    }
  });
});
