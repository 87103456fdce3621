import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../src/index.js';
import { createCairn, parseAgentFile } from '../src/node.js';
import { scriptedModel, scriptedProvider } from '../src/testing.js';
import { tempWorkspace } from './helpers.js';
import { subagentSetup, textTool } from './subagents-helpers.js';

const model = 'scripted/scripted-model';
const readTool = textTool({ id: 'read', readOnly: true, execute: (text) => `read ${text}` });
const editTool = textTool({ id: 'edit', readOnly: false, execute: (text) => `edited ${text}` });

async function workspaceWithAgentFiles(): Promise<string> {
  const cwd = await tempWorkspace();
  await mkdir(join(cwd, '.cursor', 'agents'), { recursive: true });
  await mkdir(join(cwd, '.claude', 'agents'), { recursive: true });
  await writeFile(join(cwd, '.cursor', 'agents', 'reviewer.md'), '---\nname: reviewer\ndescription: Reviews from the file.\n---\nReview carefully.\n');
  await writeFile(join(cwd, '.claude', 'agents', 'reader.md'), '---\nname: reader\ndescription: Reads only.\ntools: Read, Grep\nmodel: inherit\n---\nREADER-PROMPT\n');
  return cwd;
}

describe('subagent types: built-ins, agents, agent files', () => {
  it('lists built-ins, agent files (with settingSources) and agents in the task description; agents replace files by name', async () => {
    const descriptions: string[] = [];
    const { Agent, store } = subagentSetup((view) => {
      descriptions.push(view.call.tools?.find((tool) => tool.name === 'task')?.description ?? '');
      return { text: 'ok' };
    }, [readTool]);
    const cwd = await workspaceWithAgentFiles();
    const agents = { reviewer: { description: 'Reviews inline.', prompt: 'Review inline.' }, tester: { description: 'Writes tests.', prompt: 'Test.', model: 'inherit' } };
    const withFiles = await Agent.create({ model, agents, local: { cwd, store, settingSources: ['project'] } });
    await (await withFiles.send('hi')).wait();
    const withoutFiles = await Agent.create({ model, agents, local: { cwd, store } });
    await (await withoutFiles.send('hi')).wait();

    expect(descriptions[0]).toMatch(/- generalPurpose: .*\n- explore: .*\n- reader: Reads only\.\n- reviewer: Reviews inline\.\n- tester: Writes tests\./);
    expect(descriptions[0]).not.toContain('Reviews from the file');
    // Without settingSources only inline definitions load, as for MCP files.
    expect(descriptions[1]).not.toContain('reader');
    expect(descriptions[1]).toContain('- tester: Writes tests.');
  });

  it("a file's tools list (Claude Code names) narrows the child's tools; explore gets read-only tools; custom tools reach children", async () => {
    const toolsByPrompt: Record<string, string[]> = {};
    const { Agent, store } = subagentSetup((view) => {
      for (const marker of ['READER-TASK', 'EXPLORE-TASK', 'GENERAL-TASK']) if (view.firstUser.includes(marker)) toolsByPrompt[marker] = view.toolNames;
      if (/(READER|EXPLORE|GENERAL)-TASK/.test(view.firstUser) || view.toolResults.length > 0) return { text: 'done' };
      return {
        toolCalls: [
          { name: 'task', args: { description: 'r', prompt: 'READER-TASK', subagent_type: 'reader' } },
          { name: 'task', args: { description: 'e', prompt: 'EXPLORE-TASK', subagent_type: 'explore' } },
          { name: 'task', args: { description: 'g', prompt: 'GENERAL-TASK' } },
        ],
      };
    }, [readTool, editTool]);
    const customTools = { lookup: { description: 'Look something up.', readOnly: true, execute: () => 'found' } };
    const agent = await Agent.create({ model, local: { cwd: await workspaceWithAgentFiles(), store, settingSources: ['project'], customTools } });
    expect((await (await agent.send('delegate')).wait()).status).toBe('finished');
    expect(toolsByPrompt['READER-TASK']).toEqual(['read', 'task']);
    expect(toolsByPrompt['EXPLORE-TASK']?.sort()).toEqual(['lookup', 'read', 'task']);
    expect(toolsByPrompt['GENERAL-TASK']?.sort()).toEqual(['edit', 'lookup', 'read', 'task']);
  });

  it('agents are checked at Agent.create: shape, model, and a registered task tool; send refuses them', async () => {
    const { Agent, store } = subagentSetup(() => ({ text: 'ok' }), []);
    const cwd = await tempWorkspace();
    await expect(Agent.create({ model, agents: { bad: { description: '', prompt: 'x' } }, local: { cwd, store } })).rejects.toThrow(/agents.bad needs a description/);
    await expect(Agent.create({ model, agents: { 'no spaces': { description: 'd', prompt: 'x' } }, local: { cwd, store } })).rejects.toThrow(/subagent name "no spaces" is not valid/);
    await expect(Agent.create({ model, agents: { x: { description: 'd', prompt: 'p', model: 'nowhere/none' } }, local: { cwd, store } })).rejects.toThrow(/agents.x.model cannot be used/);
    const agent = await Agent.create({ model, local: { cwd, store } });
    await expect(agent.send('hi', { agents: {} } as never)).rejects.toThrow(/pass them to Agent.create or Agent.resume/);

    const bare = scriptedModel([{ text: 'ok' }]);
    const withoutTask = createCairn({ plugins: [{ name: 'test', providers: [scriptedProvider({ 'scripted-model': bare })] }] });
    const refused = withoutTask.Agent.create({ model, agents: { x: { description: 'd', prompt: 'p' } }, local: { cwd, store } });
    await expect(refused).rejects.toThrow(ConfigurationError);
    await expect(refused).rejects.toThrow(/agents needs the task tool/);
  });

  it('parses agent files: front matter fields, comma lists, a missing description, the file name as default name', () => {
    expect(parseAgentFile('---\nname: a\ndescription: D\nmodel: openai/x\ntools: [read, Bash]\n---\nBody', '/x/a.md')).toEqual({ name: 'a', description: 'D', prompt: 'Body', model: 'openai/x', tools: ['read', 'shell'], source: '/x/a.md' });
    expect(parseAgentFile('Just a prompt', '/x/helper.md')).toMatchObject({ name: 'helper', prompt: 'Just a prompt', description: expect.stringContaining('no description') });
  });
});
