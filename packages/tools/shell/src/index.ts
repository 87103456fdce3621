// Importing the pack loads only what registering run_terminal_cmd needs; process spawning and the
// sandbox load at the first call of the tool or of the helpers below (see lazy-exports.ts).
export {
  commandEnvironment, type EnvironmentPolicy, isPassedName, isSecretName, passedEnvironmentNames, passedEnvironmentPrefixes, secretEnvironmentNames, secretNamePattern,
} from './environment.js';
export { hostLaunch, pidNamespaceAvailability, prepareLaunch } from './lazy-exports.js';
export { shellToolsPlugin } from './plugin.js';
export { type BackgroundProcess, killBackgroundProcesses, listBackgroundProcesses } from './process/background-registry.js';
export type { HostLaunch, HostLaunchOptions } from './process/host-launch.js';
export type { PidNamespaceAvailability } from './process/pid-namespace.js';
export { createShellTool, runTerminalCmdTool, type ShellInput, shellInputSchema, type ShellToolOptions } from './run-terminal-cmd.js';
export type { BubblewrapOptions } from './sandbox/bubblewrap.js';
export { defaultSandboxBackend } from './sandbox/default-backend.js';
export { bubblewrapInstallHint } from './sandbox/install-hint.js';
export { createBubblewrapBackend } from './sandbox/lazy-bubblewrap.js';
export type { SandboxBackend, SandboxedCommand, SandboxProfile, SandboxWrapOptions } from './sandbox/sandbox-backend.js';
export type { LaunchOptions, PreparedLaunch } from './sandbox/sandboxed-launch.js';
export { shellCommandLine } from './sandbox/shell-command-line.js';
// For other tools that run workspace programs (read_lints): the same masks and isolation settings as the shell.
export { readDeniedPaths } from './denied-paths.js';
export { readShellSettings } from './shell-settings.js';
export { type ProcessIsolation, shellDefaults, type ShellToolSettings } from './shell-settings.js';
