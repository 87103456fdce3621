import { describe, expect, it } from 'vitest';
import type { ModeDefinition } from '../spec/mode/v1/index.js';
import type { SandboxRequirement, ToolDefinition } from '../spec/tool/v1/index.js';
import { addedRights, type ModeRightsContext, modeRights } from './mode-rights.js';

const tool = (name: string, category: ToolDefinition['category'], readOnly: boolean, extra: Partial<ToolDefinition> = {}): ToolDefinition => ({
  id: name, name, description: name, inputSchema: { jsonSchema: { type: 'object' } }, readOnly, category, execute: () => 'ok', ...extra,
});
const tools = [
  tool('read_file', 'fs', true),
  tool('write', 'fs', false),
  tool('run_terminal_cmd', 'shell', false, { id: 'shell' }),
  tool('create_plan', 'planning', true),
  tool('mcp__docs__search', 'mcp', true, { readOnlyHint: true }),
  tool('mcp__db__drop', 'mcp', false),
];
const mode = (id: string, toolPolicy: ModeDefinition['toolPolicy'], sandboxProfile: ModeDefinition['sandboxProfile'] = 'inherit'): ModeDefinition => ({ id, description: id, promptBlocks: [], toolPolicy, sandboxProfile, transitionsTo: [] });
// The agent's sandboxFor: read-only modes get the read-only sandbox, others the agent's options.
const context = (sandboxEnabled = false, networkAllow: string[] = []): ModeRightsContext => ({
  tools,
  cwd: '/w',
  settings: {},
  sandboxFor: (definition): SandboxRequirement =>
    definition.toolPolicy.readOnly || definition.sandboxProfile === 'read-only'
      ? { profile: 'read-only', networkAllow: [], required: true }
      : sandboxEnabled || definition.sandboxProfile === 'workspace-write' ? { profile: 'workspace-write', networkAllow, required: true } : { profile: 'none', networkAllow: [], required: false },
});

const ask = mode('ask', { readOnly: true, allow: ['todo'], deny: ['create_plan'], mcp: 'readOnlyHint', shell: 'sandbox-read-only' }, 'read-only');
const plan = mode('plan', { readOnly: true, allow: ['create_plan'], mcp: 'readOnlyHint', shell: 'sandbox-read-only' }, 'read-only');
const agent = mode('agent', { readOnly: false, mcp: 'all', shell: 'host' });

describe('modeRights / addedRights', () => {
  it('plan and ask are equal (planning tools do not count); agent adds every kind of right', () => {
    expect(addedRights(modeRights(plan, context()), modeRights(ask, context()))).toEqual([]);
    expect(addedRights(modeRights(ask, context()), modeRights(plan, context()))).toEqual([]);
    expect(addedRights(modeRights(agent, context()), modeRights(ask, context()))).toEqual([
      'file edits',
      'the shell on the host without a sandbox (instead of only in the read-only sandbox)',
      'unrestricted network access',
      'MCP and custom tools without readOnlyHint',
      'the tools mcp__db__drop, write',
    ]);
    expect(addedRights(modeRights(ask, context()), modeRights(agent, context()))).toEqual([]);
  });

  it('judges where the shell really runs, not the declared name of the policy', () => {
    // Declares a host shell, but a read-only mode always gets the read-only sandbox.
    const readOnlyHost = mode('peek', { readOnly: true, mcp: 'readOnlyHint', shell: 'host' });
    expect(addedRights(modeRights(readOnlyHost, context()), modeRights(ask, context()))).toEqual([]);
    // Declares a sandboxed shell, but inherits the agent's options: on the host when the sandbox is off.
    const inherits = mode('build', { readOnly: false, mcp: 'none', shell: 'sandbox-workspace-write' });
    expect(addedRights(modeRights(inherits, context()), modeRights(ask, context()))).toContain('the shell on the host without a sandbox (instead of only in the read-only sandbox)');
    expect(addedRights(modeRights(inherits, context(true)), modeRights(ask, context(true)))).toContain('the shell in the workspace-write sandbox (instead of only in the read-only sandbox)');
  });

  it('counts network hosts, MCP policy and a shell that was off', () => {
    const write = mode('write', { readOnly: false, mcp: 'none', shell: 'sandbox-workspace-write' }, 'workspace-write');
    expect(addedRights(modeRights(write, context(true, ['example.com'])), modeRights(write, context(true, [])))).toEqual(['network access to example.com']);
    const silent = mode('silent', { readOnly: true, mcp: 'none', shell: 'off' }, 'read-only');
    expect(addedRights(modeRights(ask, context()), modeRights(silent, context()))).toEqual([
      'the shell only in the read-only sandbox (instead of off)',
      'MCP and custom tools marked readOnlyHint',
      'the tools mcp__docs__search, run_terminal_cmd',
    ]);
  });

  it('a shell the agent disallowed is off in every mode', () => {
    const denied = { ...context(), deny: ['shell'] };
    expect(modeRights(agent, denied).shell).toBe(0);
    expect(addedRights(modeRights(agent, denied), modeRights(ask, denied))).not.toContainEqual(expect.stringMatching(/shell/));
  });
});
