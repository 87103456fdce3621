import { homeFolderMounts, isHomeFolder } from './home-folder.js';
import { isInsideRoot } from '@cairn/core/node';
import { type ProtectedEntry, protectedEntries } from './protected-entries.js';
import { protectedMounts } from './protected-mounts.js';
import { quarantineNewRepositories } from './repository-audit.js';
import type { SandboxCleanupReport, SandboxWrapOptions } from './sandbox-backend.js';
import { scanWorkspace, workspaceScanLimits } from './workspace-scan.js';

export interface WorkspaceWriteMounts {
  args: string[];
  /** After the command: quarantine repositories it created, then remove the placeholders. */
  cleanup(): Promise<SandboxCleanupReport>;
}

/**
 * The workspace of a `workspace-write` sandbox: bound writable (a home folder: only its ordinary
 * folders), then every file the host's tools run or obey kept read-only or immovable, existing or
 * not (protected-entries.ts, protected-mounts.ts), nested repositories found by a walk included.
 */
export async function workspaceWriteMounts(options: SandboxWrapOptions): Promise<WorkspaceWriteMounts> {
  const root = options.workspaceRoot;
  const home = await isHomeFolder(root, options.env);
  const layout = home ? await homeFolderMounts(root) : { args: ['--bind', root, root], areas: [root] };
  // A home folder's top level is read-only: walk only the folders a command can write.
  const scanOptions = home ? { starts: layout.areas } : {};
  const before = options.workspaceScan && !home ? options.workspaceScan : await scanWorkspace(root, scanOptions);
  // `$CAIRN_HOME` may lie in the workspace under any name: its permission files stay read-only too.
  const settings = (options.protectedPaths ?? []).map((entry): ProtectedEntry => ({ ...entry, access: 'read-only', whenMissing: 'guard' }));
  const mounts = await protectedMounts(layout.areas, [...protectedEntries(root, before, [process.env.PATH, options.env.PATH]), ...settings.filter((entry) => entry.path !== root && isInsideRoot(root, entry.path))]);
  return {
    args: [...layout.args, ...mounts.args],
    async cleanup() {
      const after = await scanWorkspace(root, scanOptions);
      const quarantined = await quarantineNewRepositories(before, after);
      await mounts.release();
      const notes = before.truncated || after.truncated
        ? [`The workspace has more than ${workspaceScanLimits.maxDirectories} folders (node_modules not counted); repositories past them were not checked.`]
        : [];
      return { quarantined, notes, ...(home ? {} : { workspaceScan: after }) };
    },
  };
}
