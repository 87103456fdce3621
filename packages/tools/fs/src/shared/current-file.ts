import type { Stats } from 'node:fs';
import { ToolError } from '@cairn/core';
import { checkOverwriteTarget, openEntryForReading } from '@cairn/core/node';
import type { WorkspaceTarget } from './workspace-target.js';

/** Files above this size are not loaded for editing or for a before-image. */
export const maxEditableBytes = 64 * 1024 * 1024;

export interface CurrentFile {
  /** null when the file does not exist. */
  bytes: Uint8Array | null;
  stats: Stats | null;
}

/**
 * Load a file that is about to change (its before-image) through the target's open folder; a
 * missing file is `{ bytes: null }`. Targets no write may replace (a folder, a hard link, a
 * read-only file) are refused before anything is read.
 */
export async function loadCurrentFile(root: string, target: WorkspaceTarget): Promise<CurrentFile> {
  const { entry, displayPath } = target;
  if (entry.parentExists && entry.name !== '') await checkOverwriteTarget(entry.folder.child(entry.name), displayPath);
  const opened = await openEntryForReading(root, entry, displayPath);
  if (!opened) return { bytes: null, stats: null };
  try {
    if (opened.stats.size > maxEditableBytes) {
      throw new ToolError(`${displayPath} is ${opened.stats.size} bytes, above the ${maxEditableBytes}-byte limit for changes by this tool.`);
    }
    return { bytes: await opened.handle.readFile(), stats: opened.stats };
  } finally {
    await opened.handle.close();
  }
}
