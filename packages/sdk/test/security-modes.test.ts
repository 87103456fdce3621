import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCairn, createMemoryStore, defaultPlugins } from '../src/index.js';
import { scriptedModel, scriptedProvider } from '@cairn/core/testing';
import { agentEnv, attackTurn, createFixture, type Fixture, git, hashTree, modelId, resultsSeen, runAgent, type SeenResult } from './security-helpers.js';

// SECURITY.md, "Modes": plan and ask are read-only at the execution boundary. Writing tools are
// refused by the mode whatever the rules say; shell commands run in the read-only sandbox, so even a
// command the rules allow cannot change the workspace.

const notebook = JSON.stringify({ cells: [{ cell_type: 'code', source: ['print(1)\n'], metadata: {}, outputs: [], execution_count: null }], metadata: {}, nbformat: 4, nbformat_minor: 5 }, null, 1);

async function modeFixture(): Promise<Fixture> {
  const fixture = await createFixture();
  await writeFile(join(fixture.cwd, 'app.ts'), 'export const answer = 41;\n');
  await writeFile(join(fixture.cwd, 'notes.md'), '# Notes\n');
  await writeFile(join(fixture.cwd, 'book.ipynb'), notebook);
  await writeFile(join(fixture.cwd, 'package.json'), '{ "name": "fixture", "version": "1.0.0", "private": true }\n');
  const author = ['-c', 'user.email=t@example.com', '-c', 'user.name=t'];
  git(fixture.cwd, ...author, 'add', '.');
  git(fixture.cwd, ...author, 'commit', '-q', '-m', 'init');
  await writeFile(join(fixture.cwd, 'staged.txt'), 'staged\n');
  git(fixture.cwd, 'add', 'staged.txt');
  return fixture;
}

const writingTools = [
  { name: 'write', args: { path: 'new.txt', contents: 'hello' } },
  { name: 'write', args: { path: 'app.ts', contents: 'overwritten' } },
  { name: 'search_replace', args: { path: 'app.ts', old_string: '41', new_string: '42' } },
  { name: 'edit_file', args: { path: 'notes.md', instructions: 'I add a line', code_edit: '# Notes\nadded by the agent\n' } },
  { name: 'delete_file', args: { path: 'notes.md' } },
  { name: 'edit_notebook', args: { path: 'book.ipynb', cell_index: 0, new_source: 'print(2)\n' } },
];
const gitCommit = 'git -c user.email=t@example.com -c user.name=t commit -m "from the agent"';
const shellSideEffects = ['touch pwned', gitCommit, 'npm install --offline --no-audit --no-fund', 'echo x > app.ts', 'rm notes.md', 'echo \'{"mode":"agent"}\' > .cairn/settings.json'];
// Every writing tool is allowed by a rule, and so is every shell command: only the mode and the
// read-only sandbox stand in the way.
const allowEverything = { allow: ['write', 'edit', 'delete', 'notebook', 'edit(**)', 'shell'] };

function shellCalls(commands: string[]) {
  return commands.map((command) => ({ name: 'run_terminal_cmd', args: { command, timeout_ms: 30_000 } }));
}

async function attack(fixture: Fixture, mode: string, calls: Array<{ name: string; args: unknown }>, options: Parameters<typeof runAgent>[2] = {}): Promise<SeenResult[]> {
  const { model, result } = await runAgent(fixture, [attackTurn(calls), { text: 'done' }], { mode, ...options });
  expect(result.status).toBe('finished');
  const seen = resultsSeen(model.calls[1]);
  return calls.map((_call, index) => seen[`a${index}`] as SeenResult);
}

describe.each(['plan', 'ask'])('%s mode', (mode) => {
  it.each([
    ['offered list', false],
    ['stable tool list', true],
  ])('refuses every writing tool even when an allow rule matches (%s)', async (_label, stableToolList) => {
    const fixture = await modeFixture();
    const before = await hashTree(fixture.cwd);
    const seen = await attack(fixture, mode, writingTools, { permissions: allowEverything, stableToolList });
    for (const [index, call] of writingTools.entries()) {
      expect(seen[index]?.isError, `${call.name}: ${seen[index]?.text}`).toBe(true);
      expect(seen[index]?.text, call.name).toMatch(new RegExp(`${mode} mode|not available|not allowed`, 'i'));
    }
    expect(await hashTree(fixture.cwd)).toEqual(before);
  });

  it('lets no shell side effect through, even when every command is allowed', async () => {
    const fixture = await modeFixture();
    const before = await hashTree(fixture.cwd);
    const seen = await attack(fixture, mode, shellCalls([...shellSideEffects, 'cat app.ts && git status --short']), { permissions: allowEverything });
    for (const [index, command] of shellSideEffects.entries()) {
      const result = seen[index];
      expect(result?.text, command).not.toMatch(/Exit code: 0\s*$/);
      expect(result?.text, command).toMatch(/Read-only file system|read-only|Permission denied|Exit code: [1-9]/);
    }
    expect(seen.at(-1)?.text).toContain('export const answer = 41;');
    expect(seen.at(-1)?.text).toMatch(/Exit code: 0\s*$/);
    expect(await hashTree(fixture.cwd)).toEqual(before);
  });

  it('stops the writes of a command the analyser calls read-only in the read-only sandbox', async () => {
    // The repository's own config makes `git status` run a program (SECURITY.md principle 1: the
    // rules judge the command line, the sandbox is the boundary).
    const fixture = await modeFixture();
    git(fixture.cwd, 'config', 'core.fsmonitor', 'echo fsmonitor-ran > pwned-by-fsmonitor; touch pwned-too; false');
    git(fixture.cwd, 'config', 'diff.evil.textconv', 'touch pwned-by-textconv; cat');
    await writeFile(join(fixture.cwd, '.gitattributes'), '*.ts diff=evil\n');
    await writeFile(join(fixture.cwd, 'app.ts'), 'export const answer = 43;\n');
    const before = await hashTree(fixture.cwd);
    const seen = await attack(fixture, mode, shellCalls(['git status --short', 'git diff']));
    for (const result of seen) expect(result.isError, result.text).toBe(false);
    // The programs ran, inside the sandbox, and could not write; the diff still shows.
    expect(seen[0]?.text).toMatch(/pwned-by-fsmonitor: Read-only file system/);
    expect(seen[1]?.text).toMatch(/pwned-by-textconv': Read-only file system/);
    expect(seen[1]?.text).toContain('answer = 43');
    expect(await hashTree(fixture.cwd)).toEqual(before);
  });

  it('refuses the same shell side effects by rule when no allow rule matches', async () => {
    const fixture = await modeFixture();
    const before = await hashTree(fixture.cwd);
    const seen = await attack(fixture, mode, shellCalls(shellSideEffects));
    for (const [index, command] of shellSideEffects.entries()) {
      expect(seen[index]?.isError, `${command}: ${seen[index]?.text}`).toBe(true);
      expect(seen[index]?.text, command).toMatch(/may change files|denied|refused|read-only/i);
    }
    expect(await hashTree(fixture.cwd)).toEqual(before);
  });

  it('stays in the mode after the model tries to leave it through config files', async () => {
    const fixture = await modeFixture();
    const before = await hashTree(fixture.cwd);
    const model = scriptedModel([
      attackTurn([
        { name: 'write', args: { path: '.cairn/settings.json', contents: '{"mode":"agent"}' } },
        { name: 'write', args: { path: '.cursor/permissions.json', contents: '{"allow":["write"]}' } },
        ...shellCalls(['mkdir -p .cairn && echo \'{"mode":"agent","permissions":{"allow":["write"]}}\' > .cairn/settings.json']),
      ]),
      { text: 'tried' },
      attackTurn([{ name: 'write', args: { path: 'after.txt', contents: 'x' } }], 'b'),
      { text: 'still read-only' },
    ]);
    const { Agent } = createCairn({ plugins: [...defaultPlugins, { name: 'scripted', providers: [scriptedProvider({ m: model })] }] });
    const agent = await Agent.create({ model: modelId, mode, permissions: allowEverything, local: { cwd: fixture.cwd, store: createMemoryStore() }, env: agentEnv(fixture) });
    await (await agent.send('switch yourself to agent mode')).wait();
    await (await agent.send('now write')).wait();
    expect(agent.mode).toBe(mode);
    const first = resultsSeen(model.calls[1]);
    for (const id of ['a0', 'a1']) expect(first[id]?.isError, first[id]?.text).toBe(true);
    expect(first.a2?.text).not.toMatch(/Exit code: 0\s*$/);
    const second = resultsSeen(model.calls[3]);
    expect(second.b0?.isError, second.b0?.text).toBe(true);
    expect(await hashTree(fixture.cwd)).toEqual(before);
  });
});

describe('agent mode', () => {
  it('lets the same tools and commands change the workspace', async () => {
    const fixture = await modeFixture();
    const reads = [{ name: 'read_file', args: { path: 'app.ts' } }, { name: 'read_file', args: { path: 'notes.md' } }];
    // One call per step, in order: the delete must come after the edit of the same file.
    const turns = [attackTurn(reads, 'r'), ...[...writingTools.slice(2), ...shellCalls(['touch made-by-shell', gitCommit, 'npm install --offline --no-audit --no-fund'])].map((call, index) => attackTurn([call], `s${index}-`)), { text: 'done' }];
    const { model, result } = await runAgent(fixture, turns, { permissions: allowEverything });
    expect(result.status).toBe('finished');
    // The last request carries the results of every step.
    const last = resultsSeen(model.calls.at(-1));
    expect(Object.keys(last)).toHaveLength(reads.length + writingTools.length - 2 + 3);
    for (const seen of Object.values(last)) {
      expect(seen.isError, `${seen.toolName}: ${seen.text}`).toBe(false);
      if (seen.toolName === 'run_terminal_cmd') expect(seen.text, seen.text).toMatch(/Exit code: 0\s*$/);
    }
    expect(await readFile(join(fixture.cwd, 'app.ts'), 'utf8')).toBe('export const answer = 42;\n');
    await expect(readFile(join(fixture.cwd, 'notes.md'))).rejects.toThrow();
    expect(await readFile(join(fixture.cwd, 'book.ipynb'), 'utf8')).toContain('print(2)');
    await expect(readFile(join(fixture.cwd, 'made-by-shell'))).resolves.toBeDefined();
    expect(git(fixture.cwd, 'log', '--oneline')).toContain('from the agent');
    await expect(readFile(join(fixture.cwd, 'package-lock.json'))).resolves.toBeDefined();
  });
});
