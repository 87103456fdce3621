import { defineTool, ToolError, type ToolExecutionContext } from '@cairn/core';
import {
  type BeneathEntry, canonicalWorkspaceRoot, checkOverwriteTarget, openEntryForReading, openWorkspacePath, protectedPathReason, replaceFileAtomically,
  type ResolvedWorkspacePath, withFileLock,
} from '@cairn/core/node';
import type { FromSchema } from 'json-schema-to-ts';
import { applyNotebookEdit } from './notebook-edit.js';
import { detectFormatting, emptyNotebook, type Notebook, type NotebookFormatting, parseNotebook, serializeNotebook } from './notebook-format.js';

/** Notebooks with large outputs exist, but past this size a rewrite is more likely a mistake than an edit. */
const maxNotebookBytes = 64 * 1024 * 1024;

// Keys in the order zod used to emit them (with its MAX_SAFE_INTEGER bound on integers): the JSON
// providers see, and their prompt caches, stay the same.
export const editNotebookInputSchema = {
  jsonSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', minLength: 1, description: 'Path of the .ipynb file, relative to the workspace root.' },
      cell_index: {
        type: 'integer',
        minimum: 0,
        maximum: Number.MAX_SAFE_INTEGER,
        description: '0-based index of the cell to replace or delete, or the position to insert at.',
      },
      new_source: { type: 'string', description: 'The full new source of the cell (ignored for delete: pass an empty string).' },
      cell_type: { description: 'Type of the cell; default: the existing type, or code for a new cell.', type: 'string', enum: ['code', 'markdown', 'raw'] },
      edit_mode: {
        description: 'replace (default), insert a new cell before cell_index, or delete the cell.',
        type: 'string',
        enum: ['replace', 'insert', 'delete'],
      },
    },
    required: ['path', 'cell_index', 'new_source'],
  },
} as const;

export type EditNotebookInput = FromSchema<typeof editNotebookInputSchema.jsonSchema>;

export const editNotebookTool = defineTool<EditNotebookInput>({
  id: 'notebook',
  name: 'edit_notebook',
  description: [
    'Edit one cell of a Jupyter notebook (.ipynb): replace its source, insert a new cell, or delete it.',
    'The notebook stays valid nbformat 4; an edited code cell loses its outputs.',
    'To create a new notebook, insert at cell_index 0 into a path that does not exist yet.',
  ].join(' '),
  inputSchema: editNotebookInputSchema,
  readOnly: false,
  category: 'notebook',
  paths: (input) => [input.path],
  async execute(input, context) {
    if (!input.path.toLowerCase().endsWith('.ipynb')) {
      throw new ToolError(`${input.path} is not a Jupyter notebook (.ipynb). Use search_replace or write for other files.`);
    }
    const root = await canonicalWorkspaceRoot(context.cwd);
    // The folder holding the notebook stays open: the read, the checks and the write all happen in it.
    const { resolved, entry } = await openWorkspacePath(root, input.path);
    try {
      assertMayEdit(context, root, resolved, input.path);
      return await withFileLock(resolved.absolute, () => editInFolder(context, root, resolved, entry, input));
    } finally {
      await entry.folder.close();
    }
  },
});

function assertMayEdit(context: ToolExecutionContext, root: string, resolved: ResolvedWorkspacePath, inputPath: string): void {
  // `allowProtectedPathWrites` is the agent option's name; accept it too when the runtime forwards it.
  if (context.settings.allowProtectedWrites !== true && context.settings.allowProtectedPathWrites !== true) {
    const reason = protectedPathReason(root, resolved.absolute) ?? protectedPathReason(root, resolved.lexical);
    if (reason) throw new ToolError(`Refused to edit ${inputPath}: ${reason}.`);
  }
  // The link and its target: a deny rule on `src/**` also stops `link-src/book.ipynb`.
  if (context.isPathDenied(resolved.absolute, 'notebook') || context.isPathDenied(resolved.lexical, 'notebook')) {
    throw new ToolError(`Editing ${inputPath} is denied by a permission rule.`);
  }
}

async function editInFolder(context: ToolExecutionContext, root: string, resolved: ResolvedWorkspacePath, entry: BeneathEntry, input: EditNotebookInput): Promise<string> {
  const editMode = input.edit_mode ?? 'replace';
  const existing = await readExisting(root, entry, input.path);
  let notebook: Notebook;
  let formatting: NotebookFormatting;
  if (existing) {
    notebook = parseNotebook(existing.toString('utf8'), input.path);
    formatting = detectFormatting(existing.toString('utf8'));
  } else {
    if (editMode !== 'insert' || input.cell_index !== 0) {
      throw new ToolError(`${input.path} does not exist. To create a notebook, use edit_mode "insert" with cell_index 0.`);
    }
    notebook = emptyNotebook();
    formatting = { indent: 1, trailingNewline: true, lineEnding: '\n' };
  }
  const summary = applyNotebookEdit(notebook, {
    cellIndex: input.cell_index,
    newSource: input.new_source,
    editMode,
    ...(input.cell_type ? { cellType: input.cell_type } : {}),
  });
  const after = Buffer.from(serializeNotebook(notebook, formatting), 'utf8');
  context.signal.throwIfAborted();
  await replaceFileAtomically(entry, after, { root, displayPath: resolved.relative, signal: context.signal });
  await context.recordFileChange({ path: resolved.absolute, before: existing ? new Uint8Array(existing) : null, after: new Uint8Array(after) });
  const created = existing ? '' : ' (new notebook)';
  return `${summary} of ${resolved.relative}${created}; it now has ${notebook.cells.length} cell${notebook.cells.length === 1 ? '' : 's'}.`;
}

async function readExisting(root: string, entry: BeneathEntry, displayPath: string): Promise<Buffer | undefined> {
  if (entry.stats && !entry.stats.isFile()) throw new ToolError(`${displayPath} is not a regular file.`);
  if (entry.parentExists && entry.name !== '') await checkOverwriteTarget(entry.folder.child(entry.name), displayPath);
  const opened = await openEntryForReading(root, entry, displayPath);
  if (!opened) return undefined;
  try {
    if (opened.stats.size > maxNotebookBytes) {
      throw new ToolError(`${displayPath} is ${Math.round(opened.stats.size / 1024 / 1024)} MB, over the ${maxNotebookBytes / 1024 / 1024} MB edit limit. Clear its outputs first.`);
    }
    return await opened.handle.readFile();
  } finally {
    await opened.handle.close();
  }
}
