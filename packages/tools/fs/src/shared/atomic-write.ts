import { relative } from 'node:path';
import { type AtomicReplaceOptions, openWorkspacePath, replaceFileAtomically } from '@cairn/core/node';

export type AtomicWriteOptions = AtomicReplaceOptions;

/**
 * Write a file of the workspace atomically, by path: resolved from the root down with folders held
 * open and missing ones created, then replaced through a temp file in the same open folder (see
 * replaceFileAtomically). The tools themselves write through the entry they already checked.
 */
export async function atomicWriteFile(absolutePath: string, bytes: Uint8Array, options: AtomicWriteOptions): Promise<void> {
  const { entry } = await openWorkspacePath(options.root, relative(options.root, absolutePath), { createFolders: true });
  try {
    await replaceFileAtomically(entry, bytes, options);
  } finally {
    await entry.folder.close();
  }
}
