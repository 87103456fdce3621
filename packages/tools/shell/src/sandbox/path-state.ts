import { lstat } from 'node:fs/promises';

/** What is at `path`, without following a symbolic link; `other` = a file stands where a folder was expected (ENOTDIR). */
export async function pathState(path: string): Promise<'dir' | 'file' | 'link' | 'missing' | 'other'> {
  try {
    const info = await lstat(path);
    if (info.isSymbolicLink()) return 'link';
    return info.isDirectory() ? 'dir' : 'file';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOTDIR' ? 'other' : 'missing';
  }
}
