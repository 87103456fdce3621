import { mkdir, mkdtemp, readFile, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolError } from '@cairn/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createToolContext } from '../test/tool-context.js';
import { editNotebookTool } from './edit-notebook-tool.js';
import { detectFormatting, parseNotebook, serializeNotebook } from './notebook-format.js';

const fixture = await readFile(new URL('./__fixtures__/analysis.ipynb', import.meta.url), 'utf8');
let workspace: string;

beforeEach(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), 'cairn-notebook-')));
  await writeFile(join(workspace, 'analysis.ipynb'), fixture);
});
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

const edit = (input: Record<string, unknown>, context = createToolContext({ cwd: workspace })) =>
  editNotebookTool.execute({ path: 'analysis.ipynb', new_source: '', ...input } as never, context);
const readNotebook = async (name = 'analysis.ipynb') => JSON.parse(await readFile(join(workspace, name), 'utf8'));
const toolError = (text: string) => (error: unknown) => ToolError.isInstance(error) && error.message.includes(text);

describe('notebook formatting', () => {
  it('round-trips a Jupyter-written notebook byte for byte', () => {
    expect(serializeNotebook(parseNotebook(fixture, 'x'), detectFormatting(fixture))).toBe(fixture);
  });

  it('keeps 2- and 4-space indentation, no trailing newline, CRLF and a one-line file', () => {
    const value = JSON.parse(fixture);
    for (const text of [JSON.stringify(value, null, 2), JSON.stringify(value, null, 4), JSON.stringify(value), JSON.stringify(value, null, 1).replace(/\n/g, '\r\n') + '\r\n']) {
      expect(serializeNotebook(parseNotebook(text, 'x'), detectFormatting(text))).toBe(text);
    }
  });
});

describe('edit_notebook', () => {
  it('replaces a code cell: source as Jupyter lines, outputs cleared, execution_count null, id and metadata kept', async () => {
    const context = createToolContext({ cwd: workspace });
    const result = await edit({ cell_index: 1, new_source: 'import numpy as np\nprint(np.__version__)\n' }, context);
    expect(result).toBe('Replaced the source of code cell 1 of analysis.ipynb; it now has 3 cells.');
    const notebook = await readNotebook();
    expect(notebook.cells[1]).toEqual({
      cell_type: 'code',
      execution_count: null,
      id: '4b7d0e11',
      metadata: { tags: ['setup'] },
      outputs: [],
      source: ['import numpy as np\n', 'print(np.__version__)\n'],
    });
    // Untouched cells keep their outputs; the file keeps Jupyter's 1-space indent and trailing newline.
    expect(notebook.cells[2].outputs).toHaveLength(1);
    const text = await readFile(join(workspace, 'analysis.ipynb'), 'utf8');
    expect(text.startsWith('{\n "cells": [\n  {\n')).toBe(true);
    expect(text.endsWith('}\n')).toBe(true);
    expect(context.fileChanges).toHaveLength(1);
    expect(Buffer.from(context.fileChanges[0]?.before as Uint8Array).toString('utf8')).toBe(fixture);
    expect(Buffer.from(context.fileChanges[0]?.after as Uint8Array).toString('utf8')).toBe(text);
    expect(context.fileChanges[0]!.path).toBe(join(workspace, 'analysis.ipynb'));
  });

  it('inserts a markdown cell with a fresh 8-hex id (nbformat 4.5) and deletes a cell', async () => {
    await edit({ cell_index: 1, new_source: '## Setup', cell_type: 'markdown', edit_mode: 'insert' });
    let notebook = await readNotebook();
    expect(notebook.cells).toHaveLength(4);
    expect(notebook.cells[1]).toMatchObject({ cell_type: 'markdown', metadata: {}, source: ['## Setup'] });
    expect(notebook.cells[1].id).toMatch(/^[0-9a-f]{8}$/);
    expect(notebook.cells[1]).not.toHaveProperty('outputs');
    await edit({ cell_index: 4, new_source: 'x = 1', edit_mode: 'insert' });
    notebook = await readNotebook();
    expect(notebook.cells[4]).toMatchObject({ cell_type: 'code', execution_count: null, outputs: [], source: ['x = 1'] });
    await edit({ cell_index: 0, edit_mode: 'delete' });
    notebook = await readNotebook();
    expect(notebook.cells.map((cell: { cell_type: string }) => cell.cell_type)).toEqual(['markdown', 'code', 'code', 'code']);
  });

  it('changes a cell type and drops code-only fields; no ids are added before nbformat 4.5', async () => {
    const old = JSON.parse(fixture);
    old.nbformat_minor = 4;
    for (const cell of old.cells) delete cell.id;
    await writeFile(join(workspace, 'old.ipynb'), JSON.stringify(old, null, 2));
    await editNotebookTool.execute({ path: 'old.ipynb', cell_index: 1, new_source: 'Now prose.', cell_type: 'markdown' }, createToolContext({ cwd: workspace }));
    await editNotebookTool.execute({ path: 'old.ipynb', cell_index: 0, new_source: 'y = 2', edit_mode: 'insert' }, createToolContext({ cwd: workspace }));
    const text = await readFile(join(workspace, 'old.ipynb'), 'utf8');
    const notebook = JSON.parse(text);
    expect(notebook.cells[2]).toEqual({ cell_type: 'markdown', metadata: { tags: ['setup'] }, source: ['Now prose.'] });
    expect(notebook.cells[0]).not.toHaveProperty('id');
    expect(text.startsWith('{\n  "cells"')).toBe(true);
    expect(text.endsWith('}')).toBe(true);
  });

  it('creates a new notebook when inserting at 0 into a missing path', async () => {
    const context = createToolContext({ cwd: workspace });
    await mkdir(join(workspace, 'notebooks'));
    await editNotebookTool.execute({ path: 'notebooks/new.ipynb', cell_index: 0, new_source: '# Title', cell_type: 'markdown', edit_mode: 'insert' }, context);
    const notebook = await readNotebook('notebooks/new.ipynb');
    expect(notebook).toMatchObject({ nbformat: 4, nbformat_minor: 5, metadata: {}, cells: [{ cell_type: 'markdown', source: ['# Title'] }] });
    expect(context.fileChanges[0]!.before).toBeNull();
  });

  it('gives clear errors for out-of-range indexes and leaves the file untouched', async () => {
    await expect(edit({ cell_index: 3, new_source: 'x' })).rejects.toSatisfy(toolError('has 3 cells (indexes 0 to 2)'));
    await expect(edit({ cell_index: 4, edit_mode: 'insert' })).rejects.toSatisfy(toolError('use 0 to 3'));
    await expect(edit({ cell_index: 7, edit_mode: 'delete' })).rejects.toSatisfy(toolError('out of range'));
    expect(await readFile(join(workspace, 'analysis.ipynb'), 'utf8')).toBe(fixture);
  });

  it('refuses invalid JSON, JSON that is not a notebook, nbformat 3 and non-.ipynb paths', async () => {
    await writeFile(join(workspace, 'broken.ipynb'), '{"cells": [');
    await writeFile(join(workspace, 'data.ipynb'), '{"rows": []}');
    await writeFile(join(workspace, 'v3.ipynb'), JSON.stringify({ nbformat: 3, nbformat_minor: 0, worksheets: [], cells: [] }));
    const context = createToolContext({ cwd: workspace });
    const run = (path: string) => editNotebookTool.execute({ path, cell_index: 0, new_source: 'x' }, context);
    await expect(run('broken.ipynb')).rejects.toSatisfy(toolError('is not valid JSON'));
    await expect(run('data.ipynb')).rejects.toSatisfy(toolError('not a Jupyter notebook'));
    await expect(run('v3.ipynb')).rejects.toSatisfy(toolError('only nbformat 4'));
    await expect(run('script.py')).rejects.toSatisfy(toolError('not a Jupyter notebook (.ipynb)'));
    await expect(run('missing.ipynb')).rejects.toSatisfy(toolError('does not exist'));
    expect(await readFile(join(workspace, 'broken.ipynb'), 'utf8')).toBe('{"cells": [');
    expect(context.fileChanges).toEqual([]);
  });

  it('confines paths to the workspace and refuses protected paths unless allowed', async () => {
    const outside = await realpath(await mkdtemp(join(tmpdir(), 'cairn-outside-')));
    try {
      await writeFile(join(outside, 'secret.ipynb'), fixture);
      await symlink(outside, join(workspace, 'link'));
      await expect(editNotebookTool.execute({ path: '../x.ipynb', cell_index: 0, new_source: 'x', edit_mode: 'insert' }, createToolContext({ cwd: workspace }))).rejects.toSatisfy(toolError('outside the workspace'));
      await expect(editNotebookTool.execute({ path: 'link/secret.ipynb', cell_index: 0, new_source: 'x' }, createToolContext({ cwd: workspace }))).rejects.toSatisfy(toolError('symbolic link'));
      expect(await readFile(join(outside, 'secret.ipynb'), 'utf8')).toBe(fixture);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
    await mkdir(join(workspace, '.cairn'));
    await writeFile(join(workspace, '.cairn', 'n.ipynb'), fixture);
    const protectedEdit = (path: string, settings: Record<string, unknown>) =>
      editNotebookTool.execute({ path, cell_index: 0, new_source: 'x' }, createToolContext({ cwd: workspace, settings }));
    await expect(protectedEdit('.cairn/n.ipynb', {})).rejects.toSatisfy(toolError("agent's own configuration"));
    // Refused in any letter case, whether the file exists or not.
    await expect(protectedEdit('.CAIRN/other.ipynb', {})).rejects.toSatisfy(toolError("agent's own configuration"));
    await expect(protectedEdit('.git/hooks/x.ipynb', {})).rejects.toSatisfy(toolError('.git'));
    await protectedEdit('.cairn/n.ipynb', { allowProtectedWrites: true });
    expect((await readNotebook('.cairn/n.ipynb')).cells[0].source).toEqual(['x']);
  });

  it('writes atomically, keeping the file mode and leaving no temp file', async () => {
    const path = join(workspace, 'analysis.ipynb');
    const { chmod, readdir } = await import('node:fs/promises');
    await chmod(path, 0o600);
    await edit({ cell_index: 0, new_source: '# Renamed' });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readdir(workspace)).toEqual(['analysis.ipynb']);
  });
});
