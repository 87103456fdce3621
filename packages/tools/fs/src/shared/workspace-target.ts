import { ToolError, type ToolExecutionContext } from '@cairn/core';
import { protectedPathReason, type ResolvedWorkspacePath, resolveWorkspacePath } from '@cairn/core/node';
import { protectedWritesAllowed } from './tool-settings.js';

/** A path for messages: relative to the workspace when possible, never a machine-specific prefix. */
export function displayPathOf(resolved: ResolvedWorkspacePath, inputPath: string): string {
  return resolved.relative === '' ? '.' : resolved.relative || inputPath;
}

function assertNotDenied(context: ToolExecutionContext, resolved: ResolvedWorkspacePath, toolId: string, inputPath: string): void {
  // Check the link and its target: a deny rule on `.env` must also stop `innocent-link -> .env`.
  if (context.isPathDenied(resolved.absolute, toolId) || (resolved.lexical !== resolved.absolute && context.isPathDenied(resolved.lexical, toolId))) {
    throw new ToolError(`Access to ${inputPath} is denied by the permission rules. Do not try to reach it another way.`);
  }
}

/** Resolve a path the tool only reads (the root is allowed: list_dir and glob start there). */
export async function resolveReadTarget(context: ToolExecutionContext, inputPath: string | undefined, toolId: string): Promise<ResolvedWorkspacePath> {
  const resolved = await resolveWorkspacePath(context.cwd, inputPath ?? '', { allowRoot: true });
  assertNotDenied(context, resolved, toolId, inputPath ?? '.');
  return resolved;
}

/**
 * Resolve a path the tool changes: confined, not the root, not denied, and not protected (git
 * internals, agent configuration, shell start-up files) unless the agent was configured with
 * `allowProtectedWrites: true` (or the agent option `allowProtectedPathWrites`).
 */
export async function resolveWriteTarget(context: ToolExecutionContext, inputPath: string, toolId: string): Promise<ResolvedWorkspacePath> {
  const resolved = await resolveWorkspacePath(context.cwd, inputPath);
  assertNotDenied(context, resolved, toolId, inputPath);
  if (!protectedWritesAllowed(context, toolId)) {
    // Both the canonical target and the name the model used: a link named `.bashrc` is protected too.
    const reason = protectedPathReason(context.cwd, resolved.absolute) ?? protectedPathReason(context.cwd, resolved.lexical);
    if (reason) throw new ToolError(`Writing ${inputPath} is refused: ${reason}. Ask the user to make this change.`);
  }
  return resolved;
}
