import { describe, expect, it } from 'vitest';
import type { AgentOptions, ModeDefinition } from '../src/index.js';
import { createCairn } from '../src/node.js';
import { type ScriptedTurn, scriptedModel, scriptedProvider } from '../src/testing.js';
import { tempWorkspace } from './helpers.js';
import { mcpTool, testConnector } from './mcp-test-connector.js';

const model = 'scripted/scripted-model';
const agentMode: ModeDefinition = { id: 'agent', description: 'Does the work.', promptBlocks: [], toolPolicy: { readOnly: false, mcp: 'all' }, sandboxProfile: 'inherit', transitionsTo: [] };
/** Like the plan and ask modes of @cairn/modes: read-only, MCP tools only with readOnlyHint. */
const readOnlyMode: ModeDefinition = { id: 'review', description: 'Reads only.', promptBlocks: [], toolPolicy: { readOnly: true, mcp: 'readOnlyHint' }, sandboxProfile: 'read-only', transitionsTo: [] };
const docs = { command: 'fake' };

function setup(turns: ScriptedTurn[]) {
  const log: string[] = [];
  const connector = testConnector({ docs: [mcpTool('docs', 'search', { readOnly: true, log }), mcpTool('docs', 'delete', { log })] });
  const scripted = scriptedModel(turns);
  const { Agent } = createCairn({ plugins: [{ name: 'test', providers: [scriptedProvider({ 'scripted-model': scripted })], modes: [agentMode, readOnlyMode], mcp: connector }] });
  return { Agent, scripted, log };
}

const offered = (call: { tools?: Array<{ name: string }> } | undefined) => (call?.tools ?? []).map((tool) => tool.name);
const calls = (...names: string[]): ScriptedTurn[] => [{ toolCalls: names.map((name) => ({ name, args: { text: name } })) }, { text: 'done' }];
/** What the model read back for each call of the first turn. */
const toolResults = (scripted: ReturnType<typeof setup>['scripted']) => JSON.stringify(scripted.calls[1]?.prompt.filter((message) => message.role === 'tool'));

async function runOnce(turns: ScriptedTurn[], options: Partial<AgentOptions>, sendMode?: string) {
  const context = setup(turns);
  const agent = await context.Agent.create({ model, mcpServers: { docs }, ...options, local: { cwd: await tempWorkspace(), settingSources: [], ...options.local } });
  const result = await (await agent.send('go', sendMode ? { mode: sendMode } : {})).wait();
  await agent.close();
  return { ...context, result };
}

describe('permission rules and groups for MCP tools', () => {
  it('mcp(server:tool) denies one tool; mcp(server:*) allows a server under a deny default', async () => {
    const denied = await runOnce(calls('mcp__docs__delete', 'mcp__docs__search'), { permissions: { deny: ['mcp(docs:delete)'] } });
    expect(denied.log).toEqual(['mcp__docs__search:mcp__docs__search']);
    expect(toolResults(denied.scripted)).toMatch(/Permission denied for mcp__docs__delete: a deny rule matches \(mcp\(docs:delete\)\)/);
    const allowed = await runOnce(calls('mcp__docs__delete'), { permissions: { allow: ['mcp(docs:*)'] }, defaultPermission: 'deny' });
    expect(allowed.log).toEqual(['mcp__docs__delete:mcp__docs__delete']);
  });

  it('the mcp group in disallowedTools removes MCP and custom tools; in tools it keeps them', async () => {
    const customTools = { lookup: { description: 'Looks up.', execute: () => 'found' } };
    const without = await runOnce([{ text: 'ok' }], { disallowedTools: ['mcp'], local: { customTools } });
    expect(offered(without.scripted.calls[0])).toEqual([]);
    const only = await runOnce([{ text: 'ok' }], { tools: ['mcp'], local: { customTools } });
    expect(offered(only.scripted.calls[0]).sort()).toEqual(['lookup', 'mcp__docs__delete', 'mcp__docs__search']);
    const oneTool = await runOnce([{ text: 'ok' }], { disallowedTools: ['mcp__docs__delete'] });
    expect(offered(oneTool.scripted.calls[0])).toEqual(['mcp__docs__search']);
  });
});

describe('custom tools: the in-process server custom-user-tools', () => {
  const ran: string[] = [];
  const customTools = {
    deploy: {
      description: 'Deploys.',
      execute: () => {
        ran.push('deploy');
        return 'deployed';
      },
    },
  };

  it('skip interactive approval: an ask rule does not reach canUseTool, an ask default does not refuse', async () => {
    ran.length = 0;
    const asked: string[] = [];
    const canUseTool = (request: { toolName: string }) => {
      asked.push(request.toolName);
      return 'deny' as const;
    };
    await runOnce(calls('deploy'), { permissions: { ask: ['mcp(custom-user-tools:*)'] }, canUseTool, local: { customTools } });
    await runOnce(calls('deploy'), { defaultPermission: 'ask', local: { customTools } });
    expect(ran).toEqual(['deploy', 'deploy']);
    expect(asked).toEqual([]);
  });

  it('deny rules still refuse them, by mcp(custom-user-tools:<name>)', async () => {
    ran.length = 0;
    const { scripted } = await runOnce(calls('deploy'), { permissions: { deny: ['mcp(custom-user-tools:deploy)'] }, local: { customTools } });
    expect(ran).toEqual([]);
    expect(toolResults(scripted)).toMatch(/Permission denied for deploy/);
  });
});

describe('read-only modes with MCP servers attached', () => {
  it('offer only readOnlyHint tools, and refuse a non-read-only one the model calls anyway', async () => {
    const { scripted, log, result } = await runOnce(calls('mcp__docs__delete', 'mcp__docs__search'), {}, 'review');
    expect(result.status).toBe('finished');
    expect(offered(scripted.calls[0])).toEqual(['mcp__docs__search']);
    expect(log).toEqual(['mcp__docs__search:mcp__docs__search']);
    expect(toolResults(scripted)).toMatch(/review mode only offers read-only MCP and custom tools/);
  });
});
