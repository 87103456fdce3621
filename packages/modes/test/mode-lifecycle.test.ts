import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createMemoryStore, type ModeDefinition } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { createModesPlugin, debugInstrumentationMarker } from '../src/index.js';
import { isolatedEnv, modelId, setupCairn, tempDir, toolNames } from './helpers.js';

describe('the mode survives resume and restart', () => {
  it('a plan-mode agent resumed by a new process is still in plan mode and still read-only', async () => {
    const store = createMemoryStore();
    const cwd = await tempDir();
    const env = await isolatedEnv();
    const first = setupCairn([{ text: 'Researching.' }]);
    const agent = await first.Agent.create({ model: modelId, mode: 'plan', local: { cwd, store }, env });
    await (await agent.send('Plan a refactor')).wait();
    await agent.close();

    // A new Cairn over the same store: what a restarted process sees.
    const second = setupCairn([{ toolCalls: [{ name: 'write', args: { path: 'x.txt', contents: 'no' } }] }, { text: 'Could not write.' }]);
    const resumed = await second.Agent.resume(agent.agentId, { local: { cwd, store }, env });
    expect(resumed.mode).toBe('plan');
    const run = await resumed.send('Now write x.txt');
    await run.wait();
    expect(toolNames(second.model.calls[0]!)).not.toContain('write');
    expect((await run.conversation()).flatMap((turn) => (turn.type === 'agentConversationTurn' ? turn.turn.steps : []))).toContainEqual(
      expect.objectContaining({ type: 'toolCall', message: expect.objectContaining({ name: 'write', isError: true }) }),
    );
    expect((await store.agents.get(agent.agentId))?.mode).toBe('plan');
  });

  it('a per-send mode is for that run only', async () => {
    const { model, Agent } = setupCairn([{ text: 'a' }, { text: 'b' }]);
    const agent = await Agent.create({ model: modelId, local: { cwd: await tempDir() }, env: await isolatedEnv() });
    await (await agent.send('look', { mode: 'ask' })).wait();
    await (await agent.send('now do it')).wait();
    expect(toolNames(model.calls[0]!)).not.toContain('write');
    expect(toolNames(model.calls[1]!)).toContain('write');
    expect(JSON.stringify(model.calls[1]!.prompt.at(-1))).toContain('You are now in agent mode');
    expect(agent.mode).toBe('agent');
  });
});

describe('custom modes', () => {
  it('a user-registered mode is offered, enforced and reachable from switch_mode', async () => {
    const review: ModeDefinition = {
      id: 'review',
      description: 'Review the code and report findings; read-only, no shell.',
      promptBlocks: ['Read the changed files and list concrete findings with startLine:endLine:path citations.'],
      toolPolicy: { readOnly: true, allow: ['todo'], mcp: 'none', shell: 'off' },
      sandboxProfile: 'read-only',
      transitionsTo: ['agent'],
    };
    const { model, Agent } = setupCairn([{ toolCalls: [{ name: 'run_terminal_cmd', args: { command: 'ls' } }] }, { text: 'Findings: none.' }], { plugins: [createModesPlugin({ modes: [review], name: 'my-modes' })] });
    const agent = await Agent.create({ model: modelId, mode: 'review', local: { cwd: await tempDir() }, env: await isolatedEnv() });
    const run = await agent.send('Review this');
    await run.wait();
    const offered = toolNames(model.calls[0]!);
    expect(offered).toContain('read_file');
    expect(offered).not.toContain('run_terminal_cmd');
    expect(offered).not.toContain('write');
    const steps = (await run.conversation()).flatMap((turn) => (turn.type === 'agentConversationTurn' ? turn.turn.steps : []));
    expect(steps).toContainEqual(expect.objectContaining({ type: 'toolCall', message: expect.objectContaining({ name: 'run_terminal_cmd', isError: true }) }));
    expect(JSON.stringify(model.calls[0]!.prompt)).toContain('You are now in review mode');
    // The system prompt's modes block lists it too.
    expect(model.calls[0]!.prompt[0]).toMatchObject({ role: 'system', content: expect.stringContaining('- review: Review the code') });
  });

  it('a plugin mode with enterableFrom is reachable by switch_mode from agent mode, the built-ins untouched', async () => {
    const review: ModeDefinition = {
      id: 'review',
      description: 'Review the code and report findings; read-only, no shell.',
      promptBlocks: ['List concrete findings.'],
      toolPolicy: { readOnly: true, allow: ['switchMode'], mcp: 'none', shell: 'off' },
      sandboxProfile: 'read-only',
      transitionsTo: ['agent'],
      enterableFrom: ['agent'],
    };
    const { model, Agent } = setupCairn(
      [{ toolCalls: [{ name: 'switch_mode', args: { mode: 'review', explanation: 'Only a review was asked for.' } }] }, { text: 'Findings: none.' }],
      // Registered on its own, next to the built-in modes plugin: no re-registration of agent mode.
      { plugins: [{ name: 'review-mode', modes: [review] }] },
    );
    const agent = await Agent.create({ model: modelId, local: { cwd: await tempDir() }, env: await isolatedEnv() });
    await (await agent.send('Review this')).wait();
    expect(agent.mode).toBe('review');
    expect(toolNames(model.calls[1]!)).not.toContain('write');
    expect(JSON.stringify(model.calls[1]!.prompt.at(-1))).toContain('You are now in review mode');
  });

  it('an unknown mode is a clear configuration error', async () => {
    const { Agent } = setupCairn([]);
    await expect(Agent.create({ model: modelId, mode: 'nope', local: { cwd: await tempDir() } })).rejects.toThrow(/Unknown mode "nope"/);
  });
});

describe('debug mode', () => {
  it('reminds about CAIRN-DEBUG instrumentation while some is left in edited files, and stops once removed', async () => {
    const cwd = await tempDir();
    await writeFile(join(cwd, 'calc.js'), 'export function add(a, b) {\n  return a - b;\n}\n');
    const marker = debugInstrumentationMarker;
    const { model, Agent } = setupCairn([
      { toolCalls: [{ name: 'read_file', args: { path: 'calc.js' } }] },
      { toolCalls: [{ name: 'search_replace', args: { path: 'calc.js', old_string: '  return a - b;', new_string: `  console.error('add', a, b); // ${marker}\n  return a - b;` } }] },
      { toolCalls: [{ name: 'search_replace', args: { path: 'calc.js', old_string: `  console.error('add', a, b); // ${marker}\n  return a - b;`, new_string: '  return a + b;' } }] },
      { text: 'Fixed: add subtracted. Instrumentation removed.' },
    ]);
    const agent = await Agent.create({ model: modelId, mode: 'debug', local: { cwd }, env: await isolatedEnv() });
    const run = await agent.send('add(1, 2) returns -1, why?');
    expect((await run.wait()).status).toBe('finished');
    const reminderIn = (index: number) => JSON.stringify(model.calls[index]!.prompt.at(-1)).includes(`marked ${marker} is still in: calc.js (1 line)`);
    expect([0, 1, 2, 3].map(reminderIn)).toEqual([false, false, true, false]);
    // The reminder is per request, never stored in the conversation.
    expect(JSON.stringify(model.calls[3]!.prompt)).not.toContain('is still in: calc.js');
    expect(JSON.stringify(model.calls[0]!.prompt)).toContain('You are now in debug mode');
  });
});
