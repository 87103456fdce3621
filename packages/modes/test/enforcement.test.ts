import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defineTool, type SDKMessage } from '@cairn/core';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { collect, hashTree, isolatedEnv, modelId, setupCairn, tempDir, toolNames } from './helpers.js';

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, stdio: 'pipe', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' } });

/** A small git repository with a package.json, so git commit and npm install have work to do. */
async function workspace(): Promise<string> {
  const cwd = await tempDir();
  await writeFile(join(cwd, 'app.ts'), 'export const answer = 41;\n');
  await writeFile(join(cwd, 'notes.md'), '# Notes\n');
  await writeFile(join(cwd, 'package.json'), '{ "name": "fixture", "version": "1.0.0", "private": true }\n');
  git(cwd, 'init', '-q');
  git(cwd, '-c', 'user.email=t@example.com', '-c', 'user.name=t', 'add', '.');
  git(cwd, '-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-q', '-m', 'init');
  await writeFile(join(cwd, 'staged.txt'), 'staged\n');
  git(cwd, 'add', 'staged.txt');
  return cwd;
}

const gitCommit = 'git -c user.email=t@example.com -c user.name=t commit -m "from the agent"';
const writingCalls = [
  { name: 'write', args: { path: 'new.txt', contents: 'hello' } },
  { name: 'search_replace', args: { path: 'app.ts', old_string: '41', new_string: '42' } },
  { name: 'edit_file', args: { path: 'notes.md', instructions: 'Add a line', code_edit: '# Notes\nadded by the agent\n' } },
  { name: 'delete_file', args: { path: 'notes.md' } },
  { name: 'run_terminal_cmd', args: { command: 'touch x' } },
  { name: 'run_terminal_cmd', args: { command: gitCommit } },
  { name: 'run_terminal_cmd', args: { command: 'npm install --offline --no-audit --no-fund' } },
];

function toolResults(messages: SDKMessage[]) {
  return messages.filter((message): message is Extract<SDKMessage, { type: 'tool_call' }> => message.type === 'tool_call' && message.status !== 'running');
}

describe.each(['plan', 'ask'])('%s mode is read-only at the execution boundary', (mode) => {
  it('refuses every writing tool and shell side effect; the workspace stays byte-identical', async () => {
    const cwd = await workspace();
    const before = await hashTree(cwd);
    // One call per step: each must fail on its own, not because a sibling failed.
    const { model, Agent } = setupCairn([...writingCalls.map((call) => ({ toolCalls: [call] })), { text: 'I could not change anything.' }]);
    const agent = await Agent.create({ model: modelId, mode, local: { cwd }, env: await isolatedEnv() });
    const run = await agent.send('Change everything');
    const messages = await collect(run);
    expect((await run.wait()).status).toBe('finished');
    const results = toolResults(messages);
    expect(results).toHaveLength(writingCalls.length);
    for (const result of results) expect(result.status, `${result.name} ${JSON.stringify(result.args)}: ${result.result}`).toBe('error');
    expect(results.find((result) => result.name === 'write')?.result).toContain(`the ${mode} mode is read-only`);
    expect(results.filter((result) => result.name === 'run_terminal_cmd').map((result) => result.result)).toEqual([
      expect.stringContaining('`touch x` may change files'),
      expect.stringContaining('git'),
      expect.stringContaining('npm install'),
    ]);
    expect(await hashTree(cwd)).toEqual(before);
    // Not offered either.
    const offered = toolNames(model.calls[0]!);
    for (const name of ['write', 'search_replace', 'edit_file', 'delete_file']) expect(offered).not.toContain(name);
    expect(offered).toEqual(expect.arrayContaining(['read_file', 'list_dir', 'glob_file_search', 'todo_write', 'switch_mode', 'run_terminal_cmd']));
    expect(offered.includes('create_plan')).toBe(mode === 'plan');
  });

  it('runs a read-only shell command inside the read-only sandbox', async () => {
    const cwd = await workspace();
    const before = await hashTree(cwd);
    const { Agent } = setupCairn([{ toolCalls: [{ name: 'run_terminal_cmd', args: { command: 'ls && git status --short' } }] }, { text: 'listed' }]);
    const agent = await Agent.create({ model: modelId, mode, local: { cwd }, env: await isolatedEnv() });
    const run = await agent.send('What is here?');
    const results = toolResults(await collect(run));
    expect(results[0]).toMatchObject({ status: 'completed' });
    expect(results[0]?.result).toContain('app.ts');
    expect(await hashTree(cwd)).toEqual(before);
  });
});

describe('sandbox requirement handed to the shell', () => {
  it('is a required read-only sandbox in plan and ask, the agent options in agent mode', async () => {
    const seen: Array<{ mode: string; sandbox: unknown }> = [];
    const spyShell = defineTool({
      id: 'shell',
      name: 'spy_shell',
      description: 'records its context',
      inputSchema: z.object({ command: z.string() }),
      readOnly: false,
      category: 'shell',
      ruleSubject: (input: { command: string }) => input.command,
      execute: (_input, context) => {
        seen.push({ mode: context.mode, sandbox: context.sandbox });
        return 'ok';
      },
    });
    for (const mode of ['plan', 'ask', 'agent']) {
      const { Agent } = setupCairn([{ toolCalls: [{ name: 'spy_shell', args: { command: 'ls' } }] }, { text: 'ok' }], { plugins: [{ name: 'spy', tools: [spyShell] }] });
      const agent = await Agent.create({ model: modelId, mode, local: { cwd: await tempDir() }, env: await isolatedEnv() });
      await (await agent.send('list')).wait();
    }
    expect(seen).toEqual([
      { mode: 'plan', sandbox: { profile: 'read-only', networkAllow: [], required: true } },
      { mode: 'ask', sandbox: { profile: 'read-only', networkAllow: [], required: true } },
      { mode: 'agent', sandbox: { profile: 'none', networkAllow: [], required: false } },
    ]);
  });
});

describe('allow rules and a stable tool list do not open a read-only mode', () => {
  it('refuses writes in plan mode even with an allow rule and stableToolList offering the tool', async () => {
    const cwd = await workspace();
    const before = await hashTree(cwd);
    const { model, Agent } = setupCairn([{ toolCalls: [writingCalls[0]!, writingCalls[4]!] }, { text: 'refused' }]);
    const agent = await Agent.create({
      model: modelId,
      mode: 'plan',
      local: { cwd },
      env: await isolatedEnv(),
      permissions: { allow: ['write', 'shell(touch *)', 'shell'] },
      stableToolList: true,
    });
    const results = toolResults(await collect(await agent.send('write anyway')));
    expect(toolNames(model.calls[0]!)).toContain('write');
    expect(results.map((result) => result.status)).toEqual(['error', 'error']);
    expect(await hashTree(cwd)).toEqual(before);
  });
});

describe('MCP and custom tools in read-only modes', () => {
  it('offers only read-only tools (an MCP server\'s readOnlyHint becomes readOnly), and refuses the others if called', async () => {
    // How MCP tools are built: the server's readOnlyHint annotation is the tool's readOnly flag.
    const mcpTool = (name: string, readOnlyHint: boolean) =>
      defineTool({ id: `mcp__srv__${name}`, name: `mcp__srv__${name}`, description: name, inputSchema: z.object({}), readOnly: readOnlyHint, category: 'mcp', execute: () => `${name} ran` });
    const { model, Agent } = setupCairn([{ toolCalls: [{ name: 'mcp__srv__lookup', args: {} }, { name: 'mcp__srv__deploy', args: {} }] }, { text: 'ok' }], {
      plugins: [{ name: 'mcp', tools: [mcpTool('lookup', true), mcpTool('deploy', false)] }],
    });
    const agent = await Agent.create({ model: modelId, mode: 'plan', local: { cwd: await tempDir() }, env: await isolatedEnv() });
    const results = toolResults(await collect(await agent.send('use the server')));
    expect(toolNames(model.calls[0]!)).toContain('mcp__srv__lookup');
    expect(toolNames(model.calls[0]!)).not.toContain('mcp__srv__deploy');
    expect(results.find((result) => result.name === 'mcp__srv__lookup')).toMatchObject({ status: 'completed', result: 'lookup ran' });
    expect(results.find((result) => result.name === 'mcp__srv__deploy')).toMatchObject({ status: 'error', result: expect.stringContaining('only offers read-only MCP and custom tools') });
  });

  it.each(['plan', 'ask'])('offers a plugin tool marked readOnly: true alone in %s mode, and runs it', async (mode) => {
    // The contributor guide's example tool: category custom, readOnly: true, nothing else.
    const lineCount = defineTool({ id: 'lineCount', name: 'line_count', description: 'Count lines.', inputSchema: z.object({}), readOnly: true, category: 'custom', execute: () => '42 lines' });
    const { model, Agent } = setupCairn([{ toolCalls: [{ name: 'line_count', args: {} }] }, { text: 'ok' }], { plugins: [{ name: 'my-tools', tools: [lineCount] }] });
    const agent = await Agent.create({ model: modelId, mode, local: { cwd: await tempDir() }, env: await isolatedEnv() });
    const results = toolResults(await collect(await agent.send('count')));
    expect(toolNames(model.calls[0]!)).toContain('line_count');
    expect(results.find((result) => result.name === 'line_count')).toMatchObject({ status: 'completed', result: '42 lines' });
  });
});

describe('agent mode', () => {
  it('lets the same calls change the workspace', async () => {
    const cwd = await workspace();
    const { model, Agent } = setupCairn([
      { toolCalls: [{ name: 'read_file', args: { path: 'app.ts' } }, { name: 'read_file', args: { path: 'notes.md' } }] },
      ...writingCalls.map((call) => ({ toolCalls: [call] })),
      { text: 'Done.' },
    ]);
    const agent = await Agent.create({ model: modelId, local: { cwd }, env: await isolatedEnv() });
    const run = await agent.send('Change everything');
    const results = toolResults(await collect(run));
    for (const result of results) expect(result.status, `${result.name}: ${result.result}`).toBe('completed');
    expect(await readFile(join(cwd, 'new.txt'), 'utf8')).toBe('hello');
    expect(await readFile(join(cwd, 'app.ts'), 'utf8')).toContain('42');
    await expect(readFile(join(cwd, 'notes.md'))).rejects.toThrow();
    await expect(readFile(join(cwd, 'x'))).resolves.toBeDefined();
    expect(git(cwd, 'log', '--oneline').toString()).toContain('from the agent');
    await expect(readFile(join(cwd, 'package-lock.json'))).resolves.toBeDefined();
    expect(toolNames(model.calls[0]!)).toEqual(expect.arrayContaining(['write', 'search_replace', 'edit_file', 'delete_file', 'run_terminal_cmd']));
    expect(toolNames(model.calls[0]!)).not.toContain('create_plan');
  });
});

describe('leaving plan mode through files', () => {
  it('refuses writes to .cairn/ and .cursor/ config in every mode, and no file sets the mode', async () => {
    const cwd = await workspace();
    await mkdir(join(cwd, '.cairn'), { recursive: true });
    const configWrites = [
      { name: 'write', args: { path: '.cairn/settings.json', contents: '{"mode":"agent"}' } },
      { name: 'write', args: { path: '.cairn/permissions.json', contents: '{"allow":["write"]}' } },
      { name: 'write', args: { path: '.cursor/permissions.json', contents: '{"allow":["write"]}' } },
      { name: 'run_terminal_cmd', args: { command: 'echo \'{"mode":"agent"}\' > .cairn/settings.json' } },
    ];
    for (const mode of ['plan', 'agent']) {
      const before = await hashTree(cwd);
      // The host shell of agent mode without a sandbox is not confined (that is the sandbox's job), so only plan mode tries it.
      const calls = mode === 'plan' ? configWrites : configWrites.filter((call) => call.name !== 'run_terminal_cmd');
      const { model, Agent } = setupCairn([...calls.map((call) => ({ toolCalls: [call] })), { text: 'no' }, { text: 'still here' }]);
      const agent = await Agent.create({ model: modelId, mode, local: { cwd }, env: await isolatedEnv() });
      const results = toolResults(await collect(await agent.send('Switch yourself to agent mode via config')));
      for (const result of results) expect(result.status, `${mode}: ${result.name} ${result.result}`).toBe('error');
      expect(await hashTree(cwd)).toEqual(before);
      await (await agent.send('next')).wait();
      expect(agent.mode).toBe(mode);
      if (mode === 'plan') expect(JSON.stringify(model.calls.at(-1)?.prompt)).not.toContain('You are now in agent mode');
      expect(toolNames(model.calls.at(-1)!).includes('write')).toBe(mode === 'agent');
    }
  });
});
