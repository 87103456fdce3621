import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineTool } from '@cairn/core';
import { createCairn, subagentsPlugin } from '@cairn/core/node';
import { scriptedModel, scriptedProvider } from '@cairn/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSqliteStore } from '../../src/index.js';
import { AgentChild, buildAgentChild } from './child-harness.js';
import { conversationProblems, textOf } from './conversation-checks.js';

// A process runs an agent whose two subagents are each inside a tool call; the test kills it with
// SIGKILL and, in this process with a fresh store handle, resumes a subagent and then the parent.
let child: { script: string; dispose(): void };
let root: string;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'cairn-subagent-crash-'));
  child = await buildAgentChild('subagent-crash', 'subagent-child');
});
afterAll(() => {
  child?.dispose();
  rmSync(root, { recursive: true, force: true });
});

describe('kill -9 of a process whose agent runs subagents (sqlite)', () => {
  it('a subagent resumes on its own with its conversation and its rights; the parent resumes too', async () => {
    const cwd = mkdtempSync(join(root, 'ws-'));
    const location = join(root, 'agents.db');
    const host = new AgentChild(child.script, { location, cwd });
    const { runId: parentRunId, agentId: parentId } = await host.waitFor((line) => line.marker === 'run');
    let holding = 0;
    await host.waitFor((line) => line.marker === 'holding' && ++holding === 2);
    await host.kill9();

    const store = createSqliteStore({ path: location });
    try {
      const children = (await store.agents.list()).items.filter((record) => record.parentRunId === parentRunId);
      expect(children).toHaveLength(2);
      expect(children.every((record) => record.parentAgentId === parentId && record.subagentType === 'explore')).toBe(true);

      const seen: Array<{ tools: string[]; prompt: string }> = [];
      const model = scriptedModel([(call) => {
        seen.push({ tools: (call.tools ?? []).map((tool) => tool.name).sort(), prompt: JSON.stringify(call.prompt) });
        return { text: JSON.stringify(call.prompt.find((message) => message.role === 'user')).includes('SUBTASK') ? 'subtask finished after the crash' : 'parent carries on' };
      }], { repeatLast: true });
      // The same tools as the killed process had: the resumed subagent must get `hold`, never `write_note`.
      const tools = ['hold', 'write_note'].map((id) => defineTool({ id, name: id, description: id, inputSchema: z.object({ text: z.string() }), readOnly: id === 'hold', category: 'custom', execute: () => 'ok' }));
      const { Agent } = createCairn({ plugins: [{ name: 'resumer', providers: [scriptedProvider({ 'scripted-model': model })], tools }, subagentsPlugin] });

      // The subagent: its interrupted run is closed, its conversation repaired, and a follow-up carries on with its history.
      const subagent = children[0]!;
      const [childRun] = (await Agent.listRuns(subagent.agentId, { store })).items;
      const resumedChild = await Agent.resume(subagent.agentId, { local: { cwd, store } });
      expect(await childRun!.wait()).toMatchObject({ status: 'error', error: { code: 'interrupted' } });
      const history = await Agent.messages.listModelMessages(subagent.agentId, { store });
      expect(conversationProblems(history)).toEqual([]);
      expect(textOf(history[0]!.content)).toContain('SUBTASK');
      expect(history.filter((message) => message.role === 'tool').map((message) => textOf(message.content))).toEqual([expect.stringMatching(/interrupted/)]);
      expect(await (await resumedChild.send('Finish your task, please.')).wait()).toMatchObject({ status: 'finished', result: 'subtask finished after the crash' });
      // Still an explore subagent: read-only tools only (`write_note` is the parent's), and its instructions.
      expect(seen[0]!.tools).toEqual(['hold', 'task']);
      expect(seen[0]!.prompt).toContain('You are a subagent');
      expect(seen[0]!.prompt).toContain('SUBTASK');
      await resumedChild.close();

      // The parent: its run closed as interrupted, both task calls answered as interrupted, a follow-up works.
      const parent = await Agent.resume(parentId, { local: { cwd, store } });
      expect(await (await Agent.getRun(parentRunId, { store })).wait()).toMatchObject({ status: 'error', error: { code: 'interrupted' } });
      const parentHistory = await Agent.messages.listModelMessages(parentId, { store });
      expect(conversationProblems(parentHistory)).toEqual([]);
      expect(parentHistory.flatMap<unknown>((message) => (message.role === 'tool' ? message.content : []))).toHaveLength(2);
      expect(await (await parent.send('Where were we?')).wait()).toMatchObject({ status: 'finished', result: 'parent carries on' });
      await parent.close();

      // The other subagent's run, never resumed, still reads as ended (its process is gone).
      const [otherRun] = (await Agent.listRuns(children[1]!.agentId, { store })).items;
      expect(await otherRun!.wait()).toMatchObject({ status: 'error', error: { code: 'interrupted' } });
      for (const id of [parentId, subagent.agentId]) expect((await Agent.get(id, { store })).lease).toBeNull();
    } finally {
      await store.close?.();
    }
  });
});
