export { commandEnvironment, type EnvironmentPolicy, isSecretName, secretEnvironmentNames, secretNamePattern } from './environment.js';
export { shellToolsPlugin } from './plugin.js';
export { type BackgroundProcess, killBackgroundProcesses, listBackgroundProcesses } from './process/background-processes.js';
export { createShellTool, runTerminalCmdTool, type ShellInput, shellInputSchema, type ShellToolOptions } from './run-terminal-cmd.js';
export { bubblewrapInstallHint, type BubblewrapOptions, createBubblewrapBackend } from './sandbox/bubblewrap.js';
export { defaultSandboxBackend } from './sandbox/default-backend.js';
export type { SandboxBackend, SandboxedCommand, SandboxProfile, SandboxWrapOptions } from './sandbox/sandbox-backend.js';
export { shellDefaults, type ShellToolSettings } from './shell-settings.js';
