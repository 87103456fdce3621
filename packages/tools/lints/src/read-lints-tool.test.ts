import { cp, mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ToolResultContent } from '@cairn/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolContext } from '../test/tool-context.js';
import { createReadLintsTool, readLintsTool } from './read-lints-tool.js';

// This repository's installed TypeScript, copied into a temp workspace as its own node_modules/typescript.
// A copy, not a link: the sandbox mounts a private /tmp, which hides a link target when the checkout
// itself lives under /tmp.
const typescriptDirectory = dirname(dirname(createRequire(import.meta.url).resolve('typescript')));
const typeError = "src/bad.ts:2:7: error Type 'string' is not assignable to type 'number'. (typescript TS2322)";
let workspace: string;
let bare: string;

beforeAll(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), 'cairn-lints-')));
  await mkdir(join(workspace, 'node_modules'));
  await cp(typescriptDirectory, join(workspace, 'node_modules', 'typescript'), { recursive: true, dereference: true });
  await mkdir(join(workspace, 'src'));
  await writeFile(
    join(workspace, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { strict: true, noEmit: true, skipLibCheck: true, types: [], lib: ['es2022'], target: 'es2022', module: 'esnext', moduleResolution: 'bundler' }, include: ['src'] }),
  );
  await writeFile(join(workspace, 'src', 'bad.ts'), "// the next line is wrong on purpose\nconst count: number = 'three';\nexport { count };\n");
  await writeFile(join(workspace, 'src', 'good.ts'), 'export const total: number = 3;\n');
  bare = await realpath(await mkdtemp(join(tmpdir(), 'cairn-lints-bare-')));
  await writeFile(join(bare, 'index.ts'), 'const x: number = "no linter here";\n');
});
afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
  await rm(bare, { recursive: true, force: true });
});

const allowShell = (checked: string[] = []) => async (command: string) => {
  checked.push(command);
  return { decision: 'allow' as const, reason: 'allowed in this test' };
};
const textOf = (result: ToolResultContent) => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');

describe('read_lints', () => {
  it("reports the workspace's own TypeScript diagnostics as path:line:column lines", async () => {
    const result = (await readLintsTool.execute({}, createToolContext({ cwd: workspace, checkShellCommand: allowShell() }))) as ToolResultContent;
    const text = textOf(result);
    expect(text).toContain(`TypeScript: ${createRequire(import.meta.url)('typescript/package.json').version} (node_modules/typescript), tsconfig.json`);
    expect(text).toContain('ESLint: not found (no node_modules/eslint in the workspace)');
    expect(text).toContain(`1 error(s), 0 warning(s):\n${typeError}`);
    expect(result.structuredContent).toMatchObject({ total: 1, diagnostics: [{ path: 'src/bad.ts', line: 2, column: 7, severity: 'error', source: 'typescript TS2322' }] });
  });

  it('reports only the given files, checking the command with the shell and running it in the read-only sandbox', async () => {
    const checked: string[] = [];
    const context = createToolContext({ cwd: workspace, sandbox: { profile: 'read-only', networkAllow: [], required: true }, checkShellCommand: allowShell(checked) });
    const result = (await readLintsTool.execute({ paths: ['src/good.ts'] }, context)) as ToolResultContent;
    expect(textOf(result)).toContain('No problems found in the given paths.');
    expect(textOf(result)).not.toContain('bad.ts');
    expect(checked).toEqual(['node node_modules/typescript/bin/tsc --noEmit --pretty false --incremental false --composite false -p ./tsconfig.json']);
    expect(result.structuredContent).toMatchObject({ linters: [{ name: 'TypeScript', status: 'ran' }, { name: 'ESLint', status: 'not-found' }] });
  });

  it('refuses to run unsandboxed when the call requires a sandbox that is unavailable', async () => {
    const unavailable = { name: 'none', isAvailable: async () => ({ available: false, reason: 'no sandbox in this test' }), wrap: async () => { throw new Error('unreachable'); } };
    const context = createToolContext({ cwd: workspace, sandbox: { profile: 'read-only', networkAllow: [], required: true }, checkShellCommand: allowShell() });
    await expect(createReadLintsTool({ sandboxBackend: unavailable }).execute({}, context)).rejects.toThrow('read_lints needs the read-only OS sandbox, which is unavailable: no sandbox in this test');
  });

  it('runs nothing where the shell may not run the command, or when the host gives no shell check', async () => {
    const denied = createToolContext({ cwd: workspace, checkShellCommand: async () => ({ decision: 'deny', reason: 'deny: shell(node*) [agent]' }) });
    const result = (await readLintsTool.execute({}, denied)) as ToolResultContent;
    expect(textOf(result)).toContain("TypeScript: 5");
    expect(textOf(result)).toContain("not run, because it runs code from the workspace, which needs the shell's permission: deny: shell(node*) [agent]");
    expect(textOf(result)).toContain('The shell may not run the linters here');
    expect(result.structuredContent).toMatchObject({ linters: [{ status: 'not-run' }, { status: 'not-found' }], total: 0 });
    const unchecked = textOf((await readLintsTool.execute({}, createToolContext({ cwd: workspace }))) as ToolResultContent);
    expect(unchecked).toContain('this host gives read_lints no shell permission check');
  });

  it('says clearly when the workspace has no linters', async () => {
    const text = textOf((await readLintsTool.execute({}, createToolContext({ cwd: bare, checkShellCommand: allowShell() }))) as ToolResultContent);
    expect(text).toBe(
      'TypeScript: not found (no node_modules/typescript in the workspace)\nESLint: not found (no node_modules/eslint in the workspace)\n\nNo linter ran, so there are no diagnostics to report.',
    );
  });

  it('refuses paths outside the workspace or missing, and stops on cancel', async () => {
    await expect(readLintsTool.execute({ paths: ['../elsewhere'] }, createToolContext({ cwd: workspace }))).rejects.toThrow('outside the workspace');
    await expect(readLintsTool.execute({ paths: ['src/nope.ts'] }, createToolContext({ cwd: workspace }))).rejects.toThrow('does not exist');
    const controller = new AbortController();
    controller.abort(new Error('cancelled by the user'));
    await expect(readLintsTool.execute({}, createToolContext({ cwd: workspace, signal: controller.signal, checkShellCommand: allowShell() }))).rejects.toThrow('cancelled by the user');
  });
});
