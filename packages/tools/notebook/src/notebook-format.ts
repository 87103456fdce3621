import { ToolError } from '@cairn/core';

export type CellType = 'code' | 'markdown' | 'raw';

/** The parts of an nbformat 4 cell this package reads; every other field is kept as it was. */
export interface NotebookCell {
  cell_type: CellType | (string & {});
  id?: string;
  metadata?: Record<string, unknown>;
  source: string | string[];
  outputs?: unknown[];
  execution_count?: number | null;
  attachments?: unknown;
  [key: string]: unknown;
}

export interface Notebook {
  nbformat: number;
  nbformat_minor: number;
  metadata: Record<string, unknown>;
  cells: NotebookCell[];
  [key: string]: unknown;
}

/** How the file was written, so a rewrite changes only the cells that were edited. */
export interface NotebookFormatting {
  /** Spaces (or '\t') per indentation level; 0 for a file on one line. */
  indent: number | '\t';
  trailingNewline: boolean;
  lineEnding: '\n' | '\r\n';
  /** A UTF-8 byte order mark before the JSON (rare, but kept when present). */
  bom?: boolean;
}

/** Parse notebook text; throws ToolError saying why it is not an editable nbformat 4 notebook. */
export function parseNotebook(text: string, displayPath: string): Notebook {
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    throw new ToolError(`${displayPath} is not valid JSON (${(error as Error).message}), so it cannot be edited as a notebook. Restore it or rewrite it with the write tool.`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !Array.isArray((value as Notebook).cells)) {
    throw new ToolError(`${displayPath} is JSON but not a Jupyter notebook (it has no "cells" list). Use search_replace for other JSON files.`);
  }
  const notebook = value as Notebook;
  if (notebook.nbformat !== 4) {
    throw new ToolError(
      `${displayPath} is nbformat ${String(notebook.nbformat)}; only nbformat 4 is supported. Convert it first (jupyter nbconvert --to notebook --nbformat 4).`,
    );
  }
  if (typeof notebook.nbformat_minor !== 'number') notebook.nbformat_minor = 0;
  if (typeof notebook.metadata !== 'object' || notebook.metadata === null) notebook.metadata = {};
  return notebook;
}

export function detectFormatting(text: string): NotebookFormatting {
  const lineEnding = text.includes('\r\n') ? '\r\n' : '\n';
  const trailingNewline = text.endsWith('\n');
  // The first indented line after the opening brace holds one level of indentation.
  const match = /\n([ \t]+)\S/.exec(text);
  let indent: NotebookFormatting['indent'] = 0;
  if (match?.[1]) indent = match[1].startsWith('\t') ? '\t' : Math.min(match[1].length, 8);
  return { indent, trailingNewline, lineEnding, bom: text.charCodeAt(0) === 0xfeff };
}

export function serializeNotebook(notebook: Notebook, formatting: NotebookFormatting): string {
  let text = JSON.stringify(notebook, null, formatting.indent === 0 ? undefined : formatting.indent);
  if (formatting.lineEnding === '\r\n') text = text.replace(/\n/g, '\r\n');
  if (formatting.trailingNewline) text += formatting.lineEnding;
  return formatting.bom ? `\ufeff${text}` : text;
}

/** Jupyter's on-disk form of a source: a list of lines, each but the last ending in '\n'. */
export function sourceToLines(source: string): string[] {
  if (source === '') return [];
  const lines = source.split(/(?<=\n)/);
  return lines;
}

export function sourceToText(source: string | string[]): string {
  return Array.isArray(source) ? source.join('') : source;
}

/** The skeleton Jupyter writes for a new notebook (nbformat 4.5, with cell ids). */
export function emptyNotebook(): Notebook {
  return {
    cells: [],
    metadata: {},
    nbformat: 4,
    nbformat_minor: 5,
  };
}
