import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ModeDefinition, PermissionRequest } from '@cairn/core';
import { type ScriptedTurn, scriptedModel, scriptedProvider } from '@cairn/core/testing';
import { describe, expect, it } from 'vitest';
import { createCairn, createMemoryStore, defaultPlugins } from '../src/index.js';
import { type AgentRunOptions, agentEnv, attackTurn, createFixture, type Fixture, modelId, resultsSeen, runAgent, type SeenResult } from './security-helpers.js';

// Issue 12, class 8: read_lints runs the workspace's own TypeScript, a program the model can write
// (node_modules/typescript/bin/tsc). It runs only where the shell may run that command, in the
// shell's sandbox, and never from a folder above the workspace.

/** A fake `typescript` whose tsc tries to plant a file outside and inside the workspace, and says what happened. */
function fakeTypescript(outside: string): Array<{ path: string; contents: string }> {
  const tsc = [
    "const fs = require('node:fs');",
    'const results = [];',
    `for (const target of [${JSON.stringify(outside)}, 'pwned-by-lints']) {`,
    "  try { fs.writeFileSync(target, 'planted'); results.push(target + ': written'); } catch (error) { results.push(target + ': ' + error.code); }",
    '}',
    "console.log('tsconfig.json(1,1): error TS9999: fake tsc ran: ' + results.join(', '));",
    'process.exit(2);',
  ].join('\n');
  return [
    { path: 'node_modules/typescript/package.json', contents: JSON.stringify({ name: 'typescript', version: '0.0.0-planted', bin: { tsc: 'bin/tsc' } }) },
    { path: 'node_modules/typescript/bin/tsc', contents: `${tsc}\n` },
    { path: 'tsconfig.json', contents: '{ "include": ["*.ts"] }\n' },
  ];
}

const outsideMarker = (fixture: Fixture) => join(fixture.evil, 'pwned-by-lints');
const exists = (path: string) => readFile(path).then(() => true, () => false);

/** The model writes the fake typescript with the write tool, then calls read_lints. */
async function plantThenLint(fixture: Fixture, options: AgentRunOptions): Promise<{ lints: SeenResult; writes: SeenResult[] }> {
  const plant = fakeTypescript(outsideMarker(fixture)).map((file) => ({ name: 'write', args: file }));
  const turns: ScriptedTurn[] = [attackTurn(plant, 'w'), attackTurn([{ name: 'read_lints', args: {} }], 'l'), { text: 'done' }];
  const { model, result } = await runAgent(fixture, turns, options);
  expect(result.status).toBe('finished');
  const seen = resultsSeen(model.calls[2]);
  return { lints: seen.l0 as SeenResult, writes: plant.map((_file, index) => seen[`w${index}`] as SeenResult) };
}

/** The fake typescript is already in the repository (project files are attacker input). */
async function placeFake(fixture: Fixture, folder = fixture.cwd): Promise<void> {
  for (const file of fakeTypescript(outsideMarker(fixture))) {
    await mkdir(join(folder, file.path, '..'), { recursive: true });
    await writeFile(join(folder, file.path), file.contents);
  }
}

async function lintOnly(fixture: Fixture, options: AgentRunOptions): Promise<SeenResult> {
  const { model, result } = await runAgent(fixture, [attackTurn([{ name: 'read_lints', args: {} }], 'l'), { text: 'done' }], options);
  expect(result.status).toBe('finished');
  return resultsSeen(model.calls[1]).l0 as SeenResult;
}

async function expectNothingRan(fixture: Fixture, lints: SeenResult): Promise<void> {
  expect(lints.text).not.toContain('fake tsc ran');
  expect(await exists(outsideMarker(fixture))).toBe(false);
  expect(await exists(join(fixture.cwd, 'pwned-by-lints'))).toBe(false);
}

describe('read_lints: no workspace code where the shell may not run', () => {
  it.each<[string, AgentRunOptions, RegExp]>([
    ['disallowedTools: [shell]', { disallowedTools: ['shell'] }, /the shell \(run_terminal_cmd\) is not available: it is in disallowedTools/],
    ['a tools allow-list without the shell', { tools: ['write', 'lints'] }, /the shell \(run_terminal_cmd\) is not available: it is not in the tools allow-list/],
    ['deny: [shell]', { permissions: { deny: ['shell'] } }, /deny rule.*\bshell\b/],
    ['deny: [shell(node*)]', { permissions: { deny: ['shell(node*)'] } }, /deny rule.*shell\(node\*\)/],
    ['defaultPermission deny', { permissions: { allow: ['write'] }, defaultPermission: 'deny' }, /not run, because it runs code from the workspace/],
  ])('with %s the model-written tsc does not run', async (_label, options, reason) => {
    const fixture = await createFixture();
    const { lints, writes } = await plantThenLint(fixture, options);
    for (const write of writes) expect(write.isError, write.text).toBe(false);
    expect(lints.isError).toBe(false);
    expect(lints.text).toMatch(/TypeScript: 0\.0\.0-planted \(node_modules\/typescript\): not run, because it runs code from the workspace, which needs the shell's permission: /);
    expect(lints.text).toMatch(reason);
    expect(lints.text).toContain('The shell may not run the linters here');
    await expectNothingRan(fixture, lints);
  });

  it('asks canUseTool about the exact command, as a shell call; a deny keeps it from running', async () => {
    const fixture = await createFixture();
    const asked: PermissionRequest[] = [];
    const { lints } = await plantThenLint(fixture, {
      defaultPermission: 'ask',
      canUseTool: (request) => {
        asked.push(request);
        return request.toolId === 'shell' ? { behavior: 'deny', message: 'the user said no' } : 'allow';
      },
    });
    const shellRequests = asked.filter((request) => request.toolId === 'shell');
    expect(shellRequests.map((request) => [request.toolName, request.subject])).toEqual([
      ['run_terminal_cmd', 'node node_modules/typescript/bin/tsc --noEmit --pretty false --incremental false --composite false -p ./tsconfig.json'],
    ]);
    expect(lints.text).toContain('the user said no');
    await expectNothingRan(fixture, lints);
  });

  it('with a mode whose shell is off the tsc in the repository does not run', async () => {
    const fixture = await createFixture();
    await placeFake(fixture);
    const review: ModeDefinition = { id: 'review', description: 'Review.', promptBlocks: [], toolPolicy: { readOnly: true, mcp: 'none', shell: 'off' }, sandboxProfile: 'read-only', transitionsTo: [] };
    const model = scriptedModel([attackTurn([{ name: 'read_lints', args: {} }], 'l'), { text: 'done' }]);
    const { Agent } = createCairn({ plugins: [...defaultPlugins, { name: 'review-mode', modes: [review] }, { name: 'scripted', providers: [scriptedProvider({ m: model })] }] });
    const agent = await Agent.create({ model: modelId, mode: 'review', local: { cwd: fixture.cwd, store: createMemoryStore() }, env: agentEnv(fixture) });
    await (await agent.send('check types')).wait();
    const lints = resultsSeen(model.calls[1]).l0 as SeenResult;
    expect(lints.text).toMatch(/not run, .*the review mode does not allow the shell/);
    await expectNothingRan(fixture, lints);
  });
});

describe('read_lints: workspace code runs only in the sandbox the shell would get', () => {
  it('agent mode with the sandbox enabled: the model-written tsc runs in the workspace-write sandbox', async () => {
    const fixture = await createFixture();
    const { lints } = await plantThenLint(fixture, { local: { sandboxOptions: { enabled: true } } });
    expect(lints.isError, lints.text).toBe(false);
    // Outside the workspace is read-only, or not there at all (the fixture lives in the private /tmp).
    expect(lints.text).toMatch(/fake tsc ran: \S+proj-evil\/pwned-by-lints: (EROFS|ENOENT), pwned-by-lints: written/);
    expect(await exists(outsideMarker(fixture))).toBe(false);
  });

  it.each(['plan', 'ask'])('%s mode: the tsc in the repository runs in the read-only sandbox', async (mode) => {
    const fixture = await createFixture();
    await placeFake(fixture);
    const lints = await lintOnly(fixture, { mode });
    expect(lints.isError, lints.text).toBe(false);
    expect(lints.text).toMatch(/fake tsc ran: \S+proj-evil\/pwned-by-lints: (EROFS|ENOENT), pwned-by-lints: EROFS/);
    expect(await exists(outsideMarker(fixture))).toBe(false);
    expect(await exists(join(fixture.cwd, 'pwned-by-lints'))).toBe(false);
  });
});

describe('read_lints: no linter from above the workspace', () => {
  it('never runs a typescript package in the parent folder, even where the shell may run on the host', async () => {
    const fixture = await createFixture();
    // The parent of the workspace holds node_modules/typescript and the tsconfig names the workspace.
    await placeFake(fixture, fixture.base);
    await writeFile(join(fixture.cwd, 'tsconfig.json'), '{ "include": ["*.ts"] }\n');
    const lints = await lintOnly(fixture, {});
    expect(lints.text).toContain('TypeScript: not found (no node_modules/typescript in the workspace)');
    await expectNothingRan(fixture, lints);
    expect(await exists(join(fixture.base, 'pwned-by-lints'))).toBe(false);
  });
});
