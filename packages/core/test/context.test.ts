import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LanguageModelV1CallOptions, ModeDefinition } from '../src/index.js';
import { createCairn } from '../src/node.js';
import { buildSystemPrompt } from '../src/context/system-prompt.js';
import { projectLayout } from '../src/context/user-context.js';
import { scriptedModel, scriptedProvider } from '../src/testing.js';
import { tempWorkspace } from './helpers.js';

const systemOf = (call: LanguageModelV1CallOptions) => (call.prompt[0]?.role === 'system' ? call.prompt[0].content : '');
const textOf = (call: LanguageModelV1CallOptions, index: number) => JSON.parse(JSON.stringify(call.prompt[index])).content[0].text as string;

const lookMode: ModeDefinition = {
  id: 'look',
  description: 'Look only.',
  promptBlocks: ['Only look at things.'],
  toolPolicy: { readOnly: true, mcp: 'none', shell: 'off' },
  sandboxProfile: 'read-only',
  transitionsTo: [],
};

function setupWithModes(turns: Parameters<typeof scriptedModel>[0]) {
  const model = scriptedModel(turns);
  const agentMode: ModeDefinition = { id: 'agent', description: 'Do the work.', promptBlocks: ['Finish the task.'], toolPolicy: { readOnly: false, mcp: 'all', shell: 'host' }, sandboxProfile: 'inherit', transitionsTo: ['look'] };
  const cairn = createCairn({ plugins: [{ name: 'test', providers: [scriptedProvider({ 'scripted-model': model })], modes: [agentMode, lookMode] }] });
  return { model, ...cairn };
}

describe('system prompt', () => {
  it('has the SPEC section 6 blocks in cache-friendly order', () => {
    const prompt = buildSystemPrompt({
      modes: [{ id: 'agent', description: 'Do.' }, { id: 'plan', description: 'Plan.' }],
      workspaceRules: ['WORKSPACE-RULE'],
      userRules: ['USER-RULE'],
      mcpInstructions: ['MCP-NOTE'],
      append: 'APPENDED',
    });
    const order = ['You are Cairn', '# Communication', '# Tool calling', '# Parallel tool calls', '# Understanding the code', '# Making code changes', '# Citing code', '# Task management', '# Modes', '# Workspace rules', 'WORKSPACE-RULE', '# User rules', 'USER-RULE', '# MCP server instructions', 'APPENDED'];
    const positions = order.map((marker) => prompt.indexOf(marker));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(prompt).toContain('startLine:endLine:path');
    expect(prompt).not.toMatch(/\d{4}-\d{2}-\d{2}/);
  });

  it('is byte-identical across workspaces, runs and mode switches; modes come as reminders', async () => {
    const { model, Agent } = setupWithModes([{ text: 'a' }, { text: 'b' }, { text: 'c' }]);
    const first = await Agent.create({ model: 'scripted/scripted-model', local: { cwd: await tempWorkspace(), settingSources: [] } });
    await (await first.send('one')).wait();
    await (await first.send('two', { mode: 'look' })).wait();
    const second = await Agent.create({ model: 'scripted/scripted-model', local: { cwd: await tempWorkspace(), settingSources: [] } });
    await (await second.send('three')).wait();
    expect(new Set(model.calls.map(systemOf)).size).toBe(1);
    expect(systemOf(model.calls[0]!)).toContain('- look: Look only.');
    expect(systemOf(model.calls[0]!)).not.toContain('Only look at things.');
    const switched = textOf(model.calls[1]!, model.calls[1]!.prompt.length - 1);
    expect(switched).toContain('<system_reminder>\nYou are now in look mode: Look only.\n\nOnly look at things.\n</system_reminder>');
    // The earlier messages are unchanged: the second request starts with the whole first one.
    expect(JSON.stringify(model.calls[1]!.prompt).startsWith(JSON.stringify(model.calls[0]!.prompt).slice(0, -1))).toBe(true);
  });
});

describe('first user message', () => {
  it('carries user_info, a project layout that honours ignore files, and the query', async () => {
    const cwd = await tempWorkspace();
    await mkdir(join(cwd, 'src'), { recursive: true });
    await mkdir(join(cwd, 'node_modules/pkg'), { recursive: true });
    await mkdir(join(cwd, 'dist'), { recursive: true });
    await writeFile(join(cwd, 'src/index.ts'), '');
    await writeFile(join(cwd, 'secret.key'), '');
    await writeFile(join(cwd, 'dist/out.js'), '');
    await writeFile(join(cwd, '.gitignore'), 'dist/\n');
    await writeFile(join(cwd, '.cairnignore'), '*.key\n');
    const { model, Agent } = setupWithModes([{ text: 'a' }, { text: 'b' }]);
    const agent = await Agent.create({ model: 'scripted/scripted-model', local: { cwd, settingSources: [] } });
    await (await agent.send('What is here?')).wait();
    await (await agent.send('And now?')).wait();
    const first = textOf(model.calls[0]!, 1);
    expect(first).toMatch(/^<user_info>\nOS: .+\nShell: .+\nWorkspace: .+\nDate: \d{4}-\d{2}-\d{2}\n<\/user_info>/);
    expect(first).toContain(`Workspace: ${agent.cwd}`);
    const layout = /<project_layout>\n([\s\S]*?)\n<\/project_layout>/.exec(first)?.[1] ?? '';
    expect(layout.split('\n')).toEqual(['src/', '  index.ts', '.cairnignore', '.gitignore']);
    expect(first).toContain('<user_query>\nWhat is here?\n</user_query>');
    expect(first.indexOf('<project_layout>')).toBeLessThan(first.indexOf('<user_query>'));
    const second = textOf(model.calls[1]!, model.calls[1]!.prompt.length - 1);
    expect(second).not.toContain('<user_info>');
    expect(second).toContain('<user_query>\nAnd now?\n</user_query>');
  });

  it('bounds the layout breadth-first, per folder and in total', async () => {
    const cwd = await tempWorkspace();
    await mkdir(join(cwd, 'a-big'), { recursive: true });
    await Promise.all(Array.from({ length: 120 }, (_, index) => writeFile(join(cwd, 'a-big', `f${String(index).padStart(3, '0')}.txt`), '')));
    await mkdir(join(cwd, 'z-small/deep/deeper/deepest/bottom'), { recursive: true });
    await writeFile(join(cwd, 'README.md'), '');
    const layout = await projectLayout(cwd, { maxEntries: 30, maxPerDirectory: 20 });
    const lines = layout.split('\n');
    expect(lines).toContain('z-small/');
    expect(lines).toContain('README.md');
    expect(lines).toContain('  ... 100 more');
    expect(lines.filter((line) => line.includes('.txt'))).toHaveLength(20);
    expect(layout).toContain('use list_dir or glob_file_search');
    expect(lines.some((line) => line.includes('bottom'))).toBe(false);
  });
});
