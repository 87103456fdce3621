import { ConfigurationError, type SandboxRequirement } from '@cairn/core';
import { hostLaunch } from '../process/host-launch.js';
import type { ProcessIsolation } from '../shell-settings.js';
import { defaultSandboxBackend } from './default-backend.js';
import type { SandboxBackend, SandboxedCommand, SandboxProfile } from './sandbox-backend.js';
import type { WorkspaceScan } from './workspace-scan.js';

export interface LaunchOptions {
  /** The call's `context.sandbox`. */
  requirement: SandboxRequirement;
  /** Default: the platform's sandbox (bubblewrap on Linux). */
  backend?: SandboxBackend;
  workspaceRoot: string;
  cwd: string;
  /** The shell that runs `script` with `-c`, on the host or inside the sandbox. */
  shell: string;
  env: Record<string, string>;
  readOnlyPaths?: string[];
  /** Files and folders the read deny rules hide (`context.readDeniedFiles`): unreadable wherever the command runs. */
  maskedPaths?: string[];
  /** The agent's own settings, kept read-only inside the sandbox (see SandboxWrapOptions). */
  protectedPaths?: Array<{ path: string; kind: 'dir' | 'file' }>;
  /** How commands without the sandbox are kept apart from the agent (`toolSettings.shell.processIsolation`); default `auto`. */
  processIsolation?: ProcessIsolation;
  /** Who needs the sandbox, for the error: `The shell`, `read_lints`. */
  label: string;
  /** A walk of the workspace made just before; the sandbox reuses it instead of walking again. */
  workspaceScan?: WorkspaceScan;
}

export interface PreparedLaunch {
  launch: SandboxedCommand;
  /** Where it runs: `none` = on the host. */
  sandbox: 'none' | SandboxProfile;
  /** What keeps the command apart from the agent's process: the sandbox, a PID namespace of its own, or nothing. */
  isolation: 'sandbox' | 'pid-namespace' | 'none';
  /** Set when the sandbox was asked for, not required and unavailable: say so, never silently. */
  warning?: string;
}

/**
 * How to start `script` as the call's sandbox requirement says: on the host for `none`; inside the
 * OS sandbox otherwise; a `ConfigurationError` naming the fix when the sandbox is required and
 * unavailable; on the host with a warning when it is only preferred. Every tool that runs a command
 * or a workspace program (the shell, read_lints) starts it through here, so they share one policy.
 */
export async function prepareLaunch(script: string, options: LaunchOptions): Promise<PreparedLaunch> {
  const { requirement } = options;
  const host = async (sandboxWarning?: string): Promise<PreparedLaunch> => {
    const launched = await hostLaunch(script, options);
    const warning = [sandboxWarning, launched.warning].filter(Boolean).join('\n');
    return { launch: launched.launch, sandbox: 'none', isolation: launched.isolation, ...(warning ? { warning } : {}) };
  };
  if (requirement.profile === 'none') return host();
  const backend = options.backend ?? defaultSandboxBackend();
  const availability = await backend.isAvailable();
  if (availability.available) {
    const launch = await backend.wrap(script, {
      profile: requirement.profile,
      workspaceRoot: options.workspaceRoot,
      cwd: options.cwd,
      shell: options.shell,
      env: options.env,
      networkAllow: requirement.networkAllow ?? [],
      ...(options.readOnlyPaths ? { readOnlyPaths: options.readOnlyPaths } : {}),
      ...(options.maskedPaths ? { maskedPaths: options.maskedPaths } : {}),
      ...(options.protectedPaths ? { protectedPaths: options.protectedPaths } : {}),
      ...(options.workspaceScan ? { workspaceScan: options.workspaceScan } : {}),
    });
    return { launch, sandbox: requirement.profile, isolation: 'sandbox' };
  }
  if (requirement.required) throw new ConfigurationError(`${options.label} needs the ${requirement.profile} OS sandbox, which is unavailable: ${availability.reason}`);
  return host(`Warning: the ${requirement.profile} sandbox is unavailable (${availability.reason}); the command ran without it.`);
}

export { shellCommandLine } from './shell-command-line.js';
