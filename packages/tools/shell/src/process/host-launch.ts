import { ConfigurationError } from '@cairn/core';
import { denyMaskArgs } from '../sandbox/deny-masks.js';
import type { SandboxedCommand } from '../sandbox/sandbox-backend.js';
import type { ProcessIsolation } from '../shell-settings.js';
import { inPidNamespace, pidNamespaceAvailability } from './pid-namespace.js';

export interface HostLaunchOptions {
  shell: string;
  cwd: string;
  env: Record<string, string>;
  /** Files and folders the read deny rules hide: unreadable inside the namespace too. */
  maskedPaths?: readonly string[];
  /** Default `auto`. */
  processIsolation?: ProcessIsolation;
  /** Who runs the command, for the error: `The shell`, `read_lints`. */
  label: string;
}

export interface HostLaunch {
  launch: SandboxedCommand;
  /** `pid-namespace` when the command runs in its own PID namespace, `none` for a plain host process. */
  isolation: 'pid-namespace' | 'none';
  /** Set when isolation was wanted and is unavailable: say so, never silently. */
  warning?: string;
}

/**
 * How a command runs on the host (no OS sandbox): in its own PID namespace with the read deny
 * masks when bubblewrap can make one, so it can neither read the agent's environment and memory
 * nor outlive the run; as a plain process only when `processIsolation` is `off`, or with a
 * warning when it is `auto` and no namespace can be made. `required` refuses instead.
 */
export async function hostLaunch(script: string, options: HostLaunchOptions): Promise<HostLaunch> {
  const plain: SandboxedCommand = { file: options.shell, args: ['-c', script], env: options.env, cleanup: async () => {} };
  const isolation = options.processIsolation ?? 'auto';
  if (isolation === 'off') return { launch: plain, isolation: 'none' };
  const availability = await pidNamespaceAvailability();
  if (availability.available) {
    const masks = await denyMaskArgs(options.maskedPaths ?? []);
    const wrapped = inPidNamespace(availability.executable, { shell: options.shell, script, cwd: options.cwd, masks });
    return { launch: { ...wrapped, env: options.env, cleanup: async () => {} }, isolation: 'pid-namespace' };
  }
  if (isolation === 'required') {
    throw new ConfigurationError(`${options.label} must run commands in their own PID namespace (toolSettings.shell.processIsolation: 'required'), and none can be made: ${availability.reason}`);
  }
  const masked = (options.maskedPaths ?? []).length > 0 ? ' and the files the read deny rules hide are not masked' : '';
  return {
    launch: plain,
    isolation: 'none',
    warning: `Warning: the command ran as a plain host process (${availability.reason}): it can read the agent's environment through /proc, processes it detaches may outlive the run${masked}.`,
  };
}
