import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../spec/tool/v1/index.js';
import { runToolList } from './run-mcp-tools.js';

const tool = (name: string, category: ToolDefinition['category'] = 'mcp'): ToolDefinition => ({
  id: name, name, description: name, inputSchema: { jsonSchema: { type: 'object' } }, readOnly: true, category, execute: () => 'ok',
});

describe('runToolList', () => {
  it('without MCP servers is the fixed list, always the same array', () => {
    const fixed = [tool('read_file', 'fs')];
    const tools = runToolList(fixed, undefined);
    expect(tools()).toBe(fixed);
  });

  it("follows the servers' list: the same array while their tools are the same objects, a new one after a change", () => {
    const fixed = [tool('read_file', 'fs')];
    const search = tool('mcp__docs__search');
    let current: ToolDefinition[] = [search];
    const tools = runToolList(fixed, { tools: () => [...current] });
    const first = tools();
    expect(first.map((entry) => entry.name)).toEqual(['read_file', 'mcp__docs__search']);
    // A fresh copy of an unchanged list is no change: caches keyed by the array stay valid.
    expect(tools()).toBe(first);
    current = [search, tool('mcp__docs__fetch')];
    const second = tools();
    expect(second).not.toBe(first);
    expect(second.map((entry) => entry.name)).toEqual(['read_file', 'mcp__docs__search', 'mcp__docs__fetch']);
    current = [];
    expect(tools().map((entry) => entry.name)).toEqual(['read_file']);
  });
});
