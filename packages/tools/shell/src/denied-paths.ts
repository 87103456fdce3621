import { ToolError, type ToolExecutionContext } from '@cairn/core';

/**
 * The files and folders the read deny rules hide, to mask in the command's mounts. Fails closed:
 * when the search for them stopped at its limit, the command does not run with some of them
 * readable.
 */
export async function readDeniedPaths(context: ToolExecutionContext): Promise<string[]> {
  const denied = await context.readDeniedFiles?.();
  if (!denied) return [];
  if (!denied.complete) {
    throw new ToolError(
      'The read deny rules could not be applied to this command: the workspace has too many files to find every file they hide. ' +
        'Anchor the rules to folders (read(config/.env*) rather than read(.env*)) or ask the user to narrow them.',
    );
  }
  return denied.paths;
}
