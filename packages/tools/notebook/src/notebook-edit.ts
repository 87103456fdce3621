import { randomBytes } from 'node:crypto';
import { ToolError } from '@cairn/core';
import { type CellType, type Notebook, type NotebookCell, sourceToLines } from './notebook-format.js';

export type NotebookEditMode = 'replace' | 'insert' | 'delete';

export interface NotebookEdit {
  cellIndex: number;
  newSource: string;
  cellType?: CellType;
  editMode: NotebookEditMode;
}

/** Apply one edit in place; returns a sentence describing what changed. Throws ToolError on bad indexes. */
export function applyNotebookEdit(notebook: Notebook, edit: NotebookEdit): string {
  const count = notebook.cells.length;
  const { cellIndex } = edit;
  if (edit.editMode === 'insert') {
    if (cellIndex > count) {
      throw new ToolError(`cell_index ${cellIndex} is out of range for insert: the notebook has ${count} cells, so use 0 to ${count} (${count} appends).`);
    }
    const cellType = edit.cellType ?? 'code';
    notebook.cells.splice(cellIndex, 0, newCell(notebook, cellType, edit.newSource));
    return `Inserted a ${cellType} cell at index ${cellIndex}`;
  }
  if (count === 0) throw new ToolError(`The notebook has no cells to ${edit.editMode}. Use edit_mode "insert" with cell_index 0.`);
  if (cellIndex >= count) {
    throw new ToolError(`cell_index ${cellIndex} is out of range: the notebook has ${count} cells (indexes 0 to ${count - 1}).`);
  }
  if (edit.editMode === 'delete') {
    const [removed] = notebook.cells.splice(cellIndex, 1);
    return `Deleted ${removed?.cell_type ?? 'the'} cell ${cellIndex}`;
  }
  const cell = notebook.cells[cellIndex]!;
  const from = cell.cell_type;
  const to = edit.cellType ?? (isCellType(from) ? from : 'code');
  setCellType(cell, to);
  cell.source = sourceToLines(edit.newSource);
  if (to === 'code') {
    // The old outputs describe code that no longer exists.
    cell.outputs = [];
    cell.execution_count = null;
  }
  return from === to ? `Replaced the source of ${to} cell ${cellIndex}` : `Replaced cell ${cellIndex}, changing it from ${from} to ${to}`;
}

function isCellType(value: string): value is CellType {
  return value === 'code' || value === 'markdown' || value === 'raw';
}

function setCellType(cell: NotebookCell, type: CellType): void {
  cell.cell_type = type;
  if (type === 'code') {
    delete cell.attachments;
    if (!Array.isArray(cell.outputs)) cell.outputs = [];
    if (!('execution_count' in cell)) cell.execution_count = null;
  } else {
    // Markdown and raw cells must not carry code-cell fields under the nbformat 4 schema.
    delete cell.outputs;
    delete cell.execution_count;
  }
  if (typeof cell.metadata !== 'object' || cell.metadata === null) cell.metadata = {};
}

/** A new cell with keys in Jupyter's (sorted) order; an `id` from nbformat 4.5 on. */
function newCell(notebook: Notebook, cellType: CellType, source: string): NotebookCell {
  const id = notebook.nbformat_minor >= 5 ? { id: uniqueCellId(notebook) } : {};
  if (cellType === 'code') {
    return { cell_type: 'code', execution_count: null, ...id, metadata: {}, outputs: [], source: sourceToLines(source) };
  }
  return { cell_type: cellType, ...id, metadata: {}, source: sourceToLines(source) };
}

function uniqueCellId(notebook: Notebook): string {
  const taken = new Set(notebook.cells.map((cell) => cell.id));
  for (;;) {
    // Jupyter uses the first 8 hex digits of a uuid4; the same shape keeps diffs familiar.
    const id = randomBytes(4).toString('hex');
    if (!taken.has(id)) return id;
  }
}
