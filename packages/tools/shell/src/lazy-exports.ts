import type { HostLaunch, HostLaunchOptions } from './process/host-launch.js';
import type { PidNamespaceAvailability } from './process/pid-namespace.js';
import type { LaunchOptions, PreparedLaunch } from './sandbox/sandboxed-launch.js';
import { lazyImplementation } from '@cairn/core';

// The package's asynchronous helpers that start processes, exported under their own names but
// loaded at the first call: their modules pull in child_process and the sandbox, which importing
// the pack (to register run_terminal_cmd) does not need.
const sandboxedLaunch = lazyImplementation(() => import('./sandbox/sandboxed-launch.js'));
const hostLaunchModule = lazyImplementation(() => import('./process/host-launch.js'));
const pidNamespace = lazyImplementation(() => import('./process/pid-namespace.js'));

/**
 * How to start `script` as the call's sandbox requirement says: on the host for `none`; inside the
 * OS sandbox otherwise; a `ConfigurationError` naming the fix when the sandbox is required and
 * unavailable; on the host with a warning when it is only preferred (sandbox/sandboxed-launch.ts).
 */
export async function prepareLaunch(script: string, options: LaunchOptions): Promise<PreparedLaunch> {
  return (await sandboxedLaunch()).prepareLaunch(script, options);
}

/** How a command runs on the host without an OS sandbox: in its own PID namespace where one can be made (process/host-launch.ts). */
export async function hostLaunch(script: string, options: HostLaunchOptions): Promise<HostLaunch> {
  return (await hostLaunchModule()).hostLaunch(script, options);
}

/** Whether commands can run in their own PID namespace here; probed once per process (process/pid-namespace.ts). */
export async function pidNamespaceAvailability(): Promise<PidNamespaceAvailability> {
  return (await pidNamespace()).pidNamespaceAvailability();
}
