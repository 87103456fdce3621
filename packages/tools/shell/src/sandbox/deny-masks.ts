import { writeFileSync } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { shellLogDirectory } from '../process/log-directory.js';

let emptyFile: string | undefined;

/** An empty, read-only regular file to mount over denied files (reads give nothing, writes fail). */
function emptyMaskFile(): string {
  if (!emptyFile) {
    const path = join(shellLogDirectory(), 'denied-file-mask');
    writeFileSync(path, '', { mode: 0o400 });
    emptyFile = path;
  }
  return emptyFile;
}

/**
 * bubblewrap arguments that make the files the read deny rules hide unreadable: an empty file is
 * mounted read-only over each denied file, an empty read-only tmpfs over each denied folder. They
 * must come after every other mount of those paths (the workspace bind), or a later bind would
 * uncover them. A mount point also stops `ln`: a hard link across mounts fails (EXDEV).
 */
export async function denyMaskArgs(paths: readonly string[]): Promise<string[]> {
  const args: string[] = [];
  const unique = [...new Set(paths)].sort();
  // A folder's mask already hides what is below it (and its read-only tmpfs has no mount points for more).
  const covered = (path: string) => unique.some((other) => other !== path && path.startsWith(other.endsWith(sep) ? other : other + sep));
  for (const path of unique.filter((candidate) => !covered(candidate))) {
    const info = await lstat(path).catch(() => undefined);
    if (!info || info.isSymbolicLink()) continue;
    if (info.isDirectory()) args.push('--tmpfs', path, '--remount-ro', path);
    else args.push('--ro-bind', emptyMaskFile(), path);
  }
  return args;
}
