import { resolve } from 'node:path';
import type { ToolExecutionContext } from '@cairn/core';
import { prepareLaunch, readDeniedPaths, readShellSettings, type SandboxBackend, shellCommandLine } from '@cairn/tools-shell';
import type { LintCommand } from './lints-settings.js';
import { runCommand } from './lazy-exports.js';
import { linterEnvironment } from './linter-environment.js';
import type { CommandResult } from './run-command.js';

/** Runs one linter command; throws LinterNotRun when it may not run. */
export type RunLinterCommand = (command: LintCommand) => Promise<CommandResult & { sandbox: string; warning?: string }>;

/** The linter was not started (the shell may not run it); `reason` says why, for the report. */
export class LinterNotRun extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'LinterNotRun';
  }
}

/**
 * How read_lints runs a linter. A linter is a program of the workspace (`node_modules/.bin/tsc` may
 * have been written by the model), so it runs only where the shell may run it: the command, as the
 * shell would see it (`node node_modules/typescript/bin/tsc --noEmit ...`), must pass
 * `context.checkShellCommand` (disallowedTools, the mode's shell policy, permission rules), and it
 * starts through the shell's launcher in the call's sandbox (`context.sandbox`), with the shell's
 * read-deny masks and process isolation, and only the environment a linter needs.
 */
export function createLinterRunner(context: ToolExecutionContext, root: string, options: { timeoutMs: number; sandboxBackend?: SandboxBackend }): RunLinterCommand {
  const env = linterEnvironment(context.env);
  return async (command) => {
    const shown = shellCommandLine(['node', command.program, ...command.args]);
    const verdict = context.checkShellCommand
      ? await context.checkShellCommand(shown)
      : { decision: 'deny' as const, reason: 'this host gives read_lints no shell permission check (context.checkShellCommand)' };
    if (verdict.decision !== 'allow') throw new LinterNotRun(`not run, because it runs code from the workspace, which needs the shell's permission: ${verdict.reason}`);
    const script = `exec ${shellCommandLine([process.execPath, resolve(root, command.program), ...command.args])}`;
    const { processIsolation } = readShellSettings(context.settings);
    const prepared = await prepareLaunch(script, {
      requirement: context.sandbox,
      ...(options.sandboxBackend ? { backend: options.sandboxBackend } : {}),
      workspaceRoot: root,
      cwd: root,
      shell: '/bin/sh',
      env,
      maskedPaths: await readDeniedPaths(context),
      ...(processIsolation ? { processIsolation } : {}),
      label: 'read_lints',
    });
    try {
      const result = await runCommand({ file: prepared.launch.file, args: prepared.launch.args, cwd: root }, { env: prepared.launch.env, timeoutMs: options.timeoutMs, signal: context.signal });
      return { ...result, sandbox: prepared.sandbox, ...(prepared.warning ? { warning: prepared.warning } : {}) };
    } finally {
      await prepared.launch.cleanup();
    }
  };
}
