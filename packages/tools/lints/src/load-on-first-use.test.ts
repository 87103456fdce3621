import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolResultContent } from '@cairn/core';
import { beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { createToolContext } from '../test/tool-context.js';

// Modules swapped for pass-throughs that note when they are imported: read_lints' body, the
// process runner, child_process and the language-server pool (with its LSP client libraries),
// which importing the pack must not load.
const watched = {
  './read-lints-execute.js': 'read_lints body',
  './run-command.js': 'process runner',
  'node:child_process': 'child_process',
  './diagnostics/server-pool.js': 'language server pool',
} as const;
const loaded: string[] = [];

// A fresh module registry and fresh pass-throughs per test: each test sees only its own loads.
beforeEach(() => {
  vi.resetModules();
  loaded.length = 0;
  for (const [specifier, label] of Object.entries(watched)) {
    vi.doMock(specifier, async (importOriginal) => {
      loaded.push(label);
      return importOriginal();
    });
  }
});

describe('@cairn/tools-lints loads its linter runners on first use', () => {
  it('importing the pack loads neither the body nor the process runner', async () => {
    const lints = await import('./index.js');
    expect(lints.lintTools.map((tool) => tool.name)).toEqual(['read_lints']);
    expect(lints.linterEnvironment({ PATH: '/bin', OPENAI_API_KEY: 'secret' })).toMatchObject({ PATH: '/bin', NO_COLOR: '1' });
    expect(loaded).toEqual([]);
  });

  it('the first call loads the body, and reports as before', async () => {
    const { readLintsTool } = await import('./index.js');
    const workspace = await realpath(await mkdtemp(join(tmpdir(), 'cairn-lints-lazy-')));
    onTestFinished(() => rm(workspace, { recursive: true, force: true }));
    await writeFile(join(workspace, 'index.ts'), 'export const x = 1;\n');
    const result = (await readLintsTool.execute({}, createToolContext({ cwd: workspace }))) as ToolResultContent;
    expect(JSON.stringify(result.structuredContent)).toContain('not-found');
    expect(loaded).toContain('read_lints body');
  });

  it('runCommand, exported by name, loads the process runner at its first call', async () => {
    const { linterEnvironment, runCommand } = await import('./index.js');
    const result = await runCommand(
      { file: process.execPath, args: ['-e', 'console.log("ran")'], cwd: tmpdir() },
      { env: linterEnvironment(process.env), timeoutMs: 10_000, signal: new AbortController().signal },
    );
    expect(result).toMatchObject({ exitCode: 0, stdout: 'ran\n', timedOut: false });
    expect(loaded).toEqual(expect.arrayContaining(['process runner', 'child_process']));
  });

  it('an edit-diagnostics session that never needed a server closes without loading the server pool', async () => {
    const { editDiagnosticsProvider } = await import('./index.js');
    const workspace = await realpath(await mkdtemp(join(tmpdir(), 'cairn-lints-lazy-')));
    onTestFinished(() => rm(workspace, { recursive: true, force: true }));
    // No tsconfig.json: nothing starts a server when the session opens.
    const session = editDiagnosticsProvider.open({ cwd: workspace, agentId: 'a', settings: {}, env: {} });
    expect(session).toBeDefined();
    await session?.close();
    expect(loaded).toEqual([]);
  });
});
