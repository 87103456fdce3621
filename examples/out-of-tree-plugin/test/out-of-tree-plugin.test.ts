import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunEvent } from '@cairn/core';
import { scriptedModel } from '@cairn/core/testing';
import { Agent, registry } from '@cairn/sdk';
import { describe, expect, it } from 'vitest';
import { createExamplePlugin, type JournalLine, journalFileName, journalStoreName } from '../src/index.js';

const toolNamesOf = (call: { tools?: Array<{ name: string }> } | undefined) => (call?.tools ?? []).map((tool) => tool.name);
const promptOf = (call: { prompt: unknown } | undefined) => JSON.stringify(call?.prompt ?? []);

describe('a plugin from outside the repository, through the public API only', () => {
  it('adds a provider, a read-only tool, a store and a mode reachable from agent mode, next to the SDK defaults', async () => {
    const model = scriptedModel([
      // First send, in agent mode: switch_mode into the plugin's mode, then work there.
      { toolCalls: [{ name: 'switch_mode', args: { mode: 'review', explanation: 'The user asked for a review only.' } }] },
      { toolCalls: [{ name: 'line_count', args: { path: 'notes.md' } }] },
      { text: 'Findings: none.' },
      // Second send, in plan mode: the plugin's read-only tool is offered and runs.
      { toolCalls: [{ name: 'line_count', args: { path: 'notes.md' } }] },
      { text: 'notes.md has 3 lines.' },
    ]);
    // The SDK's registry already holds every built-in provider, tool pack and mode: none clashes with the plugin.
    registry.use(createExamplePlugin({ models: { scripted: model } }));
    expect(registry.modes().map((mode) => mode.id)).toEqual(['agent', 'plan', 'ask', 'debug', 'review']);

    const cwd = await mkdtemp(join(tmpdir(), 'cairn-plugin-workspace-'));
    await writeFile(join(cwd, 'notes.md'), 'one\ntwo\nthree\n');
    const home = await mkdtemp(join(tmpdir(), 'cairn-plugin-home-'));
    const env = { ...process.env, CAIRN_HOME: home };
    const agent = await Agent.create({ model: 'local/scripted', local: { cwd, store: journalStoreName }, env });
    expect(agent.mode).toBe('agent');

    const agentRun = await agent.send('Review notes.md');
    expect((await agentRun.wait()).status).toBe('finished');
    expect(agent.mode).toBe('review');
    expect(promptOf(model.calls[1])).toContain('You are now in review mode');
    expect(toolNamesOf(model.calls[1])).toContain('line_count');
    expect(toolNamesOf(model.calls[1])).not.toContain('write');
    expect(promptOf(model.calls[2])).toContain('notes.md: 3 lines');

    const planRun = await agent.send('How long is notes.md?', { mode: 'plan' });
    expect((await planRun.wait()).status).toBe('finished');
    expect(toolNamesOf(model.calls[3])).toContain('line_count');
    expect(toolNamesOf(model.calls[3])).not.toContain('write');
    expect(promptOf(model.calls[4])).toContain('notes.md: 3 lines');
    model.assertComplete();

    // Both runs' rows and events landed in the plugin's store.
    const journal = (await readFile(join(home, 'journal', journalFileName), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as JournalLine);
    const runIds = [agentRun.id, planRun.id];
    for (const runId of runIds) {
      expect(journal.some((line) => line.kind === 'run' && line.record.runId === runId && line.record.status === 'finished')).toBe(true);
      expect(journal.some((line) => line.kind === 'events' && line.runId === runId)).toBe(true);
    }
    const updates = journal.flatMap((line) => (line.kind === 'events' ? line.events : [])).flatMap((event: RunEvent) => (event.kind === 'update' ? [event.update] : []));
    expect(updates).toContainEqual(expect.objectContaining({ type: 'mode-changed', from: 'agent', to: 'review' }));

    // The named store is one store: a resume that names it finds the agent as it was left.
    await agent.close();
    const resumed = await Agent.resume(agent.agentId, { local: { store: journalStoreName }, env });
    expect(resumed.agentId).toBe(agent.agentId);
    expect(resumed.mode).toBe(agent.mode);
    await resumed.close();
  });
});
