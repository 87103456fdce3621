import { describe, expect, it } from 'vitest';
import { hashedToolName, maxToolNameLength, qualifiedToolName, sanitizeNamePart, uniqueToolNames } from '../src/tools/tool-names.js';

const providerNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;

describe('model-facing names of MCP tools', () => {
  it('is mcp__<server>__<tool>, unchanged when both parts are plain', () => {
    expect(qualifiedToolName('github', 'get_issue')).toBe('mcp__github__get_issue');
    expect(qualifiedToolName('my-server', 'get-sum')).toBe('mcp__my-server__get-sum');
  });

  it('turns characters providers refuse into _', () => {
    expect(sanitizeNamePart('weird.name/with spaces:ü')).toBe('weird_name_with_spaces__');
    expect(qualifiedToolName('acme.docs', 'search.v2')).toBe('mcp__acme_docs__search_v2');
    expect(sanitizeNamePart('')).toBe('_');
  });

  it('caps long names at 64 with a stable hash, keeping mcp__<server>__ readable', () => {
    const long = qualifiedToolName('server', `a_very_long_tool_name_${'x'.repeat(80)}`);
    expect(long).toHaveLength(maxToolNameLength);
    expect(long).toMatch(/^mcp__server__a_very_long_tool_name_x+_[0-9a-f]{8}$/);
    expect(qualifiedToolName('server', `a_very_long_tool_name_${'x'.repeat(80)}`)).toBe(long);
    // Same prefix, different tails: different names.
    expect(qualifiedToolName('server', `a_very_long_tool_name_${'x'.repeat(80)}y`)).not.toBe(long);
    const longServer = qualifiedToolName('s'.repeat(60), 'tool');
    expect(longServer).toMatch(/^mcp__s{30}__tool_[0-9a-f]{8}$/);
    for (const name of [long, longServer, qualifiedToolName('x', 'y')]) expect(name).toMatch(providerNamePattern);
  });

  it('exactly 64 characters is not hashed', () => {
    const tool = 't'.repeat(64 - 'mcp__srv__'.length);
    expect(qualifiedToolName('srv', tool)).toBe(`mcp__srv__${tool}`);
    expect(qualifiedToolName('srv', `${tool}t`)).toMatch(/_[0-9a-f]{8}$/);
  });

  it('gives the later of tools that sanitise alike the hashed name, and drops a tool listed twice', () => {
    const names = uniqueToolNames('srv', ['a.b', 'a_b', 'a b', 'a.b']);
    expect(names[0]).toBe('mcp__srv__a_b');
    expect(names[1]).toBe(hashedToolName('srv', 'a_b'));
    expect(names[2]).toBe(hashedToolName('srv', 'a b'));
    expect(new Set(names.slice(0, 3)).size).toBe(3);
    expect(names[3]).toBeUndefined();
  });
});
