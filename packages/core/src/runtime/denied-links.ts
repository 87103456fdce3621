import { type DeniedFilesIndex, hardLinkToDeniedFile } from '../node/denied-files.js';
import type { PermissionEngine } from '../permissions/index.js';
import type { PermissionVerdict } from './tool-runner.js';

export interface DeniedLinks {
  /** Refuses a call whose path is another name (a hard link) of a file a read deny rule hides. */
  check(paths: string[]): Promise<PermissionVerdict | undefined>;
  /** The same for a file a tool discovers (grep, glob, ls results), against the last search. */
  isDenied(absolutePath: string): boolean;
  /** The denied files on disk, for the shell's OS-level masks. */
  files(): Promise<{ paths: string[]; complete: boolean }>;
}

/**
 * A deny rule names paths, but a hard link is the same file under another name (`ln .env notes.txt`
 * made by a command): the rule must follow the file, not the name. Device and inode are compared
 * with the denied files the engine found on disk.
 */
export function createDeniedLinks(engine: PermissionEngine, cwd: string): DeniedLinks {
  const index: DeniedFilesIndex = engine.deniedFiles(cwd);
  return {
    async check(paths) {
      // Searched for every call, even one without paths (grep over the workspace): the files that
      // call discovers are judged against this search through `isDenied`.
      const denied = await index.current();
      for (const path of paths) {
        const original = hardLinkToDeniedFile(path, denied);
        if (original) return { decision: 'deny', reason: `${path} is a hard link to ${original}, which a read deny rule hides; it cannot be read under another name either` };
      }
      return undefined;
    },
    isDenied(absolutePath) {
      const denied = index.latest();
      return denied !== undefined && hardLinkToDeniedFile(absolutePath, denied) !== undefined;
    },
    async files() {
      const { paths, complete } = await index.current();
      return { paths, complete };
    },
  };
}
