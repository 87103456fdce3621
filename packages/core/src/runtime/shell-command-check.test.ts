import { describe, expect, it } from 'vitest';
import type { ModeDefinition } from '../spec/mode/v1/index.js';
import type { ToolDefinition } from '../spec/tool/v1/index.js';
import { shellCommandCheck } from './shell-command-check.js';

const shell: ToolDefinition = { id: 'shell', name: 'run_terminal_cmd', description: 'shell', inputSchema: { jsonSchema: { type: 'object' } }, readOnly: false, category: 'shell', ruleSubject: (input: { command: string }) => input.command, execute: () => 'ok' };
const agent: ModeDefinition = { id: 'agent', description: 'agent', promptBlocks: [], toolPolicy: { readOnly: false, mcp: 'all', shell: 'host' }, sandboxProfile: 'inherit', transitionsTo: [] };
const command = 'node node_modules/typescript/bin/tsc --noEmit';

describe('shellCommandCheck', () => {
  const asked: Array<{ tool: string; input: unknown; mode: string }> = [];
  const check = (options: { tools?: ToolDefinition[]; deny?: string[]; allow?: string[]; mode?: ModeDefinition } = {}) =>
    shellCommandCheck({
      tools: options.tools ?? [shell],
      ...(options.deny ? { deny: options.deny } : {}),
      ...(options.allow ? { allow: options.allow } : {}),
      mode: options.mode ?? agent,
      cwd: '/w',
      settings: {},
      checkPermission: async (tool, input, _paths, mode) => {
        asked.push({ tool: tool.name, input, mode });
        return { decision: 'deny', reason: 'deny: shell(node*) [agent]' };
      },
    })(command);

  it('asks the permission engine about the command as a shell call', async () => {
    expect(await check()).toEqual({ decision: 'deny', reason: 'deny: shell(node*) [agent]' });
    expect(asked).toEqual([{ tool: 'run_terminal_cmd', input: { command }, mode: 'agent' }]);
  });

  it('denies without asking when the shell is not offered: disallowed, not in the allow-list, off in the mode, or missing', async () => {
    asked.length = 0;
    expect(await check({ deny: ['shell'] })).toMatchObject({ decision: 'deny', reason: expect.stringContaining('disallowedTools') });
    expect(await check({ allow: ['read'] })).toMatchObject({ decision: 'deny', reason: expect.stringContaining('allow-list') });
    expect(await check({ mode: { ...agent, id: 'review', toolPolicy: { readOnly: true, mcp: 'none', shell: 'off' } } })).toMatchObject({ decision: 'deny', reason: expect.stringContaining('does not allow the shell') });
    expect(await check({ tools: [] })).toMatchObject({ decision: 'deny', reason: expect.stringContaining('no shell tool') });
    expect(asked).toEqual([]);
  });
});
