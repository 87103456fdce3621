import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPermissionEngine, type PermissionCheckRequest, type PermissionEngineOptions } from './permission-engine.js';
import { mcpSubject } from './permission-rules.js';

const cwd = mkdtempSync(join(tmpdir(), 'cairn-mcp-permissions-'));
const engine = (rules: PermissionEngineOptions['layers'][number]['rules'], extra: Partial<PermissionEngineOptions> = {}) => createPermissionEngine({ layers: [{ source: 'agent', rules }], ...extra });

/** An MCP tool call; `subject` as the tool's ruleSubject gives it. */
const mcpCall = (name: string, subject?: string): PermissionCheckRequest => ({ toolId: name, toolName: name, category: 'mcp', readOnly: false, input: {}, paths: [], cwd, ...(subject ? { subject } : {}) });
/** A tool of local.customTools, as custom-tools.ts builds it. */
const customCall = (name: string): PermissionCheckRequest => ({ toolId: name, toolName: name, category: 'custom', readOnly: false, input: {}, paths: [], cwd, subject: `custom-user-tools:${name}` });

describe('mcp(server:tool) subjects', () => {
  it('come from mcp__server__tool names, or from the subject a tool carries when its name cannot be read back', () => {
    expect(mcpSubject('mcp__github__list_issues', 'mcp__github__list_issues')).toBe('github:list_issues');
    // A sanitised / hashed name: the tool says who it is.
    expect(mcpSubject('mcp__my_docs__search_a1b2c3', 'mcp__my_docs__search_a1b2c3', 'my.docs:search')).toBe('my.docs:search');
    expect(mcpSubject('lookup', 'lookup')).toBe('lookup');
  });

  it('mcp(server:*) and mcp(server:tool) match the carried subject', async () => {
    const permissions = engine({ allow: ['mcp(my.docs:*)'], deny: ['mcp(my.docs:delete page)'] }, { defaultDecision: 'deny' });
    expect((await permissions.check(mcpCall('mcp__my_docs__search', 'my.docs:search'))).decision).toBe('allow');
    expect((await permissions.check(mcpCall('mcp__my_docs__delete_page', 'my.docs:delete page'))).decision).toBe('deny');
    expect((await permissions.check(mcpCall('mcp__other__search', 'other:search'))).decision).toBe('deny');
  });
});

describe('custom tools ride the MCP path (server custom-user-tools)', () => {
  it('mcp(custom-user-tools:<name>) and mcp(custom-user-tools:*) match them; so does the bare name as before', async () => {
    expect((await engine({ deny: ['mcp(custom-user-tools:deploy)'] }).check(customCall('deploy'))).decision).toBe('deny');
    expect((await engine({ deny: ['mcp(custom-user-tools:deploy)'] }).check(customCall('status'))).decision).toBe('allow');
    expect((await engine({ deny: ['mcp(custom-user-tools:*)'] }).check(customCall('status'))).decision).toBe('deny');
    expect((await engine({ deny: ['mcp(deploy)'] }).check(customCall('deploy'))).decision).toBe('deny');
    expect((await engine({ allow: ['mcp(custom-user-tools:*)'] }, { defaultDecision: 'deny' }).check(customCall('deploy'))).decision).toBe('allow');
  });

  it('skip interactive approval: an ask rule or an ask default does not prompt; deny still refuses', async () => {
    const asked: string[] = [];
    const canUseTool = (request: { toolName: string }) => {
      asked.push(request.toolName);
      return 'deny' as const;
    };
    const askRule = await engine({ ask: ['mcp'] }, { canUseTool }).check(customCall('deploy'));
    expect(askRule).toMatchObject({ decision: 'allow', reason: expect.stringMatching(/custom tools \(local.customTools\) skip interactive approval/) });
    expect((await engine({}, { defaultDecision: 'ask', canUseTool }).check(customCall('deploy'))).decision).toBe('allow');
    expect((await engine({ ask: ['mcp'] }, { deferAsk: true }).check(customCall('deploy'))).decision).toBe('allow');
    expect(asked).toEqual([]);
    expect((await engine({ ask: ['mcp'], deny: ['deploy'] }, { canUseTool }).check(customCall('deploy'))).decision).toBe('deny');
    expect((await engine({}, { defaultDecision: 'deny' }).check(customCall('deploy'))).decision).toBe('deny');
    // MCP server tools and plugin tools of category custom are still asked about.
    expect((await engine({ ask: ['mcp'] }, { canUseTool }).check(mcpCall('mcp__docs__write'))).decision).toBe('deny');
    expect((await engine({ ask: ['mcp'] }, { canUseTool }).check({ ...customCall('plugin_tool'), subject: undefined })).decision).toBe('deny');
    expect(asked).toEqual(['mcp__docs__write', 'plugin_tool']);
  });
});
