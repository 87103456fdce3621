import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CairnPlugin, EditFeedbackRequest, ModeDefinition, ToolDefinition } from '../src/index.js';
import { ConfigurationError } from '../src/index.js';
import { createCairn } from '../src/node.js';
import { type ScriptedTurn, scriptedModel, scriptedProvider } from '../src/testing.js';
import { tempWorkspace } from './helpers.js';

// CairnPlugin.editFeedback: opened with the agent, asked after calls that changed files, its text
// appended to the result the model reads, bounded in time, closed with the agent.

const agentMode: ModeDefinition = { id: 'agent', description: 'Does the work.', promptBlocks: [], toolPolicy: { readOnly: false, mcp: 'all' }, sandboxProfile: 'inherit', transitionsTo: [] };

/** A real writing tool: writes the file and records the change, as the fs tools do. */
const writeTool: ToolDefinition<{ path: string; text: string; fail?: boolean }> = {
  id: 'edit', name: 'put', description: 'Write a file.', readOnly: false, category: 'fs',
  inputSchema: { jsonSchema: { type: 'object', properties: { path: { type: 'string' }, text: { type: 'string' }, fail: { type: 'boolean' } }, required: ['path', 'text'] } },
  paths: (input) => [input.path],
  async execute(input, context) {
    const path = join(context.cwd, input.path);
    await writeFile(path, input.text);
    await context.recordFileChange({ path, before: null, after: new TextEncoder().encode(input.text) });
    if (input.fail) throw new Error('disk trouble');
    return `Wrote ${input.path}.`;
  },
};
const lookTool: ToolDefinition = { id: 'look', name: 'look', description: 'Look.', readOnly: true, category: 'custom', inputSchema: { jsonSchema: { type: 'object' } }, execute: () => 'looked' };

function setup(turns: ScriptedTurn[], feedback: (request: EditFeedbackRequest) => Promise<string | undefined>, extra: { timeoutMs?: number; throwOnOpen?: unknown } = {}) {
  const events: string[] = [];
  const plugin: CairnPlugin = {
    name: 'feedback',
    editFeedback: {
      open(workspace) {
        if (extra.throwOnOpen) throw extra.throwOnOpen;
        events.push(`open ${workspace.agentId.startsWith('agent') ? 'agent' : workspace.agentId} ${JSON.stringify(workspace.settings)}`);
        return { label: 'checks', ...(extra.timeoutMs ? { timeoutMs: extra.timeoutMs } : {}), afterEdit: feedback, close: async () => void events.push('close') };
      },
    },
  };
  const scripted = scriptedModel(turns);
  const { Agent } = createCairn({ plugins: [{ name: 'test', providers: [scriptedProvider({ m: scripted })], modes: [agentMode], tools: [writeTool, lookTool] }, plugin] });
  return { Agent, scripted, events };
}

const seen = (scripted: ReturnType<typeof scriptedModel>, index: number) => JSON.stringify(scripted.calls[index]?.prompt.filter((message) => message.role === 'tool'));

describe('CairnPlugin.editFeedback', () => {
  it('appends its text to calls that changed files, with their changes; not to read-only or failed calls', async () => {
    const asked: Array<{ tool: string; paths: string[] }> = [];
    const turns: ScriptedTurn[] = [{ toolCalls: [{ name: 'put', args: { path: 'a.ts', text: 'x' } }, { name: 'look', args: {} }, { name: 'put', args: { path: 'b.ts', text: 'y', fail: true } }] }, { text: 'done' }];
    const { Agent, scripted, events } = setup(turns, async (request) => {
      asked.push({ tool: request.toolName, paths: request.changes.map((change) => change.path.split('/').at(-1) ?? '') });
      return `<checks>${request.changes.length} file(s) checked</checks>`;
    });
    const cwd = await tempWorkspace();
    const agent = await Agent.create({ model: 'scripted/m', local: { cwd, settingSources: [] }, toolSettings: { checks: true } });
    expect(events).toEqual(['open agent {"checks":true}']);
    await (await agent.send('go')).wait();
    expect(asked).toEqual([{ tool: 'put', paths: ['a.ts'] }]);
    const results = seen(scripted, 1);
    expect(results).toContain('Wrote a.ts.\\n\\n<checks>1 file(s) checked</checks>');
    expect(results).not.toMatch(/looked\\n\\n<checks>/);
    expect(results).toContain('put failed: disk trouble');
    await agent.close();
    expect(events.at(-1)).toBe('close');
  });

  it('a late provider costs one bounded wait and says its feedback is unavailable; a throwing one says why', async () => {
    const turns: ScriptedTurn[] = [{ toolCalls: [{ name: 'put', args: { path: 'a.ts', text: 'x' } }] }, { toolCalls: [{ name: 'put', args: { path: 'a.ts', text: 'z' } }] }, { text: 'done' }];
    let call = 0;
    const { Agent, scripted } = setup(turns, (request) => {
      call += 1;
      if (call === 2) return Promise.reject(new Error('server crashed'));
      // Never answers on its own; gives up when the runtime's bound aborts it.
      return new Promise((_resolve, reject) => request.signal.addEventListener('abort', () => reject(new Error('aborted'))));
    }, { timeoutMs: 50 });
    const agent = await Agent.create({ model: 'scripted/m', local: { cwd: await tempWorkspace(), settingSources: [] } });
    const result = await (await agent.send('go')).wait();
    expect(result.status).toBe('finished');
    expect(seen(scripted, 1)).toContain('Wrote a.ts.\\n\\nchecks unavailable: no answer within 0.1 s.');
    expect(seen(scripted, 2)).toContain('checks unavailable: server crashed');
    await agent.close();
  });

  it('a ConfigurationError from open fails Agent.create; any other error only costs the feedback', async () => {
    const bad = setup([{ text: 'done' }], async () => 'never', { throwOnOpen: new ConfigurationError('toolSettings.checks must be an object.') });
    await expect(bad.Agent.create({ model: 'scripted/m', local: { cwd: await tempWorkspace(), settingSources: [] } })).rejects.toThrow(/toolSettings.checks must be an object/);
    const broken = setup([{ toolCalls: [{ name: 'put', args: { path: 'a.ts', text: 'x' } }] }, { text: 'done' }], async () => 'never', { throwOnOpen: new Error('no binary') });
    const agent = await broken.Agent.create({ model: 'scripted/m', local: { cwd: await tempWorkspace(), settingSources: [] } });
    await (await agent.send('go')).wait();
    expect(seen(broken.scripted, 1)).toContain('Wrote a.ts.');
    expect(seen(broken.scripted, 1)).not.toContain('never');
    await agent.close();
  });
});
