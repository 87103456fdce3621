export {
  commandEnvironment, type EnvironmentPolicy, isPassedName, isSecretName, passedEnvironmentNames, passedEnvironmentPrefixes, secretEnvironmentNames, secretNamePattern,
} from './environment.js';
export { shellToolsPlugin } from './plugin.js';
export { type BackgroundProcess, killBackgroundProcesses, listBackgroundProcesses } from './process/background-processes.js';
export { type HostLaunch, type HostLaunchOptions, hostLaunch } from './process/host-launch.js';
export { type PidNamespaceAvailability, pidNamespaceAvailability } from './process/pid-namespace.js';
export { createShellTool, runTerminalCmdTool, type ShellInput, shellInputSchema, type ShellToolOptions } from './run-terminal-cmd.js';
export { bubblewrapInstallHint, type BubblewrapOptions, createBubblewrapBackend } from './sandbox/bubblewrap.js';
export { defaultSandboxBackend } from './sandbox/default-backend.js';
export type { SandboxBackend, SandboxedCommand, SandboxProfile, SandboxWrapOptions } from './sandbox/sandbox-backend.js';
export { type LaunchOptions, type PreparedLaunch, prepareLaunch, shellCommandLine } from './sandbox/sandboxed-launch.js';
// For other tools that run workspace programs (read_lints): the same masks and isolation settings as the shell.
export { readDeniedPaths } from './denied-paths.js';
export { readShellSettings } from './shell-settings.js';
export { type ProcessIsolation, shellDefaults, type ShellToolSettings } from './shell-settings.js';
