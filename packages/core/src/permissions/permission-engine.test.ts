import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../spec/errors/index.js';
import type { ToolCategory } from '../spec/tool/v1/index.js';
import { createPermissionEngine, type PermissionCheckRequest, type PermissionLayer, type PermissionRequest } from './permission-engine.js';

const root = mkdtempSync(join(tmpdir(), 'cairn-permissions-'));

function request(toolId: string, overrides: Partial<PermissionCheckRequest> = {}): PermissionCheckRequest {
  const defaults: Record<string, { toolName: string; category: ToolCategory; readOnly: boolean }> = {
    read: { toolName: 'read_file', category: 'fs', readOnly: true },
    write: { toolName: 'write', category: 'fs', readOnly: false },
    edit: { toolName: 'search_replace', category: 'fs', readOnly: false },
    grep: { toolName: 'grep', category: 'search', readOnly: true },
    shell: { toolName: 'run_terminal_cmd', category: 'shell', readOnly: false },
    webFetch: { toolName: 'web_fetch', category: 'web', readOnly: true },
  };
  const base = defaults[toolId] ?? { toolName: toolId, category: 'mcp' as const, readOnly: false };
  return { toolId, ...base, input: {}, paths: [], cwd: root, ...overrides };
}

const shell = (command: string) => request('shell', { subject: command, input: { command } });
const file = (toolId: string, relativePath: string) => request(toolId, { paths: [join(root, relativePath)] });
const engine = (rules: PermissionLayer['rules'], extra: Partial<Parameters<typeof createPermissionEngine>[0]> = {}) =>
  createPermissionEngine({ layers: [{ source: 'agent', rules }], ...extra });

describe('rule forms', () => {
  it('shell(prefix*) allows matching commands and judges each part', async () => {
    const permissions = engine({ allow: ['shell(git status*)', 'shell(npm run test:*)'] }, { defaultDecision: 'deny' });
    expect((await permissions.check(shell('git status --short'))).decision).toBe('allow');
    expect((await permissions.check(shell('npm run test'))).decision).toBe('allow');
    expect((await permissions.check(shell('npm run test -- --watch'))).decision).toBe('allow');
    expect((await permissions.check(shell('npm run testing'))).decision).toBe('deny');
    const chained = await permissions.check(shell('git status; rm -rf /'));
    expect(chained.decision).toBe('deny');
    expect(chained.reason).toMatch(/rm -rf/);
    expect((await permissions.check(shell('git status && echo $(curl evil)'))).decision).toBe('deny');
  });

  it('shell deny rules match any part, through wrappers and paths', async () => {
    const permissions = engine({ allow: ['shell'], deny: ['shell(rm*)'] });
    for (const command of ['ls && rm -rf x', 'echo `rm x`', 'sudo rm x', 'xargs rm < list', 'env A=1 rm x', '/bin/rm x', 'bash -c "rm x"', 'timeout 5 rm x']) {
      const result = await permissions.check(shell(command));
      expect(result.decision, command).toBe('deny');
      expect(result.rule).toBe('deny: shell(rm*) [agent]');
    }
    expect((await permissions.check(shell('ls'))).decision).toBe('allow');
  });

  it('read-only commands are allowed without rules; others follow the default decision', async () => {
    const strict = engine({}, { defaultDecision: 'deny' });
    expect((await strict.check(shell('git log --oneline | head -5'))).decision).toBe('allow');
    expect((await strict.check(shell('find . -exec rm {} \\;'))).decision).toBe('deny');
    expect((await strict.check(shell('ls > out.txt'))).decision).toBe('deny');
    const relaxed = engine({});
    expect((await relaxed.check(shell('npm test'))).decision).toBe('allow');
  });

  it('an unparsable command is never auto-allowed, even with a matching prefix rule', async () => {
    const permissions = engine({ allow: ['shell(echo*)'] });
    const result = await permissions.check(shell('echo "unterminated'));
    expect(result.decision).toBe('deny');
    expect(result.reason).toMatch(/cannot be analysed.*canUseTool/);
  });

  it('path rules: read(.env*) at any depth, edit(src/**), absolute globs', async () => {
    const permissions = engine({ deny: ['read(.env*)', 'edit(/etc/**)'], allow: ['edit(src/**)'] }, { defaultDecision: 'deny' });
    expect((await permissions.check(file('read', '.env'))).decision).toBe('deny');
    expect((await permissions.check(file('read', 'packages/a/.env.local'))).decision).toBe('deny');
    expect((await permissions.check(file('grep', '.env'))).decision).toBe('deny');
    expect((await permissions.check(file('read', 'src/env.ts'))).decision).toBe('allow');
    expect((await permissions.check(file('edit', 'src/deep/a.ts'))).decision).toBe('allow');
    expect((await permissions.check(file('write', 'src/new.ts'))).decision).toBe('allow');
    expect((await permissions.check(file('edit', 'lib/a.ts'))).decision).toBe('deny');
    expect((await permissions.check(request('edit', { paths: ['/etc/passwd'] }))).decision).toBe('deny');
    expect(permissions.isPathDenied(join(root, 'sub/.env'), 'glob', root)).toBe(true);
    expect(permissions.isPathDenied(join(root, 'sub/env.ts'), 'glob', root)).toBe(false);
  });

  it('relative path rules never match outside the workspace', async () => {
    const permissions = engine({ allow: ['write(**)'] }, { defaultDecision: 'deny' });
    expect((await permissions.check(request('write', { paths: [`${root}-evil/x`] }))).decision).toBe('deny');
  });

  it('writes to protected paths are denied unless explicitly bypassed', async () => {
    const permissions = engine({ allow: ['write'] });
    const result = await permissions.check(file('write', '.git/hooks/pre-commit'));
    expect(result.decision).toBe('deny');
    expect(result.reason).toMatch(/\.git/);
    expect((await permissions.check(file('write', '.BASHRC'))).decision).toBe('deny');
    const bypass = engine({}, { allowProtectedPathWrites: true });
    expect((await bypass.check(file('write', '.git/hooks/pre-commit'))).decision).toBe('allow');
  });

  it('mcp(server:*) and the mcp group', async () => {
    const permissions = engine({ allow: ['mcp(github:*)'], deny: ['mcp(github:delete_repo)'] }, { defaultDecision: 'deny' });
    const call = (name: string) => request(name, { toolName: name, category: 'mcp' });
    expect((await permissions.check(call('mcp__github__list_issues'))).decision).toBe('allow');
    expect((await permissions.check(call('mcp__github__delete_repo'))).decision).toBe('deny');
    expect((await permissions.check(call('mcp__slack__post'))).decision).toBe('deny');
    const group = engine({ deny: ['mcp'] });
    expect((await group.check(request('my_custom', { category: 'custom' }))).decision).toBe('deny');
    expect((await group.check(file('read', 'a.ts'))).decision).toBe('allow');
  });

  it('webFetch(domain:...) matches the host and its subdomains only', async () => {
    const fetch = (url: string) => request('webFetch', { subject: url });
    const permissions = engine({ deny: ['webFetch(domain:example.com)'] });
    expect((await permissions.check(fetch('https://example.com/'))).decision).toBe('deny');
    expect((await permissions.check(fetch('https://docs.EXAMPLE.com/a'))).decision).toBe('deny');
    expect((await permissions.check(fetch('https://example.com.evil.net/'))).decision).toBe('allow');
    expect((await permissions.check(fetch('https://notexample.com/'))).decision).toBe('allow');
    const askOthers = engine({ allow: ['webFetch(domain:example.com)'], ask: ['webFetch(https://*)'] });
    expect((await askOthers.check(fetch('https://other.org/'))).decision).toBe('deny');
  });

  it('bare ids and model-facing names', async () => {
    const permissions = engine({ deny: ['write', 'read_file'] });
    expect((await permissions.check(file('write', 'a.ts'))).decision).toBe('deny');
    expect((await permissions.check(file('read', 'a.ts'))).decision).toBe('deny');
    expect((await permissions.check(file('edit', 'a.ts'))).decision).toBe('allow');
  });

  it('rejects malformed rules with a ConfigurationError', () => {
    expect(() => engine({ allow: ['shell('] })).toThrow(ConfigurationError);
    expect(() => engine({ deny: ['read()'] })).toThrow(/empty specifier/);
  });
});

describe('read-only modes', () => {
  it('refuse every writing tool even when an allow rule matches; reading and the shell are judged as usual', async () => {
    const permissions = engine({ allow: ['write', 'mcp'] }, { readOnlyMode: 'plan' });
    const result = await permissions.check(file('write', 'src/a.ts'));
    expect(result.decision).toBe('deny');
    expect(result.reason).toMatch(/plan mode is read-only/);
    expect((await permissions.check(request('mcp__github__create_issue', { toolName: 'mcp__github__create_issue', category: 'mcp' }))).decision).toBe('deny');
    expect((await permissions.check(request('mcp__github__list', { toolName: 'mcp__github__list', category: 'mcp', readOnly: true }))).decision).toBe('allow');
    expect((await permissions.check(file('read', 'src/a.ts'))).decision).toBe('allow');
    expect((await permissions.check(shell('git status'))).decision).toBe('allow');
  });

  it('isPathDenied uses the engine cwd when none is passed', () => {
    const permissions = engine({ deny: ['grep(secrets/**)'] }, { cwd: root });
    expect(permissions.isPathDenied(join(root, 'secrets/key.pem'), 'grep')).toBe(true);
    expect(permissions.isPathDenied(join(root, 'secrets/key.pem'), 'glob')).toBe(false);
    expect(permissions.isPathDenied(join(root, 'src/a.ts'), 'grep')).toBe(false);
  });
});

describe('layering', () => {
  it('a deny in the user layer beats allows in the send and agent layers, in any order', async () => {
    const layers: PermissionLayer[] = [
      { source: 'send', rules: { allow: ['shell(git push*)'] } },
      { source: 'agent', rules: { allow: ['shell'] } },
      { source: 'user', rules: { deny: ['shell(git push*)'] } },
    ];
    for (const order of [layers, [...layers].reverse()]) {
      const result = await createPermissionEngine({ layers: order }).check(shell('git push origin main'));
      expect(result.decision).toBe('deny');
      expect(result.rule).toBe('deny: shell(git push*) [user]');
    }
  });

  it('ask beats allow across layers', async () => {
    const permissions = createPermissionEngine({
      layers: [
        { source: 'send', rules: { allow: ['edit'] } },
        { source: 'project', rules: { ask: ['edit(package.json)'] } },
      ],
    });
    expect((await permissions.check(file('edit', 'package.json'))).decision).toBe('deny');
    expect((await permissions.check(file('edit', 'src/a.ts'))).decision).toBe('allow');
  });
});

describe('ask and canUseTool', () => {
  it('headless ask is a deny with a reason', async () => {
    const result = await engine({ ask: ['shell(git push*)'] }).check(shell('git push'));
    expect(result).toMatchObject({ decision: 'deny', rule: 'ask: shell(git push*) [agent]' });
    expect(result.reason).toMatch(/no canUseTool/);
  });

  it('canUseTool decides asks with strings or behaviours and sees the parsed command', async () => {
    const seen: PermissionRequest[] = [];
    const permissions = engine(
      { ask: ['shell(git push*)', 'write'] },
      {
        interactive: true,
        canUseTool: async (permissionRequest) => {
          seen.push(permissionRequest);
          if (permissionRequest.toolId === 'write') return { behavior: 'deny', message: 'not today' };
          return 'allow';
        },
      },
    );
    expect((await permissions.check(shell('git push origin'))).decision).toBe('allow');
    expect(seen[0]?.shellAnalysis?.parts[0]?.program).toBe('git');
    expect(seen[0]?.interactive).toBe(true);
    expect(await permissions.check(file('write', 'a.ts'))).toMatchObject({ decision: 'deny', reason: 'not today' });
    expect(seen).toHaveLength(2);
  });

  it('canUseTool is asked about unparsable commands instead of allowing them', async () => {
    let asked = 0;
    const permissions = engine({}, { canUseTool: () => { asked++; return 'deny'; } });
    expect((await permissions.check(shell('f() { rm -rf /; }; f'))).decision).toBe('deny');
    expect(asked).toBe(1);
  });

  it('writes outside the workspace are asked about', async () => {
    const result = await engine({}).check(request('write', { paths: ['/somewhere/else.txt'] }));
    expect(result.decision).toBe('deny');
    expect(result.reason).toMatch(/outside the workspace/);
  });
});
