import { describe, expect, it } from 'vitest';
import type { ModeDefinition } from '../spec/mode/v1/index.js';
import type { ToolDefinition } from '../spec/tool/v1/index.js';
import { offeredTools, toolAvailability } from './tool-set.js';

const tool = (name: string, category: ToolDefinition['category'], readOnly: boolean): ToolDefinition => ({
  id: name, name, description: name, inputSchema: { jsonSchema: { type: 'object' } }, readOnly, category, execute: () => 'ok',
});
// The plan and ask modes' policy (packages/modes): read-only, MCP and custom tools only when read-only.
const plan: ModeDefinition = {
  id: 'plan', description: 'Plan.', promptBlocks: [], toolPolicy: { readOnly: true, allow: ['todo'], mcp: 'readOnlyHint', shell: 'sandbox-read-only' }, sandboxProfile: 'read-only', transitionsTo: [],
};
const options = { mode: plan, cwd: '/w', settings: {} };

describe('readOnly: the one flag read-only modes read', () => {
  it('offers a read-only tool of any category in plan mode (the contributor guide\'s line_count is custom)', () => {
    const tools = [tool('line_count', 'custom', true), tool('mcp__docs__search', 'mcp', true), tool('read_file', 'fs', true), tool('todo', 'planning', true)];
    expect(offeredTools(tools, options).map((entry) => entry.name)).toEqual(['line_count', 'mcp__docs__search', 'read_file', 'todo']);
  });

  it('does not offer a tool that is not read-only, and says why when it is called anyway', () => {
    const tools = [tool('deploy', 'custom', false), tool('mcp__db__drop', 'mcp', false), tool('write', 'fs', false)];
    const availability = toolAvailability(tools, options);
    expect(availability.map((entry) => entry.offered)).toEqual([false, false, false]);
    expect(availability[0]?.reason).toBe("the plan mode only offers read-only MCP and custom tools (readOnly: true; for MCP, the server's readOnlyHint)");
    expect(availability[2]?.reason).toBe('the plan mode is read-only');
    expect(availability.every((entry) => entry.modeRestricted)).toBe(true);
  });

  it('decides by readOnly alone: the deprecated readOnlyHint does not make a tool read-only', () => {
    const hinted = { ...tool('deploy', 'mcp', false), readOnlyHint: true };
    expect(offeredTools([hinted], options)).toEqual([]);
  });
});
