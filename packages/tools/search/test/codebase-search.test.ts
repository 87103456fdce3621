import type { ToolResultContent } from '@cairn/core';
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { createCodebaseSearchTool, searchToolsPlugin } from '../src/index.js';
import { createWorkspace, testContext, textOf } from './helpers.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('codebase_search', () => {
  it('builds the index on first use, searches it, and sees edits reported through notifyFilesChanged', async () => {
    const workspace = await createWorkspace({
      'src/session.ts': 'export function refreshSessionToken(token: string) {\n  return renew(token);\n}\n',
      'src/math.ts': 'export function addNumbers(a: number, b: number) {\n  return a + b;\n}\n',
      'lib/session.ts': 'export function refreshSessionToken() {}\n',
      '.env': 'SESSION_TOKEN=refresh\n',
    });
    cleanups.push(workspace.cleanup);
    const search = createCodebaseSearchTool({ home: join(workspace.base, 'home'), resyncAfterMs: 60_000 });
    cleanups.push(search.close);
    const context = testContext(workspace.root, { deny: (path) => path.endsWith('/.env') });
    expect(search.tool.isEnabled?.({ cwd: workspace.root, settings: {} })).toBe(true);

    const result = await search.tool.execute({ query: 'refresh session token' }, context);
    const text = textOf(result);
    // The header names the matched symbol; the snippet's lines carry their line numbers.
    expect(text).toContain('src/session.ts:1-3 (refreshSessionToken)\n1: export function refreshSessionToken(token: string) {');
    expect((result as ToolResultContent).structuredContent).toContainEqual(expect.objectContaining({ path: 'src/session.ts', symbol: 'refreshSessionToken', role: 'source', scoreParts: { bm25: expect.any(Number), name: 1 } }));
    expect(text).not.toContain('.env');

    const scoped = textOf(await search.tool.execute({ query: 'refresh session token', target_directories: ['lib'] }, context));
    expect(scoped.split('\n')[0]).toBe('lib/session.ts:1-1 (refreshSessionToken)');

    await writeFile(join(workspace.root, 'src/math.ts'), 'export function multiplyMatrices(a: number[][], b: number[][]) {\n  return a;\n}\n');
    await search.notifyFilesChanged(workspace.root, ['src/math.ts']);
    expect(textOf(await search.tool.execute({ query: 'multiply matrices' }, context)).split('\n')[0]).toBe('src/math.ts:1-3 (multiplyMatrices)');
    expect(textOf(await search.tool.execute({ query: 'addNumbers' }, context))).not.toContain('addNumbers');
    expect(textOf(await search.tool.execute({ query: 'zzzunknownword' }, context))).toMatch(/^No matching code found/);

    await expect(search.tool.execute({ query: 'x', target_directories: ['../proj-evil'] }, context)).rejects.toThrow(/outside the workspace/);
  });

  it('is part of the plugin with grep', () => {
    expect(searchToolsPlugin.tools?.map((tool) => [tool.id, tool.name, tool.readOnly])).toEqual([
      ['grep', 'grep', true],
      ['semSearch', 'codebase_search', true],
    ]);
  });
});
