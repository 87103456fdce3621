import type { Stats } from 'node:fs';
import { ToolError } from '@cairn/core';
import { describeFileKind } from '@cairn/core/node';

/**
 * Refuse anything that is not a regular file before opening it: opening a FIFO blocks forever and
 * reading a device (/dev/zero, /dev/random) never ends.
 */
export function assertRegularFile(stats: Stats, displayPath: string, action: string): void {
  if (stats.isFile()) return;
  if (stats.isDirectory()) throw new ToolError(`${displayPath} is a directory, not a file. Use list_dir to see what it contains.`);
  throw new ToolError(`${displayPath} is a ${describeFileKind(stats)}, not a regular file; ${action} it is refused.`);
}

export function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
