import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ToolError, type ToolResultContent } from '@cairn/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolContext } from '../test/tool-context.js';
import type { LintCommand } from './lints-settings.js';
import { readLintsTool } from './read-lints-tool.js';

// This repository's installed TypeScript, linked into a temp workspace as its own node_modules/typescript.
const typescriptDirectory = dirname(dirname(createRequire(import.meta.url).resolve('typescript')));
const typeError = "src/bad.ts:2:7: error Type 'string' is not assignable to type 'number'. (typescript TS2322)";
let workspace: string;
let bare: string;

beforeAll(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), 'cairn-lints-')));
  await mkdir(join(workspace, 'node_modules'));
  await symlink(typescriptDirectory, join(workspace, 'node_modules', 'typescript'), 'dir');
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

const textOf = (result: ToolResultContent) => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');

describe('read_lints', () => {
  it("reports the workspace's own TypeScript diagnostics as path:line:column lines", async () => {
    const result = (await readLintsTool.execute({}, createToolContext({ cwd: workspace }))) as ToolResultContent;
    const text = textOf(result);
    expect(text).toContain(`TypeScript: ${createRequire(import.meta.url)('typescript/package.json').version} (node_modules/typescript), tsconfig.json`);
    expect(text).toContain('ESLint: not found (no eslint package in the workspace)');
    expect(text).toContain(`1 error(s), 0 warning(s):\n${typeError}`);
    expect(result.structuredContent).toMatchObject({ total: 1, diagnostics: [{ path: 'src/bad.ts', line: 2, column: 7, severity: 'error', source: 'typescript TS2322' }] });
  });

  it('reports only the given files, through a sandbox wrapper when the call must be sandboxed', async () => {
    const wrapped: LintCommand[] = [];
    const context = createToolContext({
      cwd: workspace,
      sandbox: { profile: 'read-only', networkAllow: [], required: true },
      settings: { lints: { wrapCommand: (command: LintCommand) => {
        wrapped.push(command);
        return command;
      } } },
    });
    const text = textOf((await readLintsTool.execute({ paths: ['src/good.ts'] }, context)) as ToolResultContent);
    expect(text).toContain('No problems found in the given paths.');
    expect(text).not.toContain('bad.ts');
    expect(wrapped).toHaveLength(1);
    expect(wrapped[0]!.file).toBe(process.execPath);
    expect(wrapped[0]!.args).toEqual(expect.arrayContaining(['--noEmit', '-p', join(workspace, 'tsconfig.json')]));
  });

  it('refuses to run unsandboxed when the call requires a sandbox and none was given', async () => {
    const context = createToolContext({ cwd: workspace, sandbox: { profile: 'read-only', networkAllow: [], required: true } });
    await expect(readLintsTool.execute({}, context)).rejects.toSatisfy((error) => ToolError.isInstance(error) && error.message.includes('read-only sandbox'));
  });

  it('says clearly when the workspace has no linters', async () => {
    const text = textOf((await readLintsTool.execute({}, createToolContext({ cwd: bare }))) as ToolResultContent);
    expect(text).toBe(
      'TypeScript: not found (no typescript package in the workspace)\nESLint: not found (no eslint package in the workspace)\n\nNo linter ran, so there are no diagnostics to report.',
    );
  });

  it('refuses paths outside the workspace or missing, and stops on cancel', async () => {
    await expect(readLintsTool.execute({ paths: ['../elsewhere'] }, createToolContext({ cwd: workspace }))).rejects.toThrow('outside the workspace');
    await expect(readLintsTool.execute({ paths: ['src/nope.ts'] }, createToolContext({ cwd: workspace }))).rejects.toThrow('does not exist');
    const controller = new AbortController();
    controller.abort(new Error('cancelled by the user'));
    await expect(readLintsTool.execute({}, createToolContext({ cwd: workspace, signal: controller.signal }))).rejects.toThrow('cancelled by the user');
  });
});
