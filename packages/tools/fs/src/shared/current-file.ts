import type { Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { ToolError } from '@cairn/core';
import { assertRegularFile, isMissing } from './file-kind.js';
import { openRegularFile } from './open-regular-file.js';

/** Files above this size are not loaded for editing or for a before-image. */
export const maxEditableBytes = 64 * 1024 * 1024;

export interface CurrentFile {
  /** null when the file does not exist. */
  bytes: Uint8Array | null;
  stats: Stats | null;
}

/** Load a file that is about to change (its before-image); a missing file is `{ bytes: null }`. */
export async function loadCurrentFile(absolutePath: string, displayPath: string): Promise<CurrentFile> {
  let stats: Stats;
  try {
    stats = await lstat(absolutePath);
  } catch (error) {
    if (isMissing(error)) return { bytes: null, stats: null };
    throw error;
  }
  assertRegularFile(stats, displayPath, 'changing');
  if (stats.size > maxEditableBytes) {
    throw new ToolError(`${displayPath} is ${stats.size} bytes, above the ${maxEditableBytes}-byte limit for changes by this tool.`);
  }
  const handle = await openRegularFile(absolutePath, displayPath);
  try {
    return { bytes: await handle.readFile(), stats: await handle.stat() };
  } finally {
    await handle.close();
  }
}
