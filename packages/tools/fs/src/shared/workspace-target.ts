import { ToolError, type ToolExecutionContext } from '@cairn/core';
import { type BeneathEntry, type OpenedWorkspacePath, openWorkspacePath, protectedPathReason, type ResolvedWorkspacePath, type WorkspacePathOptions } from '@cairn/core/node';
import { protectedWritesAllowed } from './tool-settings.js';

/** A path for messages: relative to the workspace when possible, never a machine-specific prefix. */
export function displayPathOf(resolved: ResolvedWorkspacePath, inputPath: string): string {
  return resolved.relative === '' ? '.' : resolved.relative || inputPath;
}

/**
 * A resolved path with the folder that holds it kept open (see openWorkspacePath): every read and
 * write of a tool call goes through `entry`, so it happens where the checks were made.
 */
export interface WorkspaceTarget {
  readonly resolved: ResolvedWorkspacePath;
  readonly entry: BeneathEntry;
  readonly displayPath: string;
}

function assertNotDenied(context: ToolExecutionContext, resolved: ResolvedWorkspacePath, toolId: string, inputPath: string): void {
  // Check the link and its target: a deny rule on `.env` must also stop `innocent-link -> .env`.
  if (context.isPathDenied(resolved.absolute, toolId) || (resolved.lexical !== resolved.absolute && context.isPathDenied(resolved.lexical, toolId))) {
    throw new ToolError(`Access to ${inputPath} is denied by the permission rules. Do not try to reach it another way.`);
  }
}

/** Protected (git internals, agent configuration, start-up files) unless the explicit bypass is on. */
export function assertNotProtected(context: ToolExecutionContext, resolved: ResolvedWorkspacePath, toolId: string, message: (reason: string) => string): void {
  if (protectedWritesAllowed(context, toolId)) return;
  // Both the canonical target and the name the model used: a link named `.bashrc` is protected too.
  const reason = protectedPathReason(context.cwd, resolved.absolute) ?? protectedPathReason(context.cwd, resolved.lexical);
  if (reason) throw new ToolError(message(reason));
}

async function withTarget<T>(opened: OpenedWorkspacePath, inputPath: string, check: (resolved: ResolvedWorkspacePath) => void, work: (target: WorkspaceTarget) => Promise<T>): Promise<T> {
  const target = { resolved: opened.resolved, entry: opened.entry, displayPath: displayPathOf(opened.resolved, inputPath) };
  try {
    check(opened.resolved);
    return await work(target);
  } finally {
    await target.entry.folder.close();
  }
}

/** Run `work` on a path the tool only reads (the root is allowed: list_dir and glob start there). */
export async function withReadTarget<T>(context: ToolExecutionContext, inputPath: string | undefined, toolId: string, work: (target: WorkspaceTarget) => Promise<T>): Promise<T> {
  const opened = await openWorkspacePath(context.cwd, inputPath ?? '', { allowRoot: true });
  return withTarget(opened, inputPath ?? '.', (resolved) => assertNotDenied(context, resolved, toolId, inputPath ?? '.'), work);
}

/**
 * Run `work` on a path the tool changes: confined, not the root, not denied, and not protected
 * unless the agent was configured with `allowProtectedWrites: true` (or the agent option
 * `allowProtectedPathWrites`). `options.followLast: false` keeps a final symlink itself (delete).
 */
export async function withWriteTarget<T>(
  context: ToolExecutionContext,
  inputPath: string,
  toolId: string,
  work: (target: WorkspaceTarget) => Promise<T>,
  options: WorkspacePathOptions & { refusal?: (reason: string) => string } = {},
): Promise<T> {
  const { refusal, ...pathOptions } = options;
  const opened = await openWorkspacePath(context.cwd, inputPath, pathOptions);
  return withTarget(
    opened,
    inputPath,
    (resolved) => {
      assertNotDenied(context, resolved, toolId, inputPath);
      assertNotProtected(context, resolved, toolId, refusal ?? ((reason) => `Writing ${inputPath} is refused: ${reason}. Ask the user to make this change.`));
    },
    work,
  );
}

/**
 * The entry to write to, with missing folders created now (not before the edit was known to be
 * valid). The folders are created by a second confined walk, which must end where the first did.
 */
export async function writableEntry(context: ToolExecutionContext, target: WorkspaceTarget, inputPath: string): Promise<{ entry: BeneathEntry; release(): Promise<void> }> {
  if (target.entry.parentExists) return { entry: target.entry, release: async () => undefined };
  const again = await openWorkspacePath(context.cwd, inputPath, { createFolders: true });
  if (again.resolved.relative !== target.resolved.relative) {
    await again.entry.folder.close();
    throw new ToolError(`${target.displayPath} changed its location while its folders were being created (a folder on its path was replaced); nothing was written.`);
  }
  return { entry: again.entry, release: () => again.entry.folder.close() };
}
