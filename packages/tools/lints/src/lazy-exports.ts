import { lazyImplementation } from '@cairn/core';
import type { CommandResult, SpawnCommand } from './run-command.js';

// Exported under its own name but loaded at the first call: run-command.ts pulls in child_process,
// which importing the pack (to register read_lints) does not need.
const runCommandModule = lazyImplementation(() => import('./run-command.js'));

/**
 * Run one command as argv (never through a shell) in its own process group, so a timeout or a
 * cancel kills the linter and anything it started (run-command.ts).
 */
export async function runCommand(command: SpawnCommand, options: { env: Record<string, string>; timeoutMs: number; signal: AbortSignal }): Promise<CommandResult> {
  return (await runCommandModule()).runCommand(command, options);
}
