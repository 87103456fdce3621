import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { defineTool, type LanguageModelV1CallOptions } from '../src/index.js';
import { loadProjectRules, parseRuleFile, pathsMentioned } from '../src/config/index.js';
import { setup, tempWorkspace } from './helpers.js';

async function writeFiles(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
}

/** A repository laid out like real Cursor projects: unquoted globs, nested rule folders, AGENTS.md. */
const cursorRepository = {
  'AGENTS.md': '# Agent notes\nRun `pnpm test` before you finish.\n',
  '.cursor/rules/always.mdc': '---\ndescription:\nglobs:\nalwaysApply: true\n---\nAlways use pnpm, never npm or yarn.\n',
  '.cursor/rules/typescript.mdc': '---\ndescription: TypeScript conventions\nglobs: *.ts,*.tsx\nalwaysApply: false\n---\nUse named exports. No default exports.\n',
  '.cursor/rules/frontend/react.mdc': '---\nglobs: ["web/**/*.tsx"]\nalwaysApply: false\n---\nReact components are function components with hooks.\n',
  '.cursor/rules/api/rest.mdc': '---\ndescription: "REST API guidelines: read when adding or changing endpoints"\nglobs:\nalwaysApply: false\n---\nEvery endpoint validates its body with zod.\n',
  '.cursor/rules/release.mdc': '---\ndescription:\nglobs:\nalwaysApply: false\n---\nBump versions with changesets.\n',
  '.cairn/rules/testing.md': 'Tests use vitest and real files in temp dirs.\n',
  'src/server.ts': 'export const server = 1;\n',
};

const systemOf = (call: LanguageModelV1CallOptions) => (call.prompt[0]?.role === 'system' ? call.prompt[0].content : '');
const lastMessage = (call: LanguageModelV1CallOptions) => JSON.stringify(call.prompt.at(-1));

const touchTool = defineTool({
  id: 'touch_path',
  name: 'touch_path',
  description: 'Pretends to open a file.',
  inputSchema: z.object({ path: z.string() }),
  readOnly: true,
  category: 'fs',
  paths: (input: { path: string }) => [input.path],
  execute: (input: { path: string }) => `opened ${input.path}`,
});

async function agentIn(cwd: string, turns: Parameters<typeof setup>[0], extra: Record<string, unknown> = {}) {
  const home = await tempWorkspace('cairn-home-');
  const { model, Agent } = setup(turns, [touchTool]);
  const agent = await Agent.create({ model: 'scripted/scripted-model', local: { cwd }, env: { ...process.env, CAIRN_HOME: home }, ...extra });
  return { model, agent, home };
}

describe('front matter', () => {
  it('reads Cursor files whose unquoted globs are not valid YAML', () => {
    expect(parseRuleFile(cursorRepository['.cursor/rules/typescript.mdc']).frontMatter).toEqual({ description: 'TypeScript conventions', globs: ['*.ts', '*.tsx'], alwaysApply: false });
    expect(parseRuleFile(cursorRepository['.cursor/rules/frontend/react.mdc']).frontMatter).toEqual({ globs: ['web/**/*.tsx'], alwaysApply: false });
    expect(parseRuleFile('no front matter\n')).toEqual({ frontMatter: undefined, body: 'no front matter' });
  });

  it('classifies a realistic rules folder as its front matter says', async () => {
    const root = await tempWorkspace();
    await writeFiles(root, cursorRepository);
    const rules = await loadProjectRules(root);
    expect(rules.map((rule) => [rule.path, rule.kind])).toEqual([
      ['AGENTS.md', 'always'],
      ['.cairn/rules/testing.md', 'always'],
      ['.cursor/rules/always.mdc', 'always'],
      ['.cursor/rules/api/rest.mdc', 'described'],
      ['.cursor/rules/frontend/react.mdc', 'glob'],
      ['.cursor/rules/release.mdc', 'manual'],
      ['.cursor/rules/typescript.mdc', 'glob'],
    ]);
  });

  it('finds paths mentioned in a query', () => {
    expect(pathsMentioned('Fix the bug in src/server.ts and `web/app/page.tsx`, see https://x.dev/a.html')).toEqual(expect.arrayContaining(['src/server.ts', 'web/app/page.tsx']));
  });
});

describe('rules in a run', () => {
  it('always rules and AGENTS.md in the system prompt, described rules listed, glob rules only when in play', async () => {
    const cwd = await tempWorkspace();
    await writeFiles(cwd, cursorRepository);
    const { model, agent } = await agentIn(cwd, [
      { toolCalls: [{ name: 'touch_path', args: { path: 'web/app/page.tsx' } }] },
      { toolCalls: [{ name: 'touch_path', args: { path: 'web/app/other.tsx' } }] },
      { text: 'done' },
    ]);
    await (await agent.send('Tidy up the README')).wait();
    const system = systemOf(model.calls[0]!);
    expect(system).toContain('Always use pnpm');
    expect(system).toContain('Run `pnpm test` before you finish.');
    expect(system).toContain('Tests use vitest');
    expect(system).toContain('- .cursor/rules/api/rest.mdc: REST API guidelines: read when adding or changing endpoints');
    expect(system).toContain('- .cursor/rules/typescript.mdc: TypeScript conventions — files: *.ts, *.tsx');
    expect(system).not.toContain('Every endpoint validates');
    expect(system).not.toContain('Use named exports');
    expect(system).not.toContain('Bump versions');
    // Nothing matched before the tool call; after it, both glob rules for .tsx files, once.
    expect(JSON.stringify(model.calls[0]!.prompt)).not.toContain('function components');
    expect(lastMessage(model.calls[1]!)).toContain('React components are function components');
    expect(lastMessage(model.calls[1]!)).toContain('Use named exports');
    const third = JSON.stringify(model.calls[2]!.prompt);
    expect(third.split('React components are function components').length - 1).toBe(1);
    // Same system prompt on every step of the run.
    expect(new Set(model.calls.map(systemOf)).size).toBe(1);
  });

  it('a path in the query and an @mention bring rules into the first message', async () => {
    const cwd = await tempWorkspace();
    await writeFiles(cwd, cursorRepository);
    const { model, agent } = await agentIn(cwd, [{ text: 'ok' }]);
    await (await agent.send('Add a health route to src/server.ts, and follow @release')).wait();
    const first = lastMessage(model.calls[0]!);
    expect(first).toContain('Use named exports');
    expect(first).toContain('Bump versions with changesets');
    expect(first).not.toContain('function components');
  });

  it('picks up edited rules at the next send', async () => {
    const cwd = await tempWorkspace();
    await writeFiles(cwd, cursorRepository);
    const { model, agent } = await agentIn(cwd, [{ text: 'one' }, { text: 'two' }]);
    await (await agent.send('first')).wait();
    await writeFile(join(cwd, 'AGENTS.md'), 'Prefer small commits.\n');
    await agent.reload();
    await (await agent.send('second')).wait();
    expect(systemOf(model.calls[1]!)).toContain('Prefer small commits.');
    expect(systemOf(model.calls[1]!)).not.toContain('pnpm test');
  });

  it('settingSources selects the layers: [] loads nothing, ["user"] only the user layer', async () => {
    const cwd = await tempWorkspace();
    await writeFiles(cwd, cursorRepository);
    const none = await agentIn(cwd, [{ text: 'x' }], { local: { cwd, settingSources: [] } });
    await writeFiles(none.home, { 'rules/style.md': 'User rule: answer in British English.\n' });
    await (await none.agent.send('hi')).wait();
    expect(systemOf(none.model.calls[0]!)).not.toContain('Always use pnpm');
    expect(systemOf(none.model.calls[0]!)).not.toContain('British English');

    const home = await tempWorkspace('cairn-home-');
    await writeFiles(home, { 'rules/style.md': 'User rule: answer in British English.\n', 'AGENTS.md': 'User agents file.\n' });
    const { model, Agent } = setup([{ text: 'x' }]);
    const agent = await Agent.create({ model: 'scripted/scripted-model', local: { cwd, settingSources: ['user'] }, env: { ...process.env, CAIRN_HOME: home } });
    await (await agent.send('hi')).wait();
    const system = systemOf(model.calls[0]!);
    expect(system).toContain('# User rules');
    expect(system).toContain('British English');
    expect(system).toContain('User agents file.');
    expect(system).not.toContain('Always use pnpm');
  });

  it('reads CLAUDE.md only without AGENTS.md, and the legacy .cursorrules', async () => {
    const root = await tempWorkspace();
    await writeFiles(root, { 'CLAUDE.md': 'Claude notes.', '.cursorrules': 'Legacy cursor rules.' });
    expect((await loadProjectRules(root)).map((rule) => [rule.path, rule.kind])).toEqual([
      ['CLAUDE.md', 'always'],
      ['.cursorrules', 'always'],
    ]);
    await writeFiles(root, { 'AGENTS.md': 'Agents notes.' });
    expect((await loadProjectRules(root)).map((rule) => rule.path)).toEqual(['AGENTS.md', '.cursorrules']);
  });

  it('does not follow a rule symlink out of the workspace', async () => {
    const cwd = await tempWorkspace();
    const outside = await tempWorkspace('cairn-outside-');
    await writeFiles(outside, { 'secret.md': 'TOP SECRET' });
    await mkdir(join(cwd, '.cursor/rules'), { recursive: true });
    const { symlink } = await import('node:fs/promises');
    await symlink(join(outside, 'secret.md'), join(cwd, '.cursor/rules/leak.md'));
    expect(await loadProjectRules(cwd)).toEqual([]);
  });
});

describe('permissions.json layers', () => {
  const writeTool = defineTool({
    id: 'write',
    name: 'write',
    description: 'Writes.',
    inputSchema: z.object({ path: z.string() }),
    readOnly: false,
    category: 'fs',
    paths: (input: { path: string }) => [input.path],
    execute: () => 'written',
  });
  const run = async (cwd: string, options: Record<string, unknown>, home?: string) => {
    const { model, Agent } = setup([{ toolCalls: [{ name: 'write', args: { path: 'src/a.ts' } }] }, { text: 'end' }], [writeTool]);
    const agent = await Agent.create({ model: 'scripted/scripted-model', local: { cwd }, env: { ...process.env, CAIRN_HOME: home ?? (await tempWorkspace('cairn-home-')) }, ...options });
    const result = await (await agent.send('write it')).wait();
    const tool = JSON.stringify(model.calls[1]?.prompt.at(-1) ?? '');
    return { result, tool };
  };

  it('a project deny applies by default', async () => {
    const cwd = await tempWorkspace();
    await writeFiles(cwd, { '.cairn/permissions.json': JSON.stringify({ deny: ['write(src/**)'] }) });
    expect((await run(cwd, {})).tool).toContain('Permission denied');
  });

  it('a user deny (permissions key form) applies, and deny wins over an inline allow', async () => {
    const cwd = await tempWorkspace();
    const home = await tempWorkspace('cairn-home-');
    await writeFiles(home, { 'permissions.json': JSON.stringify({ permissions: { deny: ['write'] } }) });
    expect((await run(cwd, { permissions: { allow: ['write'] } }, home)).tool).toContain('Permission denied');
  });

  it('a project allow is honoured only when the project layer was asked for', async () => {
    const cwd = await tempWorkspace();
    await writeFiles(cwd, { '.cursor/permissions.json': JSON.stringify({ allow: ['write(src/**)'] }) });
    expect((await run(cwd, { defaultPermission: 'deny' })).tool).toContain('Permission denied');
    expect((await run(cwd, { defaultPermission: 'deny', local: { cwd, settingSources: ['project'] } })).tool).toContain('written');
  });

  it('a broken permissions.json stops the run with a message naming the file', async () => {
    const cwd = await tempWorkspace();
    await writeFiles(cwd, { '.cairn/permissions.json': '{ "deny": [' });
    const { result } = await run(cwd, {});
    expect(result.status).toBe('error');
    expect(result.error?.message).toContain('.cairn/permissions.json is not valid JSON');
  });
});
