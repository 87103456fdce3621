import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineTool } from '@cairn/core';
import { createCairn } from '@cairn/core/node';
import { scriptedModel, scriptedProvider } from '@cairn/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type BackendName, freshStore } from './store-backends.js';

const echo = defineTool({
  id: 'echo',
  name: 'echo',
  description: 'Echo the text back.',
  inputSchema: z.object({ text: z.string() }),
  readOnly: true,
  category: 'custom',
  execute: async (input: { text: string }) => `echo: ${input.text}`,
});

describe.each<BackendName>(['memory', 'sqlite', 'jsonl'])('the Agent catalog API on the %s store', (backend) => {
  it('list / get / listRuns / getRun / cancelRun / messages.list / getUsage / archive / unarchive / delete, through Cairn.configure', async () => {
    const { store, reopen } = freshStore(backend);
    const model = scriptedModel([
      { text: 'Echoing.', toolCalls: [{ name: 'echo', args: { text: 'hi' } }], usage: { input: 100, output: 20 } },
      { text: 'Echoed hi.', usage: { input: 150, output: 10 } },
      { text: 'a slow answer that will be cancelled before it ends', delayMs: 200 },
    ]);
    const { Agent, Cairn } = createCairn({ plugins: [{ name: 'api', providers: [scriptedProvider({ 'scripted-model': model })], tools: [echo] }] });
    Cairn.configure({ local: { store } });
    const cwd = await mkdtemp(join(tmpdir(), 'cairn-api-ws-'));
    const otherCwd = await mkdtemp(join(tmpdir(), 'cairn-api-other-'));
    const first = await Agent.create({ model: 'scripted/scripted-model', name: 'first', local: { cwd } });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await Agent.create({ model: 'scripted/scripted-model', name: 'second', local: { cwd: otherCwd } });
    // Cairn.configure's store is the one used.
    expect(await store.agents.get(first.agentId)).toMatchObject({ name: 'first' });

    // list: newest first, pages, the cwd filter; get.
    expect((await Agent.list()).items.map((agent) => agent.agentId)).toEqual([second.agentId, first.agentId]);
    const page = await Agent.list({ limit: 1 });
    expect(page.items.map((agent) => agent.agentId)).toEqual([second.agentId]);
    expect((await Agent.list({ limit: 1, cursor: page.nextCursor! })).items.map((agent) => agent.agentId)).toEqual([first.agentId]);
    expect((await Agent.list({ cwd: first.cwd })).items.map((agent) => agent.agentId)).toEqual([first.agentId]);
    expect(await Agent.get(first.agentId)).toMatchObject({ agentId: first.agentId, cwd: first.cwd, archived: false, name: 'first' });
    await expect(Agent.get('agent-missing')).rejects.toThrow(/No agent agent-missing/);

    // Two runs: one that finishes with a tool call, one cancelled through Agent.cancelRun.
    const finished = await first.send('echo hi');
    expect((await finished.wait()).status).toBe('finished');
    const slow = await first.send('take your time');
    // Cancel once the model has streamed some text: the partial answer stays in the conversation.
    for await (const event of (await Agent.getRun(slow.id)).events()) if (event.kind === 'update' && event.update.type === 'text-delta') break;
    await Agent.cancelRun(slow.id);
    expect((await slow.wait()).status).toBe('cancelled');
    expect((await Agent.getRun(slow.id)).status).toBe('cancelled');

    const runs = await Agent.listRuns(first.agentId);
    expect(runs.items.map((run) => [run.id, run.status])).toEqual([
      [slow.id, 'cancelled'],
      [finished.id, 'finished'],
    ]);
    const runPage = await Agent.listRuns(first.agentId, { limit: 1 });
    expect((await Agent.listRuns(first.agentId, { limit: 1, cursor: runPage.nextCursor! })).items.map((run) => run.id)).toEqual([finished.id]);
    const stored = await Agent.getRun(finished.id);
    expect(stored).toMatchObject({ id: finished.id, agentId: first.agentId, status: 'finished', result: 'Echoed hi.' });
    const types: string[] = [];
    for await (const message of stored.stream()) types.push(message.type);
    expect(types).toEqual(expect.arrayContaining(['system', 'user', 'assistant', 'tool_call', 'usage', 'status']));
    expect(await stored.wait()).toMatchObject({ status: 'finished', result: 'Echoed hi.' });
    await expect(Agent.getRun('run-missing')).rejects.toThrow(/No run run-missing/);

    // messages.list: the user's and the assistant's text only, with offset and limit; the model conversation has the tool round too.
    const messages = await Agent.messages.list(first.agentId);
    expect(messages.map((message) => [message.role, message.text])).toEqual([
      ['user', 'echo hi'],
      ['assistant', 'Echoing.'],
      ['assistant', 'Echoed hi.'],
      ['user', 'take your time'],
      ['assistant', expect.stringMatching(/^a/)],
    ]);
    expect((await Agent.messages.list(first.agentId, { offset: 1, limit: 2 })).map((message) => [message.index, message.role])).toEqual([
      [1, 'assistant'],
      [2, 'assistant'],
    ]);
    expect((await Agent.messages.listModelMessages(first.agentId)).map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user', 'assistant']);

    // getUsage: the agent's total, and one run's.
    const usage = await Agent.getUsage(first.agentId);
    expect(usage.usage.inputTokens).toBe(250 + usage.runs.find((run) => run.runId === slow.id)!.usage.inputTokens);
    expect(usage.runs.map((run) => run.runId).sort()).toEqual([finished.id, slow.id].sort());
    expect((await Agent.getUsage(first.agentId, { runId: finished.id })).usage).toMatchObject({ inputTokens: 250, outputTokens: 30 });
    expect(await first.getUsage()).toEqual(usage);

    // archive / unarchive / delete.
    await Agent.archive(first.agentId);
    expect((await Agent.list()).items.map((agent) => agent.agentId)).toEqual([second.agentId]);
    expect((await Agent.list({ includeArchived: true })).items).toHaveLength(2);
    expect((await Agent.get(first.agentId)).archived).toBe(true);
    await Agent.unarchive(first.agentId);
    expect((await Agent.list()).items.map((agent) => agent.agentId)).toEqual([second.agentId, first.agentId]);
    await Agent.delete(second.agentId);
    await expect(Agent.get(second.agentId)).rejects.toThrow(/No agent/);
    expect((await Agent.list({ includeArchived: true })).items.map((agent) => agent.agentId)).toEqual([first.agentId]);

    // A new handle on the same data (a new process would see the same).
    await first.close();
    await store.close?.();
    if (backend !== 'memory') {
      const reopened = reopen();
      const later = createCairn({ plugins: [{ name: 'later', providers: [scriptedProvider({ 'scripted-model': scriptedModel([]) })] }] }).Agent;
      expect((await later.list({ store: reopened })).items.map((agent) => agent.agentId)).toEqual([first.agentId]);
      expect((await later.listRuns(first.agentId, { store: reopened })).items.map((run) => run.status)).toEqual(['cancelled', 'finished']);
      expect(await later.messages.list(first.agentId, { store: reopened })).toEqual(messages);
      expect((await later.getUsage(first.agentId, { store: reopened })).usage).toEqual(usage.usage);
      await reopened.close?.();
    }
  });
});
