import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ToolResultContent } from '@cairn/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolContext } from '../test/tool-context.js';
import { readLintsTool } from './read-lints-tool.js';

// This repository's installed ESLint, linked into a temp workspace as its own node_modules/eslint.
const eslintPackageJson = createRequire(import.meta.url).resolve('eslint/package.json');
const eslintVersion = (createRequire(import.meta.url)('eslint/package.json') as { version: string }).version;
let workspace: string;

beforeAll(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), 'cairn-eslint-')));
  await mkdir(join(workspace, 'node_modules'));
  await symlink(dirname(eslintPackageJson), join(workspace, 'node_modules', 'eslint'), 'dir');
  await mkdir(join(workspace, 'src'));
  await writeFile(join(workspace, 'src', 'a.js'), 'let unused = 1;\nlet shown = 2;\nconsole.log(shown);\n');
  await writeFile(join(workspace, 'src', 'clean.js'), 'console.log(1);\n');
});
afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

const allowShell = async () => ({ decision: 'allow' as const, reason: 'allowed in this test' });
const textOf = (result: unknown) => (result as ToolResultContent).content.map((part) => (part.type === 'text' ? part.text : '')).join('');

describe('read_lints with ESLint', () => {
  it('says ESLint is installed but not configured, and does not run it', async () => {
    const text = textOf(await readLintsTool.execute({}, createToolContext({ cwd: workspace, checkShellCommand: allowShell })));
    expect(text).toContain(`ESLint: ${eslintVersion} (node_modules/eslint): no ESLint configuration at the workspace root, not run`);
    expect(text).toContain('No linter ran');
  });

  it("runs the workspace's ESLint with its flat config and reports rule diagnostics for the given files", async () => {
    await writeFile(join(workspace, 'eslint.config.mjs'), "export default [{ rules: { 'no-unused-vars': 'error', 'prefer-const': 'warn' } }];\n");
    const text = textOf(await readLintsTool.execute({ paths: ['src/a.js'] }, createToolContext({ cwd: workspace, checkShellCommand: allowShell })));
    expect(text).toContain(`ESLint: ${eslintVersion} (node_modules/eslint), config eslint.config.mjs`);
    expect(text).toContain("src/a.js:1:5: error 'unused' is assigned a value but never used.");
    expect(text).toContain('(eslint no-unused-vars)');
    expect(text).toContain("src/a.js:2:5: warning 'shown' is never reassigned. Use 'const' instead. (eslint prefer-const)");
    const clean = textOf(await readLintsTool.execute({ paths: ['src/clean.js'] }, createToolContext({ cwd: workspace, checkShellCommand: allowShell })));
    expect(clean).toContain('No problems found in the given paths.');
  });

  it('reports a broken configuration as an ESLint failure instead of crashing', async () => {
    await writeFile(join(workspace, 'eslint.config.mjs'), 'export default [{ rules: { "no-such-rule-anywhere": "error" } }];\n');
    const text = textOf(await readLintsTool.execute({ paths: ['src/clean.js'] }, createToolContext({ cwd: workspace, checkShellCommand: allowShell })));
    expect(text).toMatch(/ESLint: .*failed with exit code 2: .*no-such-rule-anywhere/);
  });
});
