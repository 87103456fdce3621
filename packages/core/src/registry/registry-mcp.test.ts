import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../spec/errors/index.js';
import type { McpConnector } from '../spec/mcp/v1/index.js';
import { createRegistry } from './registry.js';

const connector = (): McpConnector => ({
  configProblem: () => undefined,
  open: () => ({ forRun: async () => ({ tools: () => [] }), status: () => [], reload: async () => {}, close: async () => {} }),
});

describe('registry: the mcp slot', () => {
  it('registry.mcp() is the one connector, undefined without an MCP plugin', () => {
    expect(createRegistry([{ name: 'tools-only' }]).mcp()).toBeUndefined();
    const mcp = connector();
    const registry = createRegistry([{ name: '@cairn/tools-mcp', mcp }]);
    expect(registry.mcp()).toBe(mcp);
    // The same plugin, or another plugin with the same connector, changes nothing.
    registry.use({ name: 'again', mcp });
    expect(registry.mcp()).toBe(mcp);
  });

  it('a second connector throws, naming both plugins and replaces: { mcp: true }, and changes nothing', () => {
    const first = connector();
    const registry = createRegistry([{ name: 'first-mcp', mcp: first }]);
    const use = () => registry.use({ name: 'second-mcp', mcp: connector(), tools: [] });
    expect(use).toThrow(ConfigurationError);
    expect(use).toThrow(/Plugin "second-mcp" registers an MCP connector, but plugin "first-mcp" already registered one.*replaces: \{ mcp: true \}/);
    expect(registry.mcp()).toBe(first);
    expect(registry.plugins.map((plugin) => plugin.name)).toEqual(['first-mcp']);
  });

  it('replaces: { mcp: true } takes it over; it must replace something and bring a connector', () => {
    const second = connector();
    const registry = createRegistry([{ name: 'first-mcp', mcp: connector() }]);
    registry.use({ name: 'second-mcp', mcp: second, replaces: { mcp: true } });
    expect(registry.mcp()).toBe(second);
    expect(() => createRegistry([{ name: 'lonely', mcp: connector(), replaces: { mcp: true } }])).toThrow(/declares replaces.mcp, but no plugin registered an MCP connector before it/);
    expect(() => registry.use({ name: 'empty', replaces: { mcp: true } })).toThrow(/declares replaces.mcp but registers no mcp connector/);
    expect(() => registry.use({ name: 'typo', replaces: { mcp: 'yes' as never } })).toThrow(/replaces.mcp must be true/);
  });

  it('refuses an mcp that is not a connector', () => {
    expect(() => createRegistry([{ name: 'bad', mcp: { open: () => undefined } as never }])).toThrow(/"mcp" must be an MCP connector \{ configProblem\(name, config\), open\(options\) \}/);
  });
});
