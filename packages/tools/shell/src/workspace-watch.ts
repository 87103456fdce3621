import { relative, sep } from 'node:path';
import type { SensitiveFileChangedUpdate, ToolExecutionContext } from '@cairn/core';
import { sensitiveFileReason } from '@cairn/core/node';
import type { SandboxedCommand } from './sandbox/sandbox-backend.js';
import { scanWorkspace, type WorkspaceScan } from './sandbox/workspace-scan.js';

/** Files that make other programs run code, compared before and after: the inodes and times say whether they changed. */
function sensitiveChanges(before: WorkspaceScan, after: WorkspaceScan): Array<{ path: string; change: 'created' | 'modified' | 'deleted' }> {
  const changes: Array<{ path: string; change: 'created' | 'modified' | 'deleted' }> = [];
  for (const [path, identity] of after.sensitiveFiles) {
    const earlier = before.sensitiveFiles.get(path);
    if (earlier === undefined) {
      // Past the walk's limit the file may simply not have been seen before.
      if (!before.truncated) changes.push({ path, change: 'created' });
    } else if (earlier !== identity) changes.push({ path, change: 'modified' });
  }
  if (!after.truncated) for (const path of before.sensitiveFiles.keys()) if (!after.sensitiveFiles.has(path)) changes.push({ path, change: 'deleted' });
  return changes.sort((a, b) => a.path.localeCompare(b.path));
}

export interface WorkspaceWatch {
  /** The walk before the command, also handed to the sandbox (it needs the nested repositories). */
  scan: WorkspaceScan;
  /**
   * After the command and `launch.cleanup()`: flags every sensitive file the command changed and
   * every repository the sandbox quarantined as a `sensitive-file-changed` update, and returns the
   * lines the model reads about them.
   */
  finish(launch: SandboxedCommand): Promise<string[]>;
}

/**
 * A shell command can change any file, and the sandbox cannot ask before it writes `package.json`
 * or `.github/workflows/*`. So the workspace is walked before and after each command (sandboxed or
 * not), and what changed is shown to the user after the fact.
 */
export async function watchWorkspace(context: ToolExecutionContext): Promise<WorkspaceWatch> {
  const root = context.cwd;
  const before = await scanWorkspace(root);
  const shown = (path: string) => relative(root, path).split(sep).join('/');
  const flag = (update: Omit<SensitiveFileChangedUpdate, 'type' | 'callId' | 'source'>) =>
    context.emit({ type: 'sensitive-file-changed', callId: context.toolCallId, source: 'shell', ...update });
  return {
    scan: before,
    async finish(launch) {
      const report = launch.cleanupReport?.();
      const after = report?.workspaceScan ?? (await scanWorkspace(root));
      const lines: string[] = [];
      for (const { path, change } of sensitiveChanges(before, after)) {
        const reason = sensitiveFileReason(root, path) ?? 'it makes other programs run code';
        flag({ path: shown(path), change, reason });
        lines.push(`Note: this command ${change === 'created' ? 'created' : change === 'deleted' ? 'deleted' : 'changed'} ${shown(path)} (${reason}); the user is shown this change.`);
      }
      for (const { path, movedTo } of report?.quarantined ?? []) {
        const reason = 'a command in the sandbox created a git repository; git and editors outside the sandbox would run its config and hooks';
        flag({ path: shown(path), change: 'quarantined', reason });
        lines.push(
          `The command created the git repository ${shown(path)}. Commands in the sandbox may not create repositories, because git and editors outside it ` +
            `run a repository's config and hooks, so it was renamed to ${shown(movedTo)}. Ask the user to review it and rename it back, or to create the repository outside the sandbox.`,
        );
      }
      lines.push(...(report?.notes ?? []));
      return lines;
    },
  };
}
